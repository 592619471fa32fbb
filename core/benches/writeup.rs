//! What each pause in typing costs the write-up editor: compiling a 300-line
//! write-up and linting it against the site's runbooks (placeholders, slug,
//! related). Target: under 16 ms (one frame). The same file is timed in
//! Chromium by `e2e/tests/write.rs`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use headroom_core::runbook::DocKind;
use headroom_core::writeup::compile_dir;
use headroom_core::writeup::lint::lint;

const WRITE_UP: &str = include_str!("data/write-up-300-lines.md");

fn bench(c: &mut Criterion) {
    assert_eq!(WRITE_UP.lines().count(), 300);
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let corpus = compile_dir(&content).expect("the content compiles");
    let once = lint("draft.md", WRITE_UP, DocKind::Incident, &corpus);
    assert!(once.runbook.is_some_and(|r| r.fixes.len() > 10), "a write-up with many fixes");
    c.bench_function("writeup/lint 300-line write-up (compile + checks)", |b| {
        b.iter(|| lint("draft.md", black_box(WRITE_UP), DocKind::Incident, &corpus))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
