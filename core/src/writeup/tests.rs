use super::*;

const CLEAN: &str = "---\ntitle: Validation workers exhaust the job limit\ndate: 2025-10-16\nmemory: job-limit\nstack: [pytorch, slurm]\nsummary: Too many workers.\nrelated: [other-one]\n---\n\n## Symptoms\n\n```\nDetected 4 oom_kill events in StepId=273202.0\n```\n\n## Root cause\n\nWorkers.\n\n## Fix: fewer workers\n\n| Knob | Old | New |\n|---|---|---|\n| num_workers | 2 | 1 |\n\n**Trade-off:** slower input.\n";

#[test]
fn compiles_a_clean_write_up() {
    let r = compile("x.md", CLEAN, DocKind::Incident, Mode::Content).unwrap();
    assert_eq!(r.slug, "validation-workers-exhaust-the-job-limit");
    assert_eq!(r.memory, Some(MemoryKind::JobLimit));
    assert_eq!(r.stack, vec![Stack::Pytorch, Stack::Slurm]);
    assert_eq!(r.fixes.len(), 1);
    assert_eq!(r.fixes[0].title, "Fix: fewer workers");
    assert_eq!(r.fixes[0].knobs[0].old.as_deref(), Some("2"));
    assert_eq!(r.fixes[0].tradeoff.as_deref(), Some("slower input."));
    assert_eq!(r.symptoms.signatures, vec!["Detected 4 oom_kill events in StepId=273202.0"]);
    assert_eq!(r.facts.oom_kill_events, Some(4));
}

#[test]
fn malformed_write_ups_name_the_line() {
    let bad_memory = CLEAN.replace("memory: job-limit", "memory: vram");
    let err = compile("x.md", &bad_memory, DocKind::Incident, Mode::Content).unwrap_err();
    assert_eq!(err.line, 4);
    assert!(err.message.contains("vram"), "{}", err.message);

    let bad_date = CLEAN.replace("date: 2025-10-16", "date: 16/10/2025");
    assert_eq!(compile("x.md", &bad_date, DocKind::Incident, Mode::Content).unwrap_err().line, 3);

    let bad_stack = CLEAN.replace("[pytorch, slurm]", "[pytorch, slurmm]");
    let err = compile("x.md", &bad_stack, DocKind::Incident, Mode::Content).unwrap_err();
    assert_eq!((err.line, err.message.contains("slurmm")), (5, true));

    let no_fix = CLEAN.split("## Fix").next().unwrap().to_string();
    let err = compile("x.md", &no_fix, DocKind::Incident, Mode::Content).unwrap_err();
    assert!(err.message.contains("fix"), "{}", err.message);

    let vague_fix =
        CLEAN.replace("| Knob | Old | New |\n|---|---|---|\n| num_workers | 2 | 1 |\n", "Use fewer workers.\n");
    let err = compile("x.md", &vague_fix, DocKind::Incident, Mode::Content).unwrap_err();
    assert_eq!(err.line, 20, "{}", err.message);

    let no_summary = CLEAN.replace("summary: Too many workers.\n", "");
    assert!(compile("x.md", &no_summary, DocKind::Incident, Mode::Content).unwrap_err().message.contains("summary"));
}

#[test]
fn corpus_checks_slugs_and_related() {
    let other = CLEAN
        .replace("title: Validation workers exhaust the job limit", "title: Other one")
        .replace("related: [other-one]\n", "");
    let files = vec![
        ("a.md".to_string(), CLEAN.to_string(), DocKind::Incident),
        ("b.md".to_string(), other.clone(), DocKind::Incident),
    ];
    let runbooks = compile_corpus(&files).unwrap();
    assert_eq!(runbooks[0].related, vec!["other-one"]);

    let dangling = vec![("a.md".to_string(), CLEAN.to_string(), DocKind::Incident)];
    let errors = compile_corpus(&dangling).unwrap_err();
    assert_eq!(errors[0].to_string(), "a.md:7: related `other-one` is not a runbook");

    let twice =
        vec![("b.md".to_string(), other.clone(), DocKind::Incident), ("c.md".to_string(), other, DocKind::Incident)];
    let errors = compile_corpus(&twice).unwrap_err();
    assert!(errors[0].to_string().starts_with("c.md:1: slug `other-one` is already used by b.md"), "{}", errors[0]);
}

#[test]
fn never_panics_on_garbage() {
    for text in [
        "",
        "---",
        "---\n",
        "# \n",
        "```\nunclosed",
        "| a |\n|---|\n| b | c | d |",
        "[[",
        "[[]]",
        "\u{0}\u{FFFF}",
        "## Fix\n\n→ → →\n from to",
    ] {
        let _ = compile("g.md", text, DocKind::Incident, Mode::Raw);
        let _ = compile("g.md", text, DocKind::Incident, Mode::Content);
    }
}

#[test]
fn dates_in_titles() {
    assert_eq!(date_in_title("OOM Analysis - Job 273202 (October 16, 2025)").as_deref(), Some("2025-10-16"));
    assert_eq!(date_in_title("Sweep OOM Fix - 2026-01-24").as_deref(), Some("2026-01-24"));
    assert_eq!(date_in_title("No date here"), None);
}

#[test]
fn wiki_links_in_code_are_log_text_not_links() {
    let text = CLEAN.replace(
        "```\nDetected 4 oom_kill events in StepId=273202.0\n```\n",
        "```\n[[Node: mixed0/concat = ConcatV2[N=4]]]\n```\n\nSee [[other-one]], not `[[x]]`.\n",
    );
    let r = compile("x.md", &text, DocKind::Incident, Mode::Content).unwrap();
    assert_eq!(r.related, vec!["other-one".to_string()], "the link in prose, not the log line");
    assert_eq!(r.symptoms.signatures, vec!["[[Node: mixed0/concat = ConcatV2[N=4]]]"]);
    assert!(r.symptoms.html.contains("href=\"#/runbooks/other-one\""), "{}", r.symptoms.html);
    assert!(r.symptoms.html.contains("<code>[[x]]</code>"), "{}", r.symptoms.html);
}
