//! Host RAM per node for data-parallel training: every rank is a process with
//! its DataLoader workers, each worker a forked copy that also holds prefetched
//! batches; pinned buffers come on top. Without `persistent_workers`, the
//! validation loader starts its own workers (and loads its dataset) at the
//! end of a training epoch while the training workers may still be alive: the
//! peak is at that transition (seeds 000 and 002; catalog H-02, H-03, H-06).
//!
//! ranks_per_node x (main + workers x (worker + prefetch x batch x sample) + pinned)
//! + at the transition: ranks_per_node x (val_workers x (worker + prefetch x batch x sample) + val dataset)

use crate::units::{Bytes, GIB, MIB};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostPlan {
    pub ranks_per_node: u32,
    /// Resident memory of one rank's main process (model copy, optimizer on CPU, Python).
    pub main_process: Bytes,
    pub workers: u32,
    /// Private memory of one DataLoader worker (its copy of the Dataset and what it touched).
    pub worker: Bytes,
    pub prefetch_factor: u32,
    pub batch_size: u32,
    pub sample: Bytes,
    pub pinned: Bytes,
    pub persistent_workers: bool,
    pub val_workers: u32,
    /// What starting validation loads per rank (its dataset, caches).
    pub val_dataset: Bytes,
    /// SLURM `--mem` per node; zero means "not set" (the node's RAM is the limit).
    pub slurm_mem: Bytes,
    pub node_ram: Bytes,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HostComponent {
    MainProcesses,
    Workers,
    PrefetchedBatches,
    PinnedBuffers,
    ValidationSpike,
}

impl HostComponent {
    pub fn label(self) -> &'static str {
        match self {
            HostComponent::MainProcesses => "Main processes",
            HostComponent::Workers => "DataLoader workers",
            HostComponent::PrefetchedBatches => "Prefetched batches",
            HostComponent::PinnedBuffers => "Pinned buffers",
            HostComponent::ValidationSpike => "Validation start (spike)",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HostBudget {
    pub parts: Vec<(HostComponent, Bytes)>,
    /// During training epochs.
    pub steady: Bytes,
    /// At the training -> validation transition.
    pub peak: Bytes,
    /// The limit that applies: `--mem` if set, else the node's RAM.
    pub limit: Bytes,
    /// `--mem` above the node's RAM cannot be granted.
    pub request_exceeds_node: bool,
}

impl HostBudget {
    pub fn fits(&self) -> bool {
        self.peak <= self.limit && !self.request_exceeds_node
    }
}

pub fn compute(plan: &HostPlan) -> HostBudget {
    let ranks = plan.ranks_per_node as f64;
    let per_batch = plan.batch_size as f64 * plan.sample.as_f64();
    let in_flight = |workers: u32| workers as f64 * plan.prefetch_factor as f64 * per_batch;
    let main = ranks * plan.main_process.as_f64();
    let workers = ranks * plan.workers as f64 * plan.worker.as_f64();
    let prefetched = ranks * in_flight(plan.workers);
    let pinned = ranks * plan.pinned.as_f64();
    let spike = if plan.persistent_workers {
        // Persistent validation workers start once, at the first validation, and stay.
        ranks * plan.val_workers as f64 * plan.worker.as_f64()
    } else {
        ranks
            * (plan.val_workers as f64 * plan.worker.as_f64() + in_flight(plan.val_workers) + plan.val_dataset.as_f64())
    };
    let parts = vec![
        (HostComponent::MainProcesses, Bytes::from_f64(main)),
        (HostComponent::Workers, Bytes::from_f64(workers)),
        (HostComponent::PrefetchedBatches, Bytes::from_f64(prefetched)),
        (HostComponent::PinnedBuffers, Bytes::from_f64(pinned)),
        (HostComponent::ValidationSpike, Bytes::from_f64(spike)),
    ];
    let steady = Bytes::from_f64(main + workers + prefetched + pinned);
    let peak = steady + Bytes::from_f64(spike);
    let limit = if plan.slurm_mem.0 == 0 { plan.node_ram } else { plan.slurm_mem.min(plan.node_ram) };
    HostBudget { parts, steady, peak, limit, request_exceeds_node: plan.slurm_mem > plan.node_ram }
}

/// The `--mem` to ask for: the peak plus 15% headroom, rounded up to 8 GiB,
/// never more than the node has.
pub fn recommended_mem(budget: &HostBudget, node_ram: Bytes) -> Bytes {
    let wanted = budget.peak.as_f64() * 1.15;
    let step = 8.0 * GIB as f64;
    Bytes::from_f64(((wanted / step).ceil() * step).min(node_ram.as_f64()))
}

/// `#SBATCH --mem=400G` (SLURM reads G as GiB).
pub fn sbatch_line(mem: Bytes) -> String {
    format!("#SBATCH --mem={}G", mem.0.div_ceil(GIB))
}

/// The most workers per rank that keep the peak within the limit (None if even 0 does not).
pub fn max_workers(plan: &HostPlan) -> Option<u32> {
    (0..=plan.workers.max(64)).rev().find(|&w| {
        let trial = HostPlan { workers: w, val_workers: plan.val_workers.min(w.max(1)), ..plan.clone() };
        compute(&trial).fits()
    })
}

impl HostPlan {
    /// Seed 000's job: 4 nodes x 4 L40S, 2 workers per GPU, batch 22, 256 GB per
    /// node requested on 513 GB nodes. Per-process figures are the lab's own
    /// estimate in that write-up's budget table (per node: training data
    /// buffers ~40 GB with 1 worker per GPU -> 10 GB a worker; validation data
    /// ~60 GB -> 15 GB a rank; model, optimizer, system and CUDA context
    /// ~42 GB -> 10.5 GB a rank).
    pub fn seed_job_273202() -> HostPlan {
        HostPlan {
            ranks_per_node: 4,
            main_process: Bytes(GIB * 21 / 2),
            workers: 2,
            worker: Bytes(10 * GIB),
            prefetch_factor: 2,
            batch_size: 22,
            sample: Bytes(4 * MIB),
            pinned: Bytes(0),
            persistent_workers: false,
            val_workers: 2,
            val_dataset: Bytes(15 * GIB),
            slurm_mem: Bytes(256 * GIB),
            node_ram: Bytes(513 * GIB),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_000_fits_in_training_and_breaks_at_validation() {
        let plan = HostPlan::seed_job_273202();
        let b = compute(&plan);
        assert!(b.steady < Bytes(256 * GIB), "epoch 0 trained: {}", b.steady);
        assert!(b.peak > Bytes(256 * GIB), "killed when validation started: {}", b.peak);
        assert!(!b.fits());
        // The write-up's fix: --mem=400G (and 1 worker) fits on a 513 GB node.
        let fixed = HostPlan { slurm_mem: Bytes(400 * GIB), workers: 1, val_workers: 1, ..plan.clone() };
        assert!(compute(&fixed).fits());
        assert_eq!(sbatch_line(recommended_mem(&b, plan.node_ram)), "#SBATCH --mem=312G");
    }

    #[test]
    fn seed_002_eight_workers_per_gpu_exhaust_256_gb() {
        let plan = HostPlan { workers: 8, ..HostPlan::seed_job_273202() };
        let b = compute(&plan);
        assert!(b.steady > Bytes(256 * GIB), "128 workers over 16 ranks: {}", b.steady);
        let two = compute(&HostPlan { workers: 2, ..plan.clone() });
        assert!(two.steady < Bytes(256 * GIB));
        assert_eq!(max_workers(&plan), Some(1), "with non-persistent validation, one worker per rank fits");
    }

    #[test]
    fn a_request_larger_than_the_node_is_flagged() {
        let plan = HostPlan { slurm_mem: Bytes(600 * GIB), ..HostPlan::seed_job_273202() };
        let b = compute(&plan);
        assert!(b.request_exceeds_node && !b.fits());
    }
}
