use super::*;
use crate::recommend::diagnose;

/// Every real log of the corpus and the fixtures.
fn real_logs() -> Vec<(String, String)> {
    let mut logs = Vec::new();
    for file in ["tests/corpus/logs.jsonl", "tests/fixtures/logs.jsonl"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = std::fs::read_to_string(&path).expect("read the real logs");
        for row in text.lines().filter(|l| !l.trim().is_empty()) {
            let value: serde_json::Value = serde_json::from_str(row).expect("a JSON row");
            let id = value["id"].as_str().unwrap_or_default().to_string();
            logs.push((id, value["log"].as_str().unwrap_or_default().to_string()));
        }
    }
    assert!(logs.len() > 200, "the corpus is there");
    logs
}

/// Secrets of every kind, each as a log would print it, and the value that must go.
const PLANTED: [(&str, &str); 25] = [
    ("Traceback from /home/zq4plant/run/train.py, line 3", "zq4plant"),
    ("  File \"C:\\Users\\PlantedWin\\AppData\\x.py\", line 1", "PlantedWin"),
    ("open('/Users/macplanted/code/data.bin')", "macplanted"),
    ("plantprompt@gpu-box-17:~/code$ python train.py", "plantprompt"),
    ("plantprompt@gpu-box-17:~/code$ python train.py", "gpu-box-17"),
    ("hostname=plantedhost-a100 rank=0", "plantedhost-a100"),
    ("NodeList=plnode[001-004]", "plnode[001-004]"),
    ("srun: error: nid99871: task 3: Out Of Memory", "nid99871"),
    ("connect to worker-3.plant.cluster.local failed", "worker-3.plant.cluster.local"),
    ("ip-10-20-30-40.ec2.internal:1234:5678 [0] NCCL INFO Bootstrap", "ip-10-20-30-40"),
    ("init_process_group tcp://192.168.77.66:29500", "192.168.77.66"),
    ("MASTER_ADDR=10.55.66.77 MASTER_PORT=29500", "10.55.66.77"),
    // HTCondor's sinful string runs the address into a port and a query.
    ("Job submitted from host: <10.1.2.3:9618?addrs=10.1.2.3-9618&noUDP&sock=1_d9>", "10.1.2.3"),
    ("bind to [2001:db8:85a3::8a2e:370:7334]:80 failed", "2001:db8:85a3::8a2e:370:7334"),
    ("mail sent to planted.person+oom@lab.example.org", "planted.person+oom@lab.example.org"),
    ("wandb: W&B API key: 0123456789abcdef0123456789abcdef01234567", "0123456789abcdef0123456789abcdef01234567"),
    ("export WANDB_API_KEY=local-9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    ("huggingface-cli login --token hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"),
    (
        "git clone https://ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/lab/x",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    ),
    ("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("Authorization: Bearer abcdef1234567890XYZtoken", "abcdef1234567890XYZtoken"),
    ("\"api_key\": \"sk-proj-Zx81kQ2mW9vB4nT7rY6uI0oP\"", "sk-proj-Zx81kQ2mW9vB4nT7rY6uI0oP"),
    ("session Q29uZmlkZW50aWFsVG9rZW4xMjM0NTY3ODkwQUJDREVG expired", "Q29uZmlkZW50aWFsVG9rZW4xMjM0NTY3ODkwQUJDREVG"),
    ("db password: hunter2", "hunter2"),
];

#[test]
fn no_planted_secret_survives_in_any_real_log() {
    for (id, log) in real_logs() {
        let lines: Vec<&str> = log.lines().collect();
        let middle = lines.len() / 2;
        // Planted on their own lines, in the middle of the log, and glued to its last line.
        let mut planted: Vec<String> = lines[..middle].iter().map(|l| l.to_string()).collect();
        planted.extend(PLANTED.iter().map(|(line, _)| line.to_string()));
        planted.extend(lines[middle..].iter().map(|l| l.to_string()));
        let glued = PLANTED.iter().map(|(line, _)| *line).collect::<Vec<_>>().join(" ");
        planted.push(format!("{} {glued}", lines.last().unwrap_or(&"")));
        let text = planted.join("\n");
        let out = redact(&text, Options::default()).text;
        for (line, secret) in PLANTED {
            assert!(!out.contains(secret), "{id}: `{secret}` survived (planted as `{line}`)");
        }
        assert_eq!(out.lines().count(), text.lines().count(), "{id}: lines are kept");
    }
}

#[test]
fn the_real_logs_lose_their_user_names_and_addresses() {
    let mut users = 0;
    for (id, log) in real_logs() {
        let out = redact(&log, Options::default()).text;
        for marker in ["/home/", "C:\\Users\\", "/Users/"] {
            for (at, _) in out.match_indices(marker) {
                let name: String = out[at + marker.len()..].chars().take_while(|c| is_name_char(*c)).collect();
                // A reporter's own placeholder ("/home/..../") names nobody.
                let named = name.chars().any(|c| c.is_ascii_alphanumeric());
                assert!(!named, "{id}: a user name survived: {marker}{name}");
                users += out[at + marker.len()..].starts_with("<user") as usize;
            }
        }
        let mut at = 0;
        for word in out.split(|c: char| !(c.is_ascii_digit() || c == '.')) {
            // A leading dot continues a dotted name (`libnppial.so.11.8.0.86`), and a word
            // glued to a name before it is a version (`nvidia-cublas-cu12-12.1.3.1`), not an address.
            let glued = out[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            let ip = !glued && !word.starts_with('.') && is_ipv4(word.trim_end_matches('.'));
            assert!(!ip || matches!(word, "0.0.0.0" | "127.0.0.1"), "{id}: address `{word}` survived");
            at += word.len() + out[at + word.len()..].chars().next().map_or(0, char::len_utf8);
        }
    }
    assert!(users >= 25, "the corpus has many home directories ({users} redacted)");
}

#[test]
fn redaction_never_changes_the_diagnosis() {
    for (id, log) in real_logs() {
        let before = diagnose(&log, &[]);
        let after = diagnose(&redact(&log, Options::default()).text, &[]);
        assert_eq!(
            (before.oom, before.memory, &before.numbers, before.phase, &before.stack),
            (after.oom, after.memory, &after.numbers, after.phase, &after.stack),
            "{id}"
        );
        let ids = |r: &crate::recommend::Report| r.fixes.iter().map(|f| f.id).collect::<Vec<_>>();
        assert_eq!(ids(&before), ids(&after), "{id}");
    }
}

#[test]
fn each_redaction_is_listed_and_can_be_undone() {
    let text = "run by alice@node042 in /home/alice/x\nbob@node042 too\nmail alice@example.org\n";
    let redacted = redact(text, Options::default());
    assert_eq!(redacted.text, "run by <user>@<host> in /home/<user>/x\n<user-2>@<host> too\nmail <email>\n");
    let listed: Vec<(Kind, usize, &str)> =
        redacted.redactions.iter().map(|r| (r.kind, r.line, r.original.as_str())).collect();
    assert_eq!(
        listed,
        vec![
            (Kind::User, 1, "alice"),
            (Kind::Host, 1, "node042"),
            (Kind::User, 1, "alice"),
            (Kind::User, 2, "bob"),
            (Kind::Host, 2, "node042"),
            (Kind::Email, 3, "alice@example.org"),
        ]
    );
    // One at a time, in any order, even after the text was edited above it.
    let edited = format!("# notes\n{}", redacted.text);
    let one = undo(&edited, &redacted.redactions[3]).unwrap();
    assert_eq!(one, "# notes\nrun by <user>@<host> in /home/<user>/x\nbob@<host> too\nmail <email>\n");
    let all = redacted.redactions.iter().rev().fold(redacted.text.clone(), |t, r| undo(&t, r).unwrap());
    assert_eq!(all, text);
    assert_eq!(undo("nothing here", &redacted.redactions[0]), None);
}

#[test]
fn job_ids_only_when_asked() {
    let text = "slurmstepd: error: Detected 4 oom_kill events in StepId=273202.0. See slurm-273202.out";
    assert!(redact(text, Options::default()).redactions.is_empty());
    let out = redact(text, Options { job_ids: true });
    assert_eq!(out.text, "slurmstepd: error: Detected 4 oom_kill events in StepId=<job>.0. See slurm-<job>.out");
}

#[test]
fn figures_settings_and_code_are_left_alone() {
    for text in [
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB. GPU 0 has a total capacity of 79.18 GiB",
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=32 max_new_tokens=512 eos_token=</s>",
        "log torch.cuda.max_memory_allocated() after each step; sacct -j <jobid> --format=JobID,State,ReqMem,MaxRSS",
        "source: catalog G-01: https://huggingface.co/docs/transformers/grad_accumulation",
        "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; node_rank=0 nnodes=4 at 12:34:56",
        "[rank3]:[W reducer.cpp:1389] Warning: find_unused_parameters=True was specified",
        "     [[Node: mixed0/concat = ConcatV2[N=4, T=DT_FLOAT, Tidx=DT_INT32]",
        "2024-04-20T09:12:33:101 quota TPUV4sPreemptiblePodPerProjectPerRegionForTPUAPI exceeded in ~/.local/lib",
        "cuda_driver.cc:893] failed to alloc 4294967296 bytes on host: CUDA_ERROR_OUT_OF_MEMORY: out of memory",
    ] {
        let out = redact(text, Options::default());
        assert!(out.redactions.is_empty(), "{text}: {:?}", out.redactions);
    }
}

#[test]
fn a_user_named_like_a_tool_is_redacted_in_its_path_only() {
    // A container image's user: "/home/pytorch/torch/distributed/...". The draft's title and
    // stack say "pytorch" too, and must keep it.
    let text = "File \"/home/pytorch/torch/distributed/c10d_logger.py\", line 78\nstack: [pytorch, nccl]";
    let r = redact(text, Options::default());
    assert_eq!(r.text, "File \"/home/<user>/torch/distributed/c10d_logger.py\", line 78\nstack: [pytorch, nccl]");
    let r = redact("/home/gpu/train.py\nslug: gpu-memory-runs-out", Options::default());
    assert_eq!(r.text, "/home/<user>/train.py\nslug: gpu-memory-runs-out");
}

#[test]
fn a_host_named_like_a_phase_is_redacted_where_found_only() {
    // Home Assistant's "Ollama server: model requires more system memory" reads "model" as the
    // server's host name; the draft's title says "during the model loading" and must keep it.
    let text = "Unexpected error talking to Ollama server: model requires more system memory (7.3 GiB)\ntitle: Host RAM runs out during the model loading";
    let r = redact(text, Options::default());
    assert!(r.text.ends_with("\ntitle: Host RAM runs out during the model loading"), "{}", r.text);
}
