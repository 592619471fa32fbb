//! `headroom check DIR`: compiles the write-ups exactly as the site build does
//! and prints `file:line: message` for each problem. `headroom check FILE.md`
//! checks one write-up (a draft) as if it joined the runbooks built into
//! this binary: the same messages the editor shows beside its lines.

use headroom_core::runbook::DocKind;
use headroom_core::writeup::compile_dir;
use headroom_core::writeup::lint::lint;
use std::path::Path;
use std::process::ExitCode;

pub fn run(target: &str) -> ExitCode {
    let path = Path::new(target);
    if path.is_file() {
        return file(path);
    }
    match compile_dir(path) {
        Ok(runbooks) => {
            let incidents = runbooks.iter().filter(|r| r.kind == DocKind::Incident).count();
            outln!(
                "{target}: {} write-ups OK ({incidents} incidents, {} guides)",
                runbooks.len(),
                runbooks.len() - incidents
            );
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for error in &errors {
                eprintln!("{error}");
            }
            eprintln!("{target}: {} problem(s)", errors.len());
            ExitCode::FAILURE
        }
    }
}

fn file(path: &Path) -> ExitCode {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{name}:1: {e}");
            return ExitCode::FAILURE;
        }
    };
    let kind = if path.components().any(|c| c.as_os_str() == "guides") { DocKind::Guide } else { DocKind::Incident };
    // A file of content/ is checked against the others, not against its own built-in copy.
    let own = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let others: Vec<_> = crate::runbooks().into_iter().filter(|r| !r.source.ends_with(&format!("/{own}"))).collect();
    let problems = lint(&name, &text, kind, &others).problems;
    for problem in &problems {
        eprintln!("{name}:{}: {}", problem.line, problem.message);
    }
    if problems.is_empty() {
        outln!("{name}: OK");
        ExitCode::SUCCESS
    } else {
        eprintln!("{name}: {} problem(s)", problems.len());
        ExitCode::FAILURE
    }
}
