//! Checks on a write-up beyond compiling it: placeholders left to fill in
//! (`{{what was running}}`, as drafts write them), a slug another runbook
//! already uses, `related` targets that name no runbook. `headroom check`,
//! the site build and the editor's live lint all go through here, so they
//! print the same `file:line: message`.

use super::{compile, slugify, CompileError, Mode};
use crate::runbook::{DocKind, Runbook};

/// Opens a placeholder: what only the author knows, to be replaced by text.
pub const OPEN: &str = "{{";
/// Closes a placeholder.
pub const CLOSE: &str = "}}";

/// A placeholder with `hint` saying what to write instead.
pub fn placeholder(hint: &str) -> String {
    format!("{OPEN}{hint}{CLOSE}")
}

/// One error per line that still holds a placeholder. Code (fenced blocks and
/// `inline code`) is not searched: pasted logs and templates may hold `{{`.
pub fn placeholders(text: &str) -> Vec<CompileError> {
    let mut errors = Vec::new();
    let mut fences = super::fence::Fences::default();
    for (index, line) in text.lines().enumerate() {
        if fences.is_code(line) {
            continue;
        }
        let found: Vec<&str> = line.split('`').step_by(2).flat_map(holes).collect();
        if !found.is_empty() {
            let list = found.iter().map(|h| format!("{OPEN}{h}{CLOSE}")).collect::<Vec<_>>().join(", ");
            errors.push(CompileError::new(index + 1, format!("placeholder to fill in: {list}")));
        }
    }
    errors
}

/// The hints of the placeholders in `text`.
fn holes(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        let inner = &rest[start + OPEN.len()..];
        let Some(end) = inner.find(CLOSE) else { break };
        out.push(&inner[..end]);
        rest = &inner[end + CLOSE.len()..];
    }
    out
}

/// Every problem of one write-up, checked against the runbooks it will join,
/// and the runbook itself when it compiles (for a preview).
#[derive(Clone, Debug, PartialEq)]
pub struct Lint {
    pub runbook: Option<Runbook>,
    /// In line order.
    pub problems: Vec<CompileError>,
}

/// Lints one content write-up as `headroom check` and the site build would
/// with it added to `corpus`. `default_kind` applies when the front matter
/// has no `kind` (the folder it goes in).
pub fn lint(source: &str, text: &str, default_kind: DocKind, corpus: &[Runbook]) -> Lint {
    let mut problems = placeholders(text);
    let runbook = match compile(source, text, default_kind, Mode::Content) {
        Ok(mut runbook) => {
            if let Some(other) = corpus.iter().find(|o| o.slug == runbook.slug && o.source != source) {
                problems.push(duplicate_slug(&runbook.slug, &other.source, text));
            }
            let mut known = titles(corpus);
            known.push((runbook.slug.clone(), runbook.title.to_lowercase()));
            problems.extend(resolve_related(&mut runbook, text, &known));
            Some(runbook)
        }
        Err(error) => {
            problems.push(error);
            None
        }
    };
    problems.sort_by_key(|p| p.line);
    Lint { runbook, problems }
}

/// Each runbook's slug and lowercased title: what a `related` entry may name.
pub fn titles(runbooks: &[Runbook]) -> Vec<(String, String)> {
    runbooks.iter().map(|r| (r.slug.clone(), r.title.to_lowercase())).collect()
}

/// At the `slug:` line of the front matter, or line 1 when the slug comes from the title.
pub fn duplicate_slug(slug: &str, used_by: &str, text: &str) -> CompileError {
    let line =
        text.lines().take_while(|l| !l.starts_with('#')).position(|l| l.starts_with("slug:")).map_or(1, |i| i + 1);
    CompileError::new(line, format!("slug `{slug}` is already used by {used_by}"))
}

/// Replaces each `related` target by the slug it names, and reports those
/// that name no runbook, at the line that mentions them.
pub fn resolve_related(runbook: &mut Runbook, text: &str, known: &[(String, String)]) -> Vec<CompileError> {
    let mut errors = Vec::new();
    let mut resolved = Vec::new();
    for target in &runbook.related {
        let wanted = target.to_lowercase();
        match known.iter().find(|(slug, title)| *slug == wanted || *title == wanted || *slug == slugify(target)) {
            Some((slug, _)) => resolved.push(slug.clone()),
            None => {
                errors.push(CompileError::new(line_of(text, target), format!("related `{target}` is not a runbook")))
            }
        }
    }
    runbook.related = resolved;
    errors
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).map_or(1, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_found_outside_code_only() {
        let text = "---\nsummary: {{one sentence}}\n---\n## Symptoms\n\n```log\nhelm: {{ .Values.x }}\n```\n\nUse `{{x}}` here.\n| {{knob}} | 1 | {{new}} |\n";
        let errors = placeholders(text);
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![2, 11]);
        assert_eq!(errors[1].message, "placeholder to fill in: {{knob}}, {{new}}");
        assert!(placeholders("no holes, {{ unclosed\n").is_empty());
    }

    #[test]
    fn one_file_is_checked_against_the_corpus() {
        let text = "---\ntitle: A\nslug: taken\nmemory: gpu\nstack: [pytorch]\nsummary: {{s}}\nrelated: [taken, nowhere]\n---\n## Fix: x\n\n| Knob | Old | New |\n|---|---|---|\n| a | 1 | 2 |\n";
        let other = lint("other.md", &text.replace("{{s}}", "s").replace(", nowhere", ""), DocKind::Incident, &[]);
        let corpus = vec![other.runbook.expect("compiles")];
        let result = lint("a.md", text, DocKind::Incident, &corpus);
        let messages: Vec<(usize, &str)> = result.problems.iter().map(|p| (p.line, p.message.as_str())).collect();
        assert_eq!(
            messages,
            vec![
                (3, "slug `taken` is already used by other.md"),
                (6, "placeholder to fill in: {{s}}"),
                (7, "related `nowhere` is not a runbook"),
            ]
        );
        assert_eq!(result.runbook.map(|r| r.related), Some(vec!["taken".to_string()]));
    }
}
