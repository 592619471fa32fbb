//! Any bytes as a log, drafted with every fix it offers and job ids
//! redacted: the draft always compiles as content, only its placeholders
//! are left to do, filled in it passes the lint, every redaction is on its
//! line, undoing them all gives back the unredacted draft, and a second
//! redaction finds nothing left.
#![no_main]

use headroom_core::draft::{draft, Options};
use headroom_core::recommend::diagnose;
use headroom_core::redact;
use headroom_core::runbook::{DocKind, Runbook};
use headroom_core::writeup::lint::{lint, placeholders};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn runbooks() -> &'static [Runbook] {
    static RUNBOOKS: OnceLock<Vec<Runbook>> = OnceLock::new();
    RUNBOOKS.get_or_init(|| {
        let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        headroom_core::writeup::compile_dir(&content).expect("the content compiles")
    })
}

/// What an author does: each placeholder the lint names replaced by words
/// (on its own line: a log's unclosed `{{` is not one).
fn filled(text: &str) -> String {
    let lines: Vec<usize> = placeholders(text).iter().map(|p| p.line).collect();
    let filled: Vec<String> = text
        .split('\n')
        .enumerate()
        .map(|(i, line)| {
            let mut line = line.to_string();
            while let (true, Some(start)) = (lines.contains(&(i + 1)), line.find("{{")) {
                let Some(len) = line[start..].find("}}") else { break };
                line.replace_range(start..start + len + 2, "filled in");
            }
            line
        })
        .collect();
    filled.join("\n")
}

fuzz_target!(|data: &[u8]| {
    let log = String::from_utf8_lossy(data);
    let report = diagnose(&log, runbooks());
    let options = Options {
        date: "2026-01-01".into(),
        fixes: report.fixes.iter().map(|f| f.id.to_string()).collect(),
        redact: redact::Options { job_ids: true },
        ..Options::default()
    };
    let drafted = draft(&report, runbooks(), &options);
    let linted = lint("draft.md", &drafted.text, DocKind::Incident, runbooks());
    assert!(linted.runbook.is_some(), "{:?}\n{}", linted.problems, drafted.text);
    assert_eq!(linted.problems, placeholders(&drafted.text), "{}", drafted.text);
    let done = lint("draft.md", &filled(&drafted.text), DocKind::Incident, runbooks());
    assert!(done.problems.is_empty(), "{:?}", done.problems);
    let lines: Vec<&str> = drafted.text.split('\n').collect();
    for r in &drafted.redactions {
        assert_eq!(lines[r.line - 1].get(r.column..r.column + r.replacement.len()), Some(r.replacement.as_str()));
    }
    // Undoing every redaction gives the unredacted draft back: redacting it again gives the same text.
    let undone = drafted.redactions.iter().rev().try_fold(drafted.text.clone(), |t, r| redact::undo(&t, r));
    let undone = undone.expect("every redaction can be undone");
    assert_eq!(redact::redact(&undone, options.redact).text, drafted.text);
    // Nothing left that a second pass would redact.
    let again = redact::redact(&drafted.text, options.redact).redactions;
    assert!(again.is_empty(), "{again:?}");
});
