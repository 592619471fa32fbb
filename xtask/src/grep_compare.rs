//! `cargo xtask grep-compare`: the release `headroom diagnose` against
//! `grep -E -i -c` with the diagnoser's own signatures, on the same 100 MB
//! synthetic log file (best of three runs each, wall clock, file cached).

use crate::{cargo, root, step};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

#[path = "../../core/benches/synthetic_log.rs"]
mod synthetic_log;

pub fn run() -> Result<(), String> {
    step("building the release CLI", cargo(&["build", "--release", "-p", "headroom-cli"]))?;
    let file = root().join("target").join("synthetic-100MB.log");
    std::fs::write(&file, synthetic_log::synthetic_log(100 << 20)).map_err(|e| format!("{}: {e}", file.display()))?;
    let size = std::fs::metadata(&file).map_err(|e| e.to_string())?.len() as f64;
    let pattern = headroom_core::diagnose::signature_needles()
        .iter()
        .map(|n| {
            n.chars()
                .map(|c| if "\\.^$|?*+()[]{}".contains(c) { format!("\\{c}") } else { c.to_string() })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|");
    let headroom = root().join("target").join("release").join("headroom");
    let ours = best_of_three(Command::new(&headroom).args(["diagnose", "--json"]).arg(&file))?;
    let grep = best_of_three(Command::new("grep").args(["-E", "-i", "-c", &pattern]).arg(&file))?;
    let mb = size / (1 << 20) as f64;
    println!("| tool | time | throughput |\n|---|---:|---:|");
    println!("| headroom diagnose --json | {:.0} ms | {:.0} MiB/s |", ours * 1e3, mb / ours);
    println!(
        "| grep -E -i -c ({} signatures) | {:.0} ms | {:.0} MiB/s |",
        headroom_core::diagnose::signature_needles().len(),
        grep * 1e3,
        mb / grep
    );
    println!("\nheadroom takes {:.2}x grep's time on {}", ours / grep, display(&file));
    Ok(())
}

fn best_of_three(command: &mut Command) -> Result<f64, String> {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        let out = command.stderr(Stdio::piped()).stdout(Stdio::piped()).output().map_err(|e| e.to_string())?;
        // grep exits 1 when nothing matches, 2 on an error (which must not pass as a fast run).
        if !matches!(out.status.code(), Some(0 | 1)) {
            return Err(format!("{command:?} failed: {}", String::from_utf8_lossy(&out.stderr)));
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok(best)
}

fn display(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}
