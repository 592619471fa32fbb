use super::*;
use crate::memory::MemoryKind;
use crate::units::Bytes;
use crate::writeup::compile_dir;

fn run(text: &str) -> Report {
    diagnose(text, &[])
}

fn ids(r: &Report) -> Vec<&'static str> {
    r.fixes.iter().map(|f| f.id).collect()
}

#[test]
fn a_batch_setting_and_a_backward_frame_put_the_batch_first_with_its_values() {
    let log = "[rank3]:   File \"train.py\", line 88, in training_step\n[rank3]:     loss.backward()\n[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB. GPU 3 has a total capacity of 79.18 GiB of which 4.97 GiB is free. Including non-PyTorch memory, this process has 74.20 GiB memory in use. Of the allocated memory 72.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\ndata.train_batch_size=1024 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=32\n";
    let r = run(log);
    let top = &r.fixes[0];
    assert_eq!(top.id, "reduce_batch");
    assert!(top.detail.contains("requested 17.66 GiB with 4.97 GiB free"), "{}", top.detail);
    assert!(top.detail.contains("halve the micro batch 32 -> 16 and accumulate 2 steps"), "{}", top.detail);
    assert_eq!(top.because, "line 4: ppo_micro_batch_size_per_gpu=32");
    assert_eq!(r.fixes[1].id, "grad_checkpointing");
    assert!(r.fixes[1].because.contains("line 2") && r.fixes[1].because.contains("backward"), "{}", r.fixes[1].because);
    assert!(r.fixes.iter().all(|f| !f.detail.contains("empty_cache") && !f.because.is_empty()));
}

#[test]
fn the_evidence_changes_the_order() {
    // The same OOM raised from optimizer.step(): optimizer state, not activations.
    let step = "  File \"/opt/conda/lib/python3.10/site-packages/torch/optim/adamw.py\", line 184, in step\n    adamw(\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 120.06 MiB is free. Of the allocated memory 22.41 GiB is allocated by PyTorch, and 111.25 MiB is reserved by PyTorch but unallocated.\n";
    // On a 24 GiB card the card's size comes next (catalog D2 rule 4), then offload.
    assert_eq!(ids(&run(step))[..4], ["quantize", "shard_fsdp_zero", "other", "cpu_offload"]);
    // Loading a checkpoint saved from GPU.
    let load = "  File \"eval.py\", line 12, in <module>\n    state = torch.load(args.ckpt)\nRuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 6.88 GiB already allocated; 17.31 MiB free; 6.93 GiB reserved in total by PyTorch)\n";
    let r = run(load);
    assert_eq!(r.fixes[0].id, "other");
    assert!(r.fixes[0].detail.contains("map_location"), "{}", r.fixes[0].detail);
    // A vLLM KV cache that cannot hold one sequence.
    let kv = "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (23648). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n";
    let r = run(kv);
    assert_eq!(ids(&r)[..2], ["smaller_seq_len", "lower_gpu_mem_util"]);
    assert!(r.fixes[0].detail.contains("--max-model-len 23648"), "{}", r.fixes[0].detail);
    assert!(!ids(&r).contains(&"grad_checkpointing"), "inference gets no training fixes: {:?}", ids(&r));
}

#[test]
fn look_alikes_get_the_real_error_first() {
    let r = run("RuntimeError: CUDA error: an illegal memory access was encountered\n");
    assert_eq!(r.fixes[0].id, "not_oom_fix");
    assert!(r.fixes[0].because.contains("illegal memory access"), "{}", r.fixes[0].because);
    let r = run("Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nValueError: Tokenizer class LlamaTokenizer does not exist\n");
    assert_eq!(r.fixes.len(), 1);
    assert!(
        r.fixes[0].detail.contains("ValueError: Tokenizer class LlamaTokenizer does not exist"),
        "{}",
        r.fixes[0].detail
    );
    // Nothing recognised at all: one hedged pointer at the log's own error.
    let nothing = run("hello world\n");
    assert_eq!(ids(&nothing), ["not_oom_fix"]);
    assert!(nothing.fixes[0].detail.contains("first error"), "{}", nothing.fixes[0].detail);
}

#[test]
fn host_job_limit_and_shared_memory() {
    let global = "[141620.867156] oom-kill:constraint=CONSTRAINT_NONE\n[141620.867403] Out of memory: Killed process 1413497 (python) total-vm:50344988kB, anon-rss:29000000kB\n";
    // No sign of DataLoader workers or a scheduler: more RAM first, then less data held
    // at once (H-09) and a smaller batch; workers after them.
    let r = run(global);
    assert_eq!(ids(&r)[..4], ["more_host_mem_request", "other", "reduce_batch", "fewer_workers"]);
    assert!(r.fixes[1].detail.contains("H-09") && r.fixes[1].detail.contains("dmesg"), "{}", r.fixes[1].detail);
    // On SLURM the limit is the job's: the kernel log to confirm, after the request.
    let slurm = format!("{global}slurmstepd: error: *** JOB 7 ON n1 CANCELLED ***\n");
    assert!(ids(&run(&slurm)).iter().position(|&i| i == "other") > Some(2), "{:?}", ids(&run(&slurm)));
    let bus = "RuntimeError: DataLoader worker (pid 42) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory.\n";
    assert_eq!(run(bus).fixes[0].id, "bigger_shm");
    let paging = "OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading \"C:\\Users\\me\\torch\\lib\\cudnn_adv_infer64_8.dll\"\n";
    let r = run(paging);
    assert_eq!((r.diagnosis.oom, r.diagnosis.memory), (true, MemoryKind::Host));
    assert_eq!(ids(&r)[..2], ["other", "fewer_workers"]);
    assert!(r.fixes[0].detail.contains("paging file"));
}

#[test]
fn contention_and_container_pid_lines() {
    let r = run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 93.00 GiB of which 1.18 GiB is free. Process 2752205 has 91.82 GiB memory in use. Of the allocated memory 90.63 GiB is allocated by PyTorch, and 302.00 MiB is reserved by PyTorch but unallocated.\n");
    assert!(r.fixes.iter().take(2).all(|f| f.id != "free_other_process"), "{:?}", ids(&r));
    let r = run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 66.00 MiB. GPU 0 has a total capacity of 23.64 GiB of which 57.00 MiB is free. Process 1473544 has 21.62 GiB memory in use. Including non-PyTorch memory, this process has 598.00 MiB memory in use. Of the allocated memory 400.00 MiB is allocated by PyTorch, and 20.00 MiB is reserved by PyTorch but unallocated.\n");
    assert_eq!(r.fixes[0].id, "free_other_process");
    assert!(r.fixes[0].detail.contains("21.62 GiB"), "{}", r.fixes[0].detail);
    assert!(r.fixes[0].because.starts_with("line 1: other processes hold 21.62 GiB"), "{}", r.fixes[0].because);
}

#[test]
fn fragmentation_prefers_expandable_segments() {
    let d = run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.70 GiB. GPU 0 has a total capacty of 6.00 GiB of which 0 bytes is free. Of the allocated memory 2.93 GiB is allocated by PyTorch, and 2.30 GiB is reserved by PyTorch but unallocated.\n");
    assert_eq!(d.fixes[0].id, "expandable_segments");
    assert!(d.fixes[0].detail.contains("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"));
}

#[test]
fn fragmentation_in_the_old_wording_gets_the_old_setting() {
    // PyTorch 1.4-2.0 wording: 2.00 GiB reserved but unallocated covers the 1.00 GiB request.
    let d = run("RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 15.78 GiB total capacity; 12.00 GiB already allocated; 512.00 MiB free; 14.00 GiB reserved in total by PyTorch)\n");
    let f = d.fixes.iter().find(|f| f.id == "expandable_segments").expect("2 GiB unallocated covers 1 GiB");
    assert!(f.detail.contains("max_split_size_mb:128"), "{}", f.detail);
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
    assert!(d.fixes.iter().any(|f| f.runbooks.contains(&"sweep-host-oom-batch-workers".to_string())));

    let d = diagnose("Job 269582: FAILED - OOM killed (5 oom_kill events detected)\n", &runbooks);
    assert_eq!((d.memory, d.numbers.oom_kill_events), (MemoryKind::JobLimit, Some(5)));
    assert!(d.fixes.iter().any(|f| f.runbooks.contains(&"dataloader-workers-exhaust-node-request".to_string())));
}

#[test]
fn figures_prefill_the_calculator() {
    let d = crate::diagnose::diagnose("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB. GPU 0 has a total capacity of 79.18 GiB of which 4.97 GiB is free.\n");
    let pairs = crate::recommend::budget_fields(&d);
    assert_eq!(pairs, vec![("gpu", "custom".to_string()), ("gpu_mem_gib", "79.18".to_string())]);
    let mut plan = crate::budget::Plan::default();
    let owned: Vec<(String, String)> = pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    assert!(crate::budget::fields::apply(&mut plan, &owned).is_empty());
    assert_eq!(plan.gpu.capacity, Bytes::from_gib(79.18));
    let d = crate::diagnose::diagnose(
        "slurmstepd-falkor7: error: Step 1141810.0 exceeded memory limit (52917772 > 20971520), being killed\n",
    );
    assert_eq!(crate::recommend::budget_fields(&d), vec![("mem_gib", "20.00".to_string())]);
}

/// Issue 10 item 3: a pasted vLLM start-up log fills the vLLM fields, and the
/// Budget page then prints the start-up the log shows. The log is the 29k
/// case of https://github.com/vllm-project/vllm/issues/10517 (Llama-3.1-8B,
/// RTX 3090, vLLM V0).
#[test]
fn a_vllm_startup_log_fills_the_vllm_fields() {
    let log = "INFO 12-02 model_runner.py:1077] Loading model weights took 14.9888 GB
INFO 12-02 worker.py:232] Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB peak_torch_memory=17.98GiB memory_usage_post_profile=15.35GiB non_torch_memory=0.35GiB kv_cache_size=2.89GiB gpu_memory_utilization=0.90
INFO 12-02 distributed_gpu_executor.py:57] # GPU blocks: 1478, # CPU blocks: 2048
INFO 12-02 distributed_gpu_executor.py:61] Maximum concurrency for 29000 tokens per request: 0.82x
ValueError: The model's max seq len (29000) is larger than the maximum number of tokens that can be stored in KV cache (23648). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.
";
    let d = crate::diagnose::diagnose(log);
    let pairs = crate::recommend::budget_fields(&d);
    let value = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
    assert_eq!(value("gpu_mem_gib"), Some("23.58"), "{pairs:?}");
    assert_eq!(value("workload"), Some("inference"));
    assert_eq!(value("vllm_util"), Some("0.9"));
    assert_eq!(value("seq_len"), Some("29000"));
    assert_eq!(value("block_size"), Some("16"), "23,648 tokens in 1,478 blocks");
    // 0.90 x 23.58 GiB - 14.99 GiB of weights - 2.89 GiB of KV cache.
    assert_eq!(value("vllm_overhead_gib"), Some("3.34"));

    // The served model is not in the figures the diagnoser reads: choose it, and the
    // page's vLLM start-up is the log's within the weights' difference (vLLM's own
    // 14.99 GiB against 8.03 B parameters x 2 bytes = 14.96 GiB).
    let mut plan = crate::budget::Plan::default();
    let owned: Vec<(String, String)> = pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    assert!(crate::budget::fields::apply(&mut plan, &owned).is_empty());
    crate::budget::fields::set(&mut plan, "model", "Llama-3-8B").unwrap();
    let v = crate::budget::evaluate(&plan).gpu.vllm.unwrap();
    assert!(!v.starts(), "29,000 tokens do not fit, as in the log");
    let off = v.gpu_blocks as f64 / 1478.0 - 1.0;
    assert!(off.abs() < 0.02, "{} blocks against the log's 1478", v.gpu_blocks);
    assert!(v.log_lines().iter().any(|l| l.contains("Maximum concurrency for 29,000 tokens per request: 0.8")));
}

#[test]
fn a_log_that_shows_no_training_gets_no_training_fixes_first() {
    let oom = "RuntimeError: CUDA out of memory. Tried to allocate 50.00 MiB (GPU 0; 7.79 GiB total capacity; 5.58 GiB already allocated; 10.56 MiB free; 5.60 GiB reserved in total by PyTorch)\n";
    // PyTorch holds 5.60 of 7.79 GiB: something else may hold the rest. The
    // small card comes first (catalog D2 rule 4), then the batch.
    let r = run(oom);
    assert_eq!(ids(&r)[..4], ["other", "reduce_batch", "free_other_process", "mixed_precision"]);
    assert!(r.fixes[2].because.contains("does not show how much of it this process held"), "{}", r.fixes[2].because);
    // The same message raised from backward(): the training fixes come before another process.
    let training = format!("  File \"train.py\", line 9, in <module>\n    loss.backward()\n{oom}");
    let ids_training = ids(&run(&training));
    let position =
        |id| ids_training.iter().position(|i| *i == id).unwrap_or_else(|| panic!("{id} in {ids_training:?}"));
    assert!(position("grad_checkpointing") < position("free_other_process"), "{ids_training:?}");
    // PyTorch holds nearly the whole GPU: no other process to look for.
    let own = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 7.20 GiB already allocated; 10.56 MiB free; 7.30 GiB reserved in total by PyTorch)\n";
    assert!(!ids(&run(own)).contains(&"free_other_process"), "{:?}", ids(&run(own)));
}

#[test]
fn a_request_larger_than_the_gpu_is_answered_with_the_operation() {
    // 2dgs97's shape: 35 GiB asked of a 23.6 GiB card (catalog D2 rule 1, G-14).
    let log = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 35.16 GiB. GPU 0 has a total capacity of 23.64 GiB of which 18.37 GiB is free. Of the allocated memory 4.46 GiB is allocated by PyTorch, and 109.89 MiB is reserved by PyTorch but unallocated.\n";
    let r = run(log);
    assert_eq!(ids(&r)[..3], ["smaller_seq_len", "other", "reduce_batch"]);
    assert!(r.fixes[1].detail.contains("G-14") && r.fixes[1].detail.contains("chunk"), "{}", r.fixes[1].detail);
    assert!(r.fixes[1].because.contains("more than the GPU has"), "{}", r.fixes[1].because);
}

#[test]
fn a_small_card_is_answered_with_the_card_or_the_workload() {
    let on = |capacity: &str| {
        format!("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total capacity of {capacity} of which 100.00 MiB is free. Of the allocated memory 3.10 GiB is allocated by PyTorch, and 20.00 MiB is reserved by PyTorch but unallocated.\n")
    };
    let r = run(&on("3.81 GiB"));
    assert_eq!(r.fixes[0].id, "other");
    assert!(
        r.fixes[0].detail.contains("D2 rule 4") && r.fixes[0].detail.contains("more memory"),
        "{}",
        r.fixes[0].detail
    );
    assert_eq!(r.fixes[0].because, "line 1: the whole GPU is 3.81 GiB");
    // An 80 GB card is not small: no such advice.
    let r = run(&on("79.15 GiB"));
    assert!(r.fixes.iter().all(|f| !f.detail.contains("D2 rule 4")), "{:?}", ids(&r));
    // Another process holding the card is the answer there, not the card's size.
    let shared = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total capacity of 11.00 GiB of which 100.00 MiB is free. Process 4242 has 7.50 GiB memory in use. Including non-PyTorch memory, this process has 3.30 GiB memory in use. Of the allocated memory 3.10 GiB is allocated by PyTorch, and 20.00 MiB is reserved by PyTorch but unallocated.\n";
    let r = run(shared);
    assert_eq!(r.fixes[0].id, "free_other_process");
    assert!(r.fixes.iter().all(|f| !f.detail.contains("D2 rule 4")), "{:?}", ids(&r));
}

#[test]
fn an_unsized_gpu_oom_with_no_training_in_view_gets_the_card_or_the_workload() {
    // whisperstandalone255's shape: the runtime's bare message, no figures, no training.
    let r = run("RuntimeError: CUDA failed with error out of memory\n");
    let top3 = &r.fixes[..3];
    let rule4 = top3.iter().find(|f| f.id == "other").expect("D2 rule 4 in the top 3");
    assert!(rule4.detail.contains("D2 rule 4") && rule4.detail.contains("smaller variant"), "{}", rule4.detail);
    assert!(rule4.because.contains("nothing in the log shows training"), "{}", rule4.because);
    // A backward frame is training to shrink: the training knobs, not the card.
    let training =
        run("  File \"train.py\", line 9, in <module>\n    loss.backward()\nRuntimeError: CUDA error: out of memory\n");
    assert!(training.fixes[..3].iter().all(|f| f.id != "other"), "{:?}", ids(&training));
}

#[test]
fn a_batch_of_one_is_not_halved() {
    let log = "  File \"train.py\", line 9, in <module>\n    loss.backward()\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.00 GiB is free.\nper_device_train_batch_size=1\n";
    let r = run(log);
    assert!(!ids(&r).contains(&"reduce_batch"), "{:?}", ids(&r));
    let seq = r.fixes.iter().find(|f| f.id == "smaller_seq_len").expect("a shorter input");
    assert!(seq.because.contains("per_device_train_batch_size=1"), "{}", seq.because);
    // A batch of 2 still halves.
    assert_eq!(ids(&run(&log.replace("size=1", "size=2")))[0], "reduce_batch");
}

#[test]
fn a_refused_host_allocation_is_answered_with_the_data() {
    let refused =
        "  File \"prep.py\", line 40, in <module>\n    X = vectorizer.fit_transform(docs).toarray()\nMemoryError\n";
    let r = run(refused);
    assert_eq!(r.memory, MemoryKind::Host);
    assert_eq!(r.fixes[0].id, "other");
    assert!(r.fixes[0].detail.contains("stream or shard"), "{}", r.fixes[0].detail);
    assert_eq!(r.fixes[0].because, "line 3: the process's own allocation was refused; nothing killed it");
    // A kill is not a refusal: no such advice first.
    let killed = run("Epoch 1: 100%|██████████| 100/100\nKilled\n");
    assert!(killed.fixes.iter().all(|f| !f.detail.contains("stream or shard")), "{:?}", ids(&killed));
}

#[test]
fn a_failure_that_is_not_memory_is_named() {
    // mmdetection prints the memory beside the loss: a NaN there is divergence.
    let nan = "2020-12-31 21:48:28,971 - mmdet - INFO - Epoch [1][250/29317]   lr: 6.653e-03, time: 0.393, memory: 5717, loss_cls: 13794.6467, loss_bbox: nan, loss: nan\n";
    let r = run(nan);
    assert_eq!((r.oom, r.memory, ids(&r)[0]), (false, MemoryKind::None, "not_oom_fix"));
    assert!(r.fixes[0].detail.contains("learning rate"), "{}", r.fixes[0].detail);
    // NCCL's watchdog frame alone is its timeout.
    let r = run("Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1521 (most recent call first):\n");
    assert_eq!(ids(&r), ["not_oom_fix"]);
    assert!(r.fixes[0].detail.contains("NCCL_DEBUG=INFO"), "{}", r.fixes[0].detail);
    // A compiler's, an assertion's or a CLI's own wording name the failure.
    for (log, said) in [
        ("ptxas error   : Entry function 'k' uses too much shared data (0xc300 bytes, 0xc000 max)\n", "too much shared data"),
        ("Error: llama runner process has terminated: exit status 0xc0000139\n", "exit status 0xc0000139"),
        ("cuda assert: invalid argument /opt/deepmd-kit/source/lib/include/gpu_cuda.h 48.\n", "invalid argument"),
        ("MPSNDArray.mm:705: failed assertion '[MPSTemporaryNDArray initWithDevice:descriptor:] Error: product of dimension sizes > 2**31'\n", "product of dimension sizes"),
    ] {
        let r = run(log);
        assert_eq!(ids(&r), ["not_oom_fix"], "{log}");
        assert!(r.fixes[0].detail.contains(said), "{}", r.fixes[0].detail);
    }
}

/// R's allocator refusing a vector is the process's own allocation, not a model
/// being loaded: the data's answer first (satijalab/seurat#4936, #3029).
#[test]
fn r_refusing_a_vector_gets_the_datas_answer_first() {
    for log in ["Error: cannot allocate vector of size 662.6 Gb\n", "Error: vector memory exhausted (limit reached?)\n"]
    {
        let r = run(log);
        assert_eq!(r.diagnosis.phase, None, "{log}");
        assert_eq!(ids(&r)[..2], ["other", "more_host_mem_request"], "{log}");
        assert!(r.fixes[0].detail.contains("H-09"), "{}", r.fixes[0].detail);
    }
}
