//! Every input of the calculator as a named field with a text value: the one
//! description that the web form, the shareable URL, the CLI flags and the
//! TOML file all use. Setting a field validates it and explains a bad value;
//! nothing here panics on NaN, zero, negative or huge input.

mod access;

use super::hardware::{gpu, GPUS};
use super::model::{preset, presets};
use super::Plan;
use serde::Serialize;

pub use access::{get, set};

/// A field that did not take its value, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub key: String,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Model,
    Training,
    Gpu,
    Host,
}

#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// One of the listed values.
    Choice(fn() -> Vec<String>),
    Bool,
    /// A number in [min, max]; `integer` refuses fractions.
    Number {
        min: f64,
        max: f64,
        integer: bool,
    },
}

#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub key: &'static str,
    pub label: &'static str,
    pub help: &'static str,
    pub section: Section,
    pub kind: Kind,
}

const fn number(min: f64, max: f64) -> Kind {
    Kind::Number { min, max, integer: false }
}

const fn integer(min: f64, max: f64) -> Kind {
    Kind::Number { min, max, integer: true }
}

fn model_names() -> Vec<String> {
    presets().into_iter().map(|m| m.name).chain(["custom".to_string()]).collect()
}
fn gpu_names() -> Vec<String> {
    GPUS.iter().map(|g| g.name.to_string()).chain(["custom".to_string()]).collect()
}
fn workloads() -> Vec<String> {
    vec!["training".into(), "inference".into()]
}
fn dtypes() -> Vec<String> {
    ["fp32", "bf16", "int8", "int4"].map(String::from).to_vec()
}
fn optimizers() -> Vec<String> {
    ["adam", "adam-8bit", "adafactor", "sgd-momentum", "sgd"].map(String::from).to_vec()
}
fn checkpointing() -> Vec<String> {
    ["none", "selective", "full"].map(String::from).to_vec()
}
fn shardings() -> Vec<String> {
    ["ddp", "zero1", "zero2", "zero3"].map(String::from).to_vec()
}

pub const FIELDS: [Field; 39] = [
    Field {
        key: "model",
        label: "Model",
        help: "a preset, or custom to give the shape yourself",
        section: Section::Model,
        kind: Kind::Choice(model_names),
    },
    Field {
        key: "params",
        label: "Parameters",
        help: "e.g. 7B, 83M, 6.7e9",
        section: Section::Model,
        kind: number(1.0, 1e13),
    },
    Field {
        key: "layers",
        label: "Layers",
        help: "transformer layers (0: not a transformer)",
        section: Section::Model,
        kind: integer(0.0, 1000.0),
    },
    Field { key: "hidden", label: "Hidden size", help: "h", section: Section::Model, kind: integer(1.0, 1_000_000.0) },
    Field { key: "heads", label: "Attention heads", help: "a", section: Section::Model, kind: integer(1.0, 10_000.0) },
    Field {
        key: "kv_heads",
        label: "KV heads",
        help: "fewer than heads with grouped-query attention",
        section: Section::Model,
        kind: integer(1.0, 10_000.0),
    },
    Field {
        key: "intermediate",
        label: "MLP size",
        help: "intermediate_size",
        section: Section::Model,
        kind: integer(1.0, 10_000_000.0),
    },
    Field {
        key: "act_mib",
        label: "Activations per sample (MiB)",
        help: "for non-transformers: measure max_memory_allocated at two batch sizes",
        section: Section::Model,
        kind: number(0.0, 1e7),
    },
    Field {
        key: "workload",
        label: "Workload",
        help: "training keeps gradients and optimizer state",
        section: Section::Training,
        kind: Kind::Choice(workloads),
    },
    Field {
        key: "dtype",
        label: "Weights dtype",
        help: "16-bit covers bf16 and fp16; int8/int4 for quantised (QLoRA) bases",
        section: Section::Training,
        kind: Kind::Choice(dtypes),
    },
    Field {
        key: "master",
        label: "fp32 master weights",
        help: "mixed precision keeps an fp32 copy (it does not halve weights)",
        section: Section::Training,
        kind: Kind::Bool,
    },
    Field {
        key: "optimizer",
        label: "Optimizer",
        help: "Adam/AdamW keep two fp32 moments",
        section: Section::Training,
        kind: Kind::Choice(optimizers),
    },
    Field {
        key: "ckpt",
        label: "Activation checkpointing",
        help: "selective recomputes attention; full recomputes each layer",
        section: Section::Training,
        kind: Kind::Choice(checkpointing),
    },
    Field {
        key: "flash",
        label: "FlashAttention",
        help: "never stores the s x s attention matrix",
        section: Section::Training,
        kind: Kind::Bool,
    },
    Field {
        key: "micro_batch",
        label: "Micro batch per GPU",
        help: "also the DataLoader batch",
        section: Section::Training,
        kind: integer(1.0, 65_536.0),
    },
    Field {
        key: "seq_len",
        label: "Sequence length",
        help: "tokens per sample (patches+1 for ViT)",
        section: Section::Training,
        kind: integer(1.0, 10_000_000.0),
    },
    Field {
        key: "sharding",
        label: "Sharding",
        help: "ZeRO-3 is FSDP FULL_SHARD; ZeRO-2 is SHARD_GRAD_OP",
        section: Section::Training,
        kind: Kind::Choice(shardings),
    },
    Field {
        key: "gpus",
        label: "GPUs sharing the state",
        help: "data-parallel degree N",
        section: Section::Training,
        kind: integer(1.0, 1_000_000.0),
    },
    Field {
        key: "offload_params",
        label: "Offload parameters to CPU",
        help: "ZeRO-3 / FSDP param offload",
        section: Section::Training,
        kind: Kind::Bool,
    },
    Field {
        key: "offload_optimizer",
        label: "Offload optimizer to CPU",
        help: "ZeRO-Offload / FSDP optimizer offload",
        section: Section::Training,
        kind: Kind::Bool,
    },
    Field {
        key: "lora_rank",
        label: "LoRA rank",
        help: "0 trains every weight; with int4 weights this is QLoRA",
        section: Section::Training,
        kind: integer(0.0, 65_536.0),
    },
    Field {
        key: "kv_batch",
        label: "Concurrent sequences (inference)",
        help: "whose KV cache is kept",
        section: Section::Training,
        kind: integer(0.0, 1_000_000.0),
    },
    Field {
        key: "vllm_util",
        label: "vLLM gpu_memory_utilization",
        help: "RL rollout on the same GPU; 0 for none",
        section: Section::Gpu,
        kind: number(0.0, 1.0),
    },
    Field { key: "gpu", label: "GPU", help: "nominal memory", section: Section::Gpu, kind: Kind::Choice(gpu_names) },
    Field {
        key: "gpu_mem_gib",
        label: "GPU memory (GiB)",
        help: "for a custom GPU",
        section: Section::Gpu,
        kind: number(0.1, 100_000.0),
    },
    Field {
        key: "context_gib",
        label: "CUDA context (GiB)",
        help: "typically 0.3-1 per process",
        section: Section::Gpu,
        kind: number(0.0, 64.0),
    },
    Field {
        key: "frag_pct",
        label: "Fragmentation margin (%)",
        help: "allocator slack on top of the rest",
        section: Section::Gpu,
        kind: number(0.0, 100.0),
    },
    Field {
        key: "ranks",
        label: "Ranks (GPUs) per node",
        help: "processes per node",
        section: Section::Host,
        kind: integer(1.0, 1024.0),
    },
    Field {
        key: "main_gib",
        label: "Main process (GiB)",
        help: "RSS of one rank's Python process",
        section: Section::Host,
        kind: number(0.0, 100_000.0),
    },
    Field {
        key: "workers",
        label: "DataLoader workers per rank",
        help: "num_workers",
        section: Section::Host,
        kind: integer(0.0, 1024.0),
    },
    Field {
        key: "worker_gib",
        label: "Worker memory (GiB)",
        help: "private memory of one worker",
        section: Section::Host,
        kind: number(0.0, 100_000.0),
    },
    Field {
        key: "prefetch",
        label: "prefetch_factor",
        help: "batches in flight per worker",
        section: Section::Host,
        kind: integer(0.0, 1024.0),
    },
    Field {
        key: "sample_mib",
        label: "Sample size (MiB)",
        help: "one decoded, augmented sample",
        section: Section::Host,
        kind: number(0.0, 1e7),
    },
    Field {
        key: "persistent",
        label: "persistent_workers",
        help: "workers outlive the epoch",
        section: Section::Host,
        kind: Kind::Bool,
    },
    Field {
        key: "val_workers",
        label: "Validation workers per rank",
        help: "started at the end of each epoch",
        section: Section::Host,
        kind: integer(0.0, 1024.0),
    },
    Field {
        key: "val_data_gib",
        label: "Validation load per rank (GiB)",
        help: "what starting validation loads",
        section: Section::Host,
        kind: number(0.0, 100_000.0),
    },
    Field {
        key: "pinned_gib",
        label: "Pinned buffers per rank (GiB)",
        help: "page-locked memory",
        section: Section::Host,
        kind: number(0.0, 100_000.0),
    },
    Field {
        key: "mem_gib",
        label: "SLURM --mem per node (GiB)",
        help: "0: not set",
        section: Section::Host,
        kind: number(0.0, 1e7),
    },
    Field {
        key: "node_gib",
        label: "Node RAM (GiB)",
        help: "physical memory of one node",
        section: Section::Host,
        kind: number(0.1, 1e7),
    },
];

pub fn all_fields() -> impl Iterator<Item = &'static Field> {
    FIELDS.iter()
}

pub fn field(key: &str) -> Option<&'static Field> {
    all_fields().find(|f| f.key == key)
}

/// Parses a count or size written as `7B`, `83M`, `6.7e9`, `1,000`.
pub fn parse_number(text: &str) -> Option<f64> {
    let t = text.trim().replace(['_', ','], "");
    let (digits, scale) = match t.chars().last()? {
        'k' | 'K' => (&t[..t.len() - 1], 1e3),
        'm' | 'M' => (&t[..t.len() - 1], 1e6),
        'b' | 'B' | 'g' | 'G' => (&t[..t.len() - 1], 1e9),
        't' | 'T' => (&t[..t.len() - 1], 1e12),
        _ => (t.as_str(), 1.0),
    };
    let value = digits.trim().parse::<f64>().ok()? * scale;
    value.is_finite().then_some(value)
}

/// Applies `key = value` pairs in order (model and GPU presets first, so a
/// later field can adjust them). Good values are kept; each bad one is reported.
pub fn apply(plan: &mut Plan, pairs: &[(String, String)]) -> Vec<FieldError> {
    let mut ordered: Vec<&(String, String)> = pairs.iter().collect();
    ordered.sort_by_key(|(k, _)| !matches!(k.as_str(), "model" | "gpu"));
    ordered
        .into_iter()
        .filter_map(|(key, value)| set(plan, key, value).err().map(|message| FieldError { key: key.clone(), message }))
        .collect()
}

/// Fields a preset already determines: a model preset gives the shape, a GPU preset its memory.
fn implied(plan: &Plan, key: &str) -> bool {
    let model_preset = preset(&plan.gpu.model.name).is_some();
    let shape = matches!(key, "params" | "layers" | "hidden" | "heads" | "kv_heads" | "intermediate" | "act_mib");
    (model_preset && shape) || (key == "gpu_mem_gib" && gpu(&plan.gpu_name).is_some())
}

/// The pairs that differ from the default plan: a short, shareable state.
pub fn diff_pairs(plan: &Plan) -> Vec<(&'static str, String)> {
    let base = Plan::default();
    all_fields()
        .filter(|f| !implied(plan, f.key) && get(plan, f.key) != get(&base, f.key))
        .map(|f| (f.key, get(plan, f.key)))
        .collect()
}
