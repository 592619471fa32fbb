//! Each mechanism of the diagnoser on a real log that needs it,
//! taken from the corpus's dev split (never the fresh one: see accuracy.rs).

use headroom_core::memory::MemoryKind;
use headroom_core::recommend::{diagnose, Report};
use serde_json::Value;

#[path = "../common/mod.rs"]
mod common;
mod figures_and_fixes;
mod kills;
mod reading;
mod rendering;
mod suspects;
mod verdicts;

use common::is_fresh;

/// The dev-split log with this id, diagnosed.
fn corpus(id: &str) -> Report {
    diagnose(&corpus_log(id), &[])
}

/// The text of the dev-split log with this id.
fn corpus_log(id: &str) -> String {
    assert!(!is_fresh(id), "{id} is in the fresh split: no mechanism may be tested on it");
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/logs.jsonl")).unwrap();
    let entry: Value = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|e| e["id"] == id)
        .unwrap_or_else(|| panic!("no corpus entry {id}"));
    entry["log"].as_str().unwrap_or("").to_string()
}

/// Each dev log reads as this verdict (oom, memory).
fn read_as(ids: &[&str], verdict: (bool, MemoryKind)) {
    for id in ids {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), verdict, "{id}");
    }
}

fn gib(x: f64) -> u64 {
    (x * (1u64 << 30) as f64).round() as u64
}

fn ids(r: &Report) -> Vec<&str> {
    r.fixes.iter().map(|f| f.id).collect()
}
