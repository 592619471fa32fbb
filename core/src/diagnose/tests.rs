use super::*;

fn run(text: &str) -> Diagnosis {
    diagnose(text)
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
    assert_eq!(d.settings.number(Knob::MicroBatch), Some(32));
    assert_eq!(d.settings.get(Knob::MicroBatch).map(|s| s.line), Some(7));
    assert_eq!(d.frames, vec![(Frame::Backward, 4)]);
}

use crate::units::Bytes;

#[test]
fn a_row_introducing_the_next_read_is_carried_over() {
    // Fed a row at a time, the OOM opens a read after the row naming its device was read.
    for filler in 0..2 * wrap::MAX_CONTINUATION {
        let log = format!(
            "{}terminate called after throwing an instance of 'CUDA::error'\n  what():  /src/SimpleCudaMalloc_impl.hpp(42):\nerror: out of memory\n{}",
            "step\n".repeat(filler),
            "exiting\n".repeat(filler),
        );
        let whole = diagnose(&log);
        assert_eq!((whole.oom, whole.memory), (true, MemoryKind::Gpu), "{filler} rows before");
        let mut d = Diagnoser::new();
        for row in log.split_inclusive('\n') {
            d.feed(row);
        }
        assert_eq!(d.finish(), whole, "{filler} rows before, fed by row");
    }
}

#[test]
fn a_needle_the_terminal_cut_at_its_width() {
    // horovod469, mpirun's report cut at 80 columns between "signal " and "9 (Killed)" (the
    // row keeps the space at its edge): no generic wording to find it broken, so the break of
    // a row that fills the width is looked across.
    let row = "mpirun noticed that process rank 7 with PID 0 on node HOSTNAME exited on signal 9 (Killed).";
    let log = format!("Epoch 1/1\n{}\n{}\n{}\n", &row[..80], &row[80..], "-".repeat(75));
    let whole = diagnose(&log);
    assert_eq!((whole.oom, whole.memory), (true, MemoryKind::Host));
    assert_eq!(whole.evidence[0].line, 2);
    for chunk in [1, 5, 90] {
        let mut d = Diagnoser::new();
        for piece in log.as_bytes().chunks(chunk) {
            d.feed(std::str::from_utf8(piece).unwrap());
        }
        assert_eq!(d.finish(), whole, "chunks of {chunk}");
    }
}

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
    let d = run("slurmstepd: error: *** JOB 123 ON n1 CANCELLED AT 2020-07-03T02:59:56 DUE TO TIME LIMIT ***\n");
    assert!(!d.oom && d.summary.contains("time limit"), "{}", d.summary);
}

/// ENOMEM from mlock/mlockall is the locked-memory limit, not RAM (lines from
/// hashicorp/vault#97 and moneroexamples/openmonero#147, the second wrapped).
#[test]
fn a_refused_memory_lock_is_the_memlock_limit() {
    for text in [
        "$ vault server -dev\nError initializing core: failed to lock memory: cannot allocate memory\n",
        "2019-04-28 23:29:21.504 E Error locking page at 0x7f23b4089000: Cannot allocate \nmemory, subsequent mlock errors will be silenced\n",
    ] {
        let d = run(text);
        assert!(!d.oom && d.summary.contains("locked-memory limit"), "{}", d.summary);
    }
}

/// GPU faults and signals that end a run without memory running out
/// (DeepSpeedExamples#530, ROCm#1339, dask/distributed#1863, FALCON-integrate#94, lammps#4849).
#[test]
fn faults_and_sigterm_are_not_oom() {
    for (text, says) in [
        ("RuntimeError: CUDA error: misaligned address\nIs this caused by insufficient graphics memory?\n", "misaligned"),
        ("Memory access fault by GPU node-4 (Agent handle: 0x152e220) on address (nil). Reason: Page not present or supervisor privilege.\n", "address it does not own"),
        ("distributed.nanny - WARNING - Worker process 13600 was killed by signal 15\n", "SIGTERM"),
        ("J1744346edb1387/stdout:Exited with signal termination: Alarm clock.\n", "SIGALRM"),
        ("J237c786c5c0455/stdout:Exited with exit code 143.\n", "SIGTERM"),
        ("ROCk module is NOT loaded, possibly no GPU devices\nUnable to open /dev/kfd read-write: No such file or directory\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.\n", "driver is not loaded"),
        ("Transcribing... 0:00:00Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!\n", "shared library"),
        ("CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.\n", "cuDNN does not support"),
        ("Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 131072.0\n", "loss scaling"),
        ("worker0-0d9gnb:15:91 [3] include/socket.h 398 NCCL WARN Call to write failed : Connection reset by peer.\n", "closed the connection"),
        ("BLAS : Program is Terminated. Because you tried to allocate too many memory regions\n", "OpenBLAS"),
        ("0 0 0 pthread_create(): Resource temporarily unavailable\n", "thread limit"),
        ("You cannot currently connect to a GPU due to usage limits in Colab.\n", "GPU quota"),
        ("2023-02-09T20:11:49.9484027Z ##[error]The runner has received a shutdown signal.\n", "CI runner"),
        ("Cuda driver error 804 in call at file\n'/home/scut/softwares/lammps-22Jul2025/lib/gpu/geryon/nvd_device.h' in line 333.\n", "error 804"),
        ("E pjrt_stream_executor_client.cc:2593] Execution of replica 0 failed: INTERNAL: Failed to execute XLA Runtime executable: run time error: custom call 'xla.gpu.custom_call' failed: Shared memory requested exceeds device resources.\n", "on-chip shared memory"),
    ] {
        let d = run(text);
        assert!(!d.oom && d.memory == MemoryKind::None && d.summary.contains(says), "{text}: {}", d.summary);
    }
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
}

#[test]
fn bus_error_is_shared_memory_and_killed_is_ram() {
    let d = run("RuntimeError: DataLoader worker (pid 42) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory.\n");
    assert_eq!((d.oom, d.memory), (true, MemoryKind::Shm));
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
    let d = run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 66.00 MiB. GPU 0 has a total capacity of 23.64 GiB of which 57.00 MiB is free. Process 1473544 has 21.62 GiB memory in use. Including non-PyTorch memory, this process has 598.00 MiB memory in use. Of the allocated memory 400.00 MiB is allocated by PyTorch, and 20.00 MiB is reserved by PyTorch but unallocated.\n");
    assert_eq!(d.numbers.other_process, Some(Bytes::from_gib(21.62).0));
}

#[test]
fn wordings_of_other_runtimes_and_schedulers() {
    let cases: [(&str, bool, MemoryKind); 13] = [
        ("RuntimeError: Attempting to reserve 5.23G at the bottom of memory. That was not possible. There are 3.12G free, 0B reserved, and 3.12G reservable.", true, MemoryKind::Gpu),
        ("tensorflow.python.framework.errors_impl.InternalError: Dst tensor is not initialized.", false, MemoryKind::Gpu),
        // cuBLAS that could not start: a look-alike whose fixes name a GPU already taken.
        ("E tensorflow/stream_executor/cuda/cuda_blas.cc:238] failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED", false, MemoryKind::None),
        ("Error: llama runner process has terminated: signal: killed", true, MemoryKind::Host),
        ("Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space", true, MemoryKind::Host),
        ("FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory", true, MemoryKind::Host),
        ("=>> PBS: job killed: mem 8421356kb exceeded limit 8388608kb", true, MemoryKind::JobLimit),
        ("TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.", true, MemoryKind::JobLimit),
        // ENOSPC on PyTorch's own /dev/shm segment: /dev/shm is full.
        ("RuntimeError: unable to write to file </torch_18692_1954506624>: No space left on device (28)", true, MemoryKind::Shm),
        ("RuntimeError: unable to write to file </torch_18692_1954506624>", false, MemoryKind::Shm),
        ("OSError: [Errno 28] No space left on device: '/scratch/ckpt/model.pt'", false, MemoryKind::None),
        ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536.", false, MemoryKind::None),
        ("RuntimeError: CUDA error: the launch timed out and was terminated", false, MemoryKind::None),
    ];
    for (line, oom, memory) in cases {
        let d = run(&format!("{line}\n"));
        assert_eq!((d.oom, d.memory), (oom, memory), "{line}");
    }
}

#[test]
fn stack_names_are_whole_words() {
    // "overlap" once read as verl, "ajax" as jax, and random bytes found jax somewhere.
    let d = run("the overlap between ajax calls and the vllmish scheduler\n");
    assert!(d.stack.is_empty(), "{:?}", d.stack);
    let d = run("File \"/opt/verl/trainer/main_ppo.py\", line 3\nimport jax.numpy as jnp\n");
    assert_eq!(d.stack, vec![Stack::Verl, Stack::Jax]);
    let mut seed: u64 = 7;
    let bytes: Vec<u8> = (0..10_000_000)
        .map(|_| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as u8
        })
        .collect();
    let d = run(&String::from_utf8_lossy(&bytes));
    assert!(d.stack.is_empty(), "{:?}", d.stack);
}

#[test]
fn lines_without_a_break_are_read_in_bounded_memory() {
    // Hours of a progress bar redrawn with \r and no \n, with the OOM in the middle, then NUL padding.
    let mut log = String::new();
    for step in 0..60_000 {
        log.push_str(&format!("Epoch 0: {:>3}%|███       | {step}/60000 [01:02<03:04, 1.50it/s]\r", step / 600));
        if step == 30_000 {
            log.push_str("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\r");
        }
    }
    log.push_str(&"\0".repeat(3 << 20));
    let whole = diagnose(&log);
    assert!(whole.oom && whole.numbers.requested == Some(2 << 30), "{whole:?}");
    for chunk_size in [4099, 1 << 20] {
        let mut d = Diagnoser::new();
        let mut largest = 0;
        for piece in log.as_bytes().chunks(chunk_size) {
            d.feed(std::str::from_utf8(piece).unwrap_or(""));
            largest = largest.max(d.pending.len());
        }
        assert!(largest <= 2 * LONG_TAIL + chunk_size, "held {largest} bytes at once");
        assert_eq!(d.finish(), whole, "chunks of {chunk_size}");
    }
}

#[test]
fn a_needle_out_of_its_context_silences_nothing() {
    // zsh's `killed ` needle sits inside "OOM-killed (memory": it is not zsh's job
    // report, so runc's generic OOM-kill wording still counts.
    let d = diagnose("Error: container create failed: runc create failed: unable to start container process: container init was OOM-killed (memory limit too low?)\n");
    assert!(d.oom, "{d:?}");
    assert!(d.evidence.iter().all(|e| e.signature != "zsh-job-killed"), "{:?}", d.evidence);
}

#[test]
fn a_memory_cgroup_at_its_limit_is_proof_below_it_is_not() {
    // The kernel's memcg report (dpservice74) and the same line with room left.
    let full = run("kernel: memory: usage 1048576kB, limit 1048576kB, failcnt 141\n");
    assert_eq!((full.oom, full.memory), (true, MemoryKind::JobLimit));
    assert_eq!(full.numbers.job_limit, Some(1 << 30));
    let room = run("kernel: memory: usage 524288kB, limit 1048576kB, failcnt 0\n");
    assert!(!room.oom);
    assert_eq!(room.numbers.job_limit, Some(1 << 30));
    let swap = run("kernel: swap: usage 0kB, limit 9007199254740988kB, failcnt 0\n");
    assert!(!swap.oom);
}

#[test]
fn advice_drops_a_match_a_list_of_causes_makes_it_a_suspect() {
    let advice = run("Tip: to avoid out of memory errors, lower the batch size.\n");
    assert_eq!((advice.oom, advice.memory), (false, MemoryKind::None));
    let causes = run("There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (3) The worker is crashed unexpectedly due to SIGSEGV\n");
    assert_eq!((causes.oom, causes.memory), (false, MemoryKind::Host));
    assert!(causes.look_alike().is_none());
}

#[test]
fn a_kill_is_the_oom_killers_unless_the_log_names_another_sender() {
    let killed = "Epoch 3: 100%|██████████| 242/242\nKilled\n";
    assert_eq!((run(killed).oom, run(killed).memory), (true, MemoryKind::Host));
    let launcher =
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 2410412)\n";
    assert_eq!((run(launcher).oom, run(launcher).memory), (true, MemoryKind::Host));
    // SLURM's time limit sent it: a look-alike, whatever the shell printed.
    let timed_out =
        "slurmstepd: error: *** JOB 4242 ON gpu12 CANCELLED AT 2025-01-01T00:00:00 DUE TO TIME LIMIT ***\nKilled\n";
    let d = run(timed_out);
    assert_eq!((d.oom, d.memory), (false, MemoryKind::None));
    // An allocator's own message is proof whoever killed the job afterwards.
    let both = format!("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n{timed_out}");
    assert_eq!((run(&both).oom, run(&both).memory), (true, MemoryKind::Gpu));
}

#[test]
fn runtimes_say_it_in_their_own_words() {
    let cases = [
        ("Error: cannot allocate vector of size 2.5 Gb\n", MemoryKind::Host),
        ("Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n", MemoryKind::Host),
        ("ggml_vulkan: Device memory allocation of size 4294967296 failed: insufficient memory\n", MemoryKind::Gpu),
        ("memory exhausted\n", MemoryKind::Host),
        ("RuntimeError: GPU OOM while running the decoder\n", MemoryKind::Gpu),
        ("ERROR: failed to allocate memory for the system memory pool\n", MemoryKind::Host),
        // The nineteenth collection's dev logs: MindSpore (mindspore-ai/mindnlp#1761), Paddle
        // Fluid (PaddlePaddle/models#1078), OpenCL (adda-team/adda#229), Ray's plasma store
        // (ray-project/ray#4878), YARN's NodeManager (dmlc/xgboost#1246), the JVM (treeverse/lakeFS#4094).
        ("[mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree] TotalUsedMemStatistics : 29356337664 plus TotalUsedByEventMemStatistics : 0 and plus alloc size : 301990400 is more than total mem size : 29464985600.\n", MemoryKind::Gpu),
        ("paddle.fluid.core.EnforceNotMet: enforce allocating <= available failed, 7433255387 > 366608128\n", MemoryKind::Gpu),
        ("ERROR: (../fft.c:294) CL error code -4: Memory object allocation failure\n", MemoryKind::Gpu),
        ("pyarrow.lib.PlasmaStoreFull: object does not fit in the plasma store\n", MemoryKind::Host),
        ("Container [pid=40959,containerID=container_1462859744498_485365_01_000002] is running beyond virtual memory limits. Current usage: 76.1 MB of 2 GB physical memory used; 31.8 GB of 4.2 GB virtual memory used. Killing container.\n", MemoryKind::JobLimit),
        ("Caused by: OutOfMemoryError: GC overhead limit exceeded\n", MemoryKind::Host),
        // TensorFlow's OOM names no device; its pinned host allocator's line does (tensorflow#11915).
        ("W op_kernel.cc:1192] Resource exhausted: OOM when allocating tensor with shape[1000,1000,250,4]\nW bfc_allocator.cc:273] Allocator (cuda_host_bfc) ran out of memory trying to allocate 3.72GiB.  Current allocation summary follows.\n", MemoryKind::Host),
        // TensorFlow's BFC allocator running out is the OOM, where it does not call it "not a failure".
        ("W bfc_allocator.cc:479] Allocator (GPU_0_bfc) ran out of memory trying to allocate 18.44GiB (rounded to 19805393664)requested by op\n", MemoryKind::Gpu),
        // Julia's Base exception, on the host; gcc's driver on its compiler's SIGKILL.
        ("ERROR: LoadError: OutOfMemoryError()\nStacktrace:\n", MemoryKind::Host),
        ("c++: internal compiler error: Killed (program cc1plus)\nPlease submit a full bug report,\n", MemoryKind::Host),
        ("g++: fatal error: Killed signal terminated program cc1plus\ncompilation terminated.\n", MemoryKind::Host),
    ];
    for (log, memory) in cases {
        let d = run(log);
        assert_eq!((d.oom, d.memory), (true, memory), "{log}");
    }
    // The BFC line that says "not a failure", on its line or word-wrapped to the next (tffrcnn68),
    // and TensorRT skipping a tactic to try the others: suspects.
    for log in [
        "W bfc_allocator.cc:217] Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.59GiB. The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory is available.\n",
        "W bfc_allocator.cc:217]\n Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.59GiB. The\n caller indicates that this is not a failure, but may mean that there\n",
        "[W] [TRT] Skipping tactic 1 due to insufficient memory on requested size of 2359296 detected for tactic 0x268494f0a1c83de3.\n",
    ] {
        let d = run(log);
        assert_eq!((d.oom, d.memory), (false, MemoryKind::Gpu), "{log}");
    }
    // gunicorn's arbiter reporting its worker's SIGKILL is a parent's report (LABELLING.md
    // rule 2.4), unless its own timeout sent the SIGKILL (rule 4).
    let guess = "[2024-05-01 10:00:03 +0000] [1] [ERROR] Worker (pid:42) was sent SIGKILL! Perhaps out of memory?\n";
    assert_eq!((run(guess).oom, run(guess).memory), (true, MemoryKind::Host));
    let timed_out = format!("[2024-05-01 10:00:02 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:42)\n{guess}");
    assert_eq!(run(&timed_out).memory, MemoryKind::None);
    // "may not have enough" (ollama) hedges; the phrase's own "not" denies nothing.
    let d = run("Error: llama runner exited, you may not have enough available memory to run this model?\n");
    assert_eq!((d.oom, d.memory), (false, MemoryKind::Host));
    assert!(run("RuntimeError: the GPU does not have enough memory for this model\n").oom);
    // The word in other words: a setting, an identifier, advice.
    for log in ["oom_score_adj=1000\n", "OOMKilled: false\n", "Tip: to avoid OOM, lower the batch size\n"] {
        assert!(!run(log).oom, "{log}");
    }
}

#[test]
fn an_out_of_memory_error_is_the_device_its_line_names() {
    let d =
        run("cupy.cuda.memory.OutOfMemoryError: out of memory to allocate 8388608 bytes (total 12465471488 bytes)\n");
    assert_eq!((d.oom, d.memory), (true, MemoryKind::Gpu));
    let d = run("cv2.error: OpenCV(4.4.0) alloc.cpp:73: error: (-4:Insufficient memory) Failed to allocate 6291456 bytes in function 'cv::OutOfMemoryError'\n");
    assert_eq!((d.oom, d.memory), (true, MemoryKind::Host));
    // IPython's traceback header names only the class: torch's, on the GPU.
    let d = run("OutOfMemoryError                          Traceback (most recent call last)\nCell In[12], line 3\n");
    assert_eq!((d.oom, d.memory), (true, MemoryKind::Gpu));
}

/// The twentieth collection's dev logs: ENOMEM in the C library's Chinese (TBase#153),
/// zsh's lower-case bus error (mmskeleton#204), the OOM killer's priority setting
/// (docker-for-linux#1120), tcmalloc's large allocation before Colab's kernel restart
/// (colabtools#813), ENOSPC beside a container's shared memory (AlphaPose#1027).
#[test]
fn translated_enomem_settings_and_suspicions() {
    let d = run("FATAL:  could not map anonymous shared memory: 无法分配内存\n");
    assert_eq!((d.oom, d.memory), (true, MemoryKind::Host));
    let d = run("then this error appears: 14137 bus error (core dumped)  .\n");
    assert_eq!((d.oom, d.memory), (false, MemoryKind::Shm));
    let d = run(
        "failed to change OOM score to -500            error=\"open /proc/14839/oom_score_adj: permission denied\"\n",
    );
    assert_eq!((d.oom, d.memory), (false, MemoryKind::None));
    assert!(d.summary.contains("priority setting"), "{}", d.summary);
    let d = run(
        "Oct 18, 2019, 7:54:03 AM | WARNING | tcmalloc: large alloc 4015906816 bytes == 0x1e00b2000 @ 0x7feed825d1e7\n",
    );
    assert_eq!((d.oom, d.memory, d.numbers.requested), (false, MemoryKind::Host, Some(4_015_906_816)));
    let d = run("OSError: [Errno 28] No space left on device. I am running AlphaPose in a container, so I created a new container with 5G of shared memory\n");
    assert_eq!((d.oom, d.memory), (false, MemoryKind::Shm));
}

#[test]
fn gccs_child_signal_is_a_kill_only_in_sigkills_words() {
    for (line, oom) in [
        ("c++: fatal error: Killed signal terminated program cc1plus", true),
        ("c++: fatal error: Morto signal terminated program lto1", true),
        ("g++: fatal error: Getötet signal terminated program cc1plus", true),
        ("c++: fatal error: Segmentation fault signal terminated program cc1plus", false),
        ("gcc: fatal error: UnKilled signal terminated program cc1", false),
    ] {
        assert_eq!(run(line).oom, oom, "{line}");
    }
}

#[test]
fn a_corrupted_heap_is_no_oom() {
    let r = run("free(): invalid pointer\nAborted (core dumped)\n");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::None));
    assert_eq!(r.look_alike().map(|(line, _)| line), Some(1));
}

#[test]
fn an_older_kernels_kill_line_kept_alone_by_a_grep() {
    // shoc38's dmesg, the second line of its pair only (`dmesg | grep -i killed`); the process's
    // own name says nothing of which memory ran out.
    let d =
        run("[   80.751793] Killed process 2700 (DeviceMemory) total-vm:1838376kB, anon-rss:2632kB, file-rss:628kB\n");
    assert!(d.oom);
    assert_eq!(d.memory, MemoryKind::Host);
    assert_eq!(d.numbers.total_vm, Some(1838376 * 1024));
    // A process killed by anything else is no kernel report.
    assert!(!run("Killed process 2700 (DeviceMemory)\n").oom);
}

#[test]
fn figures_at_the_edge_of_u64_do_not_overflow() {
    // Found by the fuzzer: PyTorch's own figures are summed, and compared with the one PID line's,
    // when the report decides whose memory that line is; a garbled 4.90 EiB overflowed both.
    let d =
        run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.69 GiB. Process 623822 has 38.62 GiB \
                 memory in use. Of the allocated memory 50.46 GiB is allocated by PyTorch, and 4.90 EiB is reserved \
                 by PyTorch but unallocated.\n");
    assert!(d.oom);
    assert_eq!(d.memory, MemoryKind::Gpu);
}
