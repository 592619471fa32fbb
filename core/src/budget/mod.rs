//! The memory-budget calculator: does a training or inference job fit on its
//! GPUs and in its node's RAM, what is the largest micro batch that fits, and
//! which knob to turn. Formulas and their sources are in [`gpu`] and [`host`].

pub mod deepspeed;
pub mod fields;
pub mod gpu;
pub mod hardware;
pub mod host;
pub mod model;
mod report;
mod suggest;

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
    pub max_micro_batch: Option<u32>,
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
    Budget {
        max_micro_batch: gpu::max_micro_batch(&plan.gpu),
        max_workers: host::max_workers(&plan.host),
        sbatch: host::sbatch_line(recommended_mem),
        suggestions: suggest::suggestions(plan, &gpu, &host),
        recommended_mem,
        gpu,
        host,
    }
}

#[cfg(test)]
mod tests;
