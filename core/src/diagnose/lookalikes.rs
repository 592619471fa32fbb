//! Look-alikes: failures whose text speaks of memory or CUDA, or ends a job
//! the way an OOM would, but that are not memory running out. Each says what
//! it is instead. Part of the signature table (`signatures.rs`).

use super::signature::{exact, generic, sig, word, Boundary, Meaning, Signature};
use crate::memory::MemoryKind;

const THREAD_LIMIT: &str = "a thread could not be created: the process and thread limit (ulimit -u), not memory";

const DEVICE_COUNT: &str =
    "CUDA failed while finding the GPUs (the driver, WSL or CUDA_VISIBLE_DEVICES), before any memory was used";

const PIN_MEMORY: &str = "the DataLoader's pin-memory thread died (pin_memory=True), not memory running out";
const GPU_FAULT: &str = "a GPU fault reported by the NVIDIA driver (an Xid: a bad address, or the GPU lost from the bus), not memory running out";

const GGML_POOL: &str =
    "ggml's context pool or scratch buffer was sized too small by the program's own estimate: a bug or a wrong setting, not RAM";

const NEGATIVE_SIZE: &str =
    "a negative size was asked of the allocator: an integer overflow in the program's own arithmetic, not memory running out";

const MEMLOCK: &str = "pinning memory for RDMA hit the locked-memory limit (ulimit -l), not memory exhaustion";

/// Look-alikes that name who ended the job: with them, a bare `Killed` or a
/// launcher's `-9` is their kill, not the OOM killer's.
pub(super) const KILL_SENDERS: [&str; 9] = [
    "unresponsive-kill",
    "torchrun-shutdown-kill",
    "slurm-time-limit",
    "slurm-preempted",
    "pbs-walltime",
    "lsf-runlimit",
    "code-signature",
    "docker-stop",
    "gunicorn-worker-timeout",
];

/// Look-alikes whose usual cause is memory all the same: a suspicion the same
/// log shows (an autotuner's "Out of memory" it went on from, a question naming
/// GPU memory) stands over them, where other look-alikes outweigh it.
pub(super) const YIELD_TO_SUSPECTS: [&str; 1] = ["gpu-library-start"];

use Meaning::*;
use MemoryKind::Host;

pub(super) const LOOK_ALIKES: &[Signature] = &[
    // cuDNN and cuBLAS could not start: "Could not create cudnn handle:
    // CUDNN_STATUS_INTERNAL_ERROR", "CUBLAS_STATUS_NOT_INITIALIZED", "Failed to get
    // convolution algorithm. This is probably because cuDNN failed to initialize", "Unable
    // to find a valid cuDNN algorithm". The text does not say memory ran out (LABELLING.md
    // rule 4), though a GPU already taken is their usual cause: the fixes say so first.
    Signature {
        also: &[
            "CUBLAS_STATUS_NOT_INITIALIZED",
            "Unable to find a valid cuDNN algorithm",
            "determine best cudnn convolution",
            "Failed to get convolution algorithm",
        ],
        ..sig(
            "gpu-library-start",
            "Could not create cudnn handle",
            NotOom("cuDNN or cuBLAS could not start (a handle or a convolution algorithm), which the log does not tie to memory running out"),
        )
    },
    // The allocator caught a free of memory it never gave out: glibc's "free(): invalid
    // pointer", "munmap_chunk(): invalid pointer", "double free or corruption (out)",
    // tcmalloc's "Attempt to free invalid pointer 0x7f82050".
    Signature {
        also: &["free invalid pointer", "double free or corruption"],
        ..sig(
            "heap-corruption",
            "(): invalid pointer",
            NotOom("the heap was corrupted (a free of a pointer the allocator never gave out), a bug in native code, not memory running out"),
        )
    },
    // A watchdog that killed a process for not answering: Databricks' "Hard killed Driver
    // (pid=498) after unresponsive for 302 seconds" before the shell's `Killed`.
    sig(
        "unresponsive-kill",
        "after unresponsive for",
        NotOom("a watchdog killed it for not responding within its time limit, not the OOM killer"),
    ),
    // torchrun tearing its workers down after another failure: "Unable to shutdown process 264
    // via Signals.SIGTERM, forcefully exiting via Signals.SIGKILL".
    sig(
        "torchrun-shutdown-kill",
        "forcefully exiting via Signals.SIGKILL",
        NotOom("torchrun killed its own workers while shutting down after another failure: the first error above is the cause"),
    ),
    // jemalloc refusing to start on a kernel's page size (64K pages on some ARM hosts):
    // "<jemalloc>: Unsupported system page size", then Arrow's ArrowMemoryError at import.
    sig(
        "jemalloc-page-size",
        "Unsupported system page size",
        NotOom("jemalloc cannot start on this kernel's memory page size (a build for 4K pages on a 64K-page host), not memory running out"),
    ),
    // FlashInfer's temporaries come out of a fixed workspace: "Failed to allocate memory for
    // batch_prefill_tmp_v with size 435814400 and alignment 16 in AlignedAllocator".
    sig(
        "flashinfer-workspace",
        "in AlignedAllocator",
        NotOom("FlashInfer's fixed workspace buffer is too small for the batch (a workspace size), not device memory running out"),
    ),
    // Ray's own teardown: "The actor is dead because it was killed by `ray.kill`".
    sig("ray-kill", "killed by `ray.kill`", NotOom("Ray's ray.kill ended the actor on purpose (a teardown), not memory")),
    // gunicorn's arbiter: "[CRITICAL] WORKER TIMEOUT (pid:42)", then it sends the worker
    // SIGKILL ("Perhaps out of memory?" is its guess when it did not send it itself).
    // In capitals only: loky's "a too short worker timeout" is a possible cause, not this.
    exact(
        "gunicorn-worker-timeout",
        "WORKER TIMEOUT",
        NotOom("gunicorn killed a worker that did not answer within its --timeout: a time limit, not memory"),
    ),
    // A kernel that asks for more on-chip shared memory per block than the device allows
    // (gsplat: "Failed to set maximum shared memory size (requested 7168 bytes), try lowering tile_size").
    sig(
        "kernel-shared-memory-attribute",
        "Failed to set maximum shared memory size",
        NotOom("a kernel asked for more on-chip shared memory per block than the GPU allows (a launch limit), not /dev/shm"),
    ),
    sig(
        "cuda-illegal-memory-access",
        "illegal memory access",
        NotOom("an illegal memory access: an out-of-bounds read or write in a kernel, not exhaustion"),
    ),
    // Also the kernel's own printout before it: "Indexing.cu:1308: indexSelectLargeIndex: block:
    // [58,0,0], thread: [10,0,0] Assertion `srcIndex < srcSelectDimSize` failed."
    Signature {
        also: &["srcIndex < srcSelectDimSize", "], thread: ["],
        ..sig(
            "cuda-device-side-assert",
            "device-side assert triggered",
            NotOom("a device-side assert: usually an index out of range (e.g. a label >= num_classes)"),
        )
    },
    sig(
        "cuda-misaligned-address",
        "misaligned address",
        NotOom("a misaligned address: a kernel read or wrote at a bad alignment (a kernel bug or its inputs), not exhaustion"),
    ),
    // XLA on a kernel launch asking for more on-chip shared memory per block than the GPU has:
    // "INTERNAL: Shared memory requested exceeds device resources" (not /dev/shm, not the GPU's memory).
    sig(
        "gpu-shared-memory-launch",
        "Shared memory requested exceeds device resources",
        NotOom("a kernel asked for more on-chip shared memory per block than the GPU has (a compiler or kernel choice), not memory running out"),
    ),
    // ROCm's kernel driver absent: "ROCk module is NOT loaded, possibly no GPU devices",
    // "Unable to open /dev/kfd read-write"; what follows (HSA's OUT_OF_RESOURCES) is its echo.
    Signature {
        also: &["Unable to open /dev/kfd"],
        ..sig(
            "rocm-driver-missing",
            "ROCk module is NOT loaded",
            NotOom("ROCm's kernel driver is not loaded or /dev/kfd cannot be opened: the GPU is not reachable, nothing ran out"),
        )
    },
    // ROCm's page fault: "Memory access fault by GPU node-4 (Agent handle: ...) on address (nil)".
    sig(
        "gpu-memory-access-fault",
        "Memory access fault by GPU",
        NotOom("the GPU touched an address it does not own (a kernel bug or a bad pointer), not memory running out"),
    ),
    Signature {
        // The watchdog's own frame when the timeout line itself was not pasted.
        also: &["ncclCommWatchdog"],
        ..sig(
            "nccl-watchdog-timeout",
            "Watchdog caught collective operation timeout",
            NotOom("an NCCL collective timed out: a rank hung or diverged, not memory"),
        )
    },
    // glibc's SIGSEGV text in the shell's language (Russian, German, French, Spanish, Chinese, Japanese).
    Signature {
        also: &[
            "Ошибка сегментирования",
            "Speicherzugriffsfehler",
            "Erreur de segmentation",
            "Violación de segmento",
            "段错误",
            "セグメンテーション違反",
        ],
        ..sig("segfault", "Segmentation fault", NotOom("a segmentation fault in native code"))
    },
    sig("segfault", "SIGSEGV", NotOom("a segmentation fault in native code")),
    // A kernel's launch asking for more on-chip shared memory than a block may have
    // (Pallas/Triton: "Shared memory size limit exceeded: requested 4194304, available: 101376").
    sig("smem-limit", "Shared memory size limit", NotOom("a GPU kernel asked for more on-chip shared memory per block than the GPU has (its block sizes), not memory running out")),
    sig("disk-quota", "disk quota exceeded", NotOom("the disk quota is full (saving a checkpoint), not memory")),
    // Also huggingface_hub's warning: "Not enough free disk space to download the file".
    Signature { also: &["free disk space"], ..generic("disk-full", "No space left on device", NotOom("the disk is full, not memory")) },
    // EMFILE: "OSError: [Errno 24] Too many open files" (DataLoader workers sharing tensors by file descriptor).
    sig("too-many-open-files", "Too many open files", NotOom("the process ran out of file descriptors (ulimit -n), not memory")),
    // Kubernetes could not place the pod: "0/41 nodes are available: ... 4 Insufficient memory".
    Signature {
        also: &["nodes are available:", "NotTriggerScaleUp"],
        ..sig("k8s-failed-scheduling", "FailedScheduling", NotOom("Kubernetes could not schedule the pod: no node has the CPU, memory or GPUs it requests free; nothing ran out of memory"))
    },
    // NCCL's return codes for a failure beneath it: "NCCL Error 1: unhandled cuda error",
    // "ncclSystemError: ... unhandled system error". Its own OOM says "out of memory".
    sig("nccl-unhandled", "unhandled cuda error", NotOom("NCCL reports a CUDA call that failed beneath it, not memory running out")),
    sig("nccl-unhandled", "unhandled system error", NotOom("NCCL reports a system call that failed beneath it (often a /dev/shm segment or a network interface), not memory running out")),
    // Training logs print the loss and the memory on one line: a NaN there is divergence.
    // Also the trainers' own words for it: ESPnet's "The grad norm is nan", "samples got nan grad",
    // a summary writer's "NaN or Inf found in input tensor".
    Signature { boundary: Boundary::Word, also: &["grad norm is nan", "nan grad", "loss is nan", "NaN or Inf found", "loss=nan"], ..sig("nan-loss", "loss: nan", NotOom("the loss became NaN: the training diverged (learning rate, fp16 overflow, bad data), not memory running out")) },
    sig("slurm-time-limit", "DUE TO TIME LIMIT", NotOom("SLURM ended the job at its time limit")),
    sig("slurm-preempted", "DUE TO PREEMPTION", NotOom("SLURM preempted the job for a higher-priority one")),
    // Also PyTorch's "The NVIDIA driver on your system is too old (found version 11040)".
    Signature {
        also: &["driver on your system is too old"],
        ..sig(
            "driver-too-old",
            "driver version is insufficient",
            NotOom("the NVIDIA driver is older than the CUDA runtime this build needs"),
        )
    },
    // cudaErrorSystemDriverMismatch, often behind an allocation that only looks refused for lack of memory.
    sig(
        "driver-too-old",
        "cuda driver combination",
        NotOom("the display driver and the CUDA driver do not match (cudaErrorSystemDriverMismatch)"),
    ),
    sig(
        "fail-fast",
        "0xc0000409",
        NotOom("a Windows fail-fast crash (0xC0000409, a stack buffer overrun) in native code"),
    ),
    sig("access-violation", "0xC0000005", NotOom("an access violation (0xC0000005) in native code")),
    sig("access-violation", "3221225477", NotOom("an access violation (0xC0000005) in native code")),
    sig(
        "access-violation",
        "fatal exception: access violation",
        NotOom("an access violation (0xC0000005) in native code"),
    ),
    // Also Inductor's "OutOfMemoryError: out of resource: triton_per_fused_... Required: 327768 Hardware limit:232448".
    Signature {
        also: &["out of resource: triton"],
        ..sig(
            "triton-out-of-resources",
            "OutOfResources",
            NotOom("a Triton kernel needs more on-chip shared memory than the GPU has, not GPU memory"),
        )
    },
    sig(
        "gpu-watchdog",
        "launch timed out and was terminated",
        NotOom("the display driver's watchdog (TDR) stopped a kernel that ran too long"),
    ),
    // The container runtime could not create the memory cgroup itself ("applying cgroup
    // configuration ... mkdir /sys/fs/cgroup/memory/...: cannot allocate memory"): a
    // kernel cgroup leak, before the workload started.
    // slurmstepd's own: "xcgroup_instantiate: unable to create cgroup '/sys/fs/cgroup/memory/...'".
    Signature {
        also: &["unable to create cgroup"],
        ..sig(
            "cgroup-create-failed",
            "applying cgroup configuration",
            NotOom("the container runtime or the scheduler could not create its memory cgroup (a kernel cgroup leak), before the job ran"),
        )
    },
    // SIGILL: "exited on signal 4 (Illegal instruction)", a build for a newer CPU.
    sig(
        "illegal-instruction",
        "Illegal instruction",
        NotOom("an illegal instruction (SIGILL): code built for a newer CPU (AVX) than this one, not memory running out"),
    ),
    // A thread that could not be created (EAGAIN): the per-user process and thread
    // limit (ulimit -u, a pids cgroup), not memory. Boost's "thread: Resource temporarily
    // unavailable", glibc's "pthread_create failed".
    sig("thread-limit", "thread: Resource temporarily unavailable", NotOom(THREAD_LIMIT)),
    sig("thread-limit", "pthread_create failed", NotOom(THREAD_LIMIT)),
    // Pinning memory for RDMA (InfiniBand, UCX) fails with ENOMEM when the
    // locked-memory limit (ulimit -l) is low, whatever RAM is free.
    sig("memlock-limit", "ibv_reg_mr", NotOom(MEMLOCK)),
    // llama.cpp's "warning: failed to mlock 827228160-byte buffer ...: Cannot allocate memory".
    sig("memlock-limit", "failed to mlock", NotOom(MEMLOCK)),
    // UCX and MPI create InfiniBand queues in locked memory: "ibv_create_cq(cqe=4096) failed: Cannot allocate memory".
    sig("memlock-limit", "ibv_create_", NotOom(MEMLOCK)),
    sig("memlock-limit", "umem_reg", NotOom(MEMLOCK)),
    sig("memlock-limit", "max locked memory", NotOom(MEMLOCK)),
    sig("memlock-limit", "ulimit -l", NotOom(MEMLOCK)),
    sig("memlock-limit", "RLIMIT_MEMLOCK", NotOom(MEMLOCK)),
    // mlock(2)/mlockall(2) refused with ENOMEM under the same limit: Vault's "failed to lock
    // memory: cannot allocate memory", "Error locking page at 0x...: Cannot allocate memory".
    Signature {
        also: &["Error locking page", "mlockall"],
        ..sig("memlock-limit", "failed to lock memory", NotOom(MEMLOCK))
    },
    // A page-locked staging buffer that could not be had: llama.cpp and others
    // fall back to pageable memory, so this is a warning, not the failure.
    sig("pinned-memory", "of pinned memory", Suspect(Host)),
    sig("cuda-device-count", "cudaGetDeviceCount", NotOom(DEVICE_COUNT)),
    sig("cuda-device-count", "cuda capable device", NotOom(DEVICE_COUNT)),
    sig("cuda-device-count", "no CUDA-capable device", NotOom(DEVICE_COUNT)),
    sig(
        "static-tls",
        "static TLS block",
        NotOom("the dynamic loader ran out of static TLS slots for a library, not memory"),
    ),
    sig("code-signature", "code signature", NotOom("macOS refused the program's code signature and killed it")),
    // `docker stop` sends SIGKILL when its grace period ends: "Exited (137)" after it is that kill.
    Signature {
        also: &["docker kill"],
        ..sig("docker-stop", "docker stop", NotOom("docker stop (or kill) ended the container with SIGKILL after its grace period, not the OOM killer"))
    },
    sig(
        "jupyter-iopub-rate",
        "IOPub data rate exceeded",
        NotOom("Jupyter's limit on output sent to the browser, not memory"),
    ),
    sig("pin-memory-thread", "Pin memory thread exited unexpectedly", NotOom(PIN_MEMORY)),
    // The driver's fault reports: Xid 31 is a page fault (a bad address), 79 a GPU gone from the bus.
    sig("nvidia-xid", "NVRM: Xid", NotOom(GPU_FAULT)),
    sig("nvidia-xid", "fallen off the bus", NotOom(GPU_FAULT)),
    sig("nvidia-xid", "Unable to determine the device handle", NotOom(GPU_FAULT)),
    sig("pbs-walltime", "job killed: walltime", NotOom("PBS ended the job at its walltime limit")),
    // LSF's exit reasons for time: "TERM_RUNLIMIT: job killed after reaching LSF run time limit".
    sig("lsf-runlimit", "TERM_RUNLIMIT", NotOom("LSF ended the job at its run time limit")),
    sig("lsf-runlimit", "TERM_CPULIMIT", NotOom("LSF ended the job at its CPU time limit")),
    // ggml's fixed context pool and scratch buffer, sized up front by the program's own estimate:
    // "not enough space in the context's memory pool (needed N, available M)",
    // "ggml_new_tensor_impl: not enough space in the scratch memory".
    Signature {
        also: &["space in the scratch memory"],
        ..sig("ggml-context-pool", "context's memory pool", NotOom(GGML_POOL))
    },
    // "Failed to allocate -156019200 bytes for array _ncachex" (a size counted in an int).
    sig("negative-allocation", "allocate -", NotOom(NEGATIVE_SIZE)),
    // Every rank ended on SIGABRT (torchrun's "Signal 6 (SIGABRT) received by PID"): a
    // native abort (an assertion, the NCCL watchdog), not the kernel's OOM killer.
    sig(
        "sigabrt-exit",
        "Signal 6 (SIGABRT)",
        NotOom("a native abort (SIGABRT: an assertion or a watchdog), not the OOM killer"),
    ),
    // torchelastic's agent was sent SIGTERM: a scheduler, a user or a crashed sibling stopped it; the OOM killer sends SIGKILL.
    sig(
        "sigterm-received",
        "Received 15 death signal",
        NotOom("the launcher was sent SIGTERM (a scheduler, a user or a crashed sibling process stopped it)"),
    ),
    // Dask's nanny and others: "Worker process 13600 was killed by signal 15" (SIGTERM);
    // exit status 143 is 128 + 15 ("Exited with exit code 143." in an LSF job report).
    Signature {
        also: &["exit code 143"],
        ..word(
            "sigterm-received",
            "by signal 15",
            NotOom("the process was sent SIGTERM (a scheduler, a user or its own supervisor stopped it); the OOM killer sends SIGKILL"),
        )
    },
    // The shell's name for SIGALRM ("Exited with signal termination: Alarm clock."): a timer, often a time limit.
    word(
        "sigalrm",
        "Alarm clock",
        NotOom("SIGALRM ended the process: a timer ran out (often a time limit), not memory"),
    ),
    // The OOM killer's priority setting: "failed to change OOM score to -500 ... oom_score_adj: permission denied".
    Signature {
        also: &["OOM score"],
        ..sig(
            "oom-score-setting",
            "oom_score_adj",
            NotOom("the OOM killer's priority setting (oom_score_adj) could not be changed; nothing ran out"),
        )
    },
    // Failures the twentieth collection's dev logs showed in their own words, none of them memory:
    // cuDNN refusing an input layout, mixed precision's routine loss-scale step, a peer that
    // went away, OpenBLAS's buffer table (its thread count), EAGAIN, Colab's GPU quota, a CI
    // runner stopped.
    sig(
        "cudnn-not-supported",
        "CUDNN_STATUS_NOT_SUPPORTED",
        NotOom("cuDNN does not support this input (a layout, a size or a dtype: .contiguous() often fixes it), not memory"),
    ),
    sig(
        "amp-loss-scale-step",
        "Skipping step, loss scaler",
        NotOom("mixed precision's dynamic loss scaling skipped a step after an overflow: routine, not memory"),
    ),
    sig(
        "connection-reset",
        "Connection reset by peer",
        NotOom("a network peer closed the connection (another rank or node went away), not memory"),
    ),
    sig(
        "openblas-memory-regions",
        "too many memory regions",
        NotOom("OpenBLAS ran out of its fixed table of per-thread buffers: set OPENBLAS_NUM_THREADS/OMP_NUM_THREADS lower; not RAM"),
    ),
    sig("thread-limit", "Resource temporarily unavailable", NotOom(THREAD_LIMIT)),
    sig(
        "gpu-quota",
        "connect to a GPU due to usage limits",
        NotOom("the hosted notebook's GPU quota is used up (wait, or a paid tier), not memory"),
    ),
    sig(
        "ci-runner-shutdown",
        "The runner has received a shutdown signal",
        NotOom("the CI runner was stopped or the job cancelled (no reason shown), not memory"),
    ),
    // PyTorch's warning on a machine without a GPU: nothing to pin for, nothing failed.
    sig(
        "pin-memory-no-accelerator",
        "no accelerator is found",
        NotOom("a warning that pin_memory has no GPU to pin for; nothing ran out"),
    ),
    // TFLite's AllocateTensors names the kernel that rejected a shape: "Cannot allocate memory
    // for the interpreter: tensorflow/contrib/lite/kernels/conv.cc:191 ...".
    sig(
        "tflite-prepare",
        "Cannot allocate memory for the interpreter",
        NotOom("TFLite could not prepare the model's tensors: a kernel rejected a shape or type (the line names it), not memory running out"),
    ),
    // The dynamic loader's "libcudnn_ops_infer.so.8: cannot open shared object file"; cuDNN's
    // own on Windows: "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!".
    Signature {
        also: &["Please make sure it is in your library path"],
        ..sig(
            "missing-library",
            "cannot open shared object file",
            NotOom("a shared library could not be loaded (missing, or not on the library path), not memory running out"),
        )
    },
    sig(
        "cudnn-version-mismatch",
        "but source was compiled with",
        NotOom("the cuDNN library loaded is older than the one the framework was built with"),
    ),
    // The kubelet's eviction for an emptyDir volume over its sizeLimit: "Usage of EmptyDir
    // volume \"models-dir\" exceeds the limit \"1536Mi\"" (on disk unless medium: Memory).
    sig("k8s-evicted-disk", "Usage of EmptyDir volume", NotOom("a pod's emptyDir volume grew past its size limit (disk), not memory")),
    sig(
        "k8s-evicted-disk",
        "ephemeral local storage usage",
        NotOom("the pod used more disk (ephemeral storage) than its limit, not memory"),
    ),
    // Hugging Face Spaces: "Workload Evicted, Storage Limit Exceeded (50G)".
    sig("k8s-evicted-disk", "Storage Limit Exceeded", NotOom("the workload used more disk than its storage limit, not memory")),
    sig(
        "mps-buffer-assert",
        "buffer is not large enough",
        NotOom("an assertion in Apple's MPS kernels (a PyTorch MPS bug fixed by upgrading), not memory"),
    ),
    sig(
        "k8s-evicted-disk",
        "low on resource: ephemeral-storage",
        NotOom("the node ran low on disk (ephemeral storage), not memory"),
    ),
    sig("grpc-message-size", "larger than max", NotOom("a gRPC message is larger than the size limit")),
    word("quota-exceeded", "Quota", NotOom("a quota (cloud chips, a project limit) is used up, not memory")),
    sig(
        "tf-ten-percent-warning",
        "exceeds 10% of",
        NotOom("TensorFlow warns that one allocation is large; nothing failed for memory"),
    ),
    // Also PyTorch's warning: "RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation".
    Signature {
        also: &["is not compatible with the current PyTorch installation"],
        ..sig(
            "no-kernel-image",
            "no kernel image is available",
            NotOom("the PyTorch build does not support this GPU's architecture"),
        )
    },
    // CUDA error 804 (cudaErrorCompatNotSupportedOnDevice): "forward compatibility was attempted on non supported HW".
    Signature {
        also: &["forward compatibility was attempted"],
        ..sig(
            "cuda-driver-mismatch",
            "Cuda driver error 804",
            NotOom("the installed NVIDIA driver does not support this GPU (CUDA error 804): a driver to match the card, not memory"),
        )
    },
    // ROCm's equivalent: "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"
    sig(
        "no-kernel-image",
        "hipErrorNoBinaryForGpu",
        NotOom("the ROCm build has no code for this GPU's architecture (a matching build, or HSA_OVERRIDE_GFX_VERSION)"),
    ),
];
