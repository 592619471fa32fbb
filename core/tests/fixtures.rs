//! Every real log in `fixtures/logs.jsonl` (from public issue threads, with
//! their expected labels): oom, memory, every expected figure within 1%, and
//! a fix the thread's maintainers recommended among our top three. Phase and
//! stack are scored and printed (run with --nocapture for the table).

use headroom_core::diagnose::diagnose;
use serde_json::Value;

fn fixtures() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/logs.jsonl");
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

const CONTRACT_STACKS: [&str; 16] = [
    "pytorch",
    "slurm",
    "linux",
    "lightning",
    "deepspeed",
    "fsdp",
    "vllm",
    "verl",
    "jax",
    "tensorflow",
    "kubernetes",
    "nccl",
    "mps",
    "bitsandbytes",
    "wandb",
    "accelerate",
];

#[derive(Default)]
struct Score {
    right: usize,
    total: usize,
}

impl Score {
    fn add(&mut self, ok: bool) {
        self.total += 1;
        self.right += ok as usize;
    }
}

#[test]
fn every_fixture_log() {
    let mut failures = Vec::new();
    let (mut oom, mut memory, mut numbers, mut fixes, mut phase, mut stack) =
        (Score::default(), Score::default(), Score::default(), Score::default(), Score::default(), Score::default());
    for fixture in fixtures() {
        let id = fixture["id"].as_str().unwrap();
        let expected = &fixture["expected"];
        let d = diagnose(fixture["log"].as_str().unwrap(), &[]);
        let got = serde_json::to_value(&d).unwrap();

        let ok = got["oom"] == expected["oom"];
        oom.add(ok);
        if !ok {
            failures.push(format!("{id}: oom {} expected {}", got["oom"], expected["oom"]));
        }
        let ok = got["memory"] == expected["memory"];
        memory.add(ok);
        if !ok {
            failures.push(format!("{id}: memory {} expected {}", got["memory"], expected["memory"]));
        }
        for (key, want) in expected["numbers"].as_object().unwrap() {
            let want = want.as_f64().unwrap();
            let have = got["numbers"][key].as_f64();
            let ok = have.is_some_and(|h| (h - want).abs() <= want.abs() * 0.01 + 0.5);
            numbers.add(ok);
            if !ok {
                failures.push(format!("{id}: numbers.{key} {have:?} expected {want}"));
            }
        }
        let wanted: Vec<&str> = expected["fixes"].as_array().unwrap().iter().filter_map(|f| f.as_str()).collect();
        if !wanted.is_empty() {
            let top: Vec<&str> = d.fixes.iter().take(3).map(|f| f.id).collect();
            let ok = wanted.iter().any(|w| top.contains(w));
            fixes.add(ok);
            if !ok {
                failures.push(format!("{id}: top fixes {top:?}, expected one of {wanted:?}"));
            }
        }
        if let Some(want) = expected.get("phase") {
            phase.add(got["phase"] == *want);
            if got["phase"] != *want {
                println!("phase miss {id}: {} expected {want}", got["phase"]);
            }
        }
        let have: Vec<&str> = got["stack"].as_array().unwrap().iter().filter_map(|s| s.as_str()).collect();
        for s in expected["stack"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s.as_str())
            .filter(|s| CONTRACT_STACKS.contains(s))
        {
            stack.add(have.contains(&s));
            if !have.contains(&s) {
                println!("stack miss {id}: {s} not in {have:?}");
            }
        }
    }
    println!("| field | right | of | accuracy |\n|---|---:|---:|---:|");
    for (name, s) in [
        ("oom", &oom),
        ("memory", &memory),
        ("numbers (each figure, 1%)", &numbers),
        ("fix in top 3", &fixes),
        ("phase", &phase),
        ("stack (each expected, contract vocabulary)", &stack),
    ] {
        println!("| {name} | {} | {} | {:.0}% |", s.right, s.total, 100.0 * s.right as f64 / s.total.max(1) as f64);
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}
