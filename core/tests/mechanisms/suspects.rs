//! Logs that only suggest memory (LABELLING.md rule 3): a worker or process
//! gone without a cause, a list of possible causes, warnings that memory is
//! nearly gone, guards that refuse work, runtimes that go on another way.

use super::{corpus, ids, read_as};
use headroom_core::memory::MemoryKind;

#[test]
fn signals_that_only_suggest_memory_and_translated_crashes() {
    // mpirun's "exited on signal 9 (Killed)" and macOS's "Killed: 9": a launcher's or a
    // shell's SIGKILL report, the OOM killer (LABELLING.md rule 2.4).
    let r = corpus("horovod469-mpirun-rank7-signal-9-killed-keras-epoch");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
    let r = corpus("ipython8678-kernelrestarter-then-killed-9-macos");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
    // TGI's child "signaled to shutdown with signal 7": SIGBUS, /dev/shm in a container.
    let r = corpus("tgi446-download-process-signal-7-shm-not-mounted");
    assert_eq!((r.oom, r.memory, r.fixes[0].id), (false, MemoryKind::Shm, "bigger_shm"));
    // glibc's "Segmentation fault" in Russian, after an unrelated "8509 killed.".
    let r = corpus("vk4xmpp50-russian-segfault-after-old-instance-killed");
    assert_eq!((r.oom, r.memory, r.fixes[0].id), (false, MemoryKind::None, "not_oom_fix"));
    // TensorFlow's allocator warning that says it is not a failure.
    let r = corpus("tensorpack1303-bfc-not-a-failure-warning-frcnn");
    assert_eq!((r.oom, r.fixes[0].id), (false, "not_oom_fix"));
    let r = corpus("underactuated236-iopub-data-rate-exceeded-prints");
    assert_eq!((r.oom, r.memory, r.fixes[0].id), (false, MemoryKind::None, "not_oom_fix"));
}

#[test]
fn a_list_of_possible_causes_is_a_suspicion_of_each() {
    // Ray: "There are some potential root causes. (1) ... OOM killer ... (3) ... SIGSEGV".
    let r = corpus("verlagent52-actordiederror-system-error-sigkill-suspect");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::Host));
    assert!(r.look_alike().is_none(), "the listed SIGSEGV is no look-alike: {:?}", r.look_alike());
    // The same list beside the worker's own line: thread creation failed (EAGAIN).
    let thread = corpus("verl472-ray-actor-died-thread-resource-unavailable");
    assert_eq!((thread.oom, thread.memory), (false, MemoryKind::None));
    assert!(thread.look_alike().is_some_and(|(_, what)| what.contains("ulimit -u")), "{:?}", thread.look_alike());
    assert_eq!(thread.fixes[0].id, "not_oom_fix");
}

#[test]
fn shared_memory_without_the_word() {
    // gdb: "Program received signal SIGBUS, Bus error." in memcpy.
    let sigbus = corpus("unifyfs59-gdb-sigbus-memcpy-shm-too-small");
    assert_eq!((sigbus.oom, sigbus.memory), (false, MemoryKind::Shm));
    assert_eq!(sigbus.fixes[0].id, "bigger_shm");
    // "unable to write to file </torch_31911_...>: No space left on device (28)".
    let enospc = corpus("eslam20-torch-shm-file-no-space-left-docker-title-line");
    assert_eq!((enospc.oom, enospc.memory), (true, MemoryKind::Shm));
}

#[test]
fn suspects_named_by_their_tools() {
    // Slurm: "Exceeded step memory limit at some point" (page cache; nothing killed).
    let slurm = corpus("chaos-slurm54-exceeded-step-memory-limit-dd-page-cache");
    assert_eq!((slurm.oom, slurm.memory), (false, MemoryKind::JobLimit));
    // datasets: "One of the subprocesses has abruptly died during map operation".
    let map = corpus("llamafactory5308-chinese-prose-map-subprocess-abruptly-died");
    assert_eq!((map.oom, map.memory), (false, MemoryKind::Host));
    assert_eq!(map.fixes[0].id, "fewer_workers");
    // DirectML: CreateCommittedResource.
    let dml = corpus("directml281-createcommittedresource-check-failed");
    assert_eq!((dml.oom, dml.memory, dml.fixes[0].id), (false, MemoryKind::Gpu, "reduce_batch"));
    // Metal's bare "command buffer 0 failed with status 5" names no memory (rule 4).
    read_as(
        &[
            "llamacpp3414-metal-command-buffer-status-5-ggml-assert-no-oom-text",
            "llamacpp8886-metal-main-gpu-submissions-ignored-status-5",
        ],
        (false, MemoryKind::None),
    );
    // concurrent.futures: "A process in the process pool was terminated abruptly".
    let pool = corpus("spyglass153-sorting-brokenprocesspool-terminated-abruptly");
    assert_eq!((pool.oom, pool.memory), (false, MemoryKind::Host));
    // loky lists a segfault and excessive memory as possible causes; exit codes
    // EXIT(2) leave the memory suspect, SIGSEGV(-11) answers the list.
    let loky = corpus("node2vec27-loky-terminatedworker-exit2-workers10");
    assert_eq!((loky.oom, loky.memory), (false, MemoryKind::Host));
    let segv = corpus("gcpy86-loky-terminatedworker-sigsegv-minus11");
    assert_eq!((segv.oom, segv.memory), (false, MemoryKind::None));
    // AWS Lambda's REPORT with "Max Memory Used" at the "Memory Size": the limit was reached.
    let lambda = corpus("macondo294-lambda-max-memory-used-equals-size");
    assert_eq!((lambda.oom, lambda.memory, lambda.numbers.job_limit), (false, MemoryKind::JobLimit, Some(6000 << 20)));
    // Far below it, the REPORT line is a healthy call's.
    let healthy = corpus("awslambdadotnet480-runtime-exit-status-137-18mb");
    assert_eq!((healthy.oom, healthy.memory), (false, MemoryKind::Host));
    // The kubelet's first spelling of the reason: "reason": "OOM Killed".
    let k8s = corpus("k8s3044-kubelet-termination-reason-oom-killed");
    assert_eq!((k8s.oom, k8s.memory), (true, MemoryKind::JobLimit));
    // CMS WMAgent's watchdog: "Job has exceeded maxPSS: 16000 MB".
    let pss = corpus("cmssw46040-wmagent-maxpss-16000mb-performance-monitor-kill");
    assert_eq!((pss.oom, pss.memory), (true, MemoryKind::JobLimit));
}

#[test]
fn suspects_of_memory_pressure_and_of_exit_codes() {
    for (id, memory) in [
        // DeepSpeed's allocator cache flushes and a trainer's allocation retries: the run goes on.
        ("peft194-bloomz176b-zero3-allocator-cache-flushes-warning", MemoryKind::Gpu),
        ("lingua56-float8-cuda-memory-allocation-retries-warning", MemoryKind::Gpu),
        // Spark's MemoryStore cannot cache a block.
        ("nel8-spark-memorystore-not-enough-space-to-cache-warning", MemoryKind::Host),
        // make's "Error 137" and a platform's "Exit code: 137".
        ("physlr195-make-error-137-after-bloom-filter", MemoryKind::Host),
        ("hfspace-gfpgan-40-space-failed-exit-code-137", MemoryKind::Host),
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (false, memory), "{id}");
    }
    let flushes = corpus("peft194-bloomz176b-zero3-allocator-cache-flushes-warning");
    assert_eq!(ids(&flushes)[0], "not_oom_fix");
    assert!(flushes.fixes[0].detail.contains("goes on"), "{}", flushes.fixes[0].detail);
}

#[test]
fn a_process_that_vanished_is_a_host_suspect() {
    // Jupyter's server restarting its kernel, Ray's actor that died, the JVM unable to
    // start a thread ("possibly out of memory or process/resource limits reached").
    read_as(
        &[
            "jupyternotebook5621-kernelrestarter-remote-no-reason",
            "openrlhf269-ray-actor-died-unexpectedly-4090",
            "cling240-java-unable-create-native-thread-possibly-oom",
        ],
        (false, MemoryKind::Host),
    );
    // The same kernel restart after tcmalloc caught a bad free: heap corruption.
    let r = corpus("colabtools3125-kernel-restart-tcmalloc-free-invalid-pointer");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::None));
    assert!(r.summary.contains("heap was corrupted"), "{}", r.summary);
}

#[test]
fn a_builder_that_skips_what_did_not_fit_goes_on() {
    // TensorRT's OutOfMemory errors, then "Skipping tactic 3 due to insufficient memory":
    // the build tries its other tactics (LABELLING.md rule 2, last paragraph).
    read_as(
        &[
            "deepstreamyolo366-trt-skipping-tactic-insufficient-memory-warning",
            "trtllm102-tactic-skip-insufficient-memory-host-killed-thread",
            "streamdiffusion161-trt-engine-build-skipping-tactic-11gb-warning",
        ],
        (false, MemoryKind::Gpu),
    );
    // Its allocator's failure with no tactic skipped after it is the build's OOM.
    let r = corpus("tensorrt477-windows-builder-computecosts-outofmemory-1080ti");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Gpu));
}

#[test]
fn tcmalloc_and_a_kernel_restart_in_colabs_log_viewer() {
    // "tcmalloc:  large alloc 2400002048 bytes" (two spaces) before "kernel … restarted".
    let r = corpus("colabtools513-tcmalloc-large-alloc-then-kernel-restarted-gensim");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::Host));
}

#[test]
fn deaths_and_refusals_that_only_suggest_host_memory() {
    // Ray's older "worker died or was killed while executing a task", loky's "a worker
    // stopped ... a too short worker timeout or a memory leak" (not gunicorn's WORKER TIMEOUT),
    // ggml's NULL context buffer, LMCache's failed
    // allocation after which "The KV cache will not be stored".
    read_as(
        &[
            "ray18377-tune-dqn-worker-died-unexpected-system-error-2021",
            "ewb247-loky-worker-stopped-too-short-timeout-or-memory-leak",
            "koboldcpp1749-kokoro-ggml-assert-mem-buffer-null-no-oom-line",
            "lmcache969-failed-to-allocate-kv-cache-will-not-be-stored",
        ],
        (false, MemoryKind::Host),
    );
    // DeepSpeed's launcher killing its ranks after one exited says nothing of why.
    let r = corpus("deepspeed1581-killing-subprocess-calledprocesserror");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::None));
}

#[test]
fn a_list_of_what_can_happen_is_a_suspicion() {
    // Ray: "has been marked dead ... This can happen when a (1) raylet crashes unexpectedly (OOM, etc.)".
    read_as(&["ray46548-serve-worker-node-dead-heartbeats-oom-etc-listed"], (false, MemoryKind::Host));
}

#[test]
fn warnings_that_memory_is_nearly_gone() {
    // The kernel's report line "Free swap  = 0kB" alone, and Colab's "Your GPU is close to its
    // memory limit" dialog: suspects, nothing was killed.
    read_as(&["cbio232-torque-node-kernel-free-swap-0kb-line"], (false, MemoryKind::Host));
    read_as(&["jaxmd4-colab-gpu-memory-close-to-limit-warning"], (false, MemoryKind::Gpu));
}

#[test]
fn a_full_card_in_nvidia_smi_and_the_cpu_allocators_check_alone_are_suspects() {
    // "|  16273MiB / 16280MiB |" with no error; "\"enforce fail at CPUAllocator.cpp\" error in eval
    // phase" with the message itself in a screenshot.
    read_as(&["mingpt1-colab-pro-p100-nvidia-smi-memory-full"], (false, MemoryKind::Gpu));
    read_as(&["starganv2-13-cpuallocator-enforce-eval-128gb-screenshot"], (false, MemoryKind::Host));
}

#[test]
fn a_planner_that_sees_no_room_and_a_tools_guess_at_a_crash() {
    // Forge's "[Memory Management] Estimated Remaining GPU Memory: -2831.22 MB" before it swaps:
    // a limit seen exceeded, no failure (rule 3); its "Current Free GPU Memory: 3347.40 MB" is `free`.
    let forge = corpus("forge1046-flux-negative-estimated-remaining-gpu-memory-server-stops");
    assert_eq!((forge.oom, forge.memory), (false, MemoryKind::Gpu));
    assert_eq!(forge.numbers.free, Some((3347.40_f64 * 1048576.0).round() as u64));
    // GPT4All: "Previous attempt to load model resulted in crash ... most likely due to out of memory".
    read_as(&["gpt4all1268-previous-load-crashed-most-likely-out-of-memory-no-avx"], (false, MemoryKind::Host));
}

#[test]
fn one_buffer_over_the_devices_cap() {
    // MPS: "RuntimeError: Invalid buffer size: 19.45 GB" — a per-buffer cap, a suspicion.
    read_as(
        &["pytorch141909-mps-invalid-buffer-size-bmm-19gb", "krita1511-mps-invalid-buffer-size-58gb-live-mode"],
        (false, MemoryKind::Gpu),
    );
}

#[test]
fn workers_gone_guards_refusing_and_a_condition() {
    // Julia's "Worker 37 terminated.", nnU-Net's "Some background worker is 6 feet under", its
    // "If there is none then your RAM was full", a JVM memory circuit breaker, Elasticsearch's
    // "not enough memory on node [...] to assign": suspicions of the host, not proof.
    read_as(
        &[
            "julia31631-distributed-workers-terminated-no-cause",
            "nnunet1512-background-worker-6-feet-under-preprocess",
            "nnunet1572-background-workers-died-ram-full-hint",
            "mlcommons2465-opensearch-memory-circuit-breaker-open-misleading-error",
            "elasticsearch115692-ml-not-enough-memory-on-node-assign-allocations",
        ],
        (false, MemoryKind::Host),
    );
    // Galaxy's cgroup failcnt row and "Was OOM Killer active?\tNo"; Toil raising a failed job's memory.
    read_as(
        &[
            "usegalaxy-eu350-meryl-cgroup-failcnt-at-110gb-limit",
            "usegalaxyeu692-hypo-cgroup-36gb-at-limit-failcnt-no-oom-killer",
            "toil2590-cactus-job-exit-135-memory-raised-to-2g",
        ],
        (false, MemoryKind::JobLimit),
    );
}

#[test]
fn runtimes_that_go_on_without_it_and_a_dump_without_its_error() {
    // AutoGluon: "Not enough memory to train X... Skipping this model.", "Memory not enough to fit
    // LGBModel folds in parallel. Will do sequential fitting instead.": suspicions, nothing failed.
    read_as(
        &[
            "autogluon703-not-enough-memory-skipping-extratrees-stacker",
            "autogluon3405-memory-not-enough-parallel-folds-sequential-fallback",
        ],
        (false, MemoryKind::Host),
    );
    // TensorFlow's BFC allocator dumps its chunks only after a failed allocation.
    read_as(
        &[
            "deepmd3960-tf-bfc-summary-available-bytes-0",
            "tfmodels9809-bfc-stats-limit-reached-no-error-line",
            "deepspeech1940-bfc-chunk-dump-without-error",
        ],
        (false, MemoryKind::Gpu),
    );
    // Not its settings line in gpu_bfc_allocator.cc.
    read_as(&["colabtools3393-allow-growth-override-warning"], (false, MemoryKind::None));
    // DeepSpeed's inference workspace: "Workspace can't be allocated, no enough memory."
    read_as(&["aivoicecloning24-deepspeed-workspace-no-enough-memory"], (true, MemoryKind::Gpu));
}

#[test]
fn runtimes_that_move_the_work_to_the_cpu() {
    // YOLOX's "CPU mode is applied in thi" / "s batch", cut by the terminal: its own words suffice.
    read_as(&["yolox277-oom-label-assignment-cpu-mode-then-launch-error"], (false, MemoryKind::Gpu));
    // detectron2 copies the op "to CPU due to CUDA OOM", and the CPU allocator then fails.
    read_as(&["mask2former83-eval-cuda-oom-cpu-fallback-then-cpu-alloc"], (true, MemoryKind::Host));
}

#[test]
fn rays_old_memory_monitor_and_a_banner_of_possible_causes() {
    // "in raise_if_low_memory" in a traceback, "***LOW MEMORY*** less than 10% of the memory on
    // this node is available": the monitor's suspicion, no kill shown.
    read_as(
        &[
            "ray10756-tune-trial-init-unhandled-error-raise-if-low-memory-frame",
            "ray20690-rllib-impala-release-low-memory-warning",
        ],
        (false, MemoryKind::Host),
    );
    // Flower: "This could be because:" opens a list on the lines after it, an OOM among them.
    assert!(!corpus("flower2758-simulation-crashed-actors-oom-possible-cause").oom);
}
