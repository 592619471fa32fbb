//! `headroom diagnose [FILE|-] [--json]`: the site's diagnosis in a terminal.
//! The log is read in chunks and fed to the diagnoser as it comes, so a log
//! of any size (a `head -c 1G` of anything) is diagnosed in bounded memory.
//! Exit 0 whether or not an OOM is found; 2 when the input cannot be read.

use headroom_core::decode::Decoder;
use headroom_core::diagnose::Diagnoser;
use headroom_core::recommend::{report, Report};
use std::io::{IsTerminal, Read};
use std::process::ExitCode;

const USAGE: &str = "\
headroom diagnose [FILE|-] [--json]

Reads a log (a file, or standard input when FILE is - or missing) and says
whether it shows an out-of-memory failure, which memory ran out, the figures
in it, the evidence lines and the fixes to try, best first.

OPTIONS:
    --json      the JSON of the diagnosis contract instead of the summary
    -h, --help  this message

Exit status: 0 when the log was read (OOM or not), 2 when it could not be.
";

/// Bytes read and fed at a time.
const CHUNK: usize = 1 << 20;

pub fn run(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        out!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let json = args.iter().any(|a| a == "--json");
    if let Some(flag) = args.iter().find(|a| a.starts_with('-') && *a != "-" && *a != "--json") {
        eprintln!("headroom diagnose: unknown option {flag}\n\n{USAGE}");
        return ExitCode::from(2);
    }
    let inputs: Vec<&String> = args.iter().filter(|a| *a != "--json").collect();
    if inputs.len() > 1 {
        eprintln!("headroom diagnose: one input at a time (FILE or -)");
        return ExitCode::from(2);
    }
    let source = inputs.first().map_or("-", |s| s.as_str());
    let diagnosis = match read(source) {
        Ok(diagnosis) => diagnosis,
        Err(e) => {
            eprintln!("headroom diagnose: cannot read {source}: {e}");
            return ExitCode::from(2);
        }
    };
    let report = report(diagnosis, &crate::runbooks());
    if json {
        match serde_json::to_string_pretty(&report) {
            Ok(out) => outln!("{out}"),
            Err(e) => {
                eprintln!("headroom diagnose: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        out!("{}", human(&report));
    }
    ExitCode::SUCCESS
}

/// The input: a file, or standard input (saying so when that is a terminal).
fn open(source: &str, command: &str) -> std::io::Result<Box<dyn Read>> {
    if source != "-" {
        return Ok(Box::new(std::fs::File::open(source)?));
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("headroom {command}: reading the log from stdin, Ctrl-D to end (or pass a file)");
    }
    Ok(Box::new(stdin.lock()))
}

/// Diagnoses the input chunk by chunk. Logs are not always valid UTF-8
/// (binary junk, Latin-1, UTF-16 from PowerShell): the decoder reads what can be read.
fn read(source: &str) -> std::io::Result<headroom_core::diagnose::Diagnosis> {
    let mut input = open(source, "diagnose")?;
    let mut diagnoser = Diagnoser::new();
    let mut decoder = Decoder::new();
    let mut buffer = vec![0u8; CHUNK];
    loop {
        let n = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        diagnoser.feed(&decoder.decode(&buffer[..n]));
    }
    diagnoser.feed(&decoder.finish());
    Ok(diagnoser.finish())
}

/// The whole input as text, decoded as `diagnose` reads it (for `draft`, which quotes it).
pub fn read_text(source: &str, command: &str) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    open(source, command)?.read_to_end(&mut bytes)?;
    let mut decoder = Decoder::new();
    let mut text = decoder.decode(&bytes);
    text.push_str(&decoder.finish());
    Ok(text)
}

fn human(d: &Report) -> String {
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
            "\n{}. {} [{}]\n   because:   {}\n   {}\n   trade-off: {}\n   verify:    {}\n   source:    {}",
            i + 1,
            f.title,
            f.id,
            f.because,
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
