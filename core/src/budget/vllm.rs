//! vLLM's start-up arithmetic, so the page can print what vLLM will print.
//!
//! vLLM may use `gpu_memory_utilization` x the GPU's total memory (engine
//! arguments). At start-up it loads the weights, profiles one forward pass
//! (activation peak, plus memory outside PyTorch), and gives the rest to the
//! KV cache (`gpu_worker.py`, "Available KV cache memory"). The cache is cut
//! into blocks of `block_size` tokens; one block holds K and V for every layer:
//! `2 · block_size · kv_heads · head_dim · dtype bytes` per layer
//! (`FullAttentionSpec.page_size_bytes`), and `num_blocks = available //
//! page_size // num_layers` (`kv_cache_utils.get_num_blocks`). vLLM then logs
//! "GPU KV cache size: {num_blocks · block_size:,} tokens" and "Maximum
//! concurrency for {max_model_len:,} tokens per request: {x:.2f}x" with
//! `x = num_blocks / cdiv(max_model_len, block_size)`
//! (`get_max_concurrency_for_kv_cache_config`). Start-up fails when no memory
//! is left, or when one request of `max_model_len` tokens does not fit
//! (`_check_enough_kv_cache_memory`).

use super::model::{Arch, ModelSpec, Shape};
use crate::units::{grouped, Bytes, GIB};
use serde::Serialize;

/// KV cache elements are 16-bit unless `--kv-cache-dtype` says otherwise.
const KV_BYTES: f64 = 2.0;

/// Tokens in vLLM's profiling pass, `max_num_batched_tokens`: we take
/// `max_model_len` capped at 8,192 [HEURISTIC: the default differs by version
/// and GPU; a measured figure from the log replaces the estimate].
const PROFILE_TOKENS: u32 = 8192;

/// What vLLM is started with.
#[derive(Clone, Copy, Debug)]
pub struct VllmSetup<'a> {
    pub model: &'a ModelSpec,
    pub capacity: Bytes,
    pub utilization: f64,
    /// Bytes per parameter of the weights vLLM loads.
    pub weight_bytes: f64,
    /// Its profile peak (activations and non-torch memory) when measured.
    pub measured_overhead: Option<Bytes>,
    /// Memory outside PyTorch (CUDA context, NCCL), for the estimate.
    pub non_torch: Bytes,
    pub block_size: u32,
    pub max_model_len: u32,
}

/// vLLM's start-up, in the figures its log prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VllmStartup {
    pub utilization: f64,
    /// Total memory x utilization: all vLLM may use.
    pub requested: Bytes,
    pub weights: Bytes,
    /// The profiling pass's activation peak plus non-torch memory.
    pub overhead: Bytes,
    /// True when the overhead was read from a log rather than estimated.
    pub overhead_measured: bool,
    /// "Available KV cache memory" (zero when the weights leave nothing).
    pub kv_cache: Bytes,
    /// One block across all layers.
    pub block_bytes: u64,
    pub gpu_blocks: u64,
    pub block_size: u32,
    pub max_model_len: u32,
}

/// One layer's working set for `tokens` tokens, 16-bit, without the s x s
/// attention matrix (FlashAttention): Korthikanti's 34 bytes per token per
/// hidden unit, plus an MLP's 19 per further expert a token visits.
pub fn working_set(shape: &Shape, tokens: f64) -> f64 {
    tokens * shape.hidden as f64 * (34.0 + 19.0 * shape.active_experts.saturating_sub(1) as f64)
}

/// vLLM's start-up for this setup; None for a model without attention layers.
pub fn startup(setup: &VllmSetup) -> Option<VllmStartup> {
    let Arch::Transformer(shape) = &setup.model.arch else { return None };
    let utilization = setup.utilization.clamp(0.0, 1.0);
    let requested = utilization * setup.capacity.as_f64();
    let weights = setup.model.params as f64 * setup.weight_bytes;
    let overhead = match setup.measured_overhead {
        Some(measured) => measured.as_f64(),
        None => {
            let tokens = setup.max_model_len.min(PROFILE_TOKENS) as f64;
            working_set(shape, tokens) + setup.non_torch.as_f64()
        }
    };
    let kv_cache = (requested - weights - overhead).max(0.0);
    let block_bytes = 2.0 * setup.block_size as f64 * shape.kv_width() as f64 * KV_BYTES * shape.layers as f64;
    let gpu_blocks = if block_bytes > 0.0 { (kv_cache / block_bytes).floor() as u64 } else { 0 };
    Some(VllmStartup {
        utilization,
        requested: Bytes::from_f64(requested),
        weights: Bytes::from_f64(weights),
        overhead: Bytes::from_f64(overhead),
        overhead_measured: setup.measured_overhead.is_some(),
        kv_cache: Bytes::from_f64(kv_cache),
        block_bytes: Bytes::from_f64(block_bytes).0,
        gpu_blocks,
        block_size: setup.block_size.max(1),
        max_model_len: setup.max_model_len.max(1),
    })
}

impl VllmStartup {
    /// "GPU KV cache size: N tokens".
    pub fn tokens(&self) -> u64 {
        self.gpu_blocks.saturating_mul(self.block_size as u64)
    }

    fn blocks_per_request(&self) -> u64 {
        (self.max_model_len as u64).div_ceil(self.block_size as u64)
    }

    /// "Maximum concurrency for N tokens per request: x".
    pub fn max_concurrency(&self) -> f64 {
        self.gpu_blocks as f64 / self.blocks_per_request() as f64
    }

    /// Whether vLLM starts: some memory is left for the KV cache, and it holds
    /// one request of `max_model_len` tokens.
    pub fn starts(&self) -> bool {
        self.kv_cache.0 > 0 && self.gpu_blocks > 0 && self.gpu_blocks >= self.blocks_per_request()
    }

    /// The lines vLLM logs at start-up (or the error it raises), as it words them.
    pub fn log_lines(&self) -> Vec<String> {
        let gib = |b: f64| format!("{:.2}", b / GIB as f64);
        if self.kv_cache.0 == 0 || self.gpu_blocks == 0 {
            return vec!["ValueError: No available memory for the cache blocks. Try increasing \
                         `gpu_memory_utilization` when initializing the engine."
                .into()];
        }
        let mut lines = vec![
            format!("Available KV cache memory: {} GiB", gib(self.kv_cache.as_f64())),
            format!("# GPU blocks: {}", self.gpu_blocks),
            format!("GPU KV cache size: {} tokens", grouped(self.tokens())),
            format!(
                "Maximum concurrency for {} tokens per request: {:.2}x",
                grouped(self.max_model_len as u64),
                self.max_concurrency()
            ),
        ];
        if !self.starts() {
            let needed = self.blocks_per_request() as f64 * self.block_bytes as f64;
            lines.push(format!(
                "ValueError: To serve at least one request with the models's max seq len ({}), ({} GiB KV cache is \
                 needed, which is larger than the available KV cache memory ({} GiB). Based on the available memory, \
                 the estimated maximum model length is {}. Try increasing `gpu_memory_utilization` or decreasing \
                 `max_model_len` when initializing the engine.",
                self.max_model_len,
                gib(needed),
                gib(self.kv_cache.as_f64()),
                self.tokens()
            ));
        }
        lines
    }
}

#[cfg(test)]
mod tests;
