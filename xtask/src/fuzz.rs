//! `cargo xtask fuzz [TARGET] [--seconds N]`: one `cargo fuzz` target, run for
//! a while (10 minutes unless told), `diagnose` seeded with every real log of
//! the corpus and the fixtures. cargo-fuzz is installed when missing, as the
//! site's tools are; it builds with the nightly toolchain.

use crate::{root, step};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const TARGETS: [&str; 5] = ["diagnose", "writeup", "budget_fields", "search", "draft"];

pub fn run(target: &str, seconds: u64) -> Result<(), String> {
    if !TARGETS.contains(&target) {
        return Err(format!("no fuzz target `{target}`: one of {}", TARGETS.join(", ")));
    }
    crate::tools::ensure_cargo_fuzz()?;
    let corpus = root().join("fuzz").join("corpus").join(target);
    std::fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
    if target == "diagnose" {
        seed_with_real_logs(&corpus)?;
    }
    let mut fuzz = Command::new("cargo");
    fuzz.args(["+nightly", "fuzz", "run", target])
        .arg(&corpus)
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .current_dir(root().join("fuzz"));
    step(&format!("fuzzing {target} for {seconds} s"), fuzz)
}

/// One file per log of the corpus and the fixtures, so the fuzzer mutates real pastes.
fn seed_with_real_logs(dir: &Path) -> Result<(), String> {
    let tests = root().join("core").join("tests");
    for file in [tests.join("corpus").join("logs.jsonl"), tests.join("fixtures").join("logs.jsonl")] {
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        for (n, line) in text.lines().enumerate() {
            let entry: Value = serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", file.display(), n + 1))?;
            let (Some(id), Some(log)) = (entry["id"].as_str(), entry["log"].as_str()) else { continue };
            let seed = dir.join(format!("seed-{id}"));
            std::fs::write(&seed, log).map_err(|e| format!("{}: {e}", seed.display()))?;
        }
    }
    Ok(())
}
