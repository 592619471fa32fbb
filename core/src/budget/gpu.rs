//! GPU memory per device for training or inference. Formulas and sources:
//!
//! - Model states (ZeRO paper, Rajbhandari et al. 2020, section 3.1): mixed
//!   precision Adam = 2Ψ weights + 2Ψ gradients + 12Ψ optimizer states
//!   (fp32 copy 4Ψ, momentum 4Ψ, variance 4Ψ). fp32: 4 + 4 + 8. SGD with
//!   momentum 4 + 4 + 4. 8-bit Adam: states 2Ψ. Adafactor: about 4·(rows+cols)
//!   per matrix (EleutherAI, "Transformer Math 101", 2023).
//! - Sharding over N GPUs (ZeRO figure 1): stage 1 shards optimizer states,
//!   stage 2 also gradients, stage 3 / FSDP FULL_SHARD also weights.
//! - Activations per transformer layer, 16-bit (Korthikanti et al. 2022,
//!   section 4): s·b·h·(34 + 5·a·s/h); FlashAttention drops the 5·a·s/h term
//!   (Dao et al. 2022); selective recomputation keeps 34·s·b·h; full
//!   checkpointing keeps 2·s·b·h per layer plus one layer's working set.
//!   Networks that are not transformers use a per-sample figure x micro batch.
//! - KV cache: 2 · layers · kv_heads · head_dim · tokens · bytes per element.
//! - vLLM reserves `gpu_memory_utilization` x total memory (vLLM engine args).
//! - CUDA context 0.3-1 GiB per process; the allocator's fragmentation is a margin.

use super::model::{Arch, ModelSpec};
use crate::units::{Bytes, GIB};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dtype {
    Fp32,
    Bf16,
    Int8,
    Int4,
}

impl Dtype {
    /// Bytes per element; 4-bit carries its quantisation constants (fp32 absmax per 64 values).
    pub fn bytes(self) -> f64 {
        match self {
            Dtype::Fp32 => 4.0,
            Dtype::Bf16 => 2.0,
            Dtype::Int8 => 1.0,
            Dtype::Int4 => 0.5 + 4.0 / 64.0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Optimizer {
    Sgd,
    SgdMomentum,
    Adam,
    Adam8bit,
    Adafactor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Checkpointing {
    None,
    Selective,
    Full,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sharding {
    /// DDP: every GPU holds everything.
    Replicated,
    Zero1,
    Zero2,
    /// ZeRO-3 or FSDP FULL_SHARD.
    Zero3,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Adapter {
    Full,
    /// LoRA of rank r on every linear layer; the base is frozen.
    Lora {
        rank: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Workload {
    Training,
    Inference,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpuPlan {
    pub model: ModelSpec,
    pub workload: Workload,
    /// dtype of the weights the GPU computes with (bf16/fp16 are both 16-bit).
    pub weights: Dtype,
    /// Keep an fp32 master copy (mixed precision).
    pub fp32_master: bool,
    pub optimizer: Optimizer,
    pub checkpointing: Checkpointing,
    pub flash_attention: bool,
    pub micro_batch: u32,
    pub seq_len: u32,
    pub sharding: Sharding,
    pub gpus: u32,
    pub offload_params: bool,
    pub offload_optimizer: bool,
    pub adapter: Adapter,
    /// Inference: concurrent sequences whose KV cache is held.
    pub kv_batch: u32,
    /// RL rollout with vLLM on the same GPU: its `gpu_memory_utilization` (0 = none).
    pub vllm_utilization: f64,
    pub cuda_context: Bytes,
    /// Fraction added for the caching allocator's fragmentation.
    pub fragmentation: f64,
    pub capacity: Bytes,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Component {
    Weights,
    Gradients,
    OptimizerStates,
    Activations,
    KvCache,
    VllmReservation,
    CudaContext,
    Fragmentation,
}

impl Component {
    pub fn label(self) -> &'static str {
        match self {
            Component::Weights => "Weights",
            Component::Gradients => "Gradients",
            Component::OptimizerStates => "Optimizer states",
            Component::Activations => "Activations",
            Component::KvCache => "KV cache",
            Component::VllmReservation => "vLLM reservation",
            Component::CudaContext => "CUDA context",
            Component::Fragmentation => "Fragmentation margin",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuBudget {
    pub parts: Vec<(Component, Bytes)>,
    pub total: Bytes,
    pub capacity: Bytes,
    /// Moved to host RAM by offloading (per GPU's process).
    pub offloaded_to_host: Bytes,
    /// With a vLLM rollout engine: the tokens its KV cache holds, what is left
    /// of its reservation after a 16-bit copy of the weights (vLLM engine args).
    pub rollout_kv_tokens: Option<u64>,
}

impl GpuBudget {
    pub fn fits(&self) -> bool {
        self.total <= self.capacity
    }

    pub fn part(&self, component: Component) -> Bytes {
        self.parts.iter().filter(|(c, _)| *c == component).map(|(_, b)| *b).sum()
    }
}

/// Model-state bytes per parameter for the trainable part: (weights, gradients, optimizer).
fn state_bytes(plan: &GpuPlan) -> (f64, f64, f64) {
    // Trainable weights are 16- or 32-bit: int8/int4 bases train through LoRA.
    let w = plan.weights.bytes().clamp(2.0, 4.0);
    let master = if plan.fp32_master && w < 4.0 { 4.0 } else { 0.0 };
    let optimizer = match plan.optimizer {
        Optimizer::Sgd => 0.0,
        Optimizer::SgdMomentum => 4.0,
        Optimizer::Adam => 8.0,
        Optimizer::Adam8bit => 2.0,
        Optimizer::Adafactor => adafactor_bytes_per_param(&plan.model),
    };
    (w, w, optimizer + master)
}

/// Adafactor keeps row and column second moments, 4·(rows+cols) bytes per
/// h x k matrix instead of 4·h·k: about 4·(1/h + 1/k) per parameter.
fn adafactor_bytes_per_param(model: &ModelSpec) -> f64 {
    match model.arch {
        Arch::Transformer { hidden, intermediate, .. } => {
            4.0 * (1.0 / hidden.max(1) as f64 + 1.0 / intermediate.max(1) as f64)
        }
        Arch::Other { .. } => 0.05,
    }
}

/// Trainable parameters: all of them, or the LoRA adapters (r·(in+out) per linear layer).
pub fn trainable_params(plan: &GpuPlan) -> f64 {
    match (plan.adapter, &plan.model.arch) {
        (Adapter::Full, _) => plan.model.params as f64,
        (Adapter::Lora { rank }, Arch::Transformer { layers, hidden, heads, kv_heads, intermediate, .. }) => {
            let (h, i, r) = (*hidden as f64, *intermediate as f64, rank as f64);
            let kv = *kv_heads as f64 * (h / (*heads).max(1) as f64);
            let attention = r * ((h + h) * 2.0 + (h + kv) * 2.0);
            let mlp = 3.0 * r * (h + i);
            *layers as f64 * (attention + mlp)
        }
        (Adapter::Lora { rank }, Arch::Other { .. }) => plan.model.params as f64 * (rank as f64 / 1000.0).min(1.0),
    }
}

/// Activation bytes for the whole micro-batch on one GPU.
pub fn activations(plan: &GpuPlan, micro_batch: u32) -> f64 {
    let b = micro_batch as f64;
    match plan.model.arch {
        Arch::Transformer { layers, hidden, heads, .. } => {
            let (s, h, a, l) = (plan.seq_len as f64, hidden as f64, heads as f64, layers as f64);
            let attention_matrix = if plan.flash_attention { 0.0 } else { 5.0 * a * s / h };
            let sbh = s * b * h;
            let bytes_per_layer = match (plan.workload, plan.checkpointing) {
                // Inference keeps no activations for backward: one layer's working set.
                (Workload::Inference, _) => return sbh * (34.0 + attention_matrix),
                (Workload::Training, Checkpointing::None) => sbh * (34.0 + attention_matrix),
                (Workload::Training, Checkpointing::Selective) => sbh * 34.0,
                (Workload::Training, Checkpointing::Full) => {
                    return l * 2.0 * sbh + sbh * (34.0 + attention_matrix);
                }
            };
            l * bytes_per_layer
        }
        Arch::Other { activation_bytes_per_sample } => {
            let per_sample = activation_bytes_per_sample as f64;
            match (plan.workload, plan.checkpointing) {
                (Workload::Inference, _) => b * per_sample / 4.0,
                (_, Checkpointing::None) => b * per_sample,
                (_, Checkpointing::Selective) => b * per_sample * 0.6,
                (_, Checkpointing::Full) => b * per_sample * 0.25,
            }
        }
    }
}

/// KV cache bytes for `tokens` tokens at `bytes` per element.
pub fn kv_cache(model: &ModelSpec, tokens: f64, bytes: f64) -> f64 {
    match model.arch {
        Arch::Transformer { layers, kv_heads, .. } => {
            2.0 * layers as f64 * kv_heads as f64 * model.arch.head_dim() as f64 * tokens * bytes
        }
        Arch::Other { .. } => 0.0,
    }
}

pub fn compute(plan: &GpuPlan) -> GpuBudget {
    compute_with_batch(plan, plan.micro_batch)
}

pub fn compute_with_batch(plan: &GpuPlan, micro_batch: u32) -> GpuBudget {
    let psi = plan.model.params as f64;
    let n = plan.gpus.max(1) as f64;
    let mut parts = Vec::new();
    let mut host = 0.0;
    let base_bytes = plan.weights.bytes();
    match plan.workload {
        Workload::Inference => {
            parts.push((Component::Weights, psi * base_bytes));
            let kv_tokens = plan.kv_batch as f64 * plan.seq_len as f64;
            parts.push((Component::KvCache, kv_cache(&plan.model, kv_tokens, 2.0)));
            parts.push((Component::Activations, activations(plan, plan.kv_batch.max(1))));
        }
        Workload::Training => {
            let trainable = trainable_params(plan);
            let (w, g, o) = state_bytes(plan);
            // A frozen base (LoRA) is stored at the weight dtype, 4-bit for QLoRA.
            let frozen = match plan.adapter {
                Adapter::Full => 0.0,
                Adapter::Lora { .. } => psi * base_bytes,
            };
            let shard = |stage_shards: bool| if stage_shards { n } else { 1.0 };
            let mut weights = frozen + trainable * w / shard(plan.sharding == Sharding::Zero3);
            let grads = trainable * g / shard(matches!(plan.sharding, Sharding::Zero2 | Sharding::Zero3));
            let mut optimizer = trainable * o / shard(plan.sharding != Sharding::Replicated);
            if plan.offload_optimizer {
                host += optimizer;
                optimizer = 0.0;
            }
            if plan.offload_params {
                // Parameters stream in a layer at a time; one layer stays resident.
                let layers = match plan.model.arch {
                    Arch::Transformer { layers, .. } => layers.max(1) as f64,
                    Arch::Other { .. } => 1.0,
                };
                let resident = psi * base_bytes.max(w) / layers;
                host += weights - resident.min(weights);
                weights = resident.min(weights);
            }
            parts.push((Component::Weights, weights));
            parts.push((Component::Gradients, grads));
            parts.push((Component::OptimizerStates, optimizer));
            parts.push((Component::Activations, activations(plan, micro_batch)));
        }
    }
    if plan.vllm_utilization > 0.0 {
        parts.push((Component::VllmReservation, plan.vllm_utilization.min(1.0) * plan.capacity.as_f64()));
    }
    parts.push((Component::CudaContext, plan.cuda_context.as_f64()));
    let subtotal: f64 = parts.iter().map(|(_, b)| b).sum();
    parts.push((Component::Fragmentation, subtotal * plan.fragmentation.clamp(0.0, 1.0)));
    let parts: Vec<(Component, Bytes)> = parts.into_iter().map(|(c, b)| (c, Bytes::from_f64(b))).collect();
    let total = parts.iter().map(|(_, b)| *b).sum();
    let rollout_kv_tokens = (plan.vllm_utilization > 0.0).then(|| {
        let reserved = plan.vllm_utilization.min(1.0) * plan.capacity.as_f64();
        let per_token = kv_cache(&plan.model, 1.0, 2.0);
        let left = reserved - psi * 2.0;
        if per_token > 0.0 && left > 0.0 {
            (left / per_token) as u64
        } else {
            0
        }
    });
    GpuBudget { parts, total, capacity: plan.capacity, offloaded_to_host: Bytes::from_f64(host), rollout_kv_tokens }
}

/// The largest micro batch (up to 65,536) that fits, or None if even 1 does not.
/// Memory grows with the batch, so a binary search suffices.
pub fn max_micro_batch(plan: &GpuPlan) -> Option<u32> {
    if !compute_with_batch(plan, 1).fits() {
        return None;
    }
    let (mut lo, mut hi) = (1u32, 65_536u32);
    if compute_with_batch(plan, hi).fits() {
        return Some(hi);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if compute_with_batch(plan, mid).fits() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

impl GpuPlan {
    /// A sensible starting point: Llama-2-7B, bf16 mixed precision, AdamW, on one 80 GB GPU.
    pub fn example() -> GpuPlan {
        GpuPlan {
            // The first preset is Llama-2-7B.
            model: super::model::presets().swap_remove(0),
            workload: Workload::Training,
            weights: Dtype::Bf16,
            fp32_master: true,
            optimizer: Optimizer::Adam,
            checkpointing: Checkpointing::None,
            flash_attention: true,
            micro_batch: 4,
            seq_len: 2048,
            sharding: Sharding::Replicated,
            gpus: 1,
            offload_params: false,
            offload_optimizer: false,
            adapter: Adapter::Full,
            kv_batch: 1,
            vllm_utilization: 0.0,
            cuda_context: Bytes(GIB / 2),
            fragmentation: 0.05,
            capacity: Bytes(80 * GIB),
        }
    }
}
