//! `headroom budget` with flags and a TOML file, as JSON and markdown.

use std::process::Command;

fn headroom(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_headroom")).args(args).output().expect("run headroom")
}

#[test]
fn flags_give_a_json_breakdown() {
    let out = headroom(&[
        "budget",
        "--model",
        "Llama-2-7B",
        "--lora_rank",
        "16",
        "--micro_batch",
        "4",
        "--gpu",
        "A100-80GB",
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let parts = json["gpu"]["parts"].as_array().unwrap();
    assert!(parts.iter().any(|p| p[0] == "Activations"));
    assert_eq!(json["gpu"]["capacity"], serde_json::json!(80u64 << 30));
    assert!(json["answers"]["max_micro_batch"]["value"].as_u64().unwrap() >= 4);
    assert!(json["sbatch"].as_str().unwrap().starts_with("#SBATCH --mem="));
}

#[test]
fn a_toml_file_and_flags_combine_and_bad_values_exit_2() {
    let path = std::env::temp_dir().join(format!("headroom-budget-{}.toml", std::process::id()));
    std::fs::write(&path, "model = \"Mistral-7B\"\nmicro_batch = 8\nflash = false\nworkers = 8\nmem_gib = 256\n")
        .unwrap();
    let out = headroom(&["budget", "--config", path.to_str().unwrap(), "--gpus", "8", "--sharding", "zero3"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("### Memory budget: Mistral-7B on A100-80GB"), "{text}");
    assert!(text.contains("num_workers 8 -> 1 per rank"), "{text}");

    std::fs::write(&path, "micro_batch = -3\n").unwrap();
    let out = headroom(&["budget", "--config", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("micro_batch: must be between 1 and 65536"));
    let out = headroom(&["budget", "--vllm_util", "NaN"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_toml_syntax_error_names_its_line() {
    let path = std::env::temp_dir().join(format!("headroom-budget-syntax-{}.toml", std::process::id()));
    std::fs::write(&path, "model = \"Mistral-7B\"\nmicro_batch = 8\nflash = \n").unwrap();
    let out = headroom(&["budget", "--config", path.to_str().unwrap()]);
    std::fs::write(&path, "model = \"Mistral-7B\"\nmicro_batch = [8]\n").unwrap();
    let typed = headroom(&["budget", "--config", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("{}:3:", path.display())), "{stderr}");
    assert!(String::from_utf8_lossy(&typed.stderr).contains(&format!("{}:2: `micro_batch` must be", path.display())));
}

/// Issue 11 item 4: `--main_gib 1,5` gave 15 GiB. Flags and TOML read commas as the form does.
#[test]
fn a_decimal_comma_means_the_same_in_flags_and_toml() {
    let main_gib = |out: &std::process::Output| {
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["host"]["parts"][0][1].as_u64().unwrap()
    };
    let out = headroom(&["budget", "--main_gib", "1,5", "--ranks", "1", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(main_gib(&out), 3 << 29, "1,5 GiB is 1.5 GiB");

    let path = std::env::temp_dir().join(format!("headroom-comma-{}.toml", std::process::id()));
    std::fs::write(&path, "main_gib = \"1,5\"\nranks = 1\n").unwrap();
    let out = headroom(&["budget", "--config", path.to_str().unwrap(), "--json"]);
    std::fs::remove_file(&path).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(main_gib(&out), 3 << 29);

    let out = headroom(&["budget", "--main_gib", "1,500"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("main_gib: `1,500` is ambiguous"));
}

/// Issue 10 item 1: the inverse questions from the command line.
#[test]
fn solve_answers_the_inverse_questions() {
    // ZeRO paper, Table 2: 64 V100s of 32 GB, model states only, ZeRO-3: 128 B parameters.
    let states_only = [
        "budget",
        "--model",
        "custom",
        "--layers",
        "0",
        "--act_mib",
        "0",
        "--gpu",
        "custom",
        "--gpu_mem_gib",
        "29.8023223876953125",
        "--context_gib",
        "0",
        "--frag_pct",
        "0",
        "--gpus",
        "64",
        "--sharding",
        "zero3",
    ];
    let out = headroom(&[&states_only[..], &["--solve", "params"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("Largest model that fits: 128.00 B parameters"), "{text}");

    let out = headroom(&["budget", "--lora_rank", "16", "--solve", "micro_batch", "--solve", "seq_len", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["micro_batch"]["answer"], "exactly");
    assert!(lines[1]["seq_len"]["value"].as_u64().unwrap() > 2048);

    let out = headroom(&["budget", "--solve", "height"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not one of params, seq_len, micro_batch, gpus, vllm_util"));
    let out = headroom(&["budget", "--solve", "vllm_util"]);
    assert_eq!(out.status.code(), Some(2), "not asked: no target tokens");
}
