//! The project's own write-ups in `content/` compile under the strict rules,
//! and say what the seeds say.

use headroom_core::memory::MemoryKind;
use headroom_core::runbook::{DocKind, Runbook};
use headroom_core::writeup::compile_dir;

fn content() -> Vec<Runbook> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    compile_dir(&dir)
        .unwrap_or_else(|errors| panic!("{}", errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")))
}

#[test]
fn five_incidents_and_the_onboarding_guides() {
    let all = content();
    let incidents: Vec<&Runbook> = all.iter().filter(|r| r.kind == DocKind::Incident).collect();
    let guides: Vec<&str> = all.iter().filter(|r| r.kind == DocKind::Guide).map(|r| r.slug.as_str()).collect();
    assert_eq!(incidents.len(), 5);
    for slug in [
        "gpu-memory-in-training",
        "host-ram-dataloaders-ranks",
        "reading-pytorch-oom-message",
        "slurm-memory-flags-sacct-seff",
    ] {
        assert!(guides.contains(&slug), "guide {slug} missing from {guides:?}");
    }
    for incident in incidents {
        assert!(incident.memory.is_some() && !incident.stack.is_empty(), "{}", incident.slug);
        assert!(incident.fixes.iter().all(|f| !f.knobs.is_empty()), "{}: every fix states its knobs", incident.slug);
        assert!(
            incident.fixes.iter().all(|f| f.tradeoff.is_some()),
            "{}: every fix states its trade-off",
            incident.slug
        );
        assert!(!incident.verification.is_empty() && !incident.lessons.is_empty(), "{}", incident.slug);
        assert!(!incident.symptoms.signatures.is_empty(), "{}: a log signature", incident.slug);
    }
}

#[test]
fn the_validation_incident_keeps_the_seed_facts() {
    let all = content();
    let r = all.iter().find(|r| r.slug == "slurm-validation-dataloaders-job-limit").unwrap();
    assert_eq!(r.memory, Some(MemoryKind::JobLimit));
    assert_eq!(r.facts.jobs, vec![273202]);
    assert_eq!(r.facts.oom_kill_events, Some(4));
    let mem = r.fixes[0].knobs.iter().find(|k| k.knob == "#SBATCH --mem").unwrap();
    assert_eq!((mem.old.as_deref(), mem.new.as_str()), (Some("256G"), "400G"));
    assert!(r.related.contains(&"dataloader-workers-exhaust-node-request".to_string()));
}

#[test]
fn wiki_links_become_links_to_runbooks() {
    let all = content();
    let guide = all.iter().find(|r| r.slug == "gpu-memory-in-training").unwrap();
    let html: String = guide.other_sections.iter().map(|s| s.html.as_str()).collect();
    assert!(html.contains("href=\"#/runbooks/reading-pytorch-oom-message\""), "{html}");
}

/// Every Verify step's copy button copies exactly the command the write-up
/// puts in backticks or a fenced block: no sentence end, no prose after it.
#[test]
fn verify_steps_copy_exactly_the_commands() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let runbooks = headroom_core::writeup::compile_dir(&dir).unwrap_or_else(|e| panic!("{e:?}"));
    let copied = |slug: &str| -> Vec<Vec<String>> {
        let r = runbooks.iter().find(|r| r.slug == slug).unwrap_or_else(|| panic!("no runbook {slug}"));
        r.verification.iter().map(|s| s.commands.clone()).collect()
    };
    let expected: [(&str, Vec<Vec<&str>>); 5] = [
        (
            "adam-first-step-oom-shared-gpu",
            vec![
                vec!["bash scripts/run_e1.sh --res 32 --seeds \"4\" --episodes 100"],
                vec![],
                vec!["nvidia-smi --query-compute-apps=pid,used_memory --format=csv"],
            ],
        ),
        (
            "dataloader-workers-exhaust-node-request",
            vec![
                vec!["sstat -j <JOBID>.0 --format=JobID,MaxRSS,AveRSS"],
                vec!["sacct -j <JOBID> --format=JobID,State,ReqMem,MaxRSS"],
            ],
        ),
        (
            "grpo-fsdp-vllm-gpu-oom",
            vec![vec!["tail -f logs/slurm-<jobid>.err | grep -i \"memory\\|oom\""], vec!["watch -n 1 nvidia-smi"]],
        ),
        (
            "slurm-validation-dataloaders-job-limit",
            vec![
                vec!["squeue -j <JOBID>", "sstat -j <JOBID>.0 --format=MaxRSS"],
                vec!["grep -i \"oom\" train_<JOBID>.err"],
                vec!["grep -E \"Epoch [0-9]+:\" train_<JOBID>.out"],
                vec![],
                vec!["sacct -j <JOBID> --format=JobID,State,ReqMem,MaxRSS"],
            ],
        ),
        (
            "sweep-host-oom-batch-workers",
            vec![
                vec!["watch -n 2 'free -h && nvidia-smi --query-gpu=memory.used,memory.total --format=csv'"],
                vec![],
                vec!["dmesg -T | grep -i \"killed process\""],
            ],
        ),
    ];
    for (slug, want) in expected {
        let want: Vec<Vec<String>> = want.into_iter().map(|s| s.into_iter().map(String::from).collect()).collect();
        assert_eq!(copied(slug), want, "{slug}");
    }
}
