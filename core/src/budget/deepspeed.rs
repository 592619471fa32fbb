//! DeepSpeed's own model-states estimators, reproduced so the page can print
//! the tables people get from `estimate_zero2_model_states_mem_needs_all_live`
//! and `estimate_zero3_model_states_mem_needs_all_live` beside Headroom's figure.
//!
//! From `deepspeed/runtime/zero/stage_1_and_2.py` and `stage3.py` (and the
//! "Memory Requirements" page of DeepSpeed's documentation): GPU bytes count
//! 18 per parameter shared over all GPUs (16-bit parameters, 16- and 32-bit
//! gradients, fp32 master weights, Adam's two moments); ZeRO-3 adds the
//! largest layer gathered on one GPU (4 bytes per its parameter); CPU bytes
//! are per node with a 1.5x buffer, and without `zero.Init` every rank of the
//! node first loads the whole model in fp32 (4 bytes x GPUs per node). Sizes
//! are printed in units of 2^30 bytes, labelled "GB".

use super::gpu::{self, Component, Sharding, Workload};
use super::model::Arch;
use super::Plan;
use crate::units::Bytes;
use serde::Serialize;

const BUFFER: f64 = 1.5;

/// ZeRO-2's GPU figure without offload, which DeepSpeed changed in 2024.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Zero2Formula {
    /// 2Ψ + 18Ψ/N, since DeepSpeed pull request #5099 (April 2024).
    Current,
    /// 4Ψ + 16Ψ/N, what the documentation's example tables were printed with.
    Documented,
}

/// What the estimators are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Setup {
    pub total_params: u64,
    pub largest_layer_params: u64,
    pub gpus_per_node: u32,
    pub nodes: u32,
}

/// One line of an estimator's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    pub per_cpu: Bytes,
    pub per_gpu: Bytes,
    pub offload_param: bool,
    pub offload_optimizer: bool,
    /// ZeRO-3 only: parameters created partitioned (`deepspeed.zero.Init`).
    pub zero_init: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    pub stage: u8,
    pub setup: Setup,
    pub rows: Vec<Row>,
}

/// `int(x)` in Python: towards zero.
fn int(x: f64) -> f64 {
    x.trunc()
}

pub fn zero2(setup: Setup, formula: Zero2Formula) -> Table {
    let total = setup.total_params as f64;
    let gpn = setup.gpus_per_node.max(1) as f64;
    let total_gpus = gpn * setup.nodes.max(1) as f64;
    let row = |offload: bool| {
        let (cpu, gpu) = if offload {
            (total * (4.0 * total_gpus).max(16.0) * BUFFER, 2.0 * total)
        } else {
            let gpu = match formula {
                Zero2Formula::Current => 2.0 * total + int(18.0 * total / total_gpus),
                Zero2Formula::Documented => 4.0 * total + int(16.0 * total / total_gpus),
            };
            (total * 4.0 * gpn * BUFFER, gpu)
        };
        Row {
            per_cpu: Bytes::from_f64(int(cpu)),
            per_gpu: Bytes::from_f64(int(gpu)),
            offload_param: false,
            offload_optimizer: offload,
            zero_init: None,
        }
    };
    Table { stage: 2, setup, rows: vec![row(true), row(false)] }
}

pub fn zero3(setup: Setup) -> Table {
    let (total, largest) = (setup.total_params as f64, setup.largest_layer_params as f64);
    let gpn = setup.gpus_per_node.max(1) as f64;
    let total_gpus = gpn * setup.nodes.max(1) as f64;
    let gpus_factor = 1.0 / setup.nodes.max(1) as f64;
    let largest_layer_memory = 4.0 * largest;
    let row = |offload_optimizer: bool, offload_param: bool, zero_init: bool| {
        let (gpu, cpu) = match (offload_optimizer, offload_param) {
            (true, true) => {
                let cpu =
                    if zero_init { total * 18.0 * gpus_factor } else { total * (4.0 * gpn).max(18.0 * gpus_factor) };
                (largest_layer_memory, cpu)
            }
            (true, false) => {
                let cpu =
                    if zero_init { total * 16.0 * gpus_factor } else { total * (4.0 * gpn).max(16.0 * gpus_factor) };
                (largest_layer_memory + int(2.0 * total / total_gpus), cpu)
            }
            _ => {
                let cpu = if zero_init { largest * 4.0 * gpn } else { total * 4.0 * gpn };
                (largest_layer_memory + int(18.0 * total / total_gpus), cpu)
            }
        };
        Row {
            per_cpu: Bytes::from_f64(int(cpu * BUFFER)),
            per_gpu: Bytes::from_f64(int(gpu)),
            offload_param,
            offload_optimizer,
            zero_init: Some(zero_init),
        }
    };
    // DeepSpeed's order: optimizer offload first, parameter offload only with it, zero.Init on then off.
    let rows = [(true, true), (true, false), (false, false)]
        .into_iter()
        .flat_map(|(optimizer, param)| [true, false].map(|init| row(optimizer, param, init)))
        .collect();
    Table { stage: 3, setup, rows }
}

impl Row {
    /// The options column as DeepSpeed prints it (`cpu` padded to four characters).
    pub fn options(&self) -> String {
        let device = |on: bool| if on { "cpu " } else { "none" };
        match self.zero_init {
            None => format!("offload_optimizer={}", device(self.offload_optimizer)),
            Some(init) => format!(
                "offload_param={}, offload_optimizer={}, zero_init={}",
                device(self.offload_param),
                device(self.offload_optimizer),
                u8::from(init)
            ),
        }
    }
}

/// A size as DeepSpeed prints it: 2^30-byte units, two decimals, "GB".
fn gb(b: Bytes, width: usize) -> String {
    format!("{:>width$.2}GB", b.as_f64() / (1u64 << 30) as f64)
}

/// A size in DeepSpeed's units, unpadded ("127.48GB").
pub fn gigabytes(b: Bytes) -> String {
    gb(b, 0)
}

impl Table {
    /// The table as the estimator prints it.
    pub fn text(&self) -> String {
        let s = &self.setup;
        let nodes = if s.nodes > 1 { "nodes" } else { "node" };
        let gpus = if s.gpus_per_node > 1 { "GPUs" } else { "GPU" };
        let largest = if self.stage == 3 {
            format!(", {}M largest layer params", s.largest_layer_params / 1_000_000)
        } else {
            String::new()
        };
        let mut lines = vec![
            "Estimated memory needed for params, optim states and gradients for a:".to_string(),
            format!("HW: Setup with {} {nodes}, {} {gpus} per node.", s.nodes, s.gpus_per_node),
            format!("SW: Model with {}M total params{largest}.", s.total_params / 1_000_000),
            "  per CPU  |  per GPU |   Options".to_string(),
        ];
        lines.extend(
            self.rows.iter().map(|r| format!(" {} | {} | {}", gb(r.per_cpu, 7), gb(r.per_gpu, 6), r.options())),
        );
        lines.join("\n")
    }
}

/// DeepSpeed's tables for a plan, each row beside Headroom's model states per
/// GPU for the same stage and offload options.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeepSpeedView {
    pub zero2: Table,
    /// ZeRO-2 without offload as the documentation's example tables print it.
    pub zero2_documented: Bytes,
    /// None when the largest layer is unknown (a network that is not a transformer).
    pub zero3: Option<Table>,
    pub headroom_zero2: Vec<Bytes>,
    pub headroom_zero3: Vec<Bytes>,
}

/// The tables for a training plan: its parameters, GPUs and ranks per node.
pub fn view(plan: &Plan) -> Option<DeepSpeedView> {
    let g = &plan.gpu;
    if g.workload != Workload::Training {
        return None;
    }
    let gpus = g.gpus.max(1);
    let gpus_per_node = gpus.min(plan.host.ranks_per_node.max(1));
    let largest = match &g.model.arch {
        Arch::Transformer(shape) => Some(shape.largest_layer_params()),
        Arch::Other { .. } => None,
    };
    let setup = Setup {
        total_params: g.model.params,
        largest_layer_params: largest.unwrap_or(0),
        gpus_per_node,
        nodes: gpus.div_ceil(gpus_per_node),
    };
    let ours = |table: &Table, sharding: Sharding| -> Vec<Bytes> {
        table
            .rows
            .iter()
            .map(|r| {
                let trial = gpu::GpuPlan {
                    sharding,
                    offload_optimizer: r.offload_optimizer,
                    offload_params: r.offload_param,
                    ..g.clone()
                };
                let b = gpu::compute(&trial);
                b.part(Component::Weights) + b.part(Component::Gradients) + b.part(Component::OptimizerStates)
            })
            .collect()
    };
    let zero2 = zero2(setup, Zero2Formula::Current);
    let zero3 = largest.map(|_| zero3(setup));
    Some(DeepSpeedView {
        zero2_documented: zero2_documented_gpu(setup),
        headroom_zero2: ours(&zero2, Sharding::Zero2),
        headroom_zero3: zero3.as_ref().map(|t| ours(t, Sharding::Zero3)).unwrap_or_default(),
        zero2,
        zero3,
    })
}

fn zero2_documented_gpu(setup: Setup) -> Bytes {
    zero2(setup, Zero2Formula::Documented).rows[1].per_gpu
}

/// Why DeepSpeed's figures are not the ZeRO paper's (shown beside the tables).
pub const WHY_THEY_DIFFER: &str = "DeepSpeed counts 18 bytes per parameter where the ZeRO paper counts 16: it \
keeps fp32 gradients (4 bytes) beside the 16-bit ones for its fused Adam step. Its ZeRO-3 GPU figure adds the \
largest layer gathered in 16 bits with its gradient (4 bytes per parameter of that layer). Its CPU figure is per \
node, carries a 1.5x buffer, and without zero.Init has every rank load the whole model in fp32 first. It assumes \
every parameter trains with mixed-precision Adam and leaves out activations; Headroom's figure is the ZeRO paper's \
count for this plan's optimizer, precision and adapter.";

#[cfg(test)]
mod tests;
