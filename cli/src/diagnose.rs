//! `headroom diagnose [FILE|-] [--json]`: the site's diagnosis in a terminal.
//! Exit 0 whether or not an OOM is found; 2 when the input cannot be read.

use headroom_core::diagnose::{diagnose, Diagnosis};
use std::io::Read;
use std::process::ExitCode;

pub fn run(args: &[String]) -> ExitCode {
    let json = args.iter().any(|a| a == "--json");
    let inputs: Vec<&String> = args.iter().filter(|a| *a != "--json").collect();
    if inputs.len() > 1 {
        eprintln!("headroom diagnose: one input at a time (FILE or -)");
        return ExitCode::from(2);
    }
    let source = inputs.first().map_or("-", |s| s.as_str());
    let bytes = match read(source) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("headroom diagnose: cannot read {source}: {e}");
            return ExitCode::from(2);
        }
    };
    // Logs are not always valid UTF-8 (binary junk, Latin-1): read what can be read.
    let text = String::from_utf8_lossy(&bytes);
    let diagnosis = diagnose(&text, &crate::runbooks());
    if json {
        match serde_json::to_string_pretty(&diagnosis) {
            Ok(out) => println!("{out}"),
            Err(e) => {
                eprintln!("headroom diagnose: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        print!("{}", human(&diagnosis));
    }
    ExitCode::SUCCESS
}

fn read(source: &str) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if source == "-" {
        std::io::stdin().read_to_end(&mut bytes)?;
    } else {
        bytes = std::fs::read(source)?;
    }
    Ok(bytes)
}

fn human(d: &Diagnosis) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{}", d.summary);
    if d.oom || d.memory != headroom_core::memory::MemoryKind::None {
        let _ = writeln!(out, "  memory: {}", d.memory.label());
    }
    if !d.stack.is_empty() {
        let _ = writeln!(out, "  stack:  {}", d.stack.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "));
    }
    if let Some(phase) = d.phase {
        let _ = writeln!(out, "  phase:  {}", phase.label());
    }
    let numbers = serde_json::to_value(&d.numbers).unwrap_or_default();
    if let Some(map) = numbers.as_object().filter(|m| !m.is_empty()) {
        let _ = writeln!(out, "\nFigures:");
        for (key, value) in map {
            let n = value.as_u64().unwrap_or(0);
            let shown = if key.ends_with("_tokens") || key == "oom_kill_events" {
                n.to_string()
            } else {
                headroom_core::units::Bytes(n).to_string()
            };
            let _ = writeln!(out, "  {key:<28} {shown}");
        }
    }
    if !d.evidence.is_empty() {
        let _ = writeln!(out, "\nEvidence:");
        for e in d.evidence.iter().take(12) {
            let _ = writeln!(out, "  {:>6}: {}  [{}]", e.line, e.text, e.signature);
        }
    }
    for (i, f) in d.fixes.iter().enumerate() {
        if i == 0 {
            let _ = writeln!(out, "\nFixes, best first:");
        }
        let _ = writeln!(
            out,
            "\n{}. {} [{}]\n   {}\n   trade-off: {}\n   verify:    {}\n   source:    {}",
            i + 1,
            f.title,
            f.id,
            f.detail,
            f.tradeoff,
            f.verify,
            f.source
        );
        if !f.runbooks.is_empty() {
            let _ = writeln!(out, "   runbooks:  {}", f.runbooks.join(", "));
        }
    }
    out
}
