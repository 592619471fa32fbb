//! `headroom check DIR`: compiles the write-ups exactly as the site build does
//! and prints `file:line: message` for each problem.

use headroom_core::runbook::DocKind;
use headroom_core::writeup::compile_dir;
use std::path::Path;
use std::process::ExitCode;

pub fn run(dir: &str) -> ExitCode {
    match compile_dir(Path::new(dir)) {
        Ok(runbooks) => {
            let incidents = runbooks.iter().filter(|r| r.kind == DocKind::Incident).count();
            println!(
                "{dir}: {} write-ups OK ({incidents} incidents, {} guides)",
                runbooks.len(),
                runbooks.len() - incidents
            );
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for error in &errors {
                eprintln!("{error}");
            }
            eprintln!("{dir}: {} problem(s)", errors.len());
            ExitCode::FAILURE
        }
    }
}
