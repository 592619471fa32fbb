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
    assert!(String::from_utf8_lossy(&out.stdout).contains("9 write-ups OK (5 incidents, 4 guides)"));
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
