//! What else ended the run: suspects, look-alikes, and evidence that
//! changes what other evidence proves.

use super::{corpus, ids, read_as};
use headroom_core::memory::MemoryKind;

#[test]
fn a_tensorflow_warning_that_is_not_a_failure() {
    // BFC "ran out of memory trying to allocate 2.59GiB. The\n caller indicates that this is not a failure".
    let r = corpus("tffrcnn68-bfc-not-a-failure-warnings-wrapped");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::Gpu));
}

#[test]
fn cannot_allocate_memory_from_the_locked_memory_limit_is_not_an_oom() {
    // "NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory"
    for id in [
        "nccltests206-ibv-reg-mr-cannot-allocate-memory-ulimit-l",
        "mlperfautomations664-ucx-memlock-8192kb-docker-daemon",
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (false, MemoryKind::None), "{id}");
        assert_eq!(ids(&r)[0], "not_oom_fix", "{id}");
        assert!(r.fixes[0].detail.contains("memlock"), "{id}: {}", r.fixes[0].detail);
    }
}

#[test]
fn scheduler_and_eviction_look_alikes_say_what_they_are() {
    let walltime = corpus("noaaevs78-pbs-walltime-exceeded-grep-prefixed");
    assert_eq!((walltime.oom, walltime.memory, ids(&walltime)[0]), (false, MemoryKind::None, "not_oom_fix"));
    assert!(walltime.fixes[0].detail.contains("walltime"));
    let disk = corpus("hushhouse8-k8s-evicted-ephemeral-storage-ki-request-0");
    assert_eq!((disk.oom, disk.memory, ids(&disk)[0]), (false, MemoryKind::None, "not_oom_fix"));
    assert!(disk.fixes[0].detail.contains("ephemeral-storage"));
}

#[test]
fn a_gpu_the_log_shows_free_rules_memory_out() {
    // "Could not create cudnn handle" beside "Memory usage: 11372396544 bytes free, 11539054592 bytes total."
    let r = corpus("jax23162-cudnn-internal-error-memory-usage-all-free");
    assert_eq!((r.numbers.free, r.numbers.capacity), (Some(11_372_396_544), Some(11_539_054_592)));
    assert_eq!((r.oom, r.memory, ids(&r)[0]), (false, MemoryKind::None, "not_oom_fix"));
    assert!(r.fixes[0].because.contains("free"), "{}", r.fixes[0].because);
}

#[test]
fn look_alikes_with_memory_words() {
    for id in [
        "zkwork26-wsl-device-count-out-of-memory-rust-panic-driver",
        "donkeycar908-libgomp-cannot-allocate-memory-static-tls",
        "openfang109-macos-killed-9-code-signature-not-jetsam",
        "substratus92-evicted-ephemeral-storage-exceeds-5gi-sidecar",
        "pt77886-mps-ndarray-buffer-not-large-enough-yolov5-zsh-prompt",
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (false, MemoryKind::None), "{id}");
        assert_eq!(ids(&r).first(), Some(&"not_oom_fix"), "{id}: every look-alike says what to do instead");
    }
    // A pinned staging buffer refused for want of memory is a host OOM (refused by the
    // driver, a look-alike: below).
    for id in
        ["ollama1955-pinned-memory-warning-falls-back-slower", "llamacpp1233-wsl-pinned-memory-warning-out-of-memory"]
    {
        let pinned = corpus(id);
        assert_eq!((pinned.oom, pinned.memory), (true, MemoryKind::Host), "{id}");
    }
    // Not an OOM, with the memory each text points at (LABELLING.md rules 3 and 4):
    // SIGBUS (torchrun's "exitcode: -7", a DataLoader bus error that names no shared
    // memory), Jupyter's dead kernel, Ray's list of causes wrapped onto the next line (its
    // SIGSEGV is a cause listed, not a look-alike found), GNU time's signal 9, Dask pausing a
    // worker at its limit and KilledWorker, a CI runner that lost contact, df's full
    // /dev/shm, Triton's shared memory pool, exit 137 in a container's state and Nextflow's
    // words, Spark's OOM exit 52, a tensor's shared memory object that would not open;
    // Kubernetes' FailedScheduling and "Too many open files" are look-alikes.
    for (id, memory) in [
        ("megatron516-ncclgroupend-backtrace-exitcode-minus7", MemoryKind::Shm),
        ("mmdet291-chinese-slurm-bus-error-no-shm-wording", MemoryKind::Shm),
        ("vscodejupyter15463-mps-kernel-died-exitcode-undefined", MemoryKind::Host),
        ("verl1759-sglang-multiturn-validate-actordied-wrapped-lines", MemoryKind::Host),
        ("ogb17-usr-bin-time-command-terminated-by-signal-9", MemoryKind::Host),
        ("ogusa108-dask-worker-89pct-pausing-unmanaged-memory", MemoryKind::JobLimit),
        ("dask5293-killedworker-tuple-workerstate-memory-0", MemoryKind::Host),
        ("torchserve2736-self-hosted-runner-lost-communication-reboot-script", MemoryKind::Host),
        ("tritonserver4869-helm-dev-shm-64m-100pct", MemoryKind::Shm),
        ("tritonserver5701-bls-shm-pool-grow-connection-timed-out", MemoryKind::Shm),
        ("cloudcmd440-docker-state-exitcode-137-oomkilled-false", MemoryKind::Host),
        ("quantmsdiann96-nextflow-azure-batch-exit-status-137", MemoryKind::Host),
        ("spark48275-executor-exit-code-0-success-sidecar-actual-52", MemoryKind::Host),
        ("mmaction2-218-unable-to-open-shm-object-num-workers", MemoryKind::Shm),
        ("statcan57-failedscheduling-insufficient-cpu-memory-gpu", MemoryKind::None),
        ("maskrcnnbench158-shm-object-then-errno24-too-many-open-files", MemoryKind::None),
        ("llamacpppython1687-pinned-malloc-driver-combination", MemoryKind::None),
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (false, memory), "{id}");
    }
    let r = corpus("galaxy-tpv30-htcondor-job-over-memory-limit-held-code34");
    assert_eq!((r.numbers.job_limit, r.numbers.rss), (Some(16384 << 20), Some(16328 << 20)));
}

#[test]
fn macos_memory_pressure_and_markdown_pastes() {
    // A JetsamEvent report ("bug_type": "298"), and "exit code -9" beside a Homebrew path.
    let jetsam = corpus("omlx702-macos-jetsam-event-json-report-padded");
    assert_eq!((jetsam.oom, jetsam.memory, ids(&jetsam)[0]), (true, MemoryKind::Host, "other"));
    assert!(jetsam.fixes[0].detail.contains("jetsam"));
    // "Killed: 9" from a program macOS refused to run: the code-signature check sent the kill.
    let signed = corpus("openfang109-macos-killed-9-code-signature-not-jetsam");
    assert_eq!((signed.oom, signed.memory, ids(&signed)[0]), (false, MemoryKind::None, "not_oom_fix"));
    // "`Killed`" and "**Killed**": a line pasted as inline code or in bold.
    for id in
        ["tfpose674-backticked-training-started-then-killed", "fastmaskrcnn172-markdown-bold-killed-after-iter-144"]
    {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (true, MemoryKind::Host), "{id}");
    }
}

#[test]
fn gpu_faults_and_stops_that_are_not_memory() {
    for id in [
        "collenchymablas14-dmesg-xid31-gpu-memory-page-fault",
        "gpuburn1-dmesg-pcie-surprise-down-xid79-k40m-93c",
        "nvsentinel155-nvrm-fallen-off-bus-continuation-lines-no-xid",
        "returnn1486-nvidia-smi-device-handle-unknown-pcie-aer",
        "mmagic508-pin-memory-thread-interleaved-two-processes",
        "primerl1360-death-signal-15-orchestrator-crash",
        "jax15361-cudnn-85-vs-86-dnn-init-prngkey-notebook",
        "ollama5517-pinned-host-malloc-unsupported-driver-combination",
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (false, MemoryKind::None), "{id}");
        assert_eq!(r.fixes.first().map(|f| f.id), Some("not_oom_fix"), "{id}: {:?}", r.fixes);
    }
}

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
fn more_look_alikes_say_what_they_are() {
    for (id, says) in [
        ("nomad6538-cgroup-mkdir-cannot-allocate-memory-3t-ram", "cgroup"),
        ("canu444-lsf-term-runlimit-max-memory-6mb", "run time limit"),
        ("llamacpp29-windows-ggml-context-pool-needed-458mb-not-ram", "context pool"),
        // An int that overflowed: "Failed to allocate -156019200 bytes for array _ncachex".
        ("lammps1532-failed-to-allocate-negative-bytes-ncachex", "negative size"),
        // A kernel's on-chip shared memory: "insufficient shared memory available on the GPU".
        ("zluda171-tiny-cuda-nn-insufficient-shared-memory-on-gpu", "on-chip shared memory"),
        // ggml's other fixed arena: "not enough space in the scratch memory".
        ("whispercpp529-ggml-not-enough-space-in-scratch-memory", "scratch buffer"),
        ("picotron6-torchrun-summary-eight-ranks-sigabrt", "SIGABRT"),
        // A trainer's own words for divergence.
        ("espnet3630-grad-norm-nan-training-stopped-2epoch", "NaN"),
    ] {
        let r = corpus(id);
        assert!(!r.oom, "{id}");
        assert!(r.look_alike().is_some_and(|(_, what)| what.contains(says)), "{id}: {:?}", r.look_alike());
        assert_eq!(r.fixes[0].id, "not_oom_fix", "{id}");
    }
}

#[test]
fn failures_in_runtime_and_orchestrator_words_are_named() {
    for (id, failure) in [
        ("neuraltalk2-127-thcstorage-unspecified-launch-failure-display-gpu", "unspecified launch failure"),
        ("nccl1283-ray-prefixed-cuda-failure-invalid-argument-broadcast", "Cuda failure 1 'invalid argument'"),
        ("kubeflow4284-notebook-pod-imagepullbackoff", "ImagePullBackOff"),
        ("kuberay3799-head-liveness-readiness-probe-failed-2000-workers", "Liveness probe failed"),
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory, ids(&r)[0]), (false, MemoryKind::None, "not_oom_fix"), "{id}");
        assert!(r.fixes[0].detail.contains(failure), "{id}: {}", r.fixes[0].detail);
    }
}

#[test]
fn failures_that_are_not_memory_in_more_words() {
    for (id, says) in [
        // A traceback that ends in a bare class name.
        ("deckard1-subprocvecenv-eoferror-on-reset", "EOFError"),
        // The loader's missing library, then the shell's abort in Chinese and Spanish.
        ("speechaiforge139-libcudnn-ops-infer-zh-core-dumped", "library"),
        ("whisperwebui294-libcudnn-missing-abortado-core-generado", "library"),
        ("hfhub2742-not-enough-free-disk-space-warning-mb", "disk"),
        ("hfforum169386-space-evicted-storage-limit-50g", "disk"),
        ("csdn135628895-driver-too-old-11040-torch-cu113", "driver"),
        ("hfcausallm14bgguf-3-cuda-error-9-invalid-config-after-vram-report", "CUDA error 9"),
        ("wenet1472-nan-or-inf-found-in-input-tensor", "NaN"),
        ("ucx8229-ibv-create-cq-enomem-memlock-64kb", "locked"),
        // SIGILL, slurmstepd's cgroup it could not create, llama.cpp's mlock, a kernel's assert
        // printout, a trainer's "avr_loss=nan".
        ("horovod926-mpirun-rank-exited-signal-4-illegal-instruction", "SIGILL"),
        ("galaxy7766-slurm-xcgroup-instantiate-cannot-allocate-memory", "cgroup"),
        ("xinference3345-llamacpp-gguf-mlock-cannot-allocate-memory-warning", "locked"),
        ("trl2996-interleaved-indexselect-asserts", "index"),
        ("musubituner26-avr-loss-nan-fp16-run-completes", "NaN"),
        // TFLite's AllocateTensors, Inductor's Triton configs, sm_120 on an old build, a delegate that
        // could not prepare, a runtime that could not start.
        ("tf19982-tflite-cannot-allocate-memory-interpreter-conv-prepare", "shape"),
        ("pytorch175250-inductor-no-valid-triton-configs-outofmemoryerror-smem", "shared memory"),
        ("applio1006-windows-rtx5090-sm120-userwarning-app-launches", "architecture"),
        ("mediapipe874-tflite-gpu-delegate-unsupported-ops-batch-prepare", "failed to prepare"),
        ("ollama12136-ggml-cuda-init-system-not-yet-initialized-fabricmanager", "failed to initialize"),
        // A kernel's on-chip shared memory per block, not memory running out.
        ("jax20008-pallas-shared-memory-size-limit-resource-exhausted", "shared memory per block"),
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory, ids(&r)[0]), (false, MemoryKind::None, "not_oom_fix"), "{id}");
        let said = format!("{} {}", r.summary, r.fixes[0].detail);
        assert!(said.contains(says), "{id}: {said}");
    }
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
fn evidence_that_changes_what_other_evidence_proves() {
    // "No space left on device" beside df's full /dev/shm is shared memory.
    let df = corpus("pandarallel277-enospc-df-shows-dev-shm-100-percent");
    assert_eq!((df.oom, df.memory), (true, MemoryKind::Shm));
    // Beside pandarallel's "Memory file system" it only suggests it.
    let memfs = corpus("opensora663-pandarallel-memory-file-system-enospc-buckets");
    assert_eq!((memfs.oom, memfs.memory), (false, MemoryKind::Shm));
    // NCCL's segment after "shm_open failed : Permission denied" is not a full /dev/shm.
    let denied = corpus("pytorch37004-nccl-shm-open-permission-denied-unhandled-system-error");
    assert_eq!((denied.oom, denied.memory), (false, MemoryKind::Shm));
    // llama.cpp retries without pipeline parallelism after its cudaMalloc failed, and goes on.
    let retried = corpus("llamacpp26297-compute-buffer-oom-retry-without-pp-continues");
    assert_eq!((retried.oom, retried.memory), (false, MemoryKind::Gpu));
}

#[test]
fn memory_named_in_other_words_and_places() {
    // A TPU core's vector memory, Ascend's device heap: the accelerator's.
    for id in ["xla-e1001-tpu-scoped-vmem-oom-custom-kernel", "ascend-doc-devmm-heap-alloc-managed-oom-halmemalloc-15g"]
    {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (true, MemoryKind::Gpu), "{id}");
    }
    // PyTorch's CPU allocator in Chinese: "内存不足" (not enough memory).
    let zh = corpus("geekdocs-defaultcpuallocator-364742208-bytes-buy-new-ram-zh");
    assert_eq!((zh.oom, zh.memory), (true, MemoryKind::Host));
    // "应该不是GPU内存不足": prose that denies it; the std::bad_alloc decides.
    let denied = corpus("dogbreed3-chinese-jupyter-kernel-died-std-bad-alloc");
    assert_eq!((denied.oom, denied.memory), (true, MemoryKind::Host));
    // NCCL failing to extend its /dev/shm segment is a full /dev/shm (rule 2.3); failing to
    // unlink one systemd already removed is not.
    let full = corpus("nccl-docs-failed-to-extend-dev-shm-docker");
    assert_eq!((full.oom, full.memory), (true, MemoryKind::Shm));
    let gone = corpus("nccl-docs-systemd-unlink-dev-shm-enoent-lookalike");
    assert_eq!((gone.oom, gone.memory), (false, MemoryKind::None));
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
fn out_of_resources_that_names_no_memory() {
    // ROCm's HSA_STATUS_ERROR_OUT_OF_RESOURCES speaks of queues, threads and events.
    read_as(
        &[
            "tinygrad3608-hsa-init-out-of-resources-with-torch-lookalike",
            "legion1339-realm-crusher-hsa-out-of-resources-callbackqueue",
        ],
        (false, MemoryKind::None),
    );
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
fn advice_addressed_to_the_reader_proves_nothing() {
    // vLLM's standing "If you are running out of memory, consider decreasing
    // `gpu_memory_utilization`" while it captures CUDA graphs, with no error after it.
    let r = corpus("vllm7593-gemma2-9b-8xl4-cuda-graph-capture-info-no-error-yet");
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
fn oomkilled_retyped_and_an_allocation_of_something_else() {
    // "Metadata-writer was in a crash-loop due to OOMKIlled." (the state's name retyped).
    read_as(&["kftesting1015-kfp-metadata-writer-crashloop-oomkilled-describe"], (true, MemoryKind::JobLimit));
    // Podman's "allocating lock for new container: allocation failed; exceeded num_locks (2048)".
    read_as(&["ray45093-serve-podman-num-locks-allocation-failed"], (false, MemoryKind::None));
}

#[test]
fn an_exception_class_without_its_message_and_an_allocator_that_could_not_start() {
    // "ResourceExhaustedError  Traceback (most recent call last)" and "ResourceExhaustedError:
    // Graph execution error:" with no OOM line; AMDGPU.jl's "hipMallocAsync resulted in C_NULL".
    read_as(
        &[
            "tpu875-keras-fit-tpu-resourceexhaustederror-header-only",
            "tf60469-graph-execution-error-gradient-tape-header-only",
            "hip3223-julia-hipmallocasync-c-null-8mib-hipsuccess",
        ],
        (false, MemoryKind::Gpu),
    );
    // "<jemalloc>: Unsupported system page size", then ArrowMemoryError at `import cudf`.
    read_as(&["cudf13679-jemalloc-page-size-arrowmemoryerror-import"], (false, MemoryKind::None));
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
fn device_allocation_failures_without_the_words_out_of_memory() {
    // Caffe's glog CHECK prints CUDA's code 2 ("== cudaSuccess (2 vs. 0)"); XGBoost's device
    // allocator says "Memory allocation error on worker 3: Caching allocator"; a line that is
    // only "out of memory" takes the device the next lines name.
    read_as(
        &[
            "caffe26-cudamalloc-2-vs-0-no-message-testing-net",
            "xgboost8292-xgboost4j-spark-gpu-hist-caching-allocator-free-requested",
            "roitransformer10-mxnet-out-of-memory-then-illegal-access",
        ],
        (true, MemoryKind::Gpu),
    );
    // Faiss's "Failed to cudaMalloc N bytes" without CUDA's error, a library's guess at a
    // browser memory leak: suspicions of the device.
    read_as(
        &[
            "faiss231-allocmemoryspace-failed-to-cudamalloc-4294967296-bytes",
            "human268-webgl-context-lost-possible-browser-memory-leak",
        ],
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
fn codes_and_renderers_that_say_the_device_ran_out() {
    // nvdiffrast's "Cuda error: 2[cudaMalloc(...)]", Blender Cycles' "System is out of GPU and shared host memory".
    read_as(
        &[
            "nvdiffrast182-depth-peeler-cudamalloc-error-2",
            "infinigen68-blender-cycles-out-of-gpu-and-shared-host-memory",
        ],
        (true, MemoryKind::Gpu),
    );
    // PaddlePaddle's host allocator: "ResourceExhaustedError: Fail to alloc memory of 5060694016 size".
    read_as(&["paddleocr2656-windows-cpu8g-fail-to-alloc-5060694016"], (true, MemoryKind::Host));
}

#[test]
fn failures_that_follow_a_broken_context_or_a_kernels_own_limit() {
    // Allocations of 12 bytes that fail after an illegal memory access; a kernel's per-block
    // shared memory attribute ("Failed to set maximum shared memory size ... tile_size").
    read_as(
        &[
            "isaaclab3416-deformable-illegal-access-then-unable-to-allocate-12-bytes",
            "gsplat266-failed-to-set-maximum-shared-memory-size-tile-size",
        ],
        (false, MemoryKind::None),
    );
    // A pinned host allocation whose check failed with code 1, PaddlePaddle's workers that "exit unexpectedly".
    read_as(&["glomap-pr174-ceres-cudahostalloc-check-failed-0-vs-1"], (false, MemoryKind::Host));
    read_as(&["paddleocr1911-det-train-dataloader-8-workers-exit-unexpectedly"], (false, MemoryKind::Shm));
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
