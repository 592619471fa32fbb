//! DeepSpeed's own ZeRO-3 model-states estimator
//! (`deepspeed.runtime.zero.stage3.estimate_zero3_model_states_mem_needs`),
//! reproduced so its published outputs can check our arithmetic: GPU bytes
//! are the largest layer's fp32 working copy plus 18 bytes per parameter
//! shared over all GPUs without offload (2 with optimizer offload, 0 with
//! both); CPU bytes carry a 1.5x buffer factor.

use crate::units::Bytes;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Zero3Estimate {
    pub per_cpu: Bytes,
    pub per_gpu: Bytes,
}

pub fn zero3_model_states(
    total_params: u64,
    largest_layer_params: u64,
    gpus_per_node: u32,
    nodes: u32,
    offload_params: bool,
    offload_optimizer: bool,
    zero_init: bool,
) -> Zero3Estimate {
    const BUFFER: f64 = 1.5;
    let (total, largest) = (total_params as f64, largest_layer_params as f64);
    let gpus_per_node = gpus_per_node.max(1) as f64;
    let total_gpus = gpus_per_node * nodes.max(1) as f64;
    let gpus_factor = 1.0 / nodes.max(1) as f64;
    let largest_layer_memory = 4.0 * largest;
    let (gpu, cpu) = match (offload_optimizer, offload_params) {
        (true, true) => {
            let cpu = if zero_init {
                total * 18.0 * gpus_factor
            } else {
                total * (4.0 * gpus_per_node).max(18.0 * gpus_factor)
            };
            (largest_layer_memory, cpu * BUFFER)
        }
        (true, false) => {
            let cpu = if zero_init {
                total * 16.0 * gpus_factor
            } else {
                total * (4.0 * gpus_per_node).max(16.0 * gpus_factor)
            };
            (largest_layer_memory + (2.0 * total / total_gpus).trunc(), cpu * BUFFER)
        }
        _ => {
            let cpu = if zero_init { largest * 4.0 * gpus_per_node } else { total * 4.0 * gpus_per_node };
            (largest_layer_memory + (18.0 * total / total_gpus).trunc(), cpu * BUFFER)
        }
    };
    Zero3Estimate { per_cpu: Bytes::from_f64(cpu), per_gpu: Bytes::from_f64(gpu) }
}
