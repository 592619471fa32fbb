//! What a model is, for memory: its parameter count and, for transformers,
//! the shape the activation and KV-cache formulas need. Presets for the
//! families the lab uses, or read from a Hugging Face `config.json`.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelSpec {
    pub name: String,
    pub params: u64,
    pub arch: Arch,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Arch {
    /// Decoder or encoder transformer.
    Transformer { layers: u32, hidden: u32, heads: u32, kv_heads: u32, intermediate: u32, vocab: u32 },
    /// Convolutional (or other) network: activations come from a measured
    /// per-sample figure (see `activations`), not a layer formula.
    Other { activation_bytes_per_sample: u64 },
}

impl Arch {
    pub fn head_dim(&self) -> u32 {
        match self {
            Arch::Transformer { hidden, heads, .. } => hidden / (*heads).max(1),
            Arch::Other { .. } => 0,
        }
    }
}

// One argument per column of a model card keeps the preset table readable.
#[allow(clippy::too_many_arguments)]
fn transformer(
    name: &str,
    layers: u32,
    hidden: u32,
    heads: u32,
    kv_heads: u32,
    intermediate: u32,
    vocab: u32,
    tied: bool,
) -> ModelSpec {
    let arch = Arch::Transformer { layers, hidden, heads, kv_heads, intermediate, vocab };
    ModelSpec { name: name.to_string(), params: transformer_params(&arch, tied), arch }
}

/// Parameters of a Llama-style decoder: embeddings (twice if untied), per layer
/// attention (q, o: h x h; k, v: h x kv_heads*head_dim), gated MLP (3 x h x
/// intermediate) and two norms, then a final norm. Llama-2-7B gives 6.74 B.
pub fn transformer_params(arch: &Arch, tied_embeddings: bool) -> u64 {
    let Arch::Transformer { layers, hidden, heads, kv_heads, intermediate, vocab } = *arch else { return 0 };
    let (h, l, v, i) = (hidden as u64, layers as u64, vocab as u64, intermediate as u64);
    let kv = kv_heads as u64 * (hidden / heads.max(1)) as u64;
    let embeddings = v * h * if tied_embeddings { 1 } else { 2 };
    let per_layer = 2 * h * h + 2 * h * kv + 3 * h * i + 2 * h;
    embeddings + l * per_layer + h
}

/// The presets, by the name shown in the calculator.
pub fn presets() -> Vec<ModelSpec> {
    vec![
        transformer("Llama-2-7B", 32, 4096, 32, 32, 11008, 32000, false),
        transformer("Llama-2-13B", 40, 5120, 40, 40, 13824, 32000, false),
        transformer("Llama-2-70B", 80, 8192, 64, 8, 28672, 32000, false),
        transformer("Llama-3-8B", 32, 4096, 32, 8, 14336, 128256, false),
        transformer("Llama-3-70B", 80, 8192, 64, 8, 28672, 128256, false),
        transformer("Mistral-7B", 32, 4096, 32, 8, 14336, 32000, false),
        transformer("Qwen2.5-0.5B", 24, 896, 14, 2, 4864, 151936, true),
        transformer("Qwen2.5-7B", 28, 3584, 28, 4, 18944, 152064, false),
        transformer("Qwen2.5-14B", 48, 5120, 40, 8, 13824, 152064, false),
        transformer("Qwen2.5-72B", 80, 8192, 64, 8, 29568, 152064, false),
        // ViT-H/14 (Dosovitskiy et al. 2021): 32 layers, width 1280, 16 heads, MLP 5120; 632 M parameters.
        ModelSpec {
            name: "ViT-H/14".into(),
            params: 632_000_000,
            arch: Arch::Transformer { layers: 32, hidden: 1280, heads: 16, kv_heads: 16, intermediate: 5120, vocab: 0 },
        },
        // ResNet-50 (He et al. 2016): 25.6 M parameters. Per-sample activations
        // are a placeholder to be replaced by a measurement (see `activations`).
        ModelSpec {
            name: "ResNet-50".into(),
            params: 25_600_000,
            arch: Arch::Other { activation_bytes_per_sample: 100 << 20 },
        },
        // The lab's driving model (Hydra-MDP, seed 002): 83 M parameters.
        ModelSpec {
            name: "Driving model 83M".into(),
            params: 83_000_000,
            arch: Arch::Other { activation_bytes_per_sample: 400 << 20 },
        },
    ]
}

pub fn preset(name: &str) -> Option<ModelSpec> {
    presets().into_iter().find(|m| m.name.eq_ignore_ascii_case(name))
}

/// Reads the fields of a Hugging Face `config.json` that set memory.
pub fn from_hf_config(json: &str) -> Result<ModelSpec, String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("not valid JSON: {e}"))?;
    let field = |names: &[&str]| names.iter().find_map(|n| value.get(*n).and_then(|v| v.as_u64()));
    let need = |names: &[&str]| field(names).ok_or_else(|| format!("config.json has no `{}`", names[0]));
    let hidden = need(&["hidden_size", "n_embd", "d_model"])?;
    let layers = need(&["num_hidden_layers", "n_layer", "num_layers"])?;
    let heads = need(&["num_attention_heads", "n_head"])?;
    let kv_heads = field(&["num_key_value_heads"]).unwrap_or(heads);
    let intermediate = field(&["intermediate_size", "n_inner", "ffn_dim"]).unwrap_or(4 * hidden);
    let vocab = field(&["vocab_size"]).unwrap_or(0);
    let tied = value.get("tie_word_embeddings").and_then(|v| v.as_bool()).unwrap_or(false);
    let fits_u32 = |n: u64, what: &str| {
        u32::try_from(n)
            .ok()
            .filter(|&n| n > 0 || what == "vocab_size")
            .ok_or(format!("`{what}` = {n} is out of range"))
    };
    if heads == 0 || hidden % heads != 0 {
        return Err(format!("hidden_size {hidden} is not a multiple of num_attention_heads {heads}"));
    }
    let arch = Arch::Transformer {
        layers: fits_u32(layers, "num_hidden_layers")?,
        hidden: fits_u32(hidden, "hidden_size")?,
        heads: fits_u32(heads, "num_attention_heads")?,
        kv_heads: fits_u32(kv_heads, "num_key_value_heads")?,
        intermediate: fits_u32(intermediate, "intermediate_size")?,
        vocab: fits_u32(vocab, "vocab_size")?,
    };
    let name = value.get("_name_or_path").and_then(|v| v.as_str()).unwrap_or("config.json").to_string();
    Ok(ModelSpec { name, params: transformer_params(&arch, tied), arch })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_counts_match_the_published_sizes() {
        // Published sizes: Llama-2 paper (7B = 6.74 B, 13B = 13.0 B, 70B = 69 B), Llama-3 8B = 8.03 B,
        // Mistral 7B = 7.24 B, Qwen2.5-7B = 7.61 B.
        let b = |name: &str| preset(name).unwrap().params as f64 / 1e9;
        assert!((b("Llama-2-7B") - 6.74).abs() < 0.01, "{}", b("Llama-2-7B"));
        assert!((b("Llama-2-13B") - 13.02).abs() < 0.02, "{}", b("Llama-2-13B"));
        assert!((b("Llama-2-70B") - 68.98).abs() < 0.05, "{}", b("Llama-2-70B"));
        assert!((b("Llama-3-8B") - 8.03).abs() < 0.01, "{}", b("Llama-3-8B"));
        assert!((b("Mistral-7B") - 7.24).abs() < 0.01, "{}", b("Mistral-7B"));
        assert!((b("Qwen2.5-7B") - 7.62).abs() < 0.02, "{}", b("Qwen2.5-7B"));
    }

    #[test]
    fn reads_a_hugging_face_config() {
        let json = r#"{"_name_or_path": "meta-llama/Llama-2-7b-hf", "hidden_size": 4096, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 11008, "vocab_size": 32000,
            "tie_word_embeddings": false}"#;
        let spec = from_hf_config(json).unwrap();
        assert_eq!(spec.params, preset("Llama-2-7B").unwrap().params);
        assert_eq!(spec.arch.head_dim(), 128);
        assert!(from_hf_config("{").unwrap_err().contains("not valid JSON"));
        assert!(from_hf_config(r#"{"hidden_size": 10}"#).unwrap_err().contains("num_hidden_layers"));
        assert!(from_hf_config(r#"{"hidden_size": 10, "num_hidden_layers": 2, "num_attention_heads": 3}"#).is_err());
    }
}
