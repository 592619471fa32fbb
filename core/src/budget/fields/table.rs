//! The calculator's fields: key, label, help, section and what a valid value is.

use super::{Field, Kind, Section};
use crate::budget::hardware::GPUS;
use crate::budget::model::presets;

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

pub const FIELDS: [Field; 46] = [
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
        key: "head_dim",
        label: "Head dimension",
        help: "hidden / heads unless the config says (Gemma: 256)",
        section: Section::Model,
        kind: integer(1.0, 100_000.0),
    },
    Field {
        key: "intermediate",
        label: "MLP size",
        help: "intermediate_size (per expert)",
        section: Section::Model,
        kind: integer(1.0, 10_000_000.0),
    },
    Field {
        key: "vocab",
        label: "Vocabulary",
        help: "vocab_size (0: none, e.g. ViT)",
        section: Section::Model,
        kind: integer(0.0, 10_000_000.0),
    },
    Field {
        key: "experts",
        label: "Experts",
        help: "MLP experts per layer (1: dense)",
        section: Section::Model,
        kind: integer(1.0, 100_000.0),
    },
    Field {
        key: "active_experts",
        label: "Experts per token",
        help: "num_experts_per_tok",
        section: Section::Model,
        kind: integer(1.0, 100_000.0),
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
        help: "tokens per sample (patches+1 for ViT); vLLM's max_model_len",
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
        key: "vllm_util",
        label: "vLLM gpu_memory_utilization",
        help: "serving (inference) or an RL rollout beside training; 0: no vLLM",
        section: Section::Vllm,
        kind: number(0.0, 1.0),
    },
    Field {
        key: "block_size",
        label: "KV cache block size",
        help: "--block-size, tokens per block",
        section: Section::Vllm,
        kind: integer(1.0, 4096.0),
    },
    Field {
        key: "vllm_overhead_gib",
        label: "Profile peak (GiB)",
        help: "activations + non-torch memory at start-up, from vLLM's log; 0: estimate",
        section: Section::Vllm,
        kind: number(0.0, 100_000.0),
    },
    Field {
        key: "vllm_target_tokens",
        label: "KV cache wanted (tokens)",
        help: "find the gpu_memory_utilization that holds this many; 0: do not ask",
        section: Section::Vllm,
        kind: integer(0.0, 1e12),
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
