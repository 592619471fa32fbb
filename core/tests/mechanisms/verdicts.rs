//! What else ended the run: look-alikes that say what they are, memory the
//! line names in other words, and evidence that changes what other evidence proves.

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
fn advice_addressed_to_the_reader_proves_nothing() {
    // vLLM's standing "If you are running out of memory, consider decreasing
    // `gpu_memory_utilization`" while it captures CUDA graphs, with no error after it.
    let r = corpus("vllm7593-gemma2-9b-8xl4-cuda-graph-capture-info-no-error-yet");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::None));
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
