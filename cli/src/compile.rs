//! `headroom compile [DIR] --out SITE`: compiles the write-ups into the site's
//! `content.json` and updates its offline file list, with the same compiler
//! and `file:line` messages as `headroom check`. Adding a write-up to a
//! deployed site needs only this binary: no wasm toolchain, no rebuild.

use headroom_core::publish::{publish, PublishError};
use std::path::Path;
use std::process::ExitCode;

pub const USAGE: &str = "\
headroom compile [DIR] --out SITE

Compiles DIR/incidents/*.md and DIR/guides/*.md (default DIR: content) into
SITE/content.json, the file the deployed site reads its runbooks from, and
refreshes SITE/sw.js's list of files so open pages offer the new version.
A write-up with a problem is reported as file:line and nothing is written.
";

pub fn run(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        out!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let (mut out, mut dirs) = (None, Vec::new());
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--out" => out = rest.next(),
            flag if flag.starts_with('-') => {
                eprint!("headroom compile: unknown option {flag}\n\n{USAGE}");
                return ExitCode::from(2);
            }
            _ => dirs.push(arg),
        }
    }
    let (Some(out), true) = (out, dirs.len() <= 1) else {
        eprint!("headroom compile: one content folder and --out SITE\n\n{USAGE}");
        return ExitCode::from(2);
    };
    let content = dirs.first().map_or("content", |d| d.as_str());
    match publish(Path::new(content), Path::new(out)) {
        Ok(count) => {
            outln!("{out}/content.json: {count} write-ups from {content}");
            ExitCode::SUCCESS
        }
        Err(e @ PublishError::Content(_)) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("headroom compile: {e}");
            ExitCode::from(2)
        }
    }
}
