//! From a write-up's sections to the runbook's fields: which text is the
//! symptom, the cause, each fix with its knob changes, how to verify, the lessons.

use super::blocks::{blocks, html, Block};
use super::knobs;
use super::outline::{role, RawSection, SectionRole};
use crate::runbook::{Fix, KnobChange, Runbook, Section, Step};

/// Fills the runbook's body fields from its sections and returns the heading
/// line of each fix, parallel to `runbook.fixes`, for error messages.
pub fn build(sections: &[RawSection], body: &mut Runbook) -> Vec<usize> {
    let mut fix_lines = Vec::new();
    let mut general_tradeoff: Option<String> = None;
    let mut general_effect: Option<String> = None;
    // The role of the enclosing heading at each level, so `### Option 1` under
    // `## Solution` is a fix while `### Why OOM Occurred` keeps its own role.
    let mut parents: Vec<(usize, SectionRole)> = Vec::new();

    for (index, section) in sections.iter().enumerate() {
        let has_children = sections.get(index + 1).is_some_and(|next| next.level > section.level);
        body.related.extend(wiki_links(&section.body));
        parents.retain(|(level, _)| *level < section.level);
        let own = if section.level == 0 { SectionRole::Summary } else { role(&section.heading) };
        let inherited = parents.last().map(|(_, r)| *r);
        let effective = match (own, inherited) {
            (SectionRole::Other, Some(parent)) => parent,
            (own, _) => own,
        };
        parents.push((section.level, effective));
        let markdown = unwiki(&section.body);
        let parsed = blocks(&markdown);
        let text = plain_text(&parsed);

        match effective {
            SectionRole::Summary => {
                if body.summary.is_empty() {
                    body.summary = first_paragraph(&parsed);
                }
                if section.level > 0 {
                    append_html(&mut body.symptoms.html, section, &markdown);
                }
            }
            SectionRole::Symptoms => {
                if body.summary.is_empty() {
                    body.summary = first_paragraph(&parsed);
                }
                append_html(&mut body.symptoms.html, section, &markdown);
                body.symptoms.signatures.extend(code_blocks(&parsed));
            }
            SectionRole::RootCause => append_html(&mut body.root_cause, section, &markdown),
            SectionRole::Fixes => {
                // A fixes heading that only introduces its sub-fixes is not a fix itself.
                let fix = fix(&section.heading, &parsed, &markdown);
                let stands_alone = !has_children && !parsed.is_empty();
                if stands_alone || !fix.knobs.is_empty() || !fix.commands.is_empty() {
                    body.fixes.push(fix);
                    fix_lines.push(section.line);
                }
            }
            SectionRole::Effect if text.trim().is_empty() => {}
            SectionRole::Effect => match body.fixes.last_mut() {
                Some(last) if last.effect.is_none() && section.level > 2 => last.effect = Some(text),
                _ => general_effect = Some(text),
            },
            SectionRole::TradeOffs => general_tradeoff = Some(text),
            SectionRole::Verification => body.verification.extend(steps(&parsed)),
            SectionRole::Lessons => body.lessons.extend(items(&parsed)),
            SectionRole::Related => {}
            SectionRole::Other => {
                for fix in labelled_fixes(&parsed) {
                    body.fixes.push(fix);
                    fix_lines.push(section.line);
                }
                if let Some(cause) = labelled(&parsed, SectionRole::RootCause) {
                    if body.root_cause.is_empty() {
                        body.root_cause = html(&cause);
                    }
                }
                if !text.trim().is_empty() {
                    body.other_sections.push(Section { heading: section.heading.clone(), html: html(&markdown) });
                }
            }
        }
    }
    for fix in &mut body.fixes {
        if fix.tradeoff.is_none() {
            fix.tradeoff.clone_from(&general_tradeoff);
        }
        if fix.effect.is_none() {
            fix.effect.clone_from(&general_effect);
        }
    }
    body.related.dedup();
    fix_lines
}

fn append_html(target: &mut String, section: &RawSection, markdown: &str) {
    if section.level > 0 && !target.is_empty() {
        target.push_str(&html(&format!("#### {}\n", section.heading)));
    }
    target.push_str(&html(markdown));
}

fn fix(title: &str, parsed: &[Block], markdown: &str) -> Fix {
    let mut fix = Fix { title: clean_title(title), html: html(markdown), ..Fix::default() };
    // "**Impact**:" alone on a line labels the list that follows it.
    let mut open_label: Option<bool> = None;
    for block in parsed {
        if let (Some(is_effect), Block::ListItem(item, _)) = (open_label, block) {
            let target = if is_effect { &mut fix.effect } else { &mut fix.tradeoff };
            let joined = target.take().map_or(item.clone(), |t| format!("{t}; {item}"));
            *target = Some(joined);
            continue;
        }
        open_label = None;
        match block {
            Block::Table { header, rows } => fix.knobs.extend(knobs::from_table(header, rows)),
            Block::Code { lang, text } => {
                fix.knobs.extend(knobs::from_code(lang, text));
                fix.commands.push(text.trim_end().to_string());
            }
            Block::Paragraph(t, code) | Block::ListItem(t, code) => {
                let lower = t.to_ascii_lowercase();
                let labelled_tradeoff = ["trade-off", "tradeoff", "cost:"].iter().any(|w| lower.starts_with(w));
                let labelled_effect = ["impact", "effect", "expected", "benefit"].iter().any(|w| lower.starts_with(w));
                if labelled_tradeoff || labelled_effect {
                    let rest = after_label(t);
                    if rest.is_empty() {
                        open_label = Some(labelled_effect);
                    } else if labelled_effect {
                        fix.effect = Some(rest);
                    } else {
                        fix.tradeoff = Some(rest);
                    }
                } else if let Some(change) = knobs::prose_change_outside_code(t, code) {
                    fix.knobs.push(change);
                }
            }
        }
    }
    dedup_knobs(&mut fix.knobs);
    fix
}

/// The same knob stated in a table and a code block counts once (`#SBATCH
/// --mem` in a table is `--mem` in a script); the entry that knows the old value wins.
fn dedup_knobs(knobs: &mut Vec<KnobChange>) {
    let name = |k: &KnobChange| k.knob.trim_start_matches("#SBATCH").trim().to_ascii_lowercase();
    let mut kept: Vec<KnobChange> = Vec::new();
    for k in knobs.drain(..) {
        match kept.iter_mut().find(|e| name(e) == name(&k) && e.new.eq_ignore_ascii_case(&k.new)) {
            Some(existing) if existing.old.is_none() => *existing = k,
            Some(_) => {}
            None => kept.push(k),
        }
    }
    *knobs = kept;
}

/// "Option 1: Increase Memory Request (RECOMMENDED)" stays; "1. Preallocate" -> "Preallocate".
fn clean_title(title: &str) -> String {
    let t = title.trim();
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches(['.', ')']).trim();
    if t.is_empty() {
        title.trim().to_string()
    } else {
        t.to_string()
    }
}

fn after_label(text: &str) -> String {
    text.split_once(':').map_or(text, |(_, rest)| rest).trim().to_string()
}

/// Items labelled "Solution: ..." / "Fix: ..." in sections that are about
/// something else (meeting notes put the fix in a bullet).
fn labelled_fixes(parsed: &[Block]) -> Vec<Fix> {
    let mut fixes = Vec::new();
    let mut open: Option<Fix> = None;
    for block in parsed {
        let text = match block {
            Block::Paragraph(t, _) | Block::ListItem(t, _) => t,
            _ => continue,
        };
        match label(text) {
            Some((name, rest)) if role(name) == SectionRole::Fixes => {
                if let Some(done) = open.take() {
                    fixes.push(done);
                }
                let mut fix = Fix { title: name.to_string(), html: html(text), ..Fix::default() };
                fix.knobs.extend(knobs::prose_change(rest).into_iter().chain(inline_settings(rest)));
                if rest.trim().is_empty() && matches!(block, Block::Paragraph(_, _)) {
                    open = Some(fix);
                } else {
                    fixes.push(fix);
                }
            }
            _ => match (&mut open, block) {
                (Some(fix), Block::ListItem(item, _)) => {
                    fix.knobs.extend(knobs::prose_change(item));
                    fix.html.push_str(&html(&format!("- {item}\n")));
                }
                _ => {
                    if let Some(done) = open.take() {
                        fixes.push(done);
                    }
                }
            },
        }
    }
    fixes.extend(open);
    fixes.retain(|f| !f.knobs.is_empty());
    fixes
}

/// The text of a labelled item whose label has `wanted` role.
fn labelled(parsed: &[Block], wanted: SectionRole) -> Option<String> {
    parsed.iter().find_map(|block| match block {
        Block::Paragraph(t, _) | Block::ListItem(t, _) => {
            label(t).filter(|(name, _)| role(name) == wanted).map(|(_, rest)| rest.to_string())
        }
        _ => None,
    })
}

/// "Root cause: x" -> ("Root cause", "x"), for short labels only.
fn label(text: &str) -> Option<(&str, &str)> {
    let (name, rest) = text.split_once(':')?;
    (name.split_whitespace().count() <= 4 && !name.contains('`')).then_some((name.trim(), rest.trim()))
}

/// `num_workers=2` written inline in prose: a setting with no old value.
fn inline_settings(text: &str) -> Vec<KnobChange> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .filter_map(|word| {
            let (k, v) = word.split_once('=')?;
            let ok = !k.is_empty() && !v.is_empty() && k.chars().all(|c| c.is_alphanumeric() || "._-".contains(c));
            ok.then(|| KnobChange { knob: k.to_string(), old: None, new: v.to_string(), note: None })
        })
        .collect()
}

/// Verification steps: each item's sentence, and the commands to copy: the
/// item's own code spans that are shell commands, or the fenced block after it.
fn steps(parsed: &[Block]) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for block in parsed {
        match block {
            Block::ListItem(t, spans) | Block::Paragraph(t, spans) => {
                let commands = spans.iter().filter(|c| looks_like_command(c)).map(|c| c.trim().to_string()).collect();
                steps.push(Step { text: t.clone(), commands });
            }
            Block::Code { text, .. } => match steps.last_mut() {
                Some(last) if last.commands.is_empty() => last.commands.push(text.trim_end().to_string()),
                _ => steps.push(Step { text: "Run:".into(), commands: vec![text.trim_end().to_string()] }),
            },
            Block::Table { .. } => {}
        }
    }
    steps
}

fn looks_like_command(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    [
        "watch",
        "tail",
        "grep",
        "ls",
        "sacct",
        "seff",
        "nvidia-smi",
        "squeue",
        "free",
        "dmesg",
        "bash",
        "python",
        "kubectl",
        "sstat",
        "df",
    ]
    .contains(&first)
}

fn items(parsed: &[Block]) -> Vec<String> {
    parsed
        .iter()
        .filter_map(|b| match b {
            Block::ListItem(t, _) | Block::Paragraph(t, _) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

fn code_blocks(parsed: &[Block]) -> Vec<String> {
    parsed
        .iter()
        .filter_map(|b| match b {
            Block::Code { text, .. } => Some(text.trim_end().to_string()),
            _ => None,
        })
        .collect()
}

fn first_paragraph(parsed: &[Block]) -> String {
    parsed
        .iter()
        .find_map(|b| match b {
            Block::Paragraph(t, _) => Some(t.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

fn plain_text(parsed: &[Block]) -> String {
    parsed
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(t, _) | Block::ListItem(t, _) => Some(t.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The pieces of a section's markdown, each with whether it is prose: code
/// (fenced blocks and `inline code`) is never a wiki link, so a pasted
/// TensorFlow log's `[[Node: ...]]` stays as it is.
fn pieces(markdown: &str) -> Vec<(bool, &str)> {
    let mut out = Vec::new();
    let mut fences = super::fence::Fences::default();
    for line in markdown.split_inclusive('\n') {
        if fences.is_code(line.trim_end_matches(['\n', '\r'])) {
            out.push((false, line));
        } else {
            for (i, piece) in line.split('`').enumerate() {
                if i > 0 {
                    out.push((false, "`"));
                }
                out.push((i % 2 == 0, piece));
            }
        }
    }
    out
}

/// Targets of `[[Target]]` and `[[Target|label]]` in prose.
fn wiki_links(markdown: &str) -> Vec<String> {
    pieces(markdown)
        .into_iter()
        .filter(|(prose, _)| *prose)
        .flat_map(|(_, text)| text.split("[[").skip(1).filter_map(|rest| rest.split_once("]]")))
        .map(|(inner, _)| inner.split('|').next().unwrap_or(inner).trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Turns `[[target|label]]` in prose into a link to the runbook the target
/// names (`compile_corpus` checks that it exists).
fn unwiki(markdown: &str) -> String {
    pieces(markdown)
        .into_iter()
        .map(|(prose, text)| if prose { unwiki_prose(text) } else { text.to_string() })
        .collect()
}

fn unwiki_prose(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut rest = markdown;
    while let Some(start) = rest.find("[[") {
        let Some(len) = rest[start..].find("]]") else {
            break;
        };
        out.push_str(&rest[..start]);
        let inner = &rest[start + 2..start + len];
        let target = inner.split('|').next().unwrap_or(inner);
        let label = inner.split('|').nth(1).unwrap_or(inner).rsplit('/').next().unwrap_or(inner);
        out.push_str(&format!("[{}](#/runbooks/{})", label.trim(), super::slugify(target)));
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}
