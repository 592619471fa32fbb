//! `headroom`: the command-line face of `headroom-core`, for cluster login nodes.

mod budget;
mod check;
mod diagnose;

use std::process::ExitCode;

const USAGE: &str = "\
headroom - beat out-of-memory failures (offline)

USAGE:
    headroom <COMMAND> [ARGS]

COMMANDS:
    budget [--config FILE.toml] [--KEY VALUE]... [--json]
                  GPU and host memory budget (`headroom budget --help` lists the fields)
    diagnose [FILE|-] [--json]
                  is this log an OOM, which memory, which fixes (stdin when no FILE)
    check [DIR]   lint write-ups (DIR/incidents/*.md, DIR/guides/*.md; default content/)
                  with the same messages as the site build
    help          show this message
    version       show the version
";

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
        Some("check") => check::run(args.get(1).map_or("content", String::as_str)),
        None | Some("help" | "--help" | "-h") => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("version" | "--version" | "-V") => {
            println!("headroom {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("headroom: unknown command '{other}'\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
