//! The memory-budget calculator: does a training or inference job fit on its
//! GPUs and in its node's RAM, what is the largest micro batch that fits, and
//! which knob to turn. Formulas and their sources are in [`gpu`] and [`host`].

pub mod calibrate;
pub mod deepspeed;
pub mod fields;
pub mod gpu;
pub mod hardware;
pub mod hf_config;
pub mod host;
pub mod model;
mod report;
pub mod solve;
mod suggest;
pub mod vllm;

use serde::Serialize;

pub use report::markdown;
pub use suggest::Suggestion;

/// Everything the calculator is asked.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub gpu: gpu::GpuPlan,
    /// The GPU preset's name, or `custom`.
    pub gpu_name: String,
    pub host: host::HostPlan,
}

impl Default for Plan {
    /// Llama-2-7B full fine-tuning on one A100-80GB, with seed 000's node (4
    /// ranks per node, 2 workers each, 256 GiB requested of 513 GiB).
    fn default() -> Plan {
        let mut host = host::HostPlan::seed_job_273202();
        let gpu = gpu::GpuPlan::example();
        host.batch_size = gpu.micro_batch;
        Plan { gpu, gpu_name: "A100-80GB".into(), host }
    }
}

/// Everything the calculator answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Budget {
    pub gpu: gpu::GpuBudget,
    /// The inverse questions (largest model, longest sequence, ...).
    pub answers: solve::Answers,
    /// DeepSpeed's estimator tables for a training plan.
    pub deepspeed: Option<deepspeed::DeepSpeedView>,
    pub host: host::HostBudget,
    pub recommended_mem: crate::units::Bytes,
    pub sbatch: String,
    pub max_workers: Option<u32>,
    pub suggestions: Vec<Suggestion>,
}

pub fn evaluate(plan: &Plan) -> Budget {
    let gpu = gpu::compute(&plan.gpu);
    let host = host::compute(&plan.host);
    let recommended_mem = host::recommended_mem(&host, plan.host.node_ram);
    let answers = solve::answers(&plan.gpu);
    Budget {
        deepspeed: deepspeed::view(plan),
        max_workers: host::max_workers(&plan.host),
        sbatch: host::sbatch_line(recommended_mem),
        suggestions: suggest::suggestions(plan, &gpu, &host, &answers),
        answers,
        recommended_mem,
        gpu,
        host,
    }
}

#[cfg(test)]
mod tests;

/// The calculator's formulas and where each comes from, as the Budget page
/// and the markdown export show them.
pub const FORMULAS: &[(&str, &str)] = &[
    ("Model states, mixed-precision Adam: 2Ψ weights + 2Ψ gradients + 12Ψ optimizer (fp32 copy, momentum, variance) = 16Ψ bytes", "ZeRO paper, Rajbhandari et al. 2020, section 3.1"),
    ("fp32 Adam 4 + 4 + 8, SGD with momentum 4 + 4 + 4, 8-bit Adam states 2Ψ, Adafactor about 4·(rows+cols) per matrix", "EleutherAI, Transformer Math 101, 2023"),
    ("ZeRO-1 shards optimizer states over N GPUs, ZeRO-2 also gradients, ZeRO-3 / FSDP FULL_SHARD also weights", "ZeRO paper, figure 1; PyTorch FSDP docs"),
    ("Activations per transformer layer (16-bit): s·b·h·(34 + 5·a·s/h); selective recomputation 34·s·b·h; full checkpointing 2·s·b·h plus one layer", "Korthikanti et al. 2022, section 4"),
    ("FlashAttention never stores the s x s attention matrix: the 5·a·s/h term goes", "Dao et al. 2022"),
    ("Other networks (CNNs): activations = micro batch x a measured per-sample figure (max_memory_allocated at two batch sizes, divided by the difference)", "our rule [HEURISTIC]"),
    ("Mixture of experts: every expert's weights are held; each further expert a token runs through stores another MLP's 19·s·b·h", "Korthikanti et al. 2022, section 4.1 (attention 11, MLP 19, norms 4)"),
    ("KV cache: 2 · layers · kv_heads · head_dim · tokens · bytes per element", "vLLM kv_cache_interface; calculator-formulas.md"),
    ("vLLM may use gpu_memory_utilization x total memory; its KV cache is what its weights and profile peak leave, in blocks of block_size tokens; maximum concurrency = blocks / ceil(max_model_len / block_size)", "vLLM engine arguments; vllm/v1/core/kv_cache_utils.py"),
    ("vLLM's profile peak, unless read from its log: one layer's activations for min(max_model_len, 8192) tokens plus the CUDA context", "our estimate [HEURISTIC]"),
    ("DeepSpeed's estimators: 18 bytes per parameter over all GPUs (plus the largest layer x 4 for ZeRO-3), CPU per node x 1.5", "DeepSpeed docs, Memory Requirements; stage_1_and_2.py, stage3.py"),
    ("Largest model, longest sequence, largest micro batch, fewest GPUs, vLLM utilization: binary searches over these same formulas", "Headroom"),
    ("Calibration: memory = fixed + batch x per sample, fitted by least squares to measurements at two or more batch sizes", "Headroom; PyTorch max_memory_allocated"),
    ("LoRA trains r·(in+out) parameters per linear layer; the frozen base stays at its dtype (4-bit for QLoRA)", "catalog F-06"),
    ("CUDA context 0.3-1 GiB per process; a fragmentation margin on top", "PyTorch CUDA semantics notes"),
    ("Host RAM per node: ranks x (main + workers x (worker + prefetch x batch x sample) + pinned); validation start adds its workers and data", "catalog H-02, H-03, H-06; seeds 000 and 002"),
];
