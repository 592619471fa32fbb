use super::*;
use crate::writeup::compile_dir;

fn run(text: &str) -> Diagnosis {
    diagnose(text, &[])
}

#[test]
fn messy_multi_rank_log_with_bars_colours_and_timestamps() {
    let mut log = String::new();
    for step in 0..200 {
        log.push_str(&format!(
            "\r\u{1b}[32mEpoch 0:  {}%|███      | {step}/242 [00:{:02}<01:00, 0.21it/s, loss=5.19]\u{1b}[0m",
            step / 3,
            step % 60
        ));
    }
    log.push('\n');
    log.push_str("2025-10-16 14:34:04,112 [rank3]: Traceback (most recent call last):\n");
    log.push_str("[rank3]:   File \"train.py\", line 88, in training_step\n[rank3]:     loss.backward()\n");
    log.push_str("[rank1]: INFO step 242 done\n");
    log.push_str("[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB. GPU 3 has a total capacity of 79.18 GiB of which 4.97 GiB is free. Including non-PyTorch memory, this process has 74.20 GiB memory in use. Of the allocated memory 72.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\n");
    log.push_str("data.train_batch_size=1024 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=32\n");
    let d = run(&log);
    assert!(d.oom);
    assert_eq!(d.memory, MemoryKind::Gpu);
    assert_eq!(d.phase, Some(Phase::Backward));
    assert_eq!(d.numbers.requested, Some(Bytes::from_gib(17.66).0));
    assert_eq!(d.numbers.free, Some(Bytes::from_gib(4.97).0));
    let evidence = d.evidence.iter().find(|e| e.signature == "pytorch-cuda-oom").unwrap();
    assert_eq!(evidence.line, 6);
    assert!(evidence.text.starts_with("[rank3]: torch.OutOfMemoryError"), "{}", evidence.text);
    let top = &d.fixes[0];
    assert_eq!(top.id, "reduce_batch");
    assert!(top.detail.contains("requested 17.66 GiB with 4.97 GiB free"), "{}", top.detail);
    assert!(top.detail.contains("halve the micro batch 32 -> 16 and accumulate 2 steps"), "{}", top.detail);
    assert!(d.fixes.iter().all(|f| !f.detail.contains("empty_cache")));
}

use crate::units::Bytes;

#[test]
fn chunked_feeding_gives_the_same_answer() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/logs.jsonl")).unwrap();
    let whole = {
        let mut d = Diagnoser::new();
        d.feed(&text);
        d.finish()
    };
    for chunk_size in [1, 7, 4096] {
        let mut d = Diagnoser::new();
        let mut rest = text.as_str();
        while !rest.is_empty() {
            let mut cut = chunk_size.min(rest.len());
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            d.feed(&rest[..cut]);
            rest = &rest[cut..];
        }
        assert_eq!(d.finish(), whole, "chunks of {chunk_size}");
    }
}

#[test]
fn garbage_is_no_oom_and_never_panics() {
    for text in [
        "",
        "\n\n\n",
        "hello world",
        "\u{0}\u{1b}[\u{1b}",
        "Killed process",
        "Tried to allocate",
        "Tried to allocate 99999999999999999999 GiB",
        "total-vm:",
        "shape[",
        "exceeded memory limit (",
        "Process 1 has",
    ] {
        let d = run(text);
        if text.is_empty() || text == "hello world" {
            assert!(!d.oom);
            assert_eq!(d.memory, MemoryKind::None);
            assert!(d.summary.starts_with("No OOM found"), "{}", d.summary);
        }
    }
    let binary: String = (0u32..5000).filter_map(|i| char::from_u32((i * 7919) % 0x2FFF)).collect();
    assert!(!run(&binary).oom);
}

#[test]
fn look_alikes_are_not_oom_and_say_what_they_are() {
    let d = run("RuntimeError: CUDA error: an illegal memory access was encountered\n");
    assert!(!d.oom);
    assert_eq!(d.memory, MemoryKind::None);
    assert!(d.summary.contains("illegal memory access"));
    assert_eq!(d.fixes[0].id, "not_oom_fix");
    let d = run("slurmstepd: error: *** JOB 123 ON n1 CANCELLED AT 2020-07-03T02:59:56 DUE TO TIME LIMIT ***\n");
    assert!(!d.oom && d.summary.contains("time limit"), "{}", d.summary);
}

#[test]
fn kernel_cgroup_versus_global() {
    let memcg = "[1234.5] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null)\n[1234.6] Memory cgroup out of memory: Killed process 23793 (python) total-vm:8000000kB, anon-rss:7000000kB\n";
    let d = run(memcg);
    assert_eq!(d.memory, MemoryKind::JobLimit);
    assert_eq!(d.numbers.rss, Some(7_000_000 * 1024));
    let global = "[141620.867156] oom-kill:constraint=CONSTRAINT_NONE\n[141620.867403] Out of memory: Killed process 1413497 (python) total-vm:50344988kB, anon-rss:29000000kB\n";
    let d = run(global);
    assert_eq!(d.memory, MemoryKind::Host);
    assert_eq!(d.numbers.total_vm, Some(50_344_988 * 1024));
    assert_eq!(d.fixes[0].id, "fewer_workers");
}

#[test]
fn bus_error_is_shared_memory_and_killed_is_ram() {
    let d = run("RuntimeError: DataLoader worker (pid 42) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory.\n");
    assert_eq!((d.oom, d.memory), (true, MemoryKind::Shm));
    assert_eq!(d.fixes[0].id, "bigger_shm");
    let d = run("RuntimeError: DataLoader worker (pid 19597) is killed by signal: Killed.\n");
    assert_eq!((d.oom, d.memory, d.phase), (true, MemoryKind::Host, Some(Phase::Dataloader)));
    let d = run("Last State:     Terminated\n  Reason:       OOMKilled\n  Exit Code:    137\n");
    assert_eq!((d.oom, d.memory), (true, MemoryKind::JobLimit));
    assert!(d.stack.contains(&Stack::Kubernetes));
}

#[test]
fn container_pid_mismatch_is_not_contention() {
    let d = run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 93.00 GiB of which 1.18 GiB is free. Process 2752205 has 91.82 GiB memory in use. Of the allocated memory 90.63 GiB is allocated by PyTorch, and 302.00 MiB is reserved by PyTorch but unallocated.\n");
    assert_eq!(d.numbers.other_process, None);
    assert_eq!(d.numbers.this_process, Some(Bytes::from_gib(91.82).0));
    assert!(d.fixes.iter().take(2).all(|f| f.id != "free_other_process"));
    let d = run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 66.00 MiB. GPU 0 has a total capacity of 23.64 GiB of which 57.00 MiB is free. Process 1473544 has 21.62 GiB memory in use. Including non-PyTorch memory, this process has 598.00 MiB memory in use. Of the allocated memory 400.00 MiB is allocated by PyTorch, and 20.00 MiB is reserved by PyTorch but unallocated.\n");
    assert_eq!(d.numbers.other_process, Some(Bytes::from_gib(21.62).0));
    assert_eq!(d.fixes[0].id, "free_other_process");
    assert!(d.fixes[0].detail.contains("21.62 GiB"), "{}", d.fixes[0].detail);
}

#[test]
fn fragmentation_prefers_expandable_segments() {
    let d = run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.70 GiB. GPU 0 has a total capacty of 6.00 GiB of which 0 bytes is free. Of the allocated memory 2.93 GiB is allocated by PyTorch, and 2.30 GiB is reserved by PyTorch but unallocated.\n");
    assert_eq!(d.fixes[0].id, "expandable_segments");
    assert!(d.fixes[0].detail.contains("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"));
}

/// The logs quoted in the lab's five write-ups, and the runbooks they link to.
#[test]
fn the_seeds_logs_and_their_runbooks() {
    let runbooks = compile_dir(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")).unwrap();
    let d = diagnose(
        "Error log: \"Detected 4 oom_kill events in StepId=273202.0\"\nExit status: OUT_OF_MEMORY (exit code 0:125)\n",
        &runbooks,
    );
    assert_eq!((d.oom, d.memory, d.numbers.oom_kill_events), (true, MemoryKind::JobLimit, Some(4)));
    assert_eq!(d.fixes[0].id, "more_host_mem_request");
    assert!(
        d.fixes[0].runbooks.contains(&"slurm-validation-dataloaders-job-limit".to_string()),
        "{:?}",
        d.fixes[0].runbooks
    );

    let d = diagnose("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB.\nGPU 0 has a total capacity of 79.18 GiB of which 4.97 GiB is free.\nOf the allocated memory 100.77 GiB is allocated by PyTorch\n", &runbooks);
    assert_eq!(
        (d.memory, d.numbers.capacity, d.numbers.allocated_by_pytorch),
        (MemoryKind::Gpu, Some(Bytes::from_gib(79.18).0), Some(Bytes::from_gib(100.77).0))
    );
    assert!(d.fixes.iter().any(|f| f.runbooks.contains(&"grpo-fsdp-vllm-gpu-oom".to_string())));

    let d = diagnose("[141620.867156] oom-kill:constraint=CONSTRAINT_NONE\n[141620.867403] Out of memory: Killed process 1413497 (python)\n                total-vm:50344988kB  (~50GB!)\n", &runbooks);
    assert_eq!((d.memory, d.numbers.total_vm), (MemoryKind::Host, Some(50_344_988 * 1024)));
    assert!(d.fixes[0].runbooks.contains(&"sweep-host-oom-batch-workers".to_string()), "{:?}", d.fixes[0].runbooks);

    let d = diagnose("Job 269582: FAILED - OOM killed (5 oom_kill events detected)\n", &runbooks);
    assert_eq!((d.memory, d.numbers.oom_kill_events), (MemoryKind::JobLimit, Some(5)));
    assert!(d.fixes.iter().any(|f| f.runbooks.contains(&"dataloader-workers-exhaust-node-request".to_string())));
}

#[test]
fn figures_prefill_the_calculator() {
    let d = run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB. GPU 0 has a total capacity of 79.18 GiB of which 4.97 GiB is free.\n");
    let pairs = crate::recommend::budget_fields(&d);
    assert_eq!(pairs, vec![("gpu", "custom".to_string()), ("gpu_mem_gib", "79.18".to_string())]);
    let mut plan = crate::budget::Plan::default();
    let owned: Vec<(String, String)> = pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    assert!(crate::budget::fields::apply(&mut plan, &owned).is_empty());
    assert_eq!(plan.gpu.capacity, Bytes::from_gib(79.18));
    let d =
        run("slurmstepd-falkor7: error: Step 1141810.0 exceeded memory limit (52917772 > 20971520), being killed\n");
    assert_eq!(crate::recommend::budget_fields(&d), vec![("mem_gib", "20.00".to_string())]);
}
