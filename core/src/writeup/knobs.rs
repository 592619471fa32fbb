//! Knob changes (`old -> new`) as write-ups state them: in tables with
//! old/new columns, in config lines with a comment (`batch_size=16  # Reduce
//! from 22 to 16`), and in prose (`Memory: 256GB → 400GB per node`,
//! `Changed RL_BATCH_SIZE from 8 → 4`, `Reduce num_workers from 8 to 2`).

use crate::runbook::KnobChange;

const ARROWS: [&str; 3] = ["→", "->", "=>"];

/// Knob changes from a table whose header has an old and a new column.
pub fn from_table(header: &[String], rows: &[Vec<String>]) -> Vec<KnobChange> {
    let column = |names: &[&str]| {
        header.iter().position(|h| {
            let h = h.to_ascii_lowercase();
            names.iter().any(|n| h.split_whitespace().next() == Some(n) || h == *n)
        })
    };
    let (Some(old), Some(new)) =
        (column(&["old", "before", "from", "current", "was"]), column(&["new", "after", "to", "now"]))
    else {
        return Vec::new();
    };
    let note = header.iter().enumerate().position(|(i, _)| i != 0 && i != old && i != new);
    rows.iter()
        .filter_map(|row| {
            let knob = row.first()?.trim().to_string();
            let (old, new) = (row.get(old)?.trim().to_string(), row.get(new)?.trim().to_string());
            let note = note.and_then(|i| row.get(i)).map(|n| n.trim().to_string()).filter(|n| !n.is_empty());
            (!knob.is_empty() && !new.is_empty()).then_some(KnobChange {
                knob,
                old: Some(old).filter(|o| !o.is_empty()),
                new,
                note,
            })
        })
        .collect()
}

/// Knob changes in a code block: `key=value` lines, optionally with a comment
/// giving the old value. `#SBATCH --mem=400GB` counts; other comments don't.
/// Program source (Python and the like) is not configuration: only shell,
/// SLURM and config blocks are read.
pub fn from_code(lang: &str, code: &str) -> Vec<KnobChange> {
    let config = matches!(
        lang,
        "" | "bash" | "sh" | "shell" | "console" | "yaml" | "yml" | "toml" | "ini" | "env" | "slurm" | "text"
    );
    if config {
        code.lines().filter_map(code_line).collect()
    } else {
        Vec::new()
    }
}

fn code_line(line: &str) -> Option<KnobChange> {
    let line = line.trim();
    let (statement, comment) = match line.strip_prefix("#SBATCH") {
        Some(rest) => split_comment(rest.trim()),
        None if line.starts_with('#') => return None,
        None => split_comment(line),
    };
    let statement = statement.trim().trim_start_matches("export ").trim();
    let (key, value) = statement.split_once('=')?;
    // `x = y` with spaces is an assignment in a program, not a setting.
    if key.ends_with(' ') || value.starts_with(' ') {
        return None;
    }
    let is_key = !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || "._-".contains(c));
    if !is_key || value.is_empty() || value.contains(' ') {
        return None;
    }
    let old = comment.and_then(old_value_in_comment);
    Some(KnobChange { knob: key.to_string(), old, new: value.to_string(), note: comment.map(str::to_string) })
}

fn split_comment(text: &str) -> (&str, Option<&str>) {
    match text.find(" #") {
        Some(i) => (&text[..i], Some(text[i + 2..].trim()).filter(|c| !c.is_empty())),
        None => (text, None),
    }
}

/// "Reduce from 22 to 16" -> 22; "Slight reduction: 22 → 20" -> 22;
/// "Currently 0.6" -> 0.6; "Reduced from 8 for memory safety" -> 8.
fn old_value_in_comment(comment: &str) -> Option<String> {
    let lower = comment.to_ascii_lowercase();
    if let Some(change) = prose_change(comment) {
        return change.old;
    }
    for marker in ["from ", "currently ", "was "] {
        if let Some(i) = lower.find(marker) {
            let word = comment[i + marker.len()..].split_whitespace().next()?;
            let word = word.trim_end_matches([',', ';', ')', '.']);
            if word.chars().any(|c| c.is_ascii_digit()) || matches!(word, "true" | "false" | "True" | "False") {
                return Some(word.to_string());
            }
        }
    }
    None
}

/// A change stated in a sentence or list item whose inline code spans are
/// `code`: a span that itself reads "from ... to" or holds an arrow is a
/// quoted log line (`... recovery action changed from 0x0 to 0x1`), not the
/// author's change, so the sentence is read without it.
pub fn prose_change_outside_code(text: &str, code: &[String]) -> Option<KnobChange> {
    let quoted =
        |span: &&String| span.to_ascii_lowercase().contains(" from ") || ARROWS.iter().any(|a| span.contains(a));
    let text = code.iter().filter(quoted).fold(text.to_string(), |text, span| text.replacen(span.as_str(), "", 1));
    prose_change(&text)
}

/// A change stated in a sentence or list item.
pub fn prose_change(text: &str) -> Option<KnobChange> {
    let text: String = text.replace("**", "").replace('`', "");
    let text = text.trim().trim_start_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '#').trim();
    if let Some((left, right)) = ARROWS.iter().find_map(|a| text.split_once(a)) {
        let (knob, old) = knob_and_old(left)?;
        let (new, note) = first_word(right)?;
        return Some(KnobChange { knob, old: Some(old), new, note });
    }
    let lower = text.to_ascii_lowercase();
    let from = lower.find(" from ")?;
    let to = from + 6 + lower[from + 6..].find(" to ")?;
    let knob = strip_verb(last_clause(&text[..from]));
    let old = text[from + 6..to].trim().to_string();
    let (new, note) = first_word(&text[to + 4..])?;
    (valueish(&old) && valueish(&new) && !knob.is_empty()).then_some(KnobChange { knob, old: Some(old), new, note })
}

/// Left of an arrow: "Memory: 256GB" -> ("Memory", "256GB"); "RL_BATCH_SIZE from 8" -> ("RL_BATCH_SIZE", "8").
fn knob_and_old(left: &str) -> Option<(String, String)> {
    let left = left.trim();
    let lower = left.to_ascii_lowercase();
    let (knob, old) = if let Some(i) = lower.rfind(" from ") {
        (&left[..i], &left[i + 6..])
    } else if let Some(i) = left.rfind(": ") {
        (&left[..i], &left[i + 2..])
    } else {
        return None;
    };
    let old = old.split_whitespace().last()?.to_string();
    let knob = strip_verb(if lower.contains(" from ") { last_clause(knob) } else { knob });
    (valueish(&old) && !knob.is_empty() && knob.len() <= 60).then_some((knob, old))
}

fn first_word(right: &str) -> Option<(String, Option<String>)> {
    let right = right.trim();
    let word = right.split_whitespace().next()?.trim_end_matches([',', ';', '.', ')']);
    if !valueish(word) {
        return None;
    }
    let rest = right[right.find(word).map_or(0, |i| i + word.len())..].trim();
    let rest = rest.trim_start_matches([')', ',', ';']).trim();
    Some((word.to_string(), (!rest.is_empty()).then(|| rest.to_string())))
}

/// "Identified fix: reduce num_workers" -> "reduce num_workers".
fn last_clause(text: &str) -> &str {
    text.rsplit(": ").next().unwrap_or(text)
}

/// Drops a leading verb: "Reduced batch size" -> "batch size".
fn strip_verb(knob: &str) -> String {
    const VERBS: [&str; 14] = [
        "reduced",
        "reduce",
        "increased",
        "increase",
        "changed",
        "change",
        "set",
        "lowered",
        "lower",
        "raised",
        "raise",
        "decreased",
        "decrease",
        "bumped",
    ];
    let knob = knob.trim().trim_end_matches(':').trim();
    let mut words = knob.split_whitespace();
    let first = words.next().unwrap_or("");
    if VERBS.contains(&first.to_ascii_lowercase().as_str()) {
        words.collect::<Vec<_>>().join(" ")
    } else {
        knob.to_string()
    }
}

/// A value is a number with an optional unit, or a boolean.
fn valueish(word: &str) -> bool {
    let w = word.trim_start_matches(['~', '≈']);
    w.chars().next().is_some_and(|c| c.is_ascii_digit())
        || matches!(w.to_ascii_lowercase().as_str(), "true" | "false" | "on" | "off" | "none")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(knob: &str, old: Option<&str>, new: &str) -> (String, Option<String>, String) {
        (knob.to_string(), old.map(str::to_string), new.to_string())
    }

    fn triple(k: &KnobChange) -> (String, Option<String>, String) {
        (k.knob.clone(), k.old.clone(), k.new.clone())
    }

    #[test]
    fn a_quoted_log_line_is_not_a_change() {
        let span = "NVRM: Xid 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)".to_string();
        let why = format!("Why: line 1: {span}, which is not memory running out.");
        assert_eq!(prose_change_outside_code(&why, &[span]), None);
        let named = "Changed RL_BATCH_SIZE from 8 → 4 in run_e1.sh:";
        let spans = ["RL_BATCH_SIZE".to_string(), "run_e1.sh".to_string()];
        assert_eq!(prose_change_outside_code(named, &spans), prose_change(named));
        assert!(prose_change(named).is_some());
    }

    #[test]
    fn prose_arrows_and_from_to() {
        let cases = [
            ("Memory: 256GB → 400GB per node", change("Memory", Some("256GB"), "400GB")),
            ("**Reduced batch size: 64 → 32**", change("batch size", Some("64"), "32")),
            ("Changed `RL_BATCH_SIZE` from **8 → 4** in `run_e1.sh`:", change("RL_BATCH_SIZE", Some("8"), "4")),
            ("Reduce `num_workers` from 8 to 2 per GPU", change("num_workers", Some("8"), "2")),
            ("✅ Workers: 2 → 1 per GPU", change("Workers", Some("2"), "1")),
            ("✅ Identified fix: reduce `num_workers` from 8 to 2 per GPU", change("num_workers", Some("8"), "2")),
        ];
        for (text, expected) in cases {
            let got = prose_change(text).unwrap_or_else(|| panic!("no change in {text:?}"));
            assert_eq!(triple(&got), expected, "{text}");
        }
        assert!(prose_change("Training speed: ~5% slower due to batch size reduction").is_none());
        assert!(prose_change("Use srun for any SLURM parallel tasks").is_none());
    }

    #[test]
    fn config_lines_with_comments() {
        let code = "#SBATCH --mem=400GB    # Increase from 256GB to 400GB per node\n#SBATCH --nodes=4\n# a comment\ndataloader.params.batch_size=20        # Slight reduction: 22 → 20\nactor_rollout_ref.rollout.gpu_memory_utilization=0.4  # Currently 0.6\nexport RL_BATCH_SIZE=4  # Reduced from 8 for memory safety\nsbatch submit.slurm --dataset x\n";
        let got: Vec<_> = from_code("bash", code).iter().map(triple).collect();
        assert_eq!(
            got,
            vec![
                change("--mem", Some("256GB"), "400GB"),
                change("--nodes", None, "4"),
                change("dataloader.params.batch_size", Some("22"), "20"),
                change("actor_rollout_ref.rollout.gpu_memory_utilization", Some("0.6"), "0.4"),
                change("RL_BATCH_SIZE", Some("8"), "4"),
            ]
        );
    }

    #[test]
    fn program_source_is_not_configuration() {
        assert!(from_code("python", "batch_size=4\n").is_empty());
        assert!(from_code("bash", "dummy_loss = model.sum()\n").is_empty());
    }

    #[test]
    fn tables_with_old_and_new_columns() {
        let header: Vec<String> = ["Parameter", "Before", "After", "Reason"].map(String::from).to_vec();
        let rows = vec![["Batch", "64", "32", "OOM"].map(String::from).to_vec()];
        let got = from_table(&header, &rows);
        assert_eq!(triple(&got[0]), change("Batch", Some("64"), "32"));
        assert_eq!(got[0].note.as_deref(), Some("OOM"));
        let no_knobs: Vec<String> = ["Configuration", "GPUs", "Time/Epoch"].map(String::from).to_vec();
        assert!(from_table(&no_knobs, &rows).is_empty());
    }
}
