//! Signatures that prove or suggest host memory ran out on the node: the
//! kernel's OOM killer, userspace killers, shells', launchers' and parents'
//! kill reports, host allocators and runtimes' heaps. Part of the signature
//! table (`signatures.rs`), after the device's and the generic wordings.

use super::signature::{exact, generic, sig, word, Boundary, Meaning, Signature};
use super::signatures::PAGING_FILE_TOO_SMALL;
use crate::memory::MemoryKind;

use Meaning::*;
use MemoryKind::{Gpu, Host, JobLimit, Shm};

pub(super) const HOST_MEMORY: &[Signature] = &[
    sig("dataloader-worker-killed", "is killed by signal: Killed", Oom(Host)),
    sig("cpu-allocator", "DefaultCPUAllocator:", Oom(Host)),
    // tcmalloc reports every large allocation (Colab's runtime log before its kernel restarts):
    // a suspicion of host memory; "== (nil)" after it is one that was refused.
    // Colab's log viewer shows it with two spaces: "tcmalloc:  large alloc 2400002048 bytes".
    Signature {
        also: &["tcmalloc:  large alloc"],
        ..sig("tcmalloc-large-alloc", "tcmalloc: large alloc", Suspect(Host))
    },
    // OpenCV's host allocator: "Insufficient memory (Failed to allocate N bytes) in cv::OutOfMemoryError".
    // OpenCV 4's spelling of it: "error: (-4:Insufficient memory) Failed to allocate N bytes in function 'OutOfMemoryError'".
    Signature { also: &["(-4:Insufficient memory)"], ..sig("opencv-oom", "cv::OutOfMemoryError", Oom(Host)) },
    // Emscripten's heap in a browser or WASM runtime: "Cannot enlarge memory arrays".
    sig("wasm-heap", "Cannot enlarge memory arrays", Oom(Host)),
    // macOS's malloc: "mach_vm_map(size=N) failed (error code=3) *** error: can't allocate region".
    sig("macos-malloc-region", "can't allocate region", Oom(Host)),
    // ClickHouse's server-wide and per-query limits, inside the server's own accounting:
    // "DB::Exception: Memory limit (total) exceeded: would use 64.00 GiB ..., maximum: 64.00 GiB".
    Signature {
        also: &["Memory limit (for query) exceeded", "Memory limit (for user) exceeded"],
        ..sig("clickhouse-memory-limit", "Memory limit (total) exceeded", Oom(Host))
    },
    // Redis's allocator failure handler in its crash report's stack: "zmalloc_default_oom".
    sig("redis-zmalloc-oom", "zmalloc_default_oom", Oom(Host)),
    // The JVM's OutOfMemoryError messages where a build tool relays only the cause's message
    // (Gradle's "> Java heap space"): each names the heap, so nothing else could have run out.
    Signature { also: &["GC overhead limit exceeded"], ..sig("jvm-heap", "Java heap space", Oom(Host)) },
    sig("macos-malloc-size", "mach_vm_map(size=", Figure),
    // Thrust (CUDA's C++ library, XGBoost on GPU): a device allocation refused.
    sig("thrust-bad-alloc", "thrust::system::detail::bad_alloc", Oom(Gpu)),
    // Jupyter's kernel died: its process vanished, most often at the OOM killer's hand.
    // Its server's log says the same: "KernelRestarter: restarting kernel (1/5)".
    sig("jupyter-kernel-died", "kernel appears to have died", Suspect(Host)),
    sig("jupyter-kernel-died", "kernel process died", Suspect(Host)),
    sig("jupyter-kernel-died", "KernelRestarter: restarting kernel", Suspect(Host)),
    // The JVM could not start a thread: "java.lang.OutOfMemoryError: unable to create native
    // thread: possibly out of memory or process/resource limits reached" (older JVMs: "new
    // native thread"). The error's class names memory; its text leaves a thread limit open.
    Signature {
        also: &["unable to create new native thread"],
        ..sig("jvm-native-thread", "unable to create native thread", Suspect(Host))
    },
    // Ray's actor whose process vanished (the contract's worker that "exited unexpectedly").
    sig("ray-actor-died", "actor died unexpectedly", Suspect(Host)),
    // Ray's older worker death: "A worker died or was killed while executing a task by an
    // unexpected system error."
    sig("ray-actor-died", "worker died or was killed while executing", Suspect(Host)),
    // loky's warning: "A worker stopped while some jobs were given to the executor. This can be
    // caused by a too short worker timeout or by a memory leak."
    sig("loky-worker-stopped", "A worker stopped while some jobs were given", Suspect(Host)),
    // MATLAB refuses an array over its preference (sized to RAM) in place of its "Out of
    // memory": "Requested 1x2114046976 (15.8GB) array exceeds maximum array size preference."
    // (a localized MATLAB's English rendering: "exceeded the preset maximum array size").
    Signature {
        also: &["exceeded the preset maximum array size"],
        ..sig("matlab-array-size", "exceeds maximum array size preference", Oom(Host))
    },
    sig("numpy-unable-to-allocate", "Unable to allocate", OomByContext(Host)),
    sig("kernel-oom-kill", "Out of memory: Killed process", Oom(Host)),
    sig("kernel-oom-kill", "Out of memory: Kill process", Oom(Host)),
    // Older kernels print the kill on a line of its own after "Out of memory: Kill process ...
    // or sacrifice child": "Killed process 1234 (python) total-vm:..., anon-rss:...", which a
    // grep of dmesg keeps alone (matcher.rs: only with its total-vm).
    sig("kernel-killed-process", "Killed process", Oom(Host)),
    sig("kernel-oom-constraint-none", "constraint=CONSTRAINT_NONE", Oom(Host)),
    // The kernel's report opens with "python3 invoked oom-killer: gfp_mask=..."; its call
    // trace names a memory cgroup when a container's or job's limit was what ran out.
    sig("kernel-oom-invoked", "invoked oom-killer", Oom(Host)),
    sig("memcg-oom-trace", "mem_cgroup_out_of_memory", Oom(JobLimit)),
    sig("memcg-oom-trace", "mem_cgroup_oom", Oom(JobLimit)),
    // Older kernels: "Task in /docker/<id> killed as a result of limit of /docker/<id>".
    sig("memcg-limit-kill", "killed as a result of limit of", Oom(JobLimit)),
    // Userspace killers act before the kernel does, each at its own threshold:
    // systemd-oomd, earlyoom, Dask's nanny, Ray's memory monitor.
    sig("systemd-oomd-kill", "systemd-oomd killed", Oom(Host)),
    sig("systemd-oomd-kill", "oomd attempting to kill", Oom(Host)),
    // PM2's process manager at its configured budget: "Process 0 restarted because it
    // exceeds --max-memory-restart value".
    sig("pm2-max-memory-restart", "exceeds --max-memory-restart", Oom(JobLimit)),
    // Kaggle's kernel: "Your notebook tried to allocate more memory than is available. It has restarted."
    sig("kaggle-notebook-memory", "tried to allocate more memory than is available", Oom(Host)),
    // uvicorn's supervisor: "Child process [72] died", no signal or status: a worker's death.
    sig("uvicorn-child-died", "Child process [", Suspect(Host)),
    // The kubelet's pod status when a node cannot admit a pod for its memory ("OutOfmemory",
    // its spelling): memory pressure on the node, nothing killed.
    exact("k8s-admission-out-of-memory", "OutOfmemory", Suspect(Host)),
    // "Out of memory" in the languages of the threads that paste it: Chinese (内存不足,
    // 記憶體不足; 显存不足 for video memory), Japanese, Korean, Russian, German, French,
    // Spanish and Portuguese, the line naming which memory.
    Signature {
        also: &[
            "記憶體不足",
            // Windows' ERROR_NOT_ENOUGH_MEMORY ("内存资源不足，无法处理此命令"), Photoshop's
            // "没有足够内存(RAM)".
            "内存资源不足",
            "没有足够内存",
            "メモリ不足",
            "メモリが不足",
            "메모리 부족",
            "메모리가 부족",
            "Недостаточно памяти",
            "Nicht genügend Arbeitsspeicher",
            "Mémoire insuffisante",
            "Memoria insuficiente",
            "Memória insuficiente",
        ],
        ..generic("translated-out-of-memory", "内存不足", OomByContext(Host))
    },
    generic("translated-out-of-memory", "显存不足", Oom(Gpu)),
    // SGLang's KV pool: "RuntimeError: Decode out of memory. Try to lower your batch size."
    // (its scheduler's "Decode out of memory happened. #retracted_reqs: 1" goes on: signature::refined).
    sig("sglang-kv-pool", "Decode out of memory", Oom(Gpu)),
    sig("sglang-kv-pool", "Prefill out of memory", Oom(Gpu)),
    // MLX's Metal allocator: "[malloc_or_wait] Unable to allocate 124606464 bytes."
    sig("mlx-malloc-or-wait", "[malloc_or_wait]", Oom(Gpu)),
    // Slurm's seff with the job's peak at its request: "Memory Efficiency: 99.81% of 10.00 GB".
    sig("seff-at-request", "Memory Efficiency:", Suspect(JobLimit)),
    // NCCL could not grow its segment: "failed to extend /dev/shm/nccl-03v824 to 4194660 bytes".
    sig("nccl-shm-extend", "failed to extend /dev/shm", Oom(Shm)),
    sig("systemd-oom-kill-result", "Failed with result 'oom-kill'", Oom(Host)),
    sig("earlyoom-kill", "low memory! at or below", Oom(Host)),
    // Android's low-memory killer daemon: "lmkd: Kill 'com.app' (15964), ... reason: low watermark
    // is breached and swap is low"; the kernel driver before it: "lowmemorykiller: Killing 'com.app'".
    sig("android-lmkd-kill", "watermark is breached", Oom(Host)),
    sig("android-lmkd-kill", "lowmemorykiller: Killing", Oom(Host)),
    // A driver's hook on the kernel's OOM notifier chain, which runs when the host is out of
    // memory: "mali fb000000.gpu: OOM notifier: tsk Xorg ..." names the GPU's driver, not its memory.
    sig("kernel-oom-notifier", "OOM notifier", Oom(Host)),
    // earlyoom's kill report: "sending SIGTERM to process 1234 uid 1000 \"python\": badness 900, VmRSS 14000 MiB".
    sig("earlyoom-kill", "\": badness ", Oom(Host)),
    sig("dask-memory-budget", "% memory budget", Oom(Host)),
    sig("ray-memory-threshold", "exceeds the memory usage threshold", Oom(Host)),
    // Ray's older memory monitor: "ray.memory_monitor.RayOutOfMemoryError: More than 95% of the memory on node".
    sig("ray-out-of-memory-error", "RayOutOfMemoryError", Oom(Host)),
    // Dask's worker near its limit ("Worker is at 89% memory usage. Pausing worker. ... Worker memory
    // limit: 2.33 GiB"), and a task whose workers all died (KilledWorker): suspects.
    sig("dask-worker-pausing", "memory usage. Pausing worker", Suspect(JobLimit)),
    sig("dask-killed-worker", "KilledWorker", Suspect(Host)),
    // A CI runner that vanished mid-job (GitHub Actions: "lost communication with the server").
    sig("runner-lost", "lost communication with the server", Suspect(Host)),
    // The advice that closes Ray's kill report, on its own: a suspicion (LABELLING.md rule 3).
    sig("ray-oom-docs", "ray-oom-prevention", Suspect(Host)),
    // Ray's old memory monitor: its check in a traceback ("in raise_if_low_memory"), and its warning
    // "Memory usage on this node: 29.6/30.9 GiB: ***LOW MEMORY*** less than 10% of the memory ...".
    sig("ray-memory-monitor", "raise_if_low_memory", Suspect(Host)),
    sig("ray-memory-monitor", "***LOW MEMORY***", Suspect(Host)),
    // Ray's account of a dead actor lists the OOM killer first among its possible causes.
    sig("ray-actor-died-oom-cause", "killed by SIGKILL by OOM killer", Suspect(Host)),
    // Hugging Face datasets' map with num_proc: "One of the subprocesses has abruptly died
    // during map operation", usually a worker the OOM killer took.
    sig("datasets-map-worker-died", "abruptly died", Suspect(Host)),
    // concurrent.futures' BrokenProcessPool: "A process in the process pool was terminated
    // abruptly while the future was running or pending": the same death, in the standard library.
    sig("process-pool-broken", "terminated abruptly", Suspect(Host)),
    // batchgenerators' (nnU-Net's) pool worker gone: "Some background worker is 6 feet under. Yuck."
    sig("background-worker-died", "background worker is 6 feet under", Suspect(Host)),
    // Julia's Distributed, for each worker process that exits: "Worker 37 terminated.".
    sig("julia-worker-terminated", "terminated.", Suspect(Host)),
    // A JVM service's memory circuit breaker refuses work before it allocates (OpenSearch ML's
    // "Memory Circuit Breaker is open", Elasticsearch's CircuitBreakingException): a limit
    // reached, not memory that ran out (LABELLING.md rule 3).
    sig("memory-circuit-breaker", "Circuit Breaker is open", Suspect(Host)),
    sig("memory-circuit-breaker", "CircuitBreakingException", Suspect(Host)),
    // Elasticsearch ML's planner, refusing to place a model: "not enough memory on node [id] to
    // assign [1] allocations to deployment [...]": an admission check, nothing ran out.
    sig("ml-node-admission", "not enough memory on node [", Suspect(Host)),
    // loky's TerminatedWorkerError lists the causes: "This could be caused by a segmentation
    // fault while calling the function or by an excessive memory usage causing the Operating
    // System to kill the worker" (a signal it names, SIGSEGV(-11), settles it as a look-alike).
    sig("loky-worker-terminated", "excessive memory usage causing", Suspect(Host)),
    // AWS Lambda's REPORT line with the peak at the function's memory size
    // ("Memory Size: 6000 MB  Max Memory Used: 6000 MB"): the limit was reached.
    sig("lambda-memory-at-size", "Max Memory Used:", Suspect(JobLimit)),
    // CMS WMAgent's watchdog: "Job has exceeded maxPSS: 16000 MB", then it kills the step.
    sig("wmagent-max-pss", "exceeded maxPSS", Oom(JobLimit)),
    // A launcher's report that its child got SIGKILL is the OOM killer, as the lab's
    // fixture colossalai3172 labels it (corpus/LABELLING.md rule 2.4): torchrun's
    // "exitcode: -9" (its failure summary aligns the field: "exitcode  : -9"),
    // DeepSpeed's "return code = -9", mpirun's "exited on signal 9 (Killed)",
    // Python's subprocess "died with <Signals.SIGKILL: 9>" (accelerate launch), gcc's driver, Airflow's
    // task runner "signal=-9: signal_name=\"SIGKILL\"".
    Signature {
        also: &[
            "exitcode  : -9",
            "return code = -9",
            "signal 9 (Killed)",
            "Signals.SIGKILL",
            "signal_name=\"SIGKILL\"",
            "Negsignal.SIGKILL",
            // gcc's driver on its compiler proper: "internal compiler error: Killed (program
            // cc1plus)" (its "<signal> signal terminated program" is `gcc-child-killed`).
            "compiler error: Killed (program",
            // celery's pool: "WorkerLostError: Worker exited prematurely: signal 9 (SIGKILL)",
            // "Process 'ForkPoolWorker-15' pid:2694 exited with 'signal 9 (SIGKILL)'";
            // systemd on a unit: "Main process exited, code=killed, status=9/KILL".
            "exited prematurely: signal 9",
            "exited with 'signal 9 (SIGKILL)'",
            "status=9/KILL",
            // Rust's ExitStatus, as cargo reports rustc: "(signal: 9, SIGKILL: kill)".
            "SIGKILL: kill)",
            // PM2: "App [index:0] exited with code [0] via signal [SIGKILL]"; uWSGI's master:
            // "worker 1 (pid: 108) died, killed by signal 9"; test runners on a test process:
            // "exit code: CRASHED (Signal: 9)", "Test process crashed with signal 9".
            "via signal [SIGKILL]",
            "died, killed by signal 9",
            "CRASHED (Signal: 9)",
            "crashed with signal 9",
            // gunicorn's arbiter: "Worker (pid:25134) was sent SIGKILL! Perhaps out of memory?"
            // (after its own WORKER TIMEOUT it names itself the sender: lookalikes::KILL_SENDERS).
            "was sent SIGKILL",
            // Its newer wording: "Worker with pid 55 was terminated due to signal 9".
            "terminated due to signal 9",
            // clang's driver: "clang++: error: unable to execute command: Killed".
            "unable to execute command: Killed",
            // torchelastic's failure summary on the child: "Signal 9 (SIGKILL) received by PID 394968".
            "Signal 9 (SIGKILL) received by PID",
            // MPICH's hydra on a rank: "BAD TERMINATION ... KILLED BY SIGNAL: 9 (Killed)"; a wrapper
            // script on its program: "(ERR): hisat2-align died with signal 9 (KILL)".
            "KILLED BY SIGNAL: 9",
            "died with signal 9",
            // nvcc's driver on its compiler proper: "nvcc error   : 'cicc' died due to signal 9 (Kill signal)".
            "died due to signal 9",
        ],
        ..sig("sigkill-launcher", "exitcode: -9", Oom(Host))
    },
    word("sigkill-launcher", "exit code -9", Oom(Host)),
    // SPAdes and other Python pipelines on a step: "finished abnormally, OS return value: -9".
    word("sigkill-launcher", "return value: -9", Oom(Host)),
    // gcc's driver names its child's signal by strsignal, in the user's locale: "fatal
    // error: Killed signal terminated program cc1plus", "Morto signal terminated program
    // lto1". Only SIGKILL's word is a kill report (signature.rs).
    sig("gcc-child-killed", "signal terminated program", Oom(Host)),
    // The same report retold without the colon ("exitcode -9", a summary of a torchrun run).
    word("sigkill-launcher", "exitcode -9", Oom(Host)),
    // make's report of a recipe the kernel killed ("make: *** [Makefile:40: pytest] Killed"),
    // macOS's shell "Killed: 9".
    Signature { also: &["Killed: 9"], ..exact("sigkill-launcher", "] Killed", Oom(Host)) },
    // A bare exit status 137 or signal 9 only suggests the OOM killer (the contract:
    // a bare exit code is not proof); with the process's host memory in the log it is.
    // Docker's and Kubernetes' container state ("ExitCode:137", "exitCode: 137"),
    // Nextflow's "exit status (137)", GNU time's "Command terminated by signal 9", make's "*** [...] Error 137".
    Signature {
        also: &[
            "exit code 137",
            "exit code: 137",
            "exit code (137)",
            "exit status 137",
            "exited with code 137",
            "exited with 137",
            "exitcode: 137",
            "exitcode:137",
            "exit status (137)",
            "terminated by signal 9",
            "] Error 137",
        ],
        ..sig("sigkill-exit", "Signal 9 (SIGKILL)", Suspect(Host))
    },
    // slurmctld's record of a job ended by SIGKILL.
    Signature { boundary: Boundary::Word, ..exact("sigkill-exit", "WTERMSIG 9", Suspect(Host)) },
    // Spark's executors exit with 52 on an OutOfMemoryError (SparkExitCode.OOM).
    Signature { boundary: Boundary::Word, ..sig("spark-exit-oom", "exit code: 52", Suspect(Host)) },
    // torchrun's and DeepSpeed's SIGBUS exits: "exitcode: -7", "Signal 7 (SIGBUS)".
    Signature {
        also: &["exitcode  : -7", "return code = -7", "Signal 7 (SIGBUS)"],
        ..sig("sigbus-exit", "exitcode: -7", Suspect(Shm))
    },
    // A child killed by SIGBUS: in containers, a full /dev/shm (TGI: "signaled to shutdown with signal 7").
    word("sigbus-exit", "with signal 7", Suspect(Shm)),
    // SIGBUS on its own (gdb's "Program received signal SIGBUS"): a write to a memory-mapped
    // segment that has no room behind it, which in ML jobs is usually a full /dev/shm.
    Signature { boundary: Boundary::Identifier, ..exact("sigbus", "SIGBUS", Suspect(Shm)) },
    exact("sigbus", "Bus error", Suspect(Shm)),
    // zsh's job report and prose write it in lower case: "14137 bus error (core dumped)".
    Signature { boundary: Boundary::Word, ..exact("sigbus", "bus error", Suspect(Shm)) },
    // Google Cloud ML: "The replica master 0 ran out-of-memory and exited with a non-zero status of 9(SIGKILL)".
    sig("cloud-replica-oom", "ran out-of-memory", Oom(Host)),
    sig("ollama-system-memory", "requires more system memory", Oom(Host)),
    sig("vllm-cpu-swap", "lack of CPU swap space", Oom(Host)),
    sig("k8s-evicted-memory", "low on resource: memory", Oom(Host)),
    // Windows error numbers read the same in every language.
    sig("windows-paging-file", "WinError 1455", Oom(Host)),
    sig("windows-paging-file", "os error 1455", Oom(Host)),
    sig("windows-paging-file", "GetLastError() = 1455", Oom(Host)),
    // .NET: "Exception of type 'System.OutOfMemoryException' was thrown."
    sig("dotnet-oom", "System.OutOfMemoryException", Oom(Host)),
    sig("windows-not-enough-memory", "WinError 8]", Oom(Host)),
    // Its HRESULTs read the same in every language: ERROR_NOT_ENOUGH_MEMORY as "HRESULT:
    // 0x80070008", E_OUTOFMEMORY as "8007000E" (DirectML's, on the device: the line says so).
    Signature { also: &["0x80070008"], ..sig("windows-out-of-memory-code", "8007000E", OomByContext(Host)) },
    Signature { also: PAGING_FILE_TOO_SMALL, ..sig("windows-paging-file", "paging file is too small", Oom(Host)) },
    // The same, generic too, so that a console's wrap ("The paging fi\nle is too small") is read.
    generic("windows-paging-file", "paging file is too small", Oom(Host)),
    sig("ray-node-low-memory", "node running low on memory", Oom(Host)),
    // The raylet's summary: "2 Workers (tasks / actors) killed due to memory pressure (OOM)".
    sig("ray-oom-killer", "due to memory pressure", Oom(Host)),
    sig("zsh-killed", "zsh: killed", Oom(Host)),
    // The shell's message retold in markdown: "fails ... with message `killed`".
    sig("quoted-killed", "`killed`", Oom(Host)),
    // Ray's memory monitor by its documented name: "Ray's OOM prevention repeatedly kills ... actors".
    sig("ray-oom-prevention", "OOM prevention", Oom(Host)),
    // The kernel's memory report with the swap used up ("kernel: Free swap  = 0kB"): it prints
    // one for an OOM kill, but a line of it alone shows no kill.
    Signature { also: &["Free swap = 0kB"], ..sig("kernel-free-swap-zero", "Free swap  = 0kB", Suspect(Host)) },
    // Colab's dialog: "Your GPU is close to its memory limit. You will not be able to use any
    // additional memory in this session."
    sig("colab-gpu-near-limit", "GPU is close to its memory limit", Suspect(Gpu)),
    // Ascend's runtime on the device: "Call rtMalloc fail, purpose: page caching, ... device_id:0".
    sig("ascend-rtmalloc-fail", "rtMalloc fail", Oom(Gpu)),
    // TensorFlow's exception class with its message cut off ("ResourceExhaustedError
    // Traceback (most recent call last)", "ResourceExhaustedError: Graph execution error:"):
    // mostly an OOM on the device, but quotas raise it too, so a suspicion. Generic, so that
    // the message after it ("ResourceExhaustedError: failed to allocate memory") still speaks.
    Signature {
        boundary: Boundary::Identifier,
        generic: true,
        ..sig("tf-resource-exhausted-class", "ResourceExhaustedError", Suspect(Gpu))
    },
    // Julia's GPU packages when the allocator hands back nothing: "hipMallocAsync resulted in
    // C_NULL for 8.000 MiB" (AMDGPU.jl), with no out-of-memory error of its own.
    sig("julia-malloc-null", "resulted in C_NULL", Suspect(Gpu)),
    // PyTorch's CPU allocator named by its check alone, its message cut or in a screenshot:
    // "enforce fail at CPUAllocator.cpp" (the full message proves the OOM; this suggests it).
    sig("cpu-allocator-check", "enforce fail at CPUAllocator", Suspect(Host)),
    // Sophgo's BM1684 runtime: "bm_alloc_gmem failed, dev_id = 0", "Alloc Device Memory Failed!".
    Signature {
        also: &["Alloc Device Memory Failed"],
        ..sig("bm-alloc-gmem-failed", "bm_alloc_gmem failed", Oom(Gpu))
    },
    // PaddlePaddle's allocator exception, whose what() may be cut from the paste: "terminate
    // called after throwing an instance of 'paddle::memory::allocation::BadAlloc'" (its device's
    // unless the line names the CPU).
    sig("paddle-badalloc", "memory::allocation::BadAlloc", OomByContext(Gpu)),
    // SGLang's KV pool empty at a decode step: "No space left for only one request,
    // self.token_to_kv_pool_allocator.available_size()=0".
    sig("sglang-kv-pool-empty", "No space left for only one request", Oom(Gpu)),
    // llama.cpp loading a model's weights onto its backend (the GPU it offloads to):
    // "error loading model: unable to allocate backend buffer".
    sig("llama-backend-buffer", "unable to allocate backend buffer", OomByContext(Gpu)),
    // The shell's word in a Chinese sentence: "进程被Killed" ("the process was Killed").
    sig("zh-was-killed", "被Killed", Oom(Host)),
    sig("colab-ram", "using all available RAM", Oom(Host)),
    // macOS's memory killer writes a JetsamEvent report (bug_type 298).
    sig("macos-jetsam", "JetsamEvent", Oom(Host)),
    sig("macos-jetsam", "\"bug_type\": \"298\"", Oom(Host)),
    // zsh's interactive job report: `[1]    9301 killed     python3 train.py`.
    exact("zsh-job-killed", "killed ", Oom(Host)),
    // Go's exec package (Ollama and other Go launchers): the child got SIGKILL.
    sig("go-signal-killed", "signal: killed", Oom(Host)),
    // Also torch.multiprocessing.spawn's "process 0 terminated with signal SIGKILL", yarn's
    // "error Command failed with signal \"SIGKILL\"".
    Signature {
        also: &["with signal SIGKILL", "with signal \"SIGKILL\""],
        ..sig("fish-sigkill", "terminated by signal SIGKILL", Oom(Host))
    },
];
