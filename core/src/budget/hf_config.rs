//! A Hugging Face `config.json` as calculator fields. The common families'
//! keys are read (Llama, Mistral, Qwen2, Gemma, Phi, GPT-2, GPT-NeoX, T5,
//! ViT, Mixtral-style experts), the parameter count is computed for the
//! family's layout, and the values go through the same checks as typed ones,
//! so the link the page then writes always loads. Keys that would change
//! memory but that the calculator cannot use are named.

use super::fields::{self, FieldError};
use super::model::{Layout, Shape};
use super::Plan;
use serde_json::{Map, Value};
use std::cell::RefCell;

/// What a config.json gives the calculator.
#[derive(Clone, Debug, PartialEq)]
pub struct HfImport {
    /// `_name_or_path`, else the architecture.
    pub name: String,
    /// How the keys were read ("Llama-style decoder", "T5 encoder-decoder", ...).
    pub family: &'static str,
    pub params: u64,
    /// Calculator fields and their values, each with the config key it came from.
    pub values: Vec<Imported>,
    /// Keys present that the calculator could not use.
    pub unused: Vec<String>,
    /// What the reading assumed.
    pub notes: Vec<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    pub field: &'static str,
    pub value: String,
    pub from: &'static str,
}

/// Keys that do not change memory (token ids, dropout, norms' epsilon, rotary
/// settings, generation defaults, bookkeeping).
const IRRELEVANT: &[&str] = &[
    "_name_or_path",
    "architectures",
    "model_type",
    "auto_map",
    "transformers_version",
    "torch_dtype",
    "use_cache",
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "unk_token_id",
    "sep_token_id",
    "decoder_start_token_id",
    "initializer_range",
    "initializer_factor",
    "rms_norm_eps",
    "layer_norm_eps",
    "layer_norm_epsilon",
    "hidden_act",
    "hidden_activation",
    "activation_function",
    "dense_act_fn",
    "rope_theta",
    "rope_scaling",
    "rotary_emb_base",
    "rotary_pct",
    "partial_rotary_factor",
    "max_position_embeddings",
    "n_ctx",
    "attention_dropout",
    "hidden_dropout",
    "hidden_dropout_prob",
    "attention_probs_dropout_prob",
    "classifier_dropout",
    "dropout_rate",
    "resid_pdrop",
    "embd_pdrop",
    "attn_pdrop",
    "summary_type",
    "summary_use_proj",
    "summary_activation",
    "summary_proj_to_labels",
    "summary_first_dropout",
    "task_specific_params",
    "output_past",
    "output_router_logits",
    "router_aux_loss_coef",
    "router_jitter_noise",
    "use_parallel_residual",
    "pretraining_tp",
    "max_window_layers",
    "use_sliding_window",
    "relative_attention_max_distance",
    "is_encoder_decoder",
    "encoder_stride",
    "problem_type",
    "label2id",
    "gradient_checkpointing",
    "scale_attn_weights",
    "scale_attn_by_inverse_layer_idx",
    "reorder_and_upcast_attn",
    "tokenizer_class",
    "use_bfloat16",
    "finetuning_task",
    "pruned_heads",
    "torchscript",
    "output_attentions",
    "output_hidden_states",
    "is_decoder",
    "use_mrope",
    "max_length",
    "num_beams",
    "early_stopping",
    "length_penalty",
    "no_repeat_ngram_size",
    "min_length",
    "diversity_penalty",
    "attn_logit_softcapping",
    "final_logit_softcapping",
    "query_pre_attn_scalar",
    "qk_layernorm",
    "tie_encoder_decoder",
    "n_positions",
];

/// The config's keys, remembering which were read.
struct Reader<'a> {
    map: &'a Map<String, Value>,
    used: RefCell<Vec<&'static str>>,
}

impl Reader<'_> {
    fn get(&self, key: &'static str) -> Option<&Value> {
        let value = self.map.get(key).filter(|v| !v.is_null())?;
        self.used.borrow_mut().push(key);
        Some(value)
    }

    /// The first of `keys` present, as a whole number, with the key it came from.
    fn number(&self, keys: &[&'static str]) -> Option<(&'static str, u64)> {
        keys.iter().find_map(|k| self.get(k).and_then(Value::as_u64).map(|n| (*k, n)))
    }

    fn need(&self, keys: &[&'static str]) -> Result<(&'static str, u64), String> {
        self.number(keys).ok_or_else(|| format!("config.json has no `{}`", keys[0]))
    }

    fn flag(&self, key: &'static str) -> Option<bool> {
        self.get(key).and_then(Value::as_bool)
    }

    fn text(&self, key: &'static str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }
}

/// Reads a config.json. Errors name what is missing or malformed.
pub fn read(json: &str) -> Result<HfImport, String> {
    let value: Value = serde_json::from_str(json).map_err(|e| format!("not valid JSON: {e}"))?;
    let map = value.as_object().ok_or("config.json must be a JSON object")?;
    let r = Reader { map, used: RefCell::new(Vec::new()) };
    let model_type = r.text("model_type").unwrap_or_default().to_ascii_lowercase();
    let mut notes = Vec::new();
    let mut values = Vec::new();
    let (family, layout) = match model_type.as_str() {
        "gpt2" => ("GPT-2", gpt2(&r, &mut values)?),
        "t5" | "mt5" | "umt5" => {
            notes.push("encoder and decoder layers are counted as one stack for activations and KV cache");
            ("T5 encoder-decoder", t5(&r, &mut values)?)
        }
        "vit" => ("ViT", vit(&r, &mut values)?),
        "gpt_neox" => ("GPT-NeoX", biased(&r, &mut values, 2, false)?),
        "phi" => ("Phi", biased(&r, &mut values, 1, true)?),
        _ => ("Llama-style decoder", decoder(&r, &mut values, &model_type)?),
    };
    let params = layout.params().ok_or("the parameter count these sizes give does not fit in 64 bits")?;
    values.push(Imported { field: "params", value: params.to_string(), from: "the sizes above" });
    let name = r
        .text("_name_or_path")
        .map(str::to_string)
        .or_else(|| map.get("architectures").and_then(|a| a[0].as_str()).map(str::to_string))
        .unwrap_or_else(|| "config.json".into());
    Ok(HfImport { name, family, params, values, unused: unused(&r), notes })
}

/// Applies an import to the plan with the checks typed values get; on any
/// refusal the plan is unchanged and each message names the config key.
pub fn apply(plan: &mut Plan, import: &HfImport) -> Result<(), Vec<String>> {
    let mut trial = plan.clone();
    // "custom" first, so a preset's name does not stay on a different shape.
    let pairs: Vec<(String, String)> = std::iter::once(("model".to_string(), "custom".to_string()))
        .chain(import.values.iter().map(|v| (v.field.to_string(), v.value.clone())))
        .collect();
    let rejected = fields::apply(&mut trial, &pairs);
    if rejected.is_empty() {
        *plan = trial;
        return Ok(());
    }
    let from =
        |e: &FieldError| import.values.iter().find(|v| e.key.split(", ").any(|k| k == v.field)).map_or("", |v| v.from);
    Err(rejected.shown.iter().map(|e| format!("`{}` ({}): {}", from(e), e.key, e.message)).collect())
}

fn push(values: &mut Vec<Imported>, field: &'static str, (from, value): (&'static str, u64)) -> u32 {
    values.push(Imported { field, value: value.to_string(), from });
    // Out-of-range values are refused when applied; the count just must not wrap meanwhile.
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// The attention and MLP sizes most configs name alike.
fn core_shape(r: &Reader, values: &mut Vec<Imported>, ffn: &[&'static str], default_ffn: u64) -> Result<Shape, String> {
    let hidden = push(values, "hidden", r.need(&["hidden_size", "n_embd", "d_model"])?);
    let layers = push(values, "layers", r.need(&["num_hidden_layers", "n_layer"])?);
    let heads_key = r.need(&["num_attention_heads", "n_head"])?;
    let heads = push(values, "heads", heads_key);
    let kv_heads =
        push(values, "kv_heads", r.number(&["num_key_value_heads"]).unwrap_or(("num_attention_heads", heads_key.1)));
    let head_dim = match r.number(&["head_dim"]) {
        Some(given) => push(values, "head_dim", given),
        None if heads > 0 && hidden.is_multiple_of(heads) => {
            push(values, "head_dim", ("hidden_size / heads", (hidden / heads) as u64))
        }
        None => return Err(format!("hidden size {hidden} is not a multiple of {heads} attention heads")),
    };
    let intermediate = push(values, "intermediate", r.number(ffn).unwrap_or(("4 x hidden_size", default_ffn)));
    let vocab = push(values, "vocab", r.number(&["vocab_size"]).unwrap_or(("no vocab_size", 0)));
    let experts = push(values, "experts", r.number(&["num_local_experts", "num_experts"]).unwrap_or(("dense", 1)));
    let active = r.number(&["num_experts_per_tok", "num_experts_per_token"]).unwrap_or(("dense", 1));
    let active_experts = push(values, "active_experts", active);
    Ok(Shape { layers, hidden, heads, kv_heads, head_dim, intermediate, vocab, experts, active_experts })
}

/// Llama, Mistral, Qwen2, Gemma, Phi-3 and Mixtral: gated MLP, RMSNorm.
fn decoder(r: &Reader, values: &mut Vec<Imported>, model_type: &str) -> Result<Layout, String> {
    let hidden = r.number(&["hidden_size"]).map_or(0, |(_, h)| h);
    let shape = core_shape(r, values, &["intermediate_size"], 4 * hidden)?;
    // Gemma ties its embeddings by default; Llama, Mistral and Qwen2 do not.
    let tied = r.flag("tie_word_embeddings").unwrap_or(model_type.starts_with("gemma"));
    let qkv_bias = r.flag("attention_bias").unwrap_or(model_type.starts_with("qwen2"));
    let mlp_bias = r.flag("mlp_bias").unwrap_or(false);
    Ok(Layout {
        qkv_bias,
        out_bias: qkv_bias && !model_type.starts_with("qwen2"),
        mlp_bias,
        ..Layout::llama(shape, tied)
    })
}

/// GPT-NeoX and Phi(-2): LayerNorm, biases everywhere, a plain MLP.
fn biased(r: &Reader, values: &mut Vec<Imported>, norms_per_layer: u32, lm_head_bias: bool) -> Result<Layout, String> {
    let hidden = r.number(&["hidden_size"]).map_or(0, |(_, h)| h);
    let shape = core_shape(r, values, &["intermediate_size"], 4 * hidden)?;
    let bias = r.flag("attention_bias").unwrap_or(true);
    let tied = r.flag("tie_word_embeddings").unwrap_or(false);
    Ok(Layout {
        gated_mlp: false,
        qkv_bias: bias,
        out_bias: bias,
        mlp_bias: true,
        layer_norm: true,
        norms_per_layer,
        lm_head_bias,
        ..Layout::llama(shape, tied)
    })
}

/// GPT-2: learned positions, fused biased projections, tied embeddings.
fn gpt2(r: &Reader, values: &mut Vec<Imported>) -> Result<Layout, String> {
    let hidden = r.number(&["n_embd"]).map_or(0, |(_, h)| h);
    let shape = core_shape(r, values, &["n_inner"], 4 * hidden)?;
    let positions = r.number(&["n_positions"]).map_or(1024, |(_, n)| n);
    let tied = r.flag("tie_word_embeddings").unwrap_or(true);
    Ok(Layout { positions, ..biased_layout(shape, tied) })
}

fn biased_layout(shape: Shape, tied: bool) -> Layout {
    Layout {
        gated_mlp: false,
        qkv_bias: true,
        out_bias: true,
        mlp_bias: true,
        layer_norm: true,
        ..Layout::llama(shape, tied)
    }
}

/// T5: relative position biases in the first layer of each stack, RMSNorm,
/// a decoder with cross-attention; gated MLP from T5 v1.1 on.
fn t5(r: &Reader, values: &mut Vec<Imported>) -> Result<Layout, String> {
    let hidden = push(values, "hidden", r.need(&["d_model"])?);
    let encoder = r.need(&["num_layers"])?;
    let decoder = r.number(&["num_decoder_layers"]).unwrap_or(encoder);
    let layers = push(values, "layers", ("num_layers + num_decoder_layers", encoder.1.saturating_add(decoder.1)));
    let heads_key = r.need(&["num_heads"])?;
    let heads = push(values, "heads", heads_key);
    let kv_heads = push(values, "kv_heads", heads_key);
    let head_dim = push(values, "head_dim", r.need(&["d_kv"])?);
    let intermediate = push(values, "intermediate", r.need(&["d_ff"])?);
    let vocab = push(values, "vocab", r.need(&["vocab_size"])?);
    let buckets = r.number(&["relative_attention_num_buckets"]).map_or(32, |(_, b)| b);
    let gated =
        r.flag("is_gated_act").unwrap_or(false) || r.text("feed_forward_proj").is_some_and(|f| f.starts_with("gated"));
    let tied = r.flag("tie_word_embeddings").unwrap_or(true);
    let shape = Shape { layers, hidden, heads, kv_heads, head_dim, intermediate, vocab, experts: 1, active_experts: 1 };
    Ok(Layout {
        gated_mlp: gated,
        decoder_layers: u32::try_from(decoder.1).unwrap_or(u32::MAX),
        extra: 2 * buckets * heads as u64,
        ..Layout::llama(shape, tied)
    })
}

/// ViT: patch embedding, class token and learned positions; the sequence is
/// the patches plus the class token.
fn vit(r: &Reader, values: &mut Vec<Imported>) -> Result<Layout, String> {
    let hidden = r.number(&["hidden_size"]).map_or(0, |(_, h)| h);
    let mut shape = core_shape(r, values, &["intermediate_size"], 4 * hidden)?;
    shape.vocab = 0;
    let image = r.number(&["image_size"]).map_or(224, |(_, n)| n);
    let patch = r.number(&["patch_size"]).map_or(16, |(_, n)| n).max(1);
    let channels = r.number(&["num_channels"]).map_or(3, |(_, n)| n);
    let qkv_bias = r.flag("qkv_bias").unwrap_or(true);
    let positions = (image / patch).saturating_pow(2).saturating_add(1);
    values.push(Imported { field: "seq_len", value: positions.to_string(), from: "(image_size / patch_size)² + 1" });
    let h = hidden;
    let patch_embedding = channels.saturating_mul(patch * patch).saturating_mul(h).saturating_add(h);
    let classifier = match r.map.get("id2label").and_then(Value::as_object) {
        Some(labels) => {
            r.used.borrow_mut().push("id2label");
            h.saturating_add(1).saturating_mul(labels.len() as u64)
        }
        // ViTModel: a pooler, a dense layer over the class token.
        None => h.saturating_mul(h).saturating_add(h),
    };
    Ok(Layout {
        positions,
        qkv_bias,
        extra: patch_embedding.saturating_add(h).saturating_add(classifier),
        ..biased_layout(shape, true)
    })
}

/// Keys present, not null, read by no family and not known to be irrelevant.
fn unused(r: &Reader) -> Vec<String> {
    let used = r.used.borrow();
    let sliding_off = r.map.get("use_sliding_window").and_then(Value::as_bool) == Some(false);
    r.map
        .iter()
        .filter(|(k, v)| !v.is_null() && !used.contains(&k.as_str()) && !IRRELEVANT.contains(&k.as_str()))
        .filter(|(k, _)| !(k.as_str() == "sliding_window" && sliding_off))
        .map(|(k, _)| match k.as_str() {
            "sliding_window" => "sliding_window (the KV cache is counted for the whole sequence)".into(),
            "quantization_config" => "quantization_config (choose the weights dtype yourself)".into(),
            other => fields::cut(other, 40),
        })
        .collect()
}

#[cfg(test)]
mod tests;
