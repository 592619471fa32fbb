use super::*;
use crate::recommend::diagnose;
use crate::runbook::DocKind;
use crate::writeup::lint::{lint, placeholders};

fn corpus() -> Vec<Runbook> {
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    crate::writeup::compile_dir(&content).expect("the project's content compiles")
}

fn options() -> Options {
    Options { date: "2026-02-03".into(), ..Options::default() }
}

/// What an author does: each placeholder the lint names replaced by words
/// (on its own line: a log's unclosed `{{` is not one).
fn fill(text: &str) -> String {
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

/// The first fixture log whose expected memory is `memory`.
fn fixture(memory: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/logs.jsonl");
    let text = std::fs::read_to_string(path).expect("fixtures");
    text.lines()
        .map(|row| serde_json::from_str::<serde_json::Value>(row).expect("json"))
        .find(|row| row["expected"]["memory"] == memory)
        .and_then(|row| row["log"].as_str().map(str::to_string))
        .expect("a fixture of that memory kind")
}

/// Drafts `log`, checks what every draft must be, and returns the compiled draft.
fn drafted(log: &str, options: &Options, corpus: &[Runbook]) -> (String, Runbook) {
    let report = diagnose(log, corpus);
    let text = draft(&report, corpus, options).text;
    let linted = lint("draft.md", &text, DocKind::Incident, corpus);
    let runbook = linted.runbook.unwrap_or_else(|| panic!("the draft compiles: {:?}\n{text}", linted.problems));
    assert_eq!(linted.problems, placeholders(&text), "only placeholders are left to do:\n{text}");
    assert!(!linted.problems.is_empty(), "the author has something to fill in");
    let filled = fill(&text);
    let problems = lint("draft.md", &filled, DocKind::Incident, corpus).problems;
    assert!(problems.is_empty(), "filled in, the draft passes: {problems:?}\n{filled}");
    assert_eq!(runbook.memory, Some(report.memory));
    assert_eq!(runbook.stack, report.stack);
    assert_eq!(runbook.date.as_deref(), Some("2026-02-03"));
    assert!(runbook.related.iter().all(|slug| corpus.iter().any(|r| r.slug == *slug)));
    let chosen = if options.fixes.is_empty() { report.fixes.len().min(1) } else { options.fixes.len() };
    assert_eq!(runbook.fixes.len(), chosen.max(1), "one fix section per chosen fix");
    for (fix, drafted) in report.fixes.iter().zip(&runbook.fixes).take(chosen) {
        assert_eq!(drafted.title, format!("Fix: {}", fix.title));
        assert_eq!(drafted.tradeoff.as_deref(), Some(fix.tradeoff));
        assert_eq!(drafted.knobs.len(), 1, "the table's row and nothing read from prose: {:?}", drafted.knobs);
    }
    (text, runbook)
}

#[test]
fn a_draft_for_each_memory_kind() {
    let corpus = corpus();
    for memory in ["gpu", "host", "job-limit", "shm", "none"] {
        let log = fixture(memory);
        let report = diagnose(&log, &corpus);
        assert_eq!(report.memory.as_str(), memory);
        let (text, runbook) = drafted(&log, &options(), &corpus);
        assert!(text.contains(&format!("\nmemory: {memory}\n")), "{text}");
        let evidence: Vec<&str> = report.evidence.iter().map(|e| e.text.as_str()).collect();
        let quoted = runbook.symptoms.signatures.first().map_or("", String::as_str);
        if let Some(first) = report.evidence.iter().min_by_key(|e| e.line) {
            assert!(quoted.starts_with(&redact::redact(&first.text, Default::default()).text), "{memory}: {quoted}");
        } else {
            assert!(evidence.is_empty());
        }
        if report.oom {
            assert!(runbook.root_cause.contains(report.memory.label()), "{memory}: {}", runbook.root_cause);
        }
    }
}

#[test]
fn the_knob_table_takes_the_logs_old_value_and_the_recommenders_new_one() {
    let corpus = corpus();
    let log = "[rank0]:     loss.backward()\n[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB. GPU 0 has a total capacity of 79.18 GiB of which 4.97 GiB is free. Of the allocated memory 72.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\nactor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=32\n";
    let (text, runbook) = drafted(log, &options(), &corpus);
    let knob = &runbook.fixes[0].knobs[0];
    assert_eq!(
        (knob.knob.as_str(), knob.old.as_deref(), knob.new.as_str()),
        ("ppo_micro_batch_size_per_gpu", Some("32"), "16")
    );
    assert!(text.contains("title: GPU memory runs out during the backward pass (pytorch)\n"), "{text}");
    assert!(text.contains("tags: [backward, batch-size]\n"), "{text}");
    assert!(text.contains("Figures in the log: allocated by pytorch 72.10 GiB, capacity 79.18 GiB, free 4.97 GiB, requested 17.66 GiB"), "{text}");

    let job = "#SBATCH --mem=32G\nslurmstepd: error: Detected 1 oom_kill event in StepId=273202.0. Some of your processes may have been killed by the cgroup out-of-memory handler.\nslurmstepd: error: Exceeded job memory limit at some point. MaxRSS 34000000K limit 33554432K\n";
    let report = diagnose(job, &corpus);
    let ids: Vec<String> = report.fixes.iter().map(|f| f.id.to_string()).collect();
    let all = Options { fixes: ids.clone(), ..options() };
    let (_, runbook) = drafted(job, &all, &corpus);
    let mem = runbook.fixes.iter().flat_map(|f| &f.knobs).find(|k| k.knob == "#SBATCH --mem");
    if let (Some(mem), Some(limit)) = (mem, report.numbers.job_limit) {
        assert_eq!(mem.old.as_deref(), Some(Bytes(limit).to_string().as_str()));
        assert!(mem.new.ends_with('G') && mem.new != "{{new value}}", "{mem:?}");
    }
    assert_eq!(runbook.fixes.len(), ids.len());
}

#[test]
fn the_draft_is_redacted_and_says_where() {
    let corpus = corpus();
    let log = "  File \"/home/alice/rl/train.py\", line 88, in step\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.10 GiB is free. token hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345\n";
    let report = diagnose(log, &corpus);
    let out = draft(&report, &corpus, &options());
    assert!(!out.text.contains("alice") && !out.text.contains("hf_AbCd"), "{}", out.text);
    let lines: Vec<&str> = out.text.lines().collect();
    for r in &out.redactions {
        assert!(lines[r.line - 1].contains(&r.replacement), "{r:?} is on its line");
    }
    assert!(out.redactions.iter().any(|r| r.kind == redact::Kind::Secret));

    let clean = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n";
    let out = draft(&diagnose(clean, &corpus), &corpus, &options());
    assert!(out.redactions.is_empty(), "the draft's own words are never redacted: {:?}", out.redactions);
}

#[test]
fn a_title_and_a_slug_taken_by_a_runbook() {
    let corpus = corpus();
    let log = fixture("gpu");
    let title = corpus[0].slug.replace('-', " ");
    let with_title = Options { title: Some(title.clone()), ..options() };
    let (text, runbook) = drafted(&log, &with_title, &corpus);
    assert_eq!(runbook.title, title);
    assert_eq!(runbook.slug, format!("{}-2026-02-03", corpus[0].slug), "{text}");
}

#[test]
fn every_real_log_drafts_to_a_write_up_that_passes_once_filled_in() {
    let corpus = corpus();
    for file in ["tests/corpus/logs.jsonl", "tests/fixtures/logs.jsonl"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        for row in std::fs::read_to_string(path).expect("logs").lines() {
            let value: serde_json::Value = serde_json::from_str(row).expect("json");
            drafted(value["log"].as_str().unwrap_or_default(), &options(), &corpus);
        }
    }
}

#[test]
fn the_blank_template_compiles_and_names_what_to_fill_in() {
    let text = blank("2026-02-03");
    let linted = lint("blank.md", &text, DocKind::Incident, &[]);
    assert!(linted.runbook.is_some(), "{:?}", linted.problems);
    assert!(linted.problems.len() >= 6, "{:?}", linted.problems);
    assert!(lint("blank.md", &fill(&text), DocKind::Incident, &[]).problems.is_empty());
}

#[test]
fn evidence_lines_that_look_like_markdown_stay_in_their_block() {
    // Found by fuzzing: a log line that opens with a fence, or a heading, or `[[`.
    let corpus = corpus();
    let log = "```torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n## Fix: CUDA out of memory\n[[Node: x]] CUDA out of memory\n";
    let (_, runbook) = drafted(log, &options(), &corpus);
    assert!(
        runbook.symptoms.signatures[0].starts_with("```torch.OutOfMemoryError"),
        "{:?}",
        runbook.symptoms.signatures
    );
    assert!(
        runbook.symptoms.signatures[0].contains("## Fix: CUDA out of memory\n[[Node: x]]"),
        "{:?}",
        runbook.symptoms.signatures
    );
}
