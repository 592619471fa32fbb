//! vLLM's start-up figures against its own published logs. vLLM prints the KV
//! cache memory to two decimals of a GiB, so from that figure the block count
//! is checked to lie in the range the rounding allows; from a block count the
//! token and concurrency lines are checked digit for digit.

use super::*;
use crate::budget::model::preset;

/// A setup whose KV cache gets exactly `kv_cache` bytes: no weights to load,
/// a measured (zero) profile peak, all of a GPU of that size.
fn with_kv_cache(model: &str, kv_cache: f64, max_model_len: u32) -> VllmStartup {
    let model = ModelSpec { params: 0, ..preset(model).unwrap() };
    startup(&VllmSetup {
        model: &model,
        capacity: Bytes::from_f64(kv_cache),
        utilization: 1.0,
        weight_bytes: 2.0,
        measured_overhead: Some(Bytes(0)),
        non_torch: Bytes(0),
        block_size: 16,
        max_model_len,
    })
    .unwrap()
}

/// The blocks a KV cache printed as `gib` (two decimals) can hold, at least and at most.
fn blocks_for_printed(model: &str, gib: f64, max_model_len: u32) -> (u64, u64) {
    let at = |g: f64| with_kv_cache(model, g * GIB as f64, max_model_len).gpu_blocks;
    (at(gib - 0.005), at(gib + 0.005))
}

/// The startup whose KV cache holds exactly `blocks` blocks.
fn with_blocks(model: &str, blocks: u64, max_model_len: u32) -> VllmStartup {
    let block = with_kv_cache(model, 1.0, max_model_len).block_bytes;
    let v = with_kv_cache(model, (blocks * block) as f64, max_model_len);
    assert_eq!(v.gpu_blocks, blocks);
    v
}

/// https://github.com/vllm-project/vllm/issues/10517 (Llama-3.1-8B on an RTX
/// 3090, vLLM V0): "kv_cache_size=3.81GiB", "# GPU blocks: 1952", "Maximum
/// concurrency for 20000 tokens per request: 1.56x"; with --max-model-len 29000
/// "kv_cache_size=2.89GiB", "# GPU blocks: 1478", "Maximum concurrency for 29000
/// tokens per request: 0.82x" and "The model's max seq len (29000) is larger
/// than the maximum number of tokens that can be stored in KV cache (23648)".
#[test]
fn llama_3_8b_on_a_24_gib_card() {
    let (least, most) = blocks_for_printed("Llama-3-8B", 3.81, 20_000);
    assert!((least..=most).contains(&1952), "{least}..={most}");
    let v = with_blocks("Llama-3-8B", 1952, 20_000);
    assert!(v.starts());
    let lines = v.log_lines();
    assert!(lines.contains(&"# GPU blocks: 1952".to_string()), "{lines:?}");
    assert!(lines.contains(&"Maximum concurrency for 20,000 tokens per request: 1.56x".to_string()), "{lines:?}");

    let (least, most) = blocks_for_printed("Llama-3-8B", 2.89, 29_000);
    assert!((least..=most).contains(&1478), "{least}..={most}");
    let v = with_blocks("Llama-3-8B", 1478, 29_000);
    assert_eq!(v.tokens(), 23_648);
    assert!(!v.starts(), "29,000 tokens do not fit in 23,648");
    let lines = v.log_lines();
    assert!(lines.contains(&"Maximum concurrency for 29,000 tokens per request: 0.82x".to_string()), "{lines:?}");
    assert!(lines.last().unwrap().contains("the estimated maximum model length is 23648"), "{lines:?}");

    // The whole start-up from the same log's profile: total_gpu_memory=23.58GiB x 0.90,
    // weights 14.9888 GB, peak_torch_memory=17.06GiB, non_torch_memory=0.35GiB.
    let model = preset("Llama-3-8B").unwrap();
    let weights_gib = 14.9888;
    let setup = VllmSetup {
        model: &model,
        capacity: Bytes::from_gib(23.58),
        utilization: 0.90,
        weight_bytes: weights_gib * GIB as f64 / model.params as f64,
        measured_overhead: Some(Bytes::from_gib(17.06 - weights_gib + 0.35)),
        non_torch: Bytes(0),
        block_size: 16,
        max_model_len: 20_000,
    };
    let v = startup(&setup).unwrap();
    assert!(v.gpu_blocks.abs_diff(1952) <= 3, "{} blocks, log: 1952 (figures printed to 0.01 GiB)", v.gpu_blocks);
}

/// https://github.com/vllm-project/vllm/pull/12569 (Llama-3.1-70B, --max-model-len
/// 2048): "# GPU blocks: 1381", "Maximum concurrency for 2048 tokens per request: 10.79x".
/// https://github.com/vllm-project/vllm/pull/13596: "GPU KV cache size: 2,042,016
/// tokens", "Maximum concurrency for 2,048 tokens per request: 997.08x".
#[test]
fn blocks_tokens_and_concurrency_as_vllm_prints_them() {
    let lines = with_blocks("Llama-3-70B", 1381, 2048).log_lines();
    assert!(lines.contains(&"Maximum concurrency for 2,048 tokens per request: 10.79x".to_string()), "{lines:?}");
    let v = with_blocks("Llama-3-8B", 127_626, 2048);
    let lines = v.log_lines();
    assert_eq!(
        lines[2..],
        ["GPU KV cache size: 2,042,016 tokens", "Maximum concurrency for 2,048 tokens per request: 997.08x"]
    );
    // A block is K and V for 16 tokens in every layer: 32 x 2 x 8 x 128 x 16 x 2 bytes for Llama-3-8B.
    assert_eq!(v.block_bytes, 2 << 20);
}

#[test]
fn no_memory_left_is_vllms_own_error() {
    let model = preset("Llama-3-70B").unwrap();
    let setup = VllmSetup {
        model: &model,
        capacity: Bytes(80 << 30),
        utilization: 0.9,
        weight_bytes: 2.0,
        measured_overhead: None,
        non_torch: Bytes(1 << 29),
        block_size: 16,
        max_model_len: 8192,
    };
    let v = startup(&setup).unwrap();
    assert!(!v.starts() && v.kv_cache == Bytes(0), "141 GB of weights on 72 GiB");
    assert!(v.log_lines()[0].starts_with("ValueError: No available memory for the cache blocks."));
    let resnet = preset("ResNet-50").unwrap();
    assert!(startup(&VllmSetup { model: &resnet, ..setup }).is_none(), "no attention, no KV cache");
}
