//! A full recomputation of the calculator (GPU and host breakdowns, the
//! max-micro-batch search and every suggestion's what-if) is what each
//! keystroke on the Budget page costs. Target: under 1 ms.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use headroom_core::budget::{evaluate, fields, Plan};

fn bench(c: &mut Criterion) {
    let default = Plan::default();
    let mut fitting = Plan::default();
    for (k, v) in [("lora_rank", "16"), ("micro_batch", "64"), ("flash", "false"), ("gpus", "8"), ("workers", "8")] {
        fields::set(&mut fitting, k, v).expect("valid field");
    }
    c.bench_function("budget/evaluate/llama-7b-full-a100 (does not fit)", |b| b.iter(|| evaluate(black_box(&default))));
    c.bench_function("budget/evaluate/llama-7b-lora-batch-64 (suggestions)", |b| {
        b.iter(|| evaluate(black_box(&fitting)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
