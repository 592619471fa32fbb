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
use super::vllm::{self, VllmSetup, VllmStartup};
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
    /// vLLM's `gpu_memory_utilization` (0 = no vLLM): the engine serving
    /// inference, or an RL rollout engine beside training on the same GPU.
    pub vllm_utilization: f64,
    /// vLLM's `--block-size`: tokens per KV cache block.
    pub block_size: u32,
    /// vLLM's profile peak (activations and non-torch memory) read from its
    /// log; None: estimated.
    pub vllm_overhead: Option<Bytes>,
    /// For the inverse search: KV cache tokens the vLLM engine should hold (0 = not asked).
    pub vllm_target_tokens: u64,
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
    VllmProfile,
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
            Component::VllmProfile => "vLLM profile peak (activations, non-torch)",
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
    /// With vLLM (serving, or a rollout engine beside training): its start-up.
    pub vllm: Option<VllmStartup>,
}

impl GpuBudget {
    /// The total fits the GPU, and vLLM (if any) starts.
    pub fn fits(&self) -> bool {
        self.total <= self.capacity && self.vllm.as_ref().is_none_or(VllmStartup::starts)
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
        Arch::Transformer(s) => 4.0 * (1.0 / s.hidden.max(1) as f64 + 1.0 / s.intermediate.max(1) as f64),
        Arch::Other { .. } => 0.05,
    }
}

/// Trainable parameters: all of them, or the LoRA adapters (r·(in+out) per
/// linear layer: q, k, v, o and every expert's three MLP matrices).
pub fn trainable_params(plan: &GpuPlan) -> f64 {
    match (plan.adapter, &plan.model.arch) {
        (Adapter::Full, _) => plan.model.params as f64,
        (Adapter::Lora { rank }, Arch::Transformer(s)) => {
            let (h, i, r) = (s.hidden as f64, s.intermediate as f64, rank as f64);
            let (q, kv) = (s.q_width() as f64, s.kv_width() as f64);
            let attention = r * ((h + q) * 2.0 + (h + kv) * 2.0);
            let mlp = 3.0 * r * (h + i) * s.experts.max(1) as f64;
            s.layers as f64 * (attention + mlp)
        }
        (Adapter::Lora { rank }, Arch::Other { .. }) => plan.model.params as f64 * (rank as f64 / 1000.0).min(1.0),
    }
}

/// Activation bytes for the whole micro-batch on one GPU.
pub fn activations(plan: &GpuPlan, micro_batch: u32) -> f64 {
    let b = micro_batch as f64;
    match plan.model.arch {
        Arch::Transformer(shape) => {
            let (s, h, a, l) = (plan.seq_len as f64, shape.hidden as f64, shape.heads as f64, shape.layers as f64);
            let attention_matrix = if plan.flash_attention { 0.0 } else { 5.0 * a * s / h };
            // Korthikanti's 34 is attention 11 + MLP 19 + norms 4 (section 4.1);
            // each further expert a token runs through keeps another MLP's 19.
            let stored = 34.0 + 19.0 * shape.active_experts.saturating_sub(1) as f64;
            let sbh = s * b * h;
            let bytes_per_layer = match (plan.workload, plan.checkpointing) {
                // Inference keeps no activations for backward: one layer's working set.
                (Workload::Inference, _) => return sbh * (stored + attention_matrix),
                (Workload::Training, Checkpointing::None) => sbh * (stored + attention_matrix),
                (Workload::Training, Checkpointing::Selective) => sbh * stored,
                (Workload::Training, Checkpointing::Full) => {
                    return l * 2.0 * sbh + sbh * (stored + attention_matrix);
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
        Arch::Transformer(s) => 2.0 * s.layers as f64 * s.kv_width() as f64 * tokens * bytes,
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
    let vllm = vllm_startup(plan);
    let serving = plan.workload == Workload::Inference && vllm.is_some();
    match (plan.workload, &vllm) {
        // vLLM's reservation holds everything: weights, its profile peak, then KV cache.
        (Workload::Inference, Some(v)) => {
            parts.push((Component::Weights, v.weights.as_f64()));
            parts.push((Component::KvCache, v.kv_cache.as_f64()));
            parts.push((Component::VllmProfile, v.overhead.as_f64()));
        }
        (Workload::Inference, None) => {
            parts.push((Component::Weights, psi * base_bytes));
            let kv_tokens = plan.kv_batch as f64 * plan.seq_len as f64;
            parts.push((Component::KvCache, kv_cache(&plan.model, kv_tokens, 2.0)));
            parts.push((Component::Activations, activations(plan, plan.kv_batch.max(1))));
        }
        (Workload::Training, _) => {
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
                    Arch::Transformer(s) => s.layers.max(1) as f64,
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
    if !serving {
        if let Some(v) = &vllm {
            parts.push((Component::VllmReservation, v.requested.as_f64()));
        }
        parts.push((Component::CudaContext, plan.cuda_context.as_f64()));
        let subtotal: f64 = parts.iter().map(|(_, b)| b).sum();
        parts.push((Component::Fragmentation, subtotal * plan.fragmentation.clamp(0.0, 1.0)));
    }
    let parts: Vec<(Component, Bytes)> = parts.into_iter().map(|(c, b)| (c, Bytes::from_f64(b))).collect();
    // Saturating: a part too large for 64 bits makes the total "more than" the largest figure.
    let total = parts.iter().map(|(_, b)| *b).sum();
    GpuBudget { parts, total, capacity: plan.capacity, offloaded_to_host: Bytes::from_f64(host), vllm }
}

/// vLLM's start-up when the plan has a vLLM engine: serving inference with the
/// weights at their dtype, or a rollout engine holding a 16-bit copy beside training.
pub fn vllm_startup(plan: &GpuPlan) -> Option<VllmStartup> {
    if plan.vllm_utilization <= 0.0 {
        return None;
    }
    let weight_bytes = match plan.workload {
        Workload::Inference => plan.weights.bytes(),
        Workload::Training => 2.0,
    };
    vllm::startup(&VllmSetup {
        model: &plan.model,
        capacity: plan.capacity,
        utilization: plan.vllm_utilization,
        weight_bytes,
        measured_overhead: plan.vllm_overhead,
        non_torch: plan.cuda_context,
        block_size: plan.block_size,
        max_model_len: plan.seq_len,
    })
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
            block_size: 16,
            vllm_overhead: None,
            vllm_target_tokens: 0,
            cuda_context: Bytes(GIB / 2),
            fragmentation: 0.05,
            capacity: Bytes(80 * GIB),
        }
    }
}
