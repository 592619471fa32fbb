//! `cargo xtask serve|test|dist|size|fuzz`: the project's only entry points.
//!
//! Every command first makes sure the tools it needs are installed (and
//! installs only what is missing), so the two README commands work on a fresh
//! machine and a second run installs nothing.

mod fuzz;
mod grep_compare;
mod site;
mod size;
mod tools;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const USAGE: &str = "\
cargo xtask <COMMAND>

COMMANDS:
    serve [--port N]   build the site and serve it on 127.0.0.1:8080
    test               every test: native, wasm build, end-to-end in headless Chromium
    dist [--out DIR]   release build of the deployable site into dist/ (relative URLs)
    grep-compare       diagnose a 100 MB synthetic log vs grep -E -c with the same signatures
    size [--write]     gzipped size of the release site's wasm, JS and CSS
                       (--write: update README's Performance table)
    fuzz [TARGET] [--seconds N]
                       cargo fuzz one target (diagnose unless told) for N seconds
                       (600 unless told), diagnose seeded with the corpus's logs
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => site::serve(flag_value(&args, "--port").map_or(Ok(8080), |p| p.parse()).unwrap_or(8080)),
        Some("test") => test(),
        Some("dist") => {
            site::dist(&flag_value(&args, "--out").map_or_else(|| root().join("dist"), PathBuf::from)).map(drop)
        }
        Some("grep-compare") => grep_compare::run(),
        Some("fuzz") => match flag_value(&args, "--seconds").map_or(Ok(600), |s| s.parse::<u64>()) {
            Ok(seconds) => {
                let target = args.get(1).filter(|a| !a.starts_with("--")).map_or("diagnose", String::as_str);
                fuzz::run(target, seconds)
            }
            Err(e) => Err(format!("--seconds: {e}")),
        },
        Some("size") => {
            site::dist(&root().join("dist")).and_then(|dist| size::report(&dist, args.iter().any(|a| a == "--write")))
        }
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn flag_value(args: &[String], flag: &str) -> Option<String> {
    args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned()
}

/// Native tests, then the release site, then the browser tests against it.
fn test() -> Result<(), String> {
    tools::ensure_site_tools()?;
    tools::ensure_browser()?;
    // --all-targets also runs each criterion benchmark once, so the benches cannot rot.
    step(
        "native tests",
        cargo(&["test", "--workspace", "--exclude", "headroom-app", "--exclude", "e2e", "--all-targets"]),
    )?;
    step("e2e helper unit tests", cargo(&["test", "-p", "e2e", "--lib"]))?;
    let dist = root().join("target").join("e2e-dist");
    site::dist(&dist)?;
    size::report(&dist, false)?;
    // --nocapture: the browser tests print what they measure (start-up, 1 GB, 10 MB timings).
    let mut e2e = cargo(&["test", "-p", "e2e", "--tests", "--", "--test-threads=1", "--nocapture"]);
    e2e.env("HEADROOM_DIST", &dist).env("AXE_SCRIPT", tools::axe_script());
    step("end-to-end tests in headless Chromium", e2e)
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

pub fn cargo(args: &[&str]) -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.args(args).current_dir(root());
    command
}

/// Runs a command to completion, failing with its name if it fails.
pub fn step(name: &str, mut command: Command) -> Result<(), String> {
    eprintln!("xtask: {name}");
    let status = command.status().map_err(|e| format!("{name}: cannot start: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{name} failed ({status})"))
    }
}
