//! The calculator against published figures; each test names its source.

use super::gpu::*;
use super::host::HostPlan;
use super::model::{preset, Arch, ModelSpec, Shape};
use super::*;
use crate::units::{Bytes, MIB};

fn plain(params: u64) -> GpuPlan {
    GpuPlan {
        model: ModelSpec { name: "x".into(), params, arch: Arch::Other { activation_bytes_per_sample: 0 } },
        cuda_context: Bytes(0),
        fragmentation: 0.0,
        capacity: Bytes(u64::MAX / 4),
        ..GpuPlan::example()
    }
}

fn model_states(b: &GpuBudget) -> f64 {
    (b.part(Component::Weights) + b.part(Component::Gradients) + b.part(Component::OptimizerStates)).as_f64()
}

/// ZeRO paper (Rajbhandari et al. 2020), section 3.1 and figure 1: 7.5 B
/// parameters, mixed-precision Adam, N_d = 64: 120 GB (DDP), 31.4 GB (stage 1),
/// 16.6 GB (stage 2), 1.9 GB (stage 3).
#[test]
fn zero_paper_model_states() {
    let base = GpuPlan { gpus: 64, ..plain(7_500_000_000) };
    let gb = |sharding| model_states(&compute(&GpuPlan { sharding, ..base.clone() })) / 1e9;
    assert!((gb(Sharding::Replicated) - 120.0).abs() < 0.01, "{}", gb(Sharding::Replicated));
    assert!((gb(Sharding::Zero1) - 31.4).abs() < 0.05, "{}", gb(Sharding::Zero1));
    assert!((gb(Sharding::Zero2) - 16.6).abs() < 0.05, "{}", gb(Sharding::Zero2));
    assert!((gb(Sharding::Zero3) - 1.9).abs() < 0.05, "{}", gb(Sharding::Zero3));
}

/// EleutherAI "Transformer Math 101" (2023): fp32 Adam 16 bytes/param, SGD with
/// momentum 12, 8-bit Adam states 2 bytes/param instead of 8.
#[test]
fn bytes_per_parameter_by_optimizer() {
    let per_param = |optimizer, fp32_master, weights| {
        model_states(&compute(&GpuPlan { optimizer, fp32_master, weights, ..plain(1_000_000) })) / 1e6
    };
    assert_eq!(per_param(Optimizer::Adam, false, Dtype::Fp32), 16.0);
    assert_eq!(per_param(Optimizer::SgdMomentum, false, Dtype::Fp32), 12.0);
    assert_eq!(per_param(Optimizer::Adam8bit, false, Dtype::Fp32), 10.0);
    assert_eq!(per_param(Optimizer::Adam, true, Dtype::Bf16), 16.0, "mixed precision does not halve model states");
}

/// Korthikanti et al. 2022, section 4: activations per layer s·b·h·(34 + 5·a·s/h)
/// bytes. Worked by hand for GPT-3 175B's shape (s = 2048, h = 12288, a = 96,
/// b = 1): 34 + 5·96·2048/12288 = 114, so 2048·12288·114 = 2,868,903,936 bytes
/// per layer; FlashAttention leaves 34·s·b·h = 855,638,016.
#[test]
fn activation_formula_worked_numbers() {
    let gpt3_layer = ModelSpec {
        name: "gpt3-1-layer".into(),
        params: 0,
        arch: Arch::Transformer(Shape::dense(1, 12288, 96, 96, 49152, 0)),
    };
    let plan = GpuPlan {
        model: gpt3_layer,
        seq_len: 2048,
        flash_attention: false,
        checkpointing: Checkpointing::None,
        ..plain(0)
    };
    assert_eq!(activations(&plan, 1), 2_868_903_936.0);
    assert_eq!(activations(&GpuPlan { flash_attention: true, ..plan.clone() }, 1), 855_638_016.0);
    assert_eq!(
        activations(&GpuPlan { checkpointing: Checkpointing::Full, flash_attention: true, ..plan.clone() }, 1),
        2.0 * 2048.0 * 12288.0 + 855_638_016.0
    );
    assert_eq!(activations(&plan, 4), 4.0 * 2_868_903_936.0, "linear in the micro batch");
}

/// KV cache: Llama-2-7B is 0.5 MiB per token in fp16 (calculator-formulas.md);
/// Llama-3.1-8B (8 KV heads) 128 KiB per token, which matches vLLM's log in
/// vllm-project/vllm#10517: 23,648 tokens of KV cache in 2.89 GiB (3,103,113,871 bytes).
#[test]
fn kv_cache_sizes_for_known_models() {
    let llama2 = preset("Llama-2-7B").unwrap();
    assert_eq!(kv_cache(&llama2, 1.0, 2.0), (512 * 1024) as f64);
    let llama3 = preset("Llama-3-8B").unwrap();
    assert_eq!(kv_cache(&llama3, 1.0, 2.0), (128 * 1024) as f64);
    let vllm_log = 3_103_113_871.0;
    let ours = kv_cache(&llama3, 23_648.0, 2.0);
    assert!((ours - vllm_log).abs() / vllm_log < 0.01, "{ours} vs {vllm_log}");
}

#[test]
fn llama_7b_full_finetune_on_one_a100_does_not_fit_and_says_what_to_turn() {
    let plan = Plan::default();
    let budget = evaluate(&plan);
    assert!(!budget.gpu.fits(), "16 bytes x 6.7 B = 108 GB > 80 GiB");
    assert_eq!(budget.answers.max_micro_batch, Some(solve::Solved::Never), "model states alone exceed the card");
    let ids: Vec<&str> = budget.suggestions.iter().map(|s| s.id).collect();
    assert!(ids.contains(&"cpu_offload") && ids.contains(&"quantize"), "{ids:?}");
    let offload = budget.suggestions.iter().find(|s| s.id == "cpu_offload").unwrap();
    assert!(offload.after < budget.gpu.total);
}

#[test]
fn a_batch_that_does_not_fit_suggests_accumulation_with_values() {
    let mut plan = Plan::default();
    plan.gpu.adapter = Adapter::Lora { rank: 16 };
    plan.gpu.micro_batch = 22;
    plan.gpu.flash_attention = false;
    let budget = evaluate(&plan);
    assert!(!budget.gpu.fits());
    let m = budget.answers.max_micro_batch.and_then(solve::Solved::value).unwrap() as u32;
    let accumulation = budget.suggestions.iter().find(|s| s.id == "grad_accumulation").unwrap();
    let steps = 22u32.div_ceil(m);
    assert!(
        accumulation
            .change
            .starts_with(&format!("micro batch 22 -> {} with accumulate_grad_batches={steps}", 22u32.div_ceil(steps))),
        "{}",
        accumulation.change
    );
    assert!(accumulation.fits);
    assert!(budget.suggestions[0].fits, "fitting suggestions come first");
}

#[test]
fn host_seed_scenario_and_sbatch_line() {
    let plan = Plan { host: HostPlan::seed_job_273202(), ..Plan::default() };
    let budget = evaluate(&plan);
    assert!(!budget.host.fits());
    assert!(budget.sbatch.starts_with("#SBATCH --mem="));
    let mem = budget.suggestions.iter().find(|s| s.id == "more_host_mem_request").unwrap();
    assert!(mem.fits && mem.change.starts_with(&budget.sbatch));
    assert!(budget.suggestions.iter().any(|s| s.id == "fewer_workers" && s.change == "num_workers 2 -> 1 per rank"));
}

#[test]
fn fields_round_trip_through_text_and_reject_bad_values() {
    let mut plan = Plan::default();
    for (key, value) in [
        ("model", "Mistral-7B"),
        ("micro_batch", "16"),
        ("sharding", "zero3"),
        ("gpus", "8"),
        ("gpu", "H100-80GB"),
        ("flash", "false"),
        ("workers", "4"),
    ] {
        fields::set(&mut plan, key, value).unwrap();
        assert_eq!(fields::get(&plan, key), value, "{key}");
    }
    let pairs: Vec<(String, String)> = fields::diff_pairs(&plan).into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let mut restored = Plan::default();
    assert!(fields::apply(&mut restored, &pairs).is_empty());
    assert_eq!(restored, plan, "a link reproduces the calculation");

    let before = plan.clone();
    for (key, bad) in [
        ("micro_batch", "0"),
        ("micro_batch", "NaN"),
        ("micro_batch", "2.5"),
        ("vllm_util", "1.5"),
        ("gpus", "1e30"),
        ("sharding", "zero9"),
        ("flash", "maybe"),
        ("gpu_mem_gib", "-4"),
        ("nope", "1"),
    ] {
        let err = fields::set(&mut plan, key, bad).unwrap_err();
        assert!(!err.is_empty(), "{key}={bad}");
    }
    assert_eq!(plan, before, "bad values change nothing");
    assert!(fields::set(&mut plan, "vllm_util", "1.5").unwrap_err().contains("between 0 and 1"));
}

#[test]
fn extreme_values_never_panic() {
    let mut plan = Plan::default();
    for (key, value) in [
        ("params", "1e13"),
        ("micro_batch", "65536"),
        ("seq_len", "10000000"),
        ("gpus", "1000000"),
        ("hidden", "1000000"),
        ("heads", "1"),
        ("layers", "1000"),
        ("gpu_mem_gib", "0.1"),
        ("frag_pct", "100"),
        ("workers", "1024"),
        ("node_gib", "0.1"),
    ] {
        fields::set(&mut plan, key, value).unwrap();
        let _ = evaluate(&plan);
    }
    let _ = markdown(&plan, &evaluate(&plan), "");
    let _ = MIB;
}

/// vLLM engine args: the engine may use utilization x total memory; after its
/// 16-bit copy of the weights and its profile peak, the rest is KV cache, in
/// blocks of 16 tokens. Qwen2.5-7B (28 layers, 4 KV heads of 128: 56 KiB per
/// token in bf16) at 0.6 of an 80 GiB card beside training: 48 GiB - 15.2 GB of
/// weights - the profile peak leaves room for about 600 k tokens.
#[test]
fn rollout_kv_cache_left_after_the_weights() {
    let plan = GpuPlan { model: preset("Qwen2.5-7B").unwrap(), vllm_utilization: 0.6, ..GpuPlan::example() };
    let b = compute(&plan);
    let v = b.vllm.as_ref().expect("a rollout engine");
    let reserved = 0.6 * (80u64 << 30) as f64;
    let profile = 2048.0 * 3584.0 * 34.0 + plan.cuda_context.as_f64();
    let block = 16.0 * 2.0 * 28.0 * 4.0 * 128.0 * 2.0;
    let blocks = ((reserved - plan.model.params as f64 * 2.0 - profile) / block).floor() as u64;
    assert_eq!((v.gpu_blocks, v.tokens()), (blocks, blocks * 16));
    assert!((550_000..650_000).contains(&v.tokens()), "{}", v.tokens());
    assert_eq!(b.part(Component::VllmReservation), Bytes::from_f64(reserved));
    assert!(compute(&GpuPlan::example()).vllm.is_none());
}

/// ZeRO-Offload moves the optimizer states (12 bytes/param with the fp32
/// copy) to host RAM: the GPU loses exactly what the host gains.
#[test]
fn offloading_moves_optimizer_state_to_the_host() {
    let plan = GpuPlan { gpus: 1, ..plain(1_000_000_000) };
    let on_gpu = compute(&plan);
    let offloaded = compute(&GpuPlan { offload_optimizer: true, ..plan.clone() });
    assert_eq!(offloaded.offloaded_to_host, on_gpu.part(Component::OptimizerStates));
    assert_eq!(offloaded.offloaded_to_host, Bytes(12_000_000_000));
    assert_eq!(offloaded.part(Component::OptimizerStates), Bytes(0));
}

/// Issue 11 item 7: `#/budget?seq_len=10000000&flash=false&micro_batch=64`
/// showed a verdict of 16777216.00 TiB, a saturated value printed as a figure.
#[test]
fn a_value_too_large_to_hold_reads_more_than() {
    let mut plan = Plan::default();
    let link = [("seq_len", "10000000"), ("flash", "false"), ("micro_batch", "64")];
    let pairs: Vec<(String, String)> = link.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    assert!(fields::apply(&mut plan, &pairs).is_empty());
    let budget = evaluate(&plan);
    assert_eq!(budget.gpu.total, Bytes::SATURATED);
    assert_eq!(budget.gpu.part(Component::Activations).to_string(), "more than 16.00 EiB");
    assert!(!budget.gpu.fits());
    let md = markdown(&plan, &budget, "");
    assert!(md.contains("GPU per device: **more than 16.00 EiB** of 80.00 GiB"), "{md}");
    assert!(!md.contains("16777216"), "no saturated figure printed as a number: {md}");
}

/// A vLLM engine whose KV cache cannot hold one max_model_len request gets
/// vLLM's own advice (catalog F-08), not the colocated rollout's "lower the
/// utilization": the setup of https://github.com/vllm-project/vllm/issues/10517.
#[test]
fn a_vllm_engine_that_does_not_start_gets_vllms_advice() {
    let mut plan = Plan::default();
    let setup = [
        ("model", "Llama-3-8B"),
        ("workload", "inference"),
        ("gpu_mem_gib", "23.58"),
        ("vllm_util", "0.9"),
        ("seq_len", "29000"),
        ("vllm_overhead_gib", "3.34"),
    ];
    for (k, v) in setup {
        fields::set(&mut plan, k, v).unwrap();
    }
    let budget = evaluate(&plan);
    assert!(!budget.gpu.fits());
    let ids: Vec<&str> = budget.suggestions.iter().map(|s| s.id).collect();
    assert!(!ids.contains(&"lower_gpu_mem_util"), "{ids:?}");
    let shorter = budget.suggestions.iter().find(|s| s.id == "smaller_seq_len").unwrap();
    let longest = budget.gpu.vllm.as_ref().unwrap().tokens();
    assert!(shorter.change.starts_with(&format!("max_model_len 29000 -> {longest}")) && shorter.fits, "{shorter:?}");
    let raise = budget.suggestions.iter().find(|s| s.change.starts_with("vLLM gpu_memory_utilization 0.9 ->")).unwrap();
    assert!(raise.fits, "{raise:?}");
}
