//! Search on a generated corpus of 1,000 runbooks: index build time and
//! the time to read the same index shipped pre-built (JSON), per-query time (the top 20 hits with snippets, facets over all hits), also for
//! a 100 KB query. Target: under 1 ms per query natively.
//!
//! The corpus is made of real write-ups: each generated runbook is compiled
//! from markdown whose sentences are drawn (deterministically) from the
//! project's own `content/`, so term statistics look like the real thing.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use headroom_core::runbook::{DocKind, Runbook};
use headroom_core::search::{Query, SearchIndex};
use headroom_core::writeup::{compile, compile_dir, Mode};

fn corpus(size: usize) -> Vec<Runbook> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let real = compile_dir(&dir).expect("content compiles");
    let sentences: Vec<String> = real
        .iter()
        .flat_map(|r| {
            let text = format!(
                "{} {} {}",
                r.summary,
                headroom_core::search::tokenize::strip_tags(&r.root_cause),
                r.lessons.join(". ")
            );
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            text.split(". ").map(str::to_string).collect::<Vec<_>>()
        })
        .filter(|s| s.len() > 20)
        .collect();
    let knobs =
        ["num_workers", "batch_size", "--mem", "gpu_memory_utilization", "prefetch_factor", "accumulate_grad_batches"];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    (0..size)
        .map(|i| {
            let pick = |next: &mut dyn FnMut(usize) -> usize, k: usize| {
                (0..k).map(|_| sentences[next(sentences.len())].clone()).collect::<Vec<_>>().join(". ")
            };
            let title = sentences[next(sentences.len())].split_whitespace().take(8).collect::<Vec<_>>().join(" ");
            let knob = knobs[next(knobs.len())];
            let (old, new) = (2 + next(30), 1 + next(2));
            let md = format!(
                "---\ntitle: {title} {i}\nsummary: {}\nmemory: host\nstack: [pytorch, slurm]\n---\n## Symptoms\n\n{}\n\n```log\nslurmstepd: error: Detected {} oom_kill events in StepId={}.0\n```\n\n## Root cause\n\n{}\n\n## Fix: change {knob}\n\n| Knob | Old | New |\n|---|---|---|\n| {knob} | {old} | {new} |\n\n**Trade-off:** {}\n\n## Lessons\n\n- {}\n",
                pick(&mut next, 1), pick(&mut next, 4), 1 + next(8), 200_000 + i, pick(&mut next, 6), pick(&mut next, 1), pick(&mut next, 2)
            );
            compile(&format!("gen/{i}.md"), &md, DocKind::Incident, Mode::Content).expect("generated write-up compiles")
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let runbooks = corpus(1000);
    c.bench_function("search/build_index_1000_runbooks", |b| b.iter(|| SearchIndex::build(black_box(&runbooks))));
    let index = SearchIndex::build(&runbooks);
    // The alternative to building at start-up: ship the index pre-built as
    // JSON beside content.json and read it. Its size is printed once.
    let prebuilt = serde_json::to_string(&index).expect("the index serialises");
    let content = serde_json::to_string(&runbooks).expect("runbooks serialise");
    eprintln!(
        "pre-built index for 1,000 runbooks: {} KiB of JSON (content.json: {} KiB)",
        prebuilt.len() / 1024,
        content.len() / 1024
    );
    c.bench_function("search/read_prebuilt_index_1000_runbooks", |b| {
        b.iter(|| serde_json::from_str::<SearchIndex>(black_box(&prebuilt)).expect("the index reads back"))
    });
    for text in
        ["validation workers", "cuda out of memory", "valdation wrokers", "optim", "slurm job memory limit dataloader"]
    {
        let query = Query { text: text.into(), ..Query::default() };
        assert!(!index.search(&query, 20).hits.is_empty(), "{text} finds something in the generated corpus");
        c.bench_function(&format!("search/query_1000_runbooks/{text}"), |b| {
            b.iter(|| index.search(black_box(&query), 20))
        });
    }
    // Hostile input: a 100 KB query, one word and many words. Bounded by MAX_QUERY_CHARS.
    for (name, text) in [("100KB_one_word", "A".repeat(100_000)), ("100KB_words", "memory ".repeat(100_000 / 7))] {
        let query = Query { text, ..Query::default() };
        c.bench_function(&format!("search/query_1000_runbooks/{name}"), |b| {
            b.iter(|| index.search(black_box(&query), 20))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
