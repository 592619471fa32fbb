//! The inverse searches against the ZeRO paper's largest-model table, and
//! against the forward computation they search over (the answer fits, one
//! more does not).

use super::*;
use crate::budget::gpu::{compute, compute_with_batch, Adapter, Checkpointing};
use crate::budget::model::{preset, Arch, ModelSpec};
use crate::units::Bytes;

/// Model states only, on a GPU of `capacity` bytes: the ZeRO paper's setting.
fn states_only(capacity: u64, gpus: u32, sharding: Sharding) -> GpuPlan {
    GpuPlan {
        model: ModelSpec { name: "x".into(), params: 1, arch: Arch::Other { activation_bytes_per_sample: 0 } },
        cuda_context: Bytes(0),
        fragmentation: 0.0,
        capacity: Bytes(capacity),
        gpus,
        sharding,
        ..GpuPlan::example()
    }
}

/// ZeRO paper (Rajbhandari et al. 2020), Table 2, the largest model by memory
/// analysis on 32 GB V100s, 64 GPUs without model parallelism: baseline 2B,
/// P_os 7.6B, P_os+g 14.4B, P_os+g+p 128B.
#[test]
fn largest_model_per_zero_stage_on_32_gb_v100s() {
    let largest = |sharding| {
        let p = answers(&states_only(32_000_000_000, 64, sharding)).max_params.value().unwrap();
        format!("{:.1}", p as f64 / 1e9)
    };
    assert_eq!(largest(Sharding::Replicated), "2.0");
    assert_eq!(largest(Sharding::Zero1), "7.6");
    assert_eq!(largest(Sharding::Zero2), "14.4");
    assert_eq!(largest(Sharding::Zero3), "128.0");
    let ddp = answers(&states_only(32_000_000_000, 64, Sharding::Replicated));
    assert_eq!(ddp.max_params, Solved::Exactly(2_000_000_000), "16 bytes x 2 B = 32 GB exactly");
}

#[test]
fn each_answer_fits_and_one_more_does_not() {
    let plan = GpuPlan {
        adapter: Adapter::Lora { rank: 16 },
        checkpointing: Checkpointing::Selective,
        gpus: 8,
        ..GpuPlan::example()
    };
    let a = answers(&plan);
    let fits = |change: &dyn Fn(&mut GpuPlan)| {
        let mut t = plan.clone();
        change(&mut t);
        compute(&t).fits()
    };
    let p = a.max_params.value().unwrap();
    assert!(fits(&|t| t.model.params = p) && !fits(&|t| t.model.params = p + 1));
    let s = a.max_seq_len.value().unwrap() as u32;
    assert!(fits(&|t| t.seq_len = s) && !fits(&|t| t.seq_len = s + 1));
    let b = a.max_micro_batch.and_then(Solved::value).unwrap() as u32;
    assert!(compute_with_batch(&plan, b).fits() && !compute_with_batch(&plan, b + 1).fits());

    // Full fine-tuning of Llama-2-7B on 80 GiB cards: ZeRO-3 fits on a few, ZeRO-1 never (16 GB of weights and gradients stay).
    let full = GpuPlan { micro_batch: 1, ..GpuPlan::example() };
    let gpus = answers(&full).min_gpus;
    for (stage, fewest) in &gpus {
        if let Some(n) = *fewest {
            let n = n as u32;
            let with = |gpus: u32| compute(&GpuPlan { sharding: *stage, gpus, ..full.clone() }).fits();
            assert!(with(n) && (n == 1 || !with(n - 1)), "{stage:?}: {n}");
        }
    }
    assert!(gpus.iter().any(|(stage, n)| *stage == Sharding::Zero3 && n.is_some_and(|n| n <= 4)), "{gpus:?}");
}

#[test]
fn answers_at_the_ends_of_the_search_say_so() {
    // Model states alone exceed the card: no sequence length helps.
    let default = GpuPlan::example();
    let a = answers(&default);
    assert_eq!(a.max_seq_len, Solved::Never);
    assert_eq!(a.line(SolveKey::SeqLen, &default).unwrap(), "Longest sequence: not even 1 token fits.");
    // A network without sequence or per-sample memory: every length and batch fits.
    let tiny = states_only(80 << 30, 1, Sharding::Replicated);
    let a = answers(&tiny);
    assert_eq!(a.max_seq_len, Solved::AtLeast(MAX_SEQ_LEN));
    assert_eq!(
        a.line(SolveKey::MicroBatch, &tiny).unwrap(),
        "Largest micro batch that fits: 65,536 or more (the search stops there)."
    );
    assert_eq!(
        a.line(SolveKey::SeqLen, &tiny).unwrap(),
        "Longest sequence that fits: more than 10,000,000 tokens (the search stops there)."
    );
}

/// The utilization that holds a wanted KV cache is the smallest that does:
/// a thousandth less holds fewer tokens.
#[test]
fn vllm_utilization_for_a_wanted_kv_cache() {
    let serve = GpuPlan {
        model: preset("Qwen2.5-7B").unwrap(),
        workload: Workload::Inference,
        vllm_utilization: 0.9,
        vllm_target_tokens: 131_072,
        seq_len: 32_768,
        ..GpuPlan::example()
    };
    let answer = answers(&serve).vllm_utilization.unwrap();
    let u = answer.utilization.unwrap();
    let tokens = |u: f64| compute(&GpuPlan { vllm_utilization: u, ..serve.clone() }).vllm.unwrap().tokens();
    assert!(tokens(u) >= 131_072 && tokens(u - 0.001) < 131_072, "{u}");
    assert_eq!(answer.tokens, tokens(u));
    let line = answers(&serve).line(SolveKey::VllmUtil, &serve).unwrap();
    assert!(line.starts_with(&format!("gpu_memory_utilization for 131,072 tokens of KV cache: {u:.3}")), "{line}");

    let greedy = GpuPlan { vllm_target_tokens: 100_000_000, ..serve.clone() };
    let line = answers(&greedy).line(SolveKey::VllmUtil, &greedy).unwrap();
    assert!(line.starts_with("No gpu_memory_utilization holds 100,000,000 tokens"), "{line}");
    assert!(answers(&GpuPlan { vllm_target_tokens: 0, ..serve }).vllm_utilization.is_none(), "not asked");
}
