//! What a model is, for memory: its parameter count and, for transformers,
//! the shape the activation and KV-cache formulas need. Presets for the
//! families the lab uses; `hf_config` reads a Hugging Face `config.json`.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelSpec {
    pub name: String,
    pub params: u64,
    pub arch: Arch,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Arch {
    /// Decoder, encoder or encoder-decoder transformer.
    Transformer(Shape),
    /// Convolutional (or other) network: activations come from a measured
    /// per-sample figure (see `activations`), not a layer formula.
    Other { activation_bytes_per_sample: u64 },
}

/// A transformer's dimensions, as a Hugging Face config gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shape {
    /// All layers (encoder and decoder of an encoder-decoder).
    pub layers: u32,
    pub hidden: u32,
    pub heads: u32,
    /// Fewer than `heads` with grouped-query attention.
    pub kv_heads: u32,
    /// Per attention head: `hidden / heads` unless the config says otherwise
    /// (Gemma's 256, T5's `d_kv`).
    pub head_dim: u32,
    pub intermediate: u32,
    pub vocab: u32,
    /// Mixture of experts: MLP copies per layer (1 for a dense model).
    pub experts: u32,
    /// Experts each token runs through (`num_experts_per_tok`).
    pub active_experts: u32,
}

impl Shape {
    /// A dense model whose heads split the hidden size.
    pub fn dense(layers: u32, hidden: u32, heads: u32, kv_heads: u32, intermediate: u32, vocab: u32) -> Shape {
        let head_dim = hidden / heads.max(1);
        Shape { layers, hidden, heads, kv_heads, head_dim, intermediate, vocab, experts: 1, active_experts: 1 }
    }

    /// Width of the query (and attention output) projection.
    pub fn q_width(&self) -> u64 {
        self.heads as u64 * self.head_dim as u64
    }

    /// Width of the key and of the value projection.
    pub fn kv_width(&self) -> u64 {
        self.kv_heads as u64 * self.head_dim as u64
    }

    /// Parameters of the largest single weight (embedding, attention
    /// projection or MLP matrix): the "largest layer" DeepSpeed's ZeRO-3
    /// estimator gathers on one GPU.
    pub fn largest_layer_params(&self) -> u64 {
        let h = self.hidden as u64;
        (self.vocab as u64 * h).max(h * self.q_width()).max(h * self.intermediate as u64)
    }
}

/// The parts of a transformer that set its parameter count beyond its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub shape: Shape,
    pub tied_embeddings: bool,
    /// Learned absolute positions: GPT-2's `n_positions`, a ViT's patches + class token.
    pub positions: u64,
    /// Gate, up and down projections (Llama, T5 v1.1) instead of up and down.
    pub gated_mlp: bool,
    pub qkv_bias: bool,
    /// Bias on the attention output projection.
    pub out_bias: bool,
    pub mlp_bias: bool,
    /// LayerNorm (weight and bias) instead of RMSNorm (weight).
    pub layer_norm: bool,
    pub norms_per_layer: u32,
    pub lm_head_bias: bool,
    /// The decoder's share of `shape.layers` in an encoder-decoder: each adds
    /// cross-attention and a norm, and the decoder has its own final norm.
    pub decoder_layers: u32,
    /// Everything else (a ViT's patch embedding and pooler, T5's relative position biases).
    pub extra: u64,
}

impl Layout {
    /// Llama, Mistral, Gemma and Mixtral: RMSNorm twice per layer, gated MLP, no biases.
    pub fn llama(shape: Shape, tied_embeddings: bool) -> Layout {
        Layout {
            shape,
            tied_embeddings,
            positions: 0,
            gated_mlp: true,
            qkv_bias: false,
            out_bias: false,
            mlp_bias: false,
            layer_norm: false,
            norms_per_layer: 2,
            lm_head_bias: false,
            decoder_layers: 0,
            extra: 0,
        }
    }

    /// The parameter count, or None if it does not fit in 64 bits.
    pub fn params(&self) -> Option<u64> {
        let s = &self.shape;
        let (h, i, e) = (s.hidden as u128, s.intermediate as u128, s.experts.max(1) as u128);
        let (q, kv) = (s.q_width() as u128, s.kv_width() as u128);
        let bias = |on: bool, n: u128| if on { n } else { 0 };
        let attention =
            h * q + bias(self.qkv_bias, q) + 2 * (h * kv + bias(self.qkv_bias, kv)) + q * h + bias(self.out_bias, h);
        let mlp = if self.gated_mlp {
            3 * h * i + bias(self.mlp_bias, 2 * i + h)
        } else {
            2 * h * i + bias(self.mlp_bias, i + h)
        };
        let router = if e > 1 { h * e } else { 0 };
        let norm = if self.layer_norm { 2 * h } else { h };
        let layer = attention + e * mlp + router + self.norms_per_layer as u128 * norm;
        let decoder = self.decoder_layers.min(s.layers) as u128;
        let encoder = s.layers as u128 - decoder;
        let cross = attention + norm;
        let final_norms = if decoder > 0 { 2 * norm } else { norm };
        let vocab = s.vocab as u128;
        let embeddings = vocab * h * if self.tied_embeddings { 1 } else { 2 } + self.positions as u128 * h;
        let total = embeddings
            + bias(self.lm_head_bias, vocab)
            + encoder * layer
            + decoder * (layer + cross)
            + final_norms
            + self.extra as u128;
        u64::try_from(total).ok()
    }
}

fn preset_from(name: &str, layout: Layout) -> ModelSpec {
    // The presets' shapes are small enough that the count always fits.
    ModelSpec { name: name.into(), params: layout.params().unwrap_or(u64::MAX), arch: Arch::Transformer(layout.shape) }
}

/// A Llama-style decoder preset, one argument per column of its model card.
fn llama(name: &str, layers: u32, hidden: u32, heads: u32, kv_heads: u32, intermediate: u32, vocab: u32) -> ModelSpec {
    preset_from(name, Layout::llama(Shape::dense(layers, hidden, heads, kv_heads, intermediate, vocab), false))
}

/// Qwen2's decoder: Llama's with biases on the query, key and value projections.
// One argument per column of a model card keeps the preset table readable.
#[allow(clippy::too_many_arguments)]
fn qwen2(
    name: &str,
    layers: u32,
    hidden: u32,
    heads: u32,
    kv_heads: u32,
    intermediate: u32,
    vocab: u32,
    tied: bool,
) -> ModelSpec {
    let shape = Shape::dense(layers, hidden, heads, kv_heads, intermediate, vocab);
    preset_from(name, Layout { qkv_bias: true, ..Layout::llama(shape, tied) })
}

/// The presets, by the name shown in the calculator.
pub fn presets() -> Vec<ModelSpec> {
    vec![
        llama("Llama-2-7B", 32, 4096, 32, 32, 11008, 32000),
        llama("Llama-2-13B", 40, 5120, 40, 40, 13824, 32000),
        llama("Llama-2-70B", 80, 8192, 64, 8, 28672, 32000),
        llama("Llama-3-8B", 32, 4096, 32, 8, 14336, 128256),
        llama("Llama-3-70B", 80, 8192, 64, 8, 28672, 128256),
        llama("Mistral-7B", 32, 4096, 32, 8, 14336, 32000),
        // Qwen2.5-0.5B ties its embeddings (its config.json `tie_word_embeddings`); the larger ones do not.
        qwen2("Qwen2.5-0.5B", 24, 896, 14, 2, 4864, 151936, true),
        qwen2("Qwen2.5-7B", 28, 3584, 28, 4, 18944, 152064, false),
        qwen2("Qwen2.5-14B", 48, 5120, 40, 8, 13824, 152064, false),
        qwen2("Qwen2.5-72B", 80, 8192, 64, 8, 29568, 152064, false),
        // ViT-H/14 (Dosovitskiy et al. 2021): 32 layers, width 1280, 16 heads, MLP 5120; 632 M parameters.
        ModelSpec {
            name: "ViT-H/14".into(),
            params: 632_000_000,
            arch: Arch::Transformer(Shape::dense(32, 1280, 16, 16, 5120, 0)),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_counts_match_the_published_sizes() {
        // Published sizes: Llama-2 paper (7B = 6.74 B, 13B = 13.0 B, 70B = 69 B), Llama-3 8B = 8.03 B,
        // Mistral 7B = 7.24 B, Qwen2.5-7B = 7.61 B (Qwen2.5 technical report: 7.61 B).
        let b = |name: &str| preset(name).unwrap().params as f64 / 1e9;
        assert_eq!(preset("Llama-2-7B").unwrap().params, 6_738_415_616);
        assert!((b("Llama-2-13B") - 13.02).abs() < 0.02, "{}", b("Llama-2-13B"));
        assert!((b("Llama-2-70B") - 68.98).abs() < 0.05, "{}", b("Llama-2-70B"));
        assert!((b("Llama-3-8B") - 8.03).abs() < 0.01, "{}", b("Llama-3-8B"));
        assert_eq!(preset("Mistral-7B").unwrap().params, 7_241_732_096);
        assert!((b("Qwen2.5-7B") - 7.61).abs() < 0.01, "{}", b("Qwen2.5-7B"));
        assert!((b("Qwen2.5-0.5B") - 0.49).abs() < 0.01, "{}", b("Qwen2.5-0.5B"));
    }

    #[test]
    fn a_count_that_overflows_is_none() {
        let huge = Shape::dense(u32::MAX, u32::MAX, 1, 1, u32::MAX, u32::MAX);
        assert_eq!(Layout::llama(huge, false).params(), None);
    }
}
