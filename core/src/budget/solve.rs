//! The inverse questions: the largest model, the longest sequence, the largest
//! micro batch, the fewest GPUs for each ZeRO stage, and the vLLM
//! `gpu_memory_utilization` that holds a wanted KV cache. Each is a search over
//! the same forward computation the page shows (memory only grows with the
//! value searched, so a binary search finds the boundary exactly); there is no
//! second formula to drift from the first.

use super::gpu::{self, GpuPlan, Sharding, Workload};
use crate::units::grouped;
use serde::Serialize;

/// The answer to "how large can it be".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "answer", content = "value", rename_all = "snake_case")]
pub enum Solved {
    /// Not even the smallest value fits.
    Never,
    Exactly(u64),
    /// The largest value searched fits: the true answer is at least this.
    AtLeast(u64),
}

impl Solved {
    pub fn value(self) -> Option<u64> {
        match self {
            Solved::Never => None,
            Solved::Exactly(n) | Solved::AtLeast(n) => Some(n),
        }
    }
}

/// The largest x in [lo, hi] that fits, for a `fits` that holds up to some x and not beyond.
fn largest(lo: u64, hi: u64, fits: impl Fn(u64) -> bool) -> Solved {
    if !fits(lo) {
        return Solved::Never;
    }
    if fits(hi) {
        return Solved::AtLeast(hi);
    }
    let (mut good, mut bad) = (lo, hi);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if fits(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    Solved::Exactly(good)
}

/// The smallest x in [lo, hi] that fits, for a `fits` that fails up to some x
/// and holds beyond: one past the largest that does not.
fn smallest(lo: u64, hi: u64, fits: impl Fn(u64) -> bool) -> Option<u64> {
    match largest(lo, hi, |x| !fits(x)) {
        Solved::Never => Some(lo),
        Solved::Exactly(x) => Some(x + 1),
        Solved::AtLeast(_) => None,
    }
}

/// The bounds searched: the fields' own ranges.
pub const MAX_PARAMS: u64 = 10_000_000_000_000;
pub const MAX_SEQ_LEN: u64 = 10_000_000;
pub const MAX_MICRO_BATCH: u64 = 65_536;
pub const MAX_GPUS: u64 = 1_000_000;

/// The smallest `gpu_memory_utilization`, in thousandths, whose KV cache holds `target` tokens.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct UtilizationAnswer {
    pub target: u64,
    /// None: not even all of the GPU holds that many.
    pub utilization: Option<f64>,
    /// Tokens held at that utilization (at 1.0 when none is enough).
    pub tokens: u64,
    /// Whether the whole GPU budget fits at that utilization.
    pub fits: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answers {
    pub max_params: Solved,
    pub max_seq_len: Solved,
    /// Training only.
    pub max_micro_batch: Option<Solved>,
    /// Training only: the fewest GPUs sharing the state for ZeRO-1, -2 and -3
    /// (None: no count up to a million fits).
    pub min_gpus: Vec<(Sharding, Option<u64>)>,
    /// When a vLLM KV cache size is asked for.
    pub vllm_utilization: Option<UtilizationAnswer>,
}

fn fits_with(plan: &GpuPlan, change: impl Fn(&mut GpuPlan)) -> bool {
    let mut trial = plan.clone();
    change(&mut trial);
    gpu::compute(&trial).fits()
}

pub fn answers(plan: &GpuPlan) -> Answers {
    let training = plan.workload == Workload::Training;
    let stages = [Sharding::Zero1, Sharding::Zero2, Sharding::Zero3];
    Answers {
        max_params: largest(1, MAX_PARAMS, |p| fits_with(plan, |t| t.model.params = p)),
        max_seq_len: largest(1, MAX_SEQ_LEN, |s| fits_with(plan, |t| t.seq_len = s as u32)),
        max_micro_batch: training.then(|| max_micro_batch(plan)),
        min_gpus: if training {
            stages
                .into_iter()
                .map(|stage| {
                    let fewest = smallest(1, MAX_GPUS, |n| {
                        fits_with(plan, |t| {
                            t.sharding = stage;
                            t.gpus = n as u32;
                        })
                    });
                    (stage, fewest)
                })
                .collect()
        } else {
            Vec::new()
        },
        vllm_utilization: (plan.vllm_target_tokens > 0)
            .then(|| utilization_for(plan, plan.vllm_target_tokens))
            .flatten(),
    }
}

/// The largest micro batch that fits (memory grows with the batch).
pub fn max_micro_batch(plan: &GpuPlan) -> Solved {
    largest(1, MAX_MICRO_BATCH, |b| gpu::compute_with_batch(plan, b as u32).fits())
}

/// The smallest utilization, in thousandths, whose vLLM KV cache holds `target` tokens.
pub fn utilization_for(plan: &GpuPlan, target: u64) -> Option<UtilizationAnswer> {
    let at = |thousandths: u64| {
        let mut trial = plan.clone();
        trial.vllm_utilization = thousandths as f64 / 1000.0;
        gpu::compute(&trial)
    };
    let holds = |k: u64| at(k).vllm.is_some_and(|v| v.tokens() >= target);
    let found = smallest(1, 1000, holds);
    let budget = at(found.unwrap_or(1000));
    let tokens = budget.vllm.as_ref()?.tokens();
    Some(UtilizationAnswer { target, utilization: found.map(|k| k as f64 / 1000.0), tokens, fits: budget.fits() })
}

/// The questions, by the name `headroom budget --solve` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveKey {
    Params,
    SeqLen,
    MicroBatch,
    Gpus,
    VllmUtil,
}

impl SolveKey {
    pub const ALL: [SolveKey; 5] =
        [SolveKey::Params, SolveKey::SeqLen, SolveKey::MicroBatch, SolveKey::Gpus, SolveKey::VllmUtil];

    pub fn name(self) -> &'static str {
        match self {
            SolveKey::Params => "params",
            SolveKey::SeqLen => "seq_len",
            SolveKey::MicroBatch => "micro_batch",
            SolveKey::Gpus => "gpus",
            SolveKey::VllmUtil => "vllm_util",
        }
    }

    pub fn parse(name: &str) -> Option<SolveKey> {
        SolveKey::ALL.into_iter().find(|k| k.name() == name)
    }
}

fn billions(params: u64) -> String {
    format!("{:.2} B", params as f64 / 1e9)
}

fn stage_name(stage: Sharding) -> &'static str {
    match stage {
        Sharding::Replicated => "DDP",
        Sharding::Zero1 => "ZeRO-1",
        Sharding::Zero2 => "ZeRO-2",
        Sharding::Zero3 => "ZeRO-3 / FSDP",
    }
}

impl Answers {
    /// The answer to one question as a sentence (None when it does not apply
    /// to this plan: micro batch and GPUs for inference, utilization unasked).
    pub fn line(&self, key: SolveKey, plan: &GpuPlan) -> Option<String> {
        Some(match key {
            SolveKey::Params => match self.max_params {
                Solved::Never => {
                    "Largest model: none fits, not even with 1 parameter (the rest alone is too much).".into()
                }
                Solved::Exactly(p) => format!(
                    "Largest model that fits: {} parameters (now {}).",
                    billions(p),
                    billions(plan.model.params)
                ),
                Solved::AtLeast(p) => {
                    format!("Largest model that fits: more than {} parameters (the search stops there).", billions(p))
                }
            },
            SolveKey::SeqLen => match self.max_seq_len {
                Solved::Never => "Longest sequence: not even 1 token fits.".into(),
                Solved::Exactly(s) => {
                    format!("Longest sequence that fits: {} tokens (now {}).", grouped(s), grouped(plan.seq_len as u64))
                }
                Solved::AtLeast(s) => {
                    format!("Longest sequence that fits: more than {} tokens (the search stops there).", grouped(s))
                }
            },
            SolveKey::MicroBatch => match self.max_micro_batch? {
                Solved::Never => "Largest micro batch: not even 1 fits; change the model states first.".into(),
                Solved::Exactly(b) => format!("Largest micro batch that fits: {b} (now {}).", plan.micro_batch),
                Solved::AtLeast(b) => {
                    format!("Largest micro batch that fits: {} or more (the search stops there).", grouped(b))
                }
            },
            SolveKey::Gpus => {
                if self.min_gpus.is_empty() {
                    return None;
                }
                let each: Vec<String> = self
                    .min_gpus
                    .iter()
                    .map(|(stage, n)| match n {
                        Some(n) => format!("{} {}", stage_name(*stage), grouped(*n)),
                        None => format!("{} none up to {}", stage_name(*stage), grouped(MAX_GPUS)),
                    })
                    .collect();
                format!(
                    "Fewest GPUs sharing the state: {} (now {} with {}).",
                    each.join(", "),
                    plan.gpus,
                    stage_name(plan.sharding)
                )
            }
            SolveKey::VllmUtil => {
                let a = self.vllm_utilization?;
                let wanted = grouped(a.target);
                match a.utilization {
                    Some(u) => format!(
                        "gpu_memory_utilization for {wanted} tokens of KV cache: {u:.3} (holds {}; the GPU then {}).",
                        grouped(a.tokens),
                        if a.fits { "fits" } else { "does not fit" }
                    ),
                    None => format!(
                        "No gpu_memory_utilization holds {wanted} tokens of KV cache: at 1.0 it holds {}.",
                        grouped(a.tokens)
                    ),
                }
            }
        })
    }

    /// Every answer that applies, in the order of [`SolveKey::ALL`].
    pub fn lines(&self, plan: &GpuPlan) -> Vec<String> {
        SolveKey::ALL.into_iter().filter_map(|k| self.line(k, plan)).collect()
    }
}

#[cfg(test)]
mod tests;
