//! `headroom check` on real directories: the project's content passes, a
//! broken write-up fails naming file and line.

use std::process::Command;

fn headroom(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_headroom")).args(args).output().expect("run headroom")
}

#[test]
fn the_projects_content_passes() {
    let content = concat!(env!("CARGO_MANIFEST_DIR"), "/../content");
    let out = headroom(&["check", content]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("10 write-ups OK (5 incidents, 5 guides)"));
}

#[test]
fn a_malformed_write_up_fails_with_file_and_line() {
    let dir = std::env::temp_dir().join(format!("headroom-check-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("incidents")).unwrap();
    std::fs::create_dir_all(dir.join("guides")).unwrap();
    let file = dir.join("incidents").join("bad.md");
    std::fs::write(&file, "---\ntitle: Bad\nsummary: x\nmemory: ram\nstack: [pytorch]\n---\n## Fix: y\n\n| Knob | Old | New |\n|---|---|---|\n| a | 1 | 2 |\n").unwrap();
    let out = headroom(&["check", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("{}:4: memory `ram` is not one of", file.display())), "{stderr}");
}

#[test]
fn every_unreadable_file_is_reported() {
    let dir = std::env::temp_dir().join(format!("headroom-check-unreadable-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("incidents").join("a.md")).unwrap();
    std::fs::create_dir_all(dir.join("incidents").join("b.md")).unwrap();
    let out = headroom(&["check", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for name in ["a.md", "b.md", "guides"] {
        assert!(stderr.lines().any(|l| l.contains(name) && l.contains(":1:")), "{name} not reported: {stderr}");
    }
    assert!(stderr.contains("3 problem(s)"), "{stderr}");
}

#[test]
fn compile_publishes_content_json_or_writes_nothing() {
    let site = std::env::temp_dir().join(format!("headroom-compile-site-{}", std::process::id()));
    std::fs::create_dir_all(&site).unwrap();
    let content = concat!(env!("CARGO_MANIFEST_DIR"), "/../content");
    let out = headroom(&["compile", content, "--out", site.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(site.join("content.json")).unwrap()).unwrap();
    assert_eq!(json.as_array().map(Vec::len), Some(10));

    // One broken write-up: non-zero exit naming file and line, and the site is left as it was.
    let broken = std::env::temp_dir().join(format!("headroom-compile-broken-{}", std::process::id()));
    std::fs::create_dir_all(broken.join("incidents")).unwrap();
    std::fs::create_dir_all(broken.join("guides")).unwrap();
    let bad = broken.join("incidents").join("bad.md");
    std::fs::write(&bad, "---\ntitle: Bad\nsummary: x\nmemory: ram\nstack: [pytorch]\n---\n").unwrap();
    let before = std::fs::read(site.join("content.json")).unwrap();
    let out = headroom(&["compile", broken.to_str().unwrap(), "--out", site.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("{}:4:", bad.display())));
    assert_eq!(std::fs::read(site.join("content.json")).unwrap(), before, "nothing written");
    assert_eq!(std::fs::read_dir(&site).unwrap().count(), 1);
    std::fs::remove_dir_all(&site).unwrap();
    std::fs::remove_dir_all(&broken).unwrap();
}

#[test]
fn a_draft_is_rejected_at_its_placeholders_until_they_are_filled_in() {
    let dir = std::env::temp_dir().join(format!("headroom-draft-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("slurm-273202.err");
    std::fs::write(&log, "python train.py --num_workers 8 --batch_size 32\nEpoch 0: 100%|██████████| 242/242\nslurmstepd: error: Detected 4 oom_kill events in StepId=273202.0 on /home/alice/run. Some of the step tasks have been OOM Killed.\n").unwrap();
    let out = headroom(&["draft", log.to_str().unwrap(), "--title", "Workers fill the node", "--redact-job-ids"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("---\ntitle: Workers fill the node\nslug: workers-fill-the-node\n"), "{text}");
    assert!(text.contains("\nmemory: job-limit\n") && text.contains("| `num_workers` | 8 | 4 |"), "{text}");
    assert!(!text.contains("alice") && !text.contains("273202"), "redacted: {text}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("(user name)") && stderr.contains("(job id)") && !stderr.contains("alice"), "{stderr}");

    let draft = dir.join("workers-fill-the-node.md");
    std::fs::write(&draft, &text).unwrap();
    let out = headroom(&["check", draft.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let placeholder_lines: Vec<usize> =
        text.lines().enumerate().filter(|(_, l)| l.contains("{{")).map(|(i, _)| i + 1).collect();
    for line in &placeholder_lines {
        assert!(
            stderr.contains(&format!("{}:{line}: placeholder to fill in", draft.display())),
            "line {line}: {stderr}"
        );
    }

    let mut filled = text.clone();
    while let (Some(start), Some(end)) = (filled.find("{{"), filled.find("}}")) {
        filled.replace_range(start..end + 2, "filled in");
    }
    std::fs::write(&draft, &filled).unwrap();
    let out = headroom(&["check", draft.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success(), "{}\n{filled}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn draft_refuses_a_fix_the_log_does_not_offer() {
    let out = headroom(&["draft", "/dev/null", "--fix", "bigger_shm"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no fix bigger_shm"));
}
