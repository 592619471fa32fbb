//! The lab's five raw write-ups, compiled as they are (mojibake, mixed headings,
//! Obsidian front matter), with concrete facts asserted from each.

use headroom_core::memory::{MemoryKind, Stack};
use headroom_core::runbook::{DocKind, KnobChange, Runbook};
use headroom_core::units::{Bytes, GIB};
use headroom_core::writeup::{compile, Mode};

fn seed(name: &str) -> Runbook {
    let path = format!("{}/tests/fixtures/seeds/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    compile(name, &text, DocKind::Incident, Mode::Raw).unwrap_or_else(|e| panic!("{name}:{}: {}", e.line, e.message))
}

fn knob<'a>(runbook: &'a Runbook, name: &str) -> Vec<&'a KnobChange> {
    runbook.fixes.iter().flat_map(|f| &f.knobs).filter(|k| k.knob == name).collect()
}

fn change(k: &KnobChange) -> (Option<&str>, &str) {
    (k.old.as_deref(), k.new.as_str())
}

#[test]
fn slurm_validation_spike_job_273202() {
    let r = seed("000_b27af5f291a87b32.txt");
    assert_eq!(r.date.as_deref(), Some("2025-10-16"));
    assert_eq!(r.facts.jobs, vec![273202]);
    assert_eq!(r.facts.oom_kill_events, Some(4));
    assert_eq!(r.facts.requested_per_node, Some(Bytes(256 * GIB)));
    assert_eq!(r.facts.node_memory, Some(Bytes(513 * GIB)));
    assert_eq!(r.facts.total_workers, Some(32));
    assert_eq!(r.memory, Some(MemoryKind::JobLimit));
    assert!(r.stack.contains(&Stack::Slurm));
    assert!(r.root_cause.contains("validation dataloader"), "{}", r.root_cause);
    assert!(r.symptoms.signatures.iter().any(|s| s.contains("Detected 4 oom_kill events in StepId=273202.0")));

    let titles: Vec<&str> = r.fixes.iter().map(|f| f.title.as_str()).collect();
    assert!(titles.iter().any(|t| t.starts_with("Option 1: Increase Memory Request")), "{titles:?}");
    assert!(titles.iter().any(|t| t.starts_with("Option 3: Gradient Accumulation")), "{titles:?}");
    assert!(knob(&r, "--mem").iter().any(|k| change(k) == (Some("256GB"), "400GB")));
    assert!(knob(&r, "dataloader.params.batch_size").iter().any(|k| change(k) == (Some("22"), "16")));
    assert!(knob(&r, "dataloader.params.num_workers").iter().any(|k| change(k) == (Some("2"), "1")));
    assert!(knob(&r, "trainer.params.accumulate_grad_batches").iter().any(|k| k.new == "2"));

    assert_eq!(r.verification.len(), 5);
    assert!(r.verification.iter().any(|s| s.commands.iter().any(|c| c.starts_with("watch -n 10"))));
    assert_eq!(r.lessons.len(), 4);
    assert!(r.lessons[1].contains("2-3×"), "mojibake-free multiplication sign: {}", r.lessons[1]);
}

#[test]
fn grpo_gpu_oom_knob_table() {
    let r = seed("001_40a6ff35f5e9e3e5.txt");
    assert_eq!(r.memory, Some(MemoryKind::Gpu));
    assert!(r.stack.contains(&Stack::Vllm) && r.stack.contains(&Stack::Fsdp), "{:?}", r.stack);
    assert_eq!(r.facts.gpu_requested, Some(Bytes::from_gib(17.66)));
    assert_eq!(r.facts.gpu_capacity, Some(Bytes::from_gib(79.18)));
    assert_eq!(r.facts.gpu_free, Some(Bytes::from_gib(4.97)));

    let table = r.fixes.iter().find(|f| f.title == "Changes Made").expect("the Changes Made table");
    let rows: Vec<(&str, Option<&str>, &str)> =
        table.knobs.iter().map(|k| (k.knob.as_str(), k.old.as_deref(), k.new.as_str())).collect();
    assert_eq!(
        rows,
        vec![
            ("train_batch_size", Some("1024"), "512"),
            ("ppo_mini_batch_size", Some("256"), "128"),
            ("ppo_micro_batch_size_per_gpu", Some("32"), "16"),
            ("fsdp_config.param_offload", Some("False"), "True"),
            ("fsdp_config.optimizer_offload", Some("False"), "True"),
        ]
    );
    assert!(table.tradeoff.as_deref().is_some_and(|t| t.contains("512 still reasonable")), "{:?}", table.tradeoff);
    assert!(knob(&r, "actor_rollout_ref.rollout.gpu_memory_utilization")
        .iter()
        .any(|k| change(k) == (Some("0.6"), "0.4")));
    // "â†’" in the raw file is an arrow again.
    assert!(table.effect.as_deref().is_some_and(|e| e.contains('→') && !e.contains("â†")), "{:?}", table.effect);
}

#[test]
fn meeting_notes_job_269582_workers() {
    let r = seed("002_091707a49728fb36.txt");
    assert!(r.facts.jobs.contains(&269582));
    assert_eq!(r.facts.oom_kill_events, Some(5));
    assert_eq!(r.facts.total_workers, Some(128));
    assert!(knob(&r, "num_workers").iter().any(|k| change(k) == (Some("8"), "2")));
    assert!(r.root_cause.contains("128 total workers exhausted 256GB RAM"), "{}", r.root_cause);
    assert!(r.title.starts_with("Supervisor Meeting Summary"));
    // Nothing is dropped: unmapped sections stay, repaired.
    assert!(
        r.other_sections.iter().any(|s| s.heading == "📊 Training Speed Comparison"),
        "{:?}",
        r.other_sections.iter().map(|s| &s.heading).collect::<Vec<_>>()
    );
    assert!(r.lessons.iter().any(|l| l.contains("srun")));
}

#[test]
fn adam_state_on_a_shared_gpu() {
    let r = seed("003_7a0caf9a5fa7151b.txt");
    assert_eq!(r.date.as_deref(), Some("2025-10-06"));
    assert_eq!(r.tags, vec!["project/arl-rl", "work-log", "bugfix"]);
    assert_eq!(r.memory, Some(MemoryKind::Gpu));
    assert_eq!(r.facts.other_process, Some(Bytes::from_gib(21.62)));
    assert!(r.root_cause.contains("Lazy optimizer state allocation"), "{}", r.root_cause);

    let prealloc = r
        .fixes
        .iter()
        .find(|f| f.title.starts_with("Preallocate Optimizer State"))
        .expect("the Adam pre-allocation fix");
    assert!(prealloc.commands.iter().any(|c| c.contains("self.optimizer.step()")));
    assert!(prealloc.knobs.is_empty(), "Python source is not read as settings: {:?}", prealloc.knobs);
    assert!(knob(&r, "RL_BATCH_SIZE").iter().any(|k| change(k) == (Some("8"), "4")));
    assert!(knob(&r, "PYTORCH_CUDA_ALLOC_CONF").iter().any(|k| k.new.starts_with("expandable_segments:True")));
    assert_eq!(r.related.len(), 2);
    assert!(r.related[0].ends_with("Mixed precision + wait wrapper"));
    assert!(r.other_sections.iter().any(|s| s.heading == "Alternative Approaches Considered"));
}

#[test]
fn sweep_killed_by_the_kernel() {
    let r = seed("004_a3cced47ff52eeda.txt");
    assert_eq!(r.date.as_deref(), Some("2026-01-24"));
    assert_eq!(r.memory, Some(MemoryKind::Host));
    assert_eq!(r.facts.total_vm, Some(Bytes(50_344_988 * 1024)));
    assert!(r.symptoms.signatures.iter().any(|s| s.contains("CONSTRAINT_NONE")));
    let changes = r.fixes.iter().find(|f| f.title == "Changes Made").expect("Changes Made");
    let rows: Vec<_> = changes.knobs.iter().map(|k| (k.knob.as_str(), change(k))).collect();
    assert_eq!(rows, vec![("batch size", (Some("64"), "32")), ("workers", (Some("16"), "8"))]);
    assert!(changes.tradeoff.is_some());
}

#[test]
fn every_seed_compiles_to_html_without_raw_tags() {
    for name in [
        "000_b27af5f291a87b32.txt",
        "001_40a6ff35f5e9e3e5.txt",
        "002_091707a49728fb36.txt",
        "003_7a0caf9a5fa7151b.txt",
        "004_a3cced47ff52eeda.txt",
    ] {
        let r = seed(name);
        let all_html = [r.symptoms.html.as_str(), r.root_cause.as_str()]
            .into_iter()
            .chain(r.fixes.iter().map(|f| f.html.as_str()))
            .chain(r.other_sections.iter().map(|s| s.html.as_str()))
            .collect::<String>();
        assert!(!all_html.contains("<script") && !all_html.contains("â†") && !all_html.contains("‚úÖ"), "{name}");
        assert!(!r.fixes.is_empty(), "{name} has fixes");
    }
}
