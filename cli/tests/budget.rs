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
    assert!(json["max_micro_batch"].as_u64().unwrap() >= 4);
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
