//! `headroom diagnose` from a file and from stdin, human and JSON.

use std::io::Write;
use std::process::{Command, Stdio};

fn diagnose(args: &[&str], stdin: &[u8]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_headroom"))
        .arg("diagnose")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

const SLURM: &str = "epoch 0 done\nslurmstepd: error: Detected 4 oom_kill events in StepId=273202.0. Some of the step tasks have been OOM Killed.\n";

#[test]
fn stdin_to_the_contract_json() {
    let out = diagnose(&["-", "--json"], SLURM.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["oom"], true);
    assert_eq!(json["memory"], "job-limit");
    assert_eq!(json["stack"], serde_json::json!(["slurm"]));
    assert_eq!(json["numbers"]["oom_kill_events"], 4);
    assert_eq!(json["evidence"][0]["line"], 2);
    assert_eq!(json["evidence"][0]["signature"], "slurm-oom-kill-events");
    let fix = &json["fixes"][0];
    assert_eq!(fix["id"], "more_host_mem_request");
    for key in ["title", "detail", "tradeoff", "verify", "source"] {
        assert!(fix[key].as_str().is_some_and(|s| !s.is_empty()), "{key}");
    }
    assert!(fix["runbooks"].as_array().unwrap().contains(&serde_json::json!("slurm-validation-dataloaders-job-limit")));
}

#[test]
fn a_file_in_human_form_and_no_oom_still_exits_0() {
    let path = std::env::temp_dir().join(format!("headroom-diag-{}.log", std::process::id()));
    std::fs::write(&path, b"all good\nloss 0.1\n\xff\xfe not utf-8\n").unwrap();
    let out = diagnose(&[path.to_str().unwrap()], b"");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("No OOM found in 3 line(s)"));
    let out = diagnose(&[], SLURM.as_bytes());
    assert!(String::from_utf8_lossy(&out.stdout).contains("1. Request more memory for the job [more_host_mem_request]"));
}

#[test]
fn unreadable_input_exits_2() {
    let out = diagnose(&["/no/such/file.log"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /no/such/file.log"));
}

#[test]
fn help_and_unknown_options_are_not_file_names() {
    let out = diagnose(&["--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("headroom diagnose [FILE|-] [--json]"));
    let out = diagnose(&["--jsno"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown option --jsno"));
    let bare = Command::new(env!("CARGO_BIN_EXE_headroom")).output().unwrap();
    assert_eq!(bare.status.code(), Some(2), "no command is a usage error");
    assert!(String::from_utf8_lossy(&bare.stderr).contains("USAGE"));
}

/// A gigabyte with no line break is streamed through the diagnoser, not held:
/// under a 200 MB address-space limit, 300 MB of NUL bytes still read.
#[test]
fn a_huge_input_is_read_in_bounded_memory() {
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("head -c 300M /dev/zero | (ulimit -v 200000; exec '{}' diagnose)", env!("CARGO_BIN_EXE_headroom")))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("No OOM found in 1 line(s)"));
}

#[test]
fn a_utf16_log_from_powershell_is_read() {
    let text = "Traceback (most recent call last):\r\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\r\n";
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let out = diagnose(&["--json"], &bytes);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((json["oom"].as_bool(), json["memory"].as_str()), (Some(true), Some("gpu")));
}

/// `headroom diagnose job.err | head -1`: a reader that stops early ends the
/// command quietly (exit 0, nothing on stderr), as for any Unix tool.
#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_headroom"))
        .args(["diagnose", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(SLURM.as_bytes()).unwrap();
    // Close the read end before the command writes its report.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}
