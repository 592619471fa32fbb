//! Figures a write-up states about its incident: job ids, OOM-kill counts,
//! memory requested and available, PyTorch's allocation figures.

use crate::runbook::Facts;
use crate::scan::{after, find_all_ci, find_ci, integer_before, leading_integer, size_after, size_before};
use crate::units::UnitConvention::{Binary, Decimal};

pub fn extract(text: &str) -> Facts {
    Facts {
        jobs: job_ids(text),
        oom_kill_events: ["oom_kill event", "oom-kill event"]
            .iter()
            .find_map(|m| find_ci(text, m).and_then(|i| integer_before(text, i)))
            .and_then(|n| u32::try_from(n).ok()),
        // SLURM sizes are binary (`--mem=256G` is 256 GiB) and so is the lab's usage of "GB" for it.
        requested_per_node: size_after(text, "requested memory", Binary)
            .or_else(|| size_after(text, "requested:", Binary)),
        node_memory: size_after(text, "per-node memory available", Binary)
            .or_else(|| find_all_ci(text, "available").find_map(|i| size_before(text, i, Binary))),
        gpu_requested: size_after(text, "tried to allocate", Decimal).or_else(|| size_after(text, "needed", Decimal)),
        gpu_capacity: size_after(text, "total capacity of", Decimal)
            .or_else(|| size_after(text, "total capacty of", Decimal)),
        gpu_free: size_after(text, "of which", Decimal).or_else(|| {
            after(text, "only").and_then(|rest| {
                let free = find_ci(rest, "free")?;
                (free < 16).then(|| size_before(rest, free, Decimal)).flatten()
            })
        }),
        other_process: find_all_ci(text, "process ")
            .filter_map(|i| {
                let rest = &text[i + 8..];
                let digits = rest.find(|c: char| !c.is_ascii_digit())?;
                (digits >= 3).then(|| crate::scan::leading_size(&rest[digits..], Decimal)).flatten()
            })
            .next(),
        total_workers: find_ci(text, "total workers")
            .and_then(|i| integer_before(text, i))
            .or_else(|| find_ci(text, "dataloader workers").and_then(|i| integer_before(text, i)))
            .and_then(|n| u32::try_from(n).ok()),
        total_vm: size_after(text, "total-vm:", Binary),
    }
}

/// `Job 273202`, `job 269582`, `StepId=273202.0`: ids of five digits or more.
fn job_ids(text: &str) -> Vec<u64> {
    let mut ids: Vec<u64> = ["job ", "job:", "stepid="]
        .iter()
        .flat_map(|marker| find_all_ci(text, marker).map(move |i| &text[i + marker.len()..]))
        .filter_map(leading_integer)
        .filter(|&id| id >= 10_000)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}
