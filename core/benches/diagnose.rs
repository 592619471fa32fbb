//! Diagnoser throughput on a 100 MB synthetic log with realistic noise.
//! Target: at least 280 MiB/s natively (diagnosis and fixes in one pass). `cargo xtask grep-compare` sets this
//! against `grep -E -c` with the same signatures on the same file.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use headroom_core::diagnose::Diagnoser;
use headroom_core::recommend::diagnose;

#[path = "synthetic_log.rs"]
mod synthetic_log;

fn bench(c: &mut Criterion) {
    let log = synthetic_log::synthetic_log(100 << 20);
    assert!(diagnose(&log, &[]).oom, "the synthetic log ends in an OOM");
    let mut group = c.benchmark_group("diagnose");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(log.len() as u64));
    group.bench_function("100MB_noisy_log", |b| b.iter(|| diagnose(black_box(&log), &[])));
    group.bench_function("100MB_noisy_log_in_1MB_chunks", |b| {
        b.iter(|| {
            let mut d = Diagnoser::new();
            let mut rest = log.as_str();
            while !rest.is_empty() {
                let mut cut = (1 << 20).min(rest.len());
                while !rest.is_char_boundary(cut) {
                    cut += 1;
                }
                d.feed(&rest[..cut]);
                rest = &rest[cut..];
            }
            d.finish()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
