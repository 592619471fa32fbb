//! Which knob to turn: each candidate change is applied to a copy of the plan
//! and recomputed, so every suggestion states its new value and the memory it
//! leads to. Changes that keep the optimisation trajectory (accumulation,
//! checkpointing, sharding, offload) rank before those that change results
//! (catalog decision rule D2, ranking guidance).

use super::gpu::{self, Adapter, Checkpointing, GpuBudget, Optimizer, Sharding, Workload};
use super::hardware::GPUS;
use super::host::{self, HostBudget};
use super::solve::{self, Answers, Solved};
use super::Plan;
use crate::units::Bytes;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Suggestion {
    /// The diagnosis contract's fix vocabulary.
    pub id: &'static str,
    /// What to change, with values: "micro batch 22 -> 11 with accumulate_grad_batches=2".
    pub change: String,
    /// Memory after the change: the GPU total, or the node's peak for host fixes.
    pub after: Bytes,
    pub fits: bool,
    pub tradeoff: &'static str,
    /// Remediation catalog entry.
    pub source: &'static str,
}

pub fn suggestions(plan: &Plan, gpu: &GpuBudget, host: &HostBudget, answers: &Answers) -> Vec<Suggestion> {
    let mut out = Vec::new();
    if !gpu.fits() {
        gpu_suggestions(plan, answers, &mut out);
    }
    if !host.fits() {
        host_suggestions(plan, host, &mut out);
    }
    // Stable: among equals, the order above (least disruptive first) holds.
    out.sort_by_key(|s| !s.fits);
    out
}

/// A GPU suggestion and the budget it leads to.
fn gpu_fix(
    id: &'static str,
    change: String,
    budget: GpuBudget,
    tradeoff: &'static str,
    source: &'static str,
) -> Suggestion {
    Suggestion { id, fits: budget.fits(), after: budget.total, change, tradeoff, source }
}

fn try_gpu(plan: &Plan, change: impl FnOnce(&mut gpu::GpuPlan)) -> GpuBudget {
    let mut trial = plan.gpu.clone();
    change(&mut trial);
    gpu::compute(&trial)
}

/// The first option (least disruptive first) that fits, else the strongest one.
fn first_fitting<T: Copy>(plan: &Plan, options: &[T], apply: impl Fn(&mut gpu::GpuPlan, &T)) -> Option<(T, GpuBudget)> {
    let tried: Vec<(T, GpuBudget)> = options.iter().map(|o| (*o, try_gpu(plan, |t| apply(t, o)))).collect();
    let fitting = tried.iter().position(|(_, b)| b.fits());
    let pick = fitting.or(tried.len().checked_sub(1))?;
    tried.into_iter().nth(pick)
}

fn gpu_suggestions(plan: &Plan, answers: &Answers, out: &mut Vec<Suggestion>) {
    let g = &plan.gpu;
    if g.vllm_utilization > 0.0 && g.workload == Workload::Inference {
        vllm_serving_suggestions(plan, out);
    }
    let mut push = |id, change, budget, tradeoff, source| out.push(gpu_fix(id, change, budget, tradeoff, source));
    if g.workload == Workload::Training {
        let fitting = answers.max_micro_batch.and_then(Solved::value).map(|m| m as u32);
        if let Some(fitting) = fitting.filter(|&m| m < g.micro_batch) {
            let steps = g.micro_batch.div_ceil(fitting);
            let micro = g.micro_batch.div_ceil(steps);
            let effective = micro * steps;
            let keeps = if effective == g.micro_batch {
                format!("keeps the effective batch {effective}")
            } else {
                format!("effective batch {} -> {effective}", g.micro_batch)
            };
            let change =
                format!("micro batch {} -> {micro} with accumulate_grad_batches={steps} ({keeps})", g.micro_batch);
            push(
                "grad_accumulation",
                change,
                try_gpu(plan, |t| t.micro_batch = micro),
                "more steps per update; batch-statistics layers see smaller batches",
                "G-01",
            );
        }
        let levels = match g.checkpointing {
            Checkpointing::None => vec![(Checkpointing::Selective, "selective"), (Checkpointing::Full, "full")],
            Checkpointing::Selective => vec![(Checkpointing::Full, "full")],
            Checkpointing::Full => vec![],
        };
        if let Some(((_, name), budget)) = first_fitting(plan, &levels, |t, (c, _)| t.checkpointing = *c) {
            push(
                "grad_checkpointing",
                format!("activation checkpointing: {name}"),
                budget,
                "about 20% more compute per step",
                "G-20",
            );
        }
        if !g.flash_attention && matches!(g.model.arch, super::model::Arch::Transformer(_)) {
            push(
                "other",
                "enable FlashAttention".into(),
                try_gpu(plan, |t| t.flash_attention = true),
                "needs a supported GPU and dtype",
                "G-20 (Dao et al. 2022)",
            );
        }
        let stages = match g.sharding {
            Sharding::Replicated | Sharding::Zero1 => {
                vec![(Sharding::Zero2, "ZeRO-2 / FSDP SHARD_GRAD_OP"), (Sharding::Zero3, "ZeRO-3 / FSDP FULL_SHARD")]
            }
            Sharding::Zero2 => vec![(Sharding::Zero3, "ZeRO-3 / FSDP FULL_SHARD")],
            Sharding::Zero3 => vec![],
        };
        if g.gpus > 1 {
            if let Some(((_, name), budget)) = first_fitting(plan, &stages, |t, (s, _)| t.sharding = *s) {
                push(
                    "shard_fsdp_zero",
                    format!("shard over {} GPUs: {name}", g.gpus),
                    budget,
                    "extra all-gather / reduce-scatter traffic",
                    "F-01",
                );
            }
        }
        if !g.offload_optimizer && g.optimizer != Optimizer::Sgd {
            push(
                "cpu_offload",
                "offload optimizer states to CPU".into(),
                try_gpu(plan, |t| t.offload_optimizer = true),
                "CPU-GPU transfers slow each step; host RAM grows",
                "F-02",
            );
        }
        if g.optimizer == Optimizer::Adam && g.adapter == Adapter::Full {
            push(
                "quantize",
                "8-bit Adam (bitsandbytes)".into(),
                try_gpu(plan, |t| t.optimizer = Optimizer::Adam8bit),
                "quantised optimizer states; check convergence",
                "F-05",
            );
        }
    }
    if g.vllm_utilization > 0.0 && g.workload == Workload::Training {
        let over = (gpu::compute(g).total.as_f64() - g.capacity.as_f64()) / g.capacity.as_f64().max(1.0);
        let to = ((g.vllm_utilization - over - 0.01) * 100.0).floor() / 100.0;
        if to > 0.05 {
            push(
                "lower_gpu_mem_util",
                format!("vLLM gpu_memory_utilization {} -> {to:.2}", g.vllm_utilization),
                try_gpu(plan, |t| t.vllm_utilization = to),
                "smaller KV cache: fewer concurrent rollouts",
                "F-07",
            );
        }
    }
    if let Some(card) = GPUS.iter().find(|c| c.memory > g.capacity && try_gpu(plan, |t| t.capacity = c.memory).fits()) {
        push(
            "other",
            format!("a GPU with more memory: {} ({})", card.name, card.memory),
            try_gpu(plan, |t| t.capacity = card.memory),
            "availability and queue time",
            "G-06",
        );
    }
}

/// A vLLM engine that does not start: vLLM's own advice (catalog F-08), a
/// shorter max_model_len (its estimate) or a larger share of the GPU.
fn vllm_serving_suggestions(plan: &Plan, out: &mut Vec<Suggestion>) {
    let g = &plan.gpu;
    let Some(v) = gpu::vllm_startup(g).filter(|v| !v.starts()) else { return };
    let mut push = |id, change, budget, tradeoff, source| out.push(gpu_fix(id, change, budget, tradeoff, source));
    let longest = u32::try_from(v.tokens()).unwrap_or(u32::MAX);
    if longest > 0 {
        push(
            "smaller_seq_len",
            format!("max_model_len {} -> {longest} (vLLM's estimated maximum)", g.seq_len),
            try_gpu(plan, |t| t.seq_len = longest),
            "a shorter maximum context",
            "F-08",
        );
    }
    let enough = solve::utilization_for(g, g.seq_len as u64).and_then(|a| a.utilization);
    if let Some(u) = enough.filter(|&u| u > g.vllm_utilization) {
        push(
            "other",
            format!("vLLM gpu_memory_utilization {} -> {u:.3}", g.vllm_utilization),
            try_gpu(plan, |t| t.vllm_utilization = u),
            "that share of the GPU must be free when the engine starts",
            "F-07, F-08",
        );
    }
}

fn host_suggestions(plan: &Plan, current: &HostBudget, out: &mut Vec<Suggestion>) {
    let h = &plan.host;
    let mut push = |id, change: String, budget: HostBudget, tradeoff, source| {
        out.push(Suggestion { id, fits: budget.fits(), after: budget.peak, change, tradeoff, source });
    };
    let trial = |change: &dyn Fn(&mut host::HostPlan)| {
        let mut t = h.clone();
        change(&mut t);
        host::compute(&t)
    };
    if let Some(w) = host::max_workers(h).filter(|&w| w < h.workers) {
        let val = h.val_workers.min(w.max(1));
        push(
            "fewer_workers",
            format!("num_workers {} -> {w} per rank", h.workers),
            trial(&|t| {
                t.workers = w;
                t.val_workers = val;
            }),
            "less input parallelism; watch GPU utilisation",
            "H-02",
        );
    }
    if !h.persistent_workers && h.val_workers > 1 {
        push(
            "fewer_workers",
            format!("validation num_workers {} -> 1", h.val_workers),
            trial(&|t| t.val_workers = 1),
            "slower validation",
            "H-06",
        );
    }
    if h.prefetch_factor > 1 {
        push(
            "fewer_workers",
            format!("prefetch_factor {} -> 1", h.prefetch_factor),
            trial(&|t| t.prefetch_factor = 1),
            "possible input stalls",
            "H-03",
        );
    }
    let mem = host::recommended_mem(current, h.node_ram);
    if mem > h.slurm_mem && h.slurm_mem.0 > 0 {
        let line = host::sbatch_line(mem);
        push(
            "more_host_mem_request",
            format!("{line} (node has {})", h.node_ram),
            trial(&|t| t.slurm_mem = mem),
            "a larger request can wait longer in the queue",
            "J-01",
        );
    }
}
