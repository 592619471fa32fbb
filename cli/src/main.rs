//! `headroom`: the command-line face of `headroom-core`, for cluster login nodes.

/// `print!` for the command's output, which ends the process quietly when the
/// reader has gone (`headroom diagnose job.err | head`), where `print!` panics.
macro_rules! out {
    ($($arg:tt)*) => { $crate::write_stdout(format_args!($($arg)*)) };
}

macro_rules! outln {
    ($($arg:tt)*) => { $crate::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

mod budget;
mod check;
mod compile;
mod diagnose;
mod draft;

use std::process::ExitCode;

const USAGE: &str = "\
headroom - beat out-of-memory failures (offline)

USAGE:
    headroom <COMMAND> [ARGS]

COMMANDS:
    budget [--config FILE.toml] [--KEY VALUE]... [--solve KEY]... [--json]
                  GPU and host memory budget, or the largest model, longest sequence,
                  fewest GPUs... that fit (`headroom budget --help` lists the fields)
    diagnose [FILE|-] [--json]
                  is this log an OOM, which memory, which fixes (stdin when no FILE)
    draft [LOG|-] [--title TITLE] [--fix ID]... [--redact-job-ids]
                  the first draft of a write-up of a log, redacted (stdin when no LOG)
    check [DIR|FILE.md]
                  lint write-ups (DIR/incidents/*.md, DIR/guides/*.md; default content/)
                  or one file against the runbooks, with the same messages as the site build
    compile [DIR] --out SITE
                  publish write-ups to a deployed site's content.json (no rebuild)
    help          show this message
    version       show the version
";

fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        // A closed pipe is a reader that has read enough, as for any Unix tool.
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("headroom: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// The lab's runbooks, compiled into the binary at build time (see build.rs),
/// so fixes link to them on a login node with no checkout.
pub fn runbooks() -> Vec<headroom_core::runbook::Runbook> {
    serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/runbooks.json"))).unwrap_or_default()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("budget") => budget::run(&args[1..]),
        Some("diagnose") => diagnose::run(&args[1..]),
        Some("draft") => draft::run(&args[1..]),
        Some("check") => check::run(args.get(1).map_or("content", String::as_str)),
        Some("compile") => compile::run(&args[1..]),
        Some("help" | "--help" | "-h") => {
            out!("{USAGE}");
            ExitCode::SUCCESS
        }
        // No command is a usage error: say how to use it, and fail so scripts notice.
        None => {
            eprint!("{USAGE}");
            ExitCode::from(2)
        }
        Some("version" | "--version" | "-V") => {
            outln!("headroom {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("headroom: unknown command '{other}'\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
