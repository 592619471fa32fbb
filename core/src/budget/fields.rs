//! Every input of the calculator as a named field with a text value: the one
//! description that the web form, the shareable URL, the CLI flags and the
//! TOML file all use. Setting a field validates it and explains a bad value;
//! nothing here panics on NaN, zero, negative or huge input.

use super::gpu::{Adapter, Checkpointing, Dtype, Optimizer, Sharding, Workload};
use super::hardware::{gpu, GPUS};
use super::model::{preset, presets, Arch, ModelSpec};
use super::Plan;
use crate::units::{Bytes, GIB, MIB};
use serde::Serialize;

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

fn check_number(f: &Field, text: &str) -> Result<f64, String> {
    let Kind::Number { min, max, integer } = f.kind else { return Err("not a number field".into()) };
    let value = parse_number(text).ok_or_else(|| format!("`{text}` is not a number"))?;
    if value < min || value > max {
        return Err(format!("must be between {} and {}", short(min), short(max)));
    }
    if integer && value.fract() != 0.0 {
        return Err("must be a whole number".into());
    }
    Ok(value)
}

fn short(v: f64) -> String {
    if v >= 1e6 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

fn parse_bool(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        other => Err(format!("`{other}` is not true or false")),
    }
}

fn gib(value: f64) -> Bytes {
    Bytes::from_f64(value * GIB as f64)
}

fn in_gib(b: Bytes) -> String {
    trim_float(b.as_f64() / GIB as f64)
}

fn trim_float(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Sets one field from text. On error the plan is unchanged.
pub fn set(plan: &mut Plan, key: &str, text: &str) -> Result<(), String> {
    let f = field(key).ok_or_else(|| format!("unknown field `{key}`"))?;
    if let Kind::Choice(options) = f.kind {
        let wanted = text.trim();
        let Some(choice) = options().into_iter().find(|o| o.eq_ignore_ascii_case(wanted)) else {
            return Err(format!("`{wanted}` is not one of: {}", options().join(", ")));
        };
        return set_choice(plan, key, &choice);
    }
    if matches!(f.kind, Kind::Bool) {
        let value = parse_bool(text)?;
        let g = &mut plan.gpu;
        match key {
            "master" => g.fp32_master = value,
            "flash" => g.flash_attention = value,
            "offload_params" => g.offload_params = value,
            "offload_optimizer" => g.offload_optimizer = value,
            "persistent" => plan.host.persistent_workers = value,
            _ => return Err(format!("unknown field `{key}`")),
        }
        return Ok(());
    }
    let v = check_number(f, text)?;
    let (g, h) = (&mut plan.gpu, &mut plan.host);
    match key {
        "params" => {
            g.model.params = v.round() as u64;
            g.model.name = "custom".into();
        }
        "layers" | "hidden" | "heads" | "kv_heads" | "intermediate" => set_shape(&mut g.model, key, v as u32)?,
        "act_mib" => {
            g.model.arch = Arch::Other { activation_bytes_per_sample: (v * MIB as f64) as u64 };
            g.model.name = "custom".into();
        }
        "micro_batch" => {
            g.micro_batch = v as u32;
            h.batch_size = v as u32;
        }
        "seq_len" => g.seq_len = v as u32,
        "gpus" => g.gpus = v as u32,
        "lora_rank" => g.adapter = if v == 0.0 { Adapter::Full } else { Adapter::Lora { rank: v as u32 } },
        "kv_batch" => g.kv_batch = v as u32,
        "vllm_util" => g.vllm_utilization = v,
        "gpu_mem_gib" => {
            g.capacity = gib(v);
            plan.gpu_name = "custom".into();
        }
        "context_gib" => g.cuda_context = gib(v),
        "frag_pct" => g.fragmentation = v / 100.0,
        "ranks" => h.ranks_per_node = v as u32,
        "main_gib" => h.main_process = gib(v),
        "workers" => h.workers = v as u32,
        "worker_gib" => h.worker = gib(v),
        "prefetch" => h.prefetch_factor = v as u32,
        "sample_mib" => h.sample = Bytes::from_f64(v * MIB as f64),
        "val_workers" => h.val_workers = v as u32,
        "val_data_gib" => h.val_dataset = gib(v),
        "pinned_gib" => h.pinned = gib(v),
        "mem_gib" => h.slurm_mem = gib(v),
        "node_gib" => h.node_ram = gib(v),
        _ => return Err(format!("unknown field `{key}`")),
    }
    Ok(())
}

fn set_shape(model: &mut ModelSpec, key: &str, value: u32) -> Result<(), String> {
    let (mut layers, mut hidden, mut heads, mut kv_heads, mut intermediate, vocab) = match model.arch {
        Arch::Transformer { layers, hidden, heads, kv_heads, intermediate, vocab } => {
            (layers, hidden, heads, kv_heads, intermediate, vocab)
        }
        Arch::Other { .. } => (0, 4096, 32, 32, 11008, 0),
    };
    match key {
        "layers" => layers = value,
        "hidden" => hidden = value,
        "heads" => heads = value,
        "kv_heads" => kv_heads = value,
        _ => intermediate = value,
    }
    if layers == 0 {
        model.arch = Arch::Other { activation_bytes_per_sample: 0 };
    } else {
        if hidden % heads.max(1) != 0 {
            return Err(format!("hidden size {hidden} is not a multiple of {heads} heads"));
        }
        model.arch = Arch::Transformer { layers, hidden, heads, kv_heads: kv_heads.min(heads), intermediate, vocab };
    }
    model.name = "custom".into();
    Ok(())
}

fn set_choice(plan: &mut Plan, key: &str, choice: &str) -> Result<(), String> {
    let g = &mut plan.gpu;
    match key {
        "model" => {
            if let Some(m) = preset(choice) {
                g.model = m;
            } else {
                g.model.name = "custom".into();
            }
        }
        "gpu" => {
            plan.gpu_name = choice.to_string();
            if let Some(card) = gpu(choice) {
                g.capacity = card.memory;
            }
        }
        "workload" => g.workload = if choice == "inference" { Workload::Inference } else { Workload::Training },
        "dtype" => {
            g.weights = match choice {
                "fp32" => Dtype::Fp32,
                "int8" => Dtype::Int8,
                "int4" => Dtype::Int4,
                _ => Dtype::Bf16,
            }
        }
        "optimizer" => {
            g.optimizer = match choice {
                "adam-8bit" => Optimizer::Adam8bit,
                "adafactor" => Optimizer::Adafactor,
                "sgd-momentum" => Optimizer::SgdMomentum,
                "sgd" => Optimizer::Sgd,
                _ => Optimizer::Adam,
            }
        }
        "ckpt" => {
            g.checkpointing = match choice {
                "selective" => Checkpointing::Selective,
                "full" => Checkpointing::Full,
                _ => Checkpointing::None,
            }
        }
        "sharding" => {
            g.sharding = match choice {
                "zero1" => Sharding::Zero1,
                "zero2" => Sharding::Zero2,
                "zero3" => Sharding::Zero3,
                _ => Sharding::Replicated,
            }
        }
        _ => return Err(format!("unknown field `{key}`")),
    }
    Ok(())
}

/// The text value of a field, as the form shows it and the URL stores it.
pub fn get(plan: &Plan, key: &str) -> String {
    let (g, h) = (&plan.gpu, &plan.host);
    let shape = |pick: fn(u32, u32, u32, u32, u32) -> u32| match g.model.arch {
        Arch::Transformer { layers, hidden, heads, kv_heads, intermediate, .. } => {
            pick(layers, hidden, heads, kv_heads, intermediate).to_string()
        }
        Arch::Other { .. } => "0".into(),
    };
    let on = |b: bool| if b { "true" } else { "false" }.to_string();
    match key {
        "model" => {
            if preset(&g.model.name).is_some() {
                g.model.name.clone()
            } else {
                "custom".into()
            }
        }
        "params" => g.model.params.to_string(),
        "layers" => shape(|l, _, _, _, _| l),
        "hidden" => shape(|_, h, _, _, _| h),
        "heads" => shape(|_, _, a, _, _| a),
        "kv_heads" => shape(|_, _, _, k, _| k),
        "intermediate" => shape(|_, _, _, _, i| i),
        "act_mib" => match g.model.arch {
            Arch::Other { activation_bytes_per_sample } => trim_float(activation_bytes_per_sample as f64 / MIB as f64),
            Arch::Transformer { .. } => "0".into(),
        },
        "workload" => if g.workload == Workload::Inference { "inference" } else { "training" }.into(),
        "dtype" => match g.weights {
            Dtype::Fp32 => "fp32",
            Dtype::Bf16 => "bf16",
            Dtype::Int8 => "int8",
            Dtype::Int4 => "int4",
        }
        .into(),
        "master" => on(g.fp32_master),
        "optimizer" => match g.optimizer {
            Optimizer::Adam => "adam",
            Optimizer::Adam8bit => "adam-8bit",
            Optimizer::Adafactor => "adafactor",
            Optimizer::SgdMomentum => "sgd-momentum",
            Optimizer::Sgd => "sgd",
        }
        .into(),
        "ckpt" => match g.checkpointing {
            Checkpointing::None => "none",
            Checkpointing::Selective => "selective",
            Checkpointing::Full => "full",
        }
        .into(),
        "flash" => on(g.flash_attention),
        "micro_batch" => g.micro_batch.to_string(),
        "seq_len" => g.seq_len.to_string(),
        "sharding" => match g.sharding {
            Sharding::Replicated => "ddp",
            Sharding::Zero1 => "zero1",
            Sharding::Zero2 => "zero2",
            Sharding::Zero3 => "zero3",
        }
        .into(),
        "gpus" => g.gpus.to_string(),
        "offload_params" => on(g.offload_params),
        "offload_optimizer" => on(g.offload_optimizer),
        "lora_rank" => match g.adapter {
            Adapter::Full => 0,
            Adapter::Lora { rank } => rank,
        }
        .to_string(),
        "kv_batch" => g.kv_batch.to_string(),
        "vllm_util" => trim_float(g.vllm_utilization),
        "gpu" => plan.gpu_name.clone(),
        "gpu_mem_gib" => in_gib(g.capacity),
        "context_gib" => in_gib(g.cuda_context),
        "frag_pct" => trim_float(g.fragmentation * 100.0),
        "ranks" => h.ranks_per_node.to_string(),
        "main_gib" => in_gib(h.main_process),
        "workers" => h.workers.to_string(),
        "worker_gib" => in_gib(h.worker),
        "prefetch" => h.prefetch_factor.to_string(),
        "sample_mib" => trim_float(h.sample.as_f64() / MIB as f64),
        "persistent" => on(h.persistent_workers),
        "val_workers" => h.val_workers.to_string(),
        "val_data_gib" => in_gib(h.val_dataset),
        "pinned_gib" => in_gib(h.pinned),
        "mem_gib" => in_gib(h.slurm_mem),
        "node_gib" => in_gib(h.node_ram),
        _ => String::new(),
    }
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
