//! A full recomputation of the calculator (GPU and host breakdowns, every
//! inverse search, vLLM's start-up, DeepSpeed's tables and every suggestion's
//! what-if) is what each keystroke on the Budget page costs. Target: under 1 ms.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use headroom_core::budget::{evaluate, fields, Plan};

fn plan(pairs: &[(&str, &str)]) -> Plan {
    let mut plan = Plan::default();
    for (k, v) in pairs {
        fields::set(&mut plan, k, v).expect("valid field");
    }
    plan
}

fn bench(c: &mut Criterion) {
    let cases = [
        ("llama-7b-full-a100 (does not fit)", plan(&[])),
        (
            "llama-7b-lora-batch-64 (suggestions)",
            plan(&[("lora_rank", "16"), ("micro_batch", "64"), ("flash", "false"), ("gpus", "8"), ("workers", "8")]),
        ),
        (
            "grpo-rollout (training beside vLLM, ZeRO-3 on 8 GPUs)",
            plan(&[("model", "Qwen2.5-7B"), ("sharding", "zero3"), ("gpus", "8"), ("vllm_util", "0.4")]),
        ),
        (
            "vllm-serving (utilization for 131,072 tokens)",
            plan(&[
                ("model", "Llama-3-8B"),
                ("workload", "inference"),
                ("vllm_util", "0.9"),
                ("seq_len", "32768"),
                ("vllm_target_tokens", "131072"),
            ]),
        ),
    ];
    for (name, plan) in cases {
        c.bench_function(&format!("budget/evaluate/{name}"), |b| b.iter(|| evaluate(black_box(&plan))));
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
