//! `headroom`: the command-line face of `headroom-core`, for cluster login nodes.

use std::process::ExitCode;

const USAGE: &str = "\
headroom - beat out-of-memory failures (offline)

USAGE:
    headroom <COMMAND> [ARGS]

COMMANDS:
    help       Show this message
    version    Show the version
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
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
