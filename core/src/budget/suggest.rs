//! Which knob to turn: each candidate change is applied to a copy of the plan
//! and recomputed, so every suggestion states its new value and the memory it
//! leads to. Changes that keep the optimisation trajectory (accumulation,
//! checkpointing, sharding, offload) rank before those that change results
//! (catalog decision rule D2, ranking guidance).

use super::gpu::{self, Adapter, Checkpointing, GpuBudget, Optimizer, Sharding, Workload};
use super::hardware::GPUS;
use super::host::{self, HostBudget};
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

pub fn suggestions(plan: &Plan, gpu: &GpuBudget, host: &HostBudget) -> Vec<Suggestion> {
    let mut out = Vec::new();
    if !gpu.fits() {
        gpu_suggestions(plan, &mut out);
    }
    if !host.fits() {
        host_suggestions(plan, host, &mut out);
    }
    // Stable: among equals, the order above (least disruptive first) holds.
    out.sort_by_key(|s| !s.fits);
    out
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

fn gpu_suggestions(plan: &Plan, out: &mut Vec<Suggestion>) {
    let g = &plan.gpu;
    let mut push = |id, change: String, budget: GpuBudget, tradeoff, source| {
        out.push(Suggestion { id, fits: budget.fits(), after: budget.total, change, tradeoff, source });
    };
    if g.workload == Workload::Training {
        if let Some(fitting) = gpu::max_micro_batch(g).filter(|&m| m < g.micro_batch) {
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
        if !g.flash_attention && matches!(g.model.arch, super::model::Arch::Transformer { .. }) {
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
    if g.vllm_utilization > 0.0 {
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
