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
