//! The log signatures the diagnoser recognises: what each one proves (an OOM
//! of some memory, a look-alike that is not an OOM, a figure, a phase or a
//! stack hint). All are matched at once by one Aho-Corasick automaton,
//! ASCII case-insensitively, so a log is scanned once.

use crate::diagnose::Phase;
use crate::memory::{MemoryKind, Stack};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// Proves an out-of-memory failure in this memory.
    Oom(MemoryKind),
    /// Suggests a memory problem without proving exhaustion (a worker that
    /// "exited unexpectedly" is usually /dev/shm in containers).
    Suspect(MemoryKind),
    /// A failure that looks like an OOM but is not; says what it is.
    NotOom(&'static str),
    /// A line whose figures are read (see figures.rs).
    Figure,
    Phase(Phase),
    Stack(Stack),
}

#[derive(Clone, Copy, Debug)]
pub struct Signature {
    /// The name reported with the evidence line.
    pub id: &'static str,
    pub needle: &'static str,
    pub meaning: Meaning,
    /// Matched with exact case: SLURM's `task 0: Out Of Memory` must not
    /// match CUDA's `CUDA error: out of memory`.
    pub exact_case: bool,
}

const fn sig(id: &'static str, needle: &'static str, meaning: Meaning) -> Signature {
    Signature { id, needle, meaning, exact_case: false }
}

const fn exact(id: &'static str, needle: &'static str, meaning: Meaning) -> Signature {
    Signature { id, needle, meaning, exact_case: true }
}

use Meaning::*;
use MemoryKind::{Gpu, Host, JobLimit, Shm};

pub const SIGNATURES: &[Signature] = &[
    // GPU
    sig("pytorch-cuda-oom", "CUDA out of memory", Oom(Gpu)),
    sig("pytorch-oom-error", "OutOfMemoryError", Oom(Gpu)),
    sig("thc-out-of-memory", "error=2 : out of memory", Oom(Gpu)),
    sig("cuda-error-oom", "CUDA error: out of memory", Oom(Gpu)),
    sig("cublas-alloc-failed", "CUBLAS_STATUS_ALLOC_FAILED", Oom(Gpu)),
    sig("nccl-cuda-oom", "Cuda failure 'out of memory'", Oom(Gpu)),
    sig("xpu-oom", "XPU out of memory", Oom(Gpu)),
    sig("mps-oom", "MPS backend out of memory", Oom(Gpu)),
    sig("xla-resource-exhausted", "RESOURCE_EXHAUSTED: Out of memory", Oom(Gpu)),
    sig("xla-failed-to-allocate", "Failed to allocate request for", Oom(Gpu)),
    sig("tf-oom-allocating", "OOM when allocating tensor", Oom(Gpu)),
    sig("tf-internal-oom", "Internal: out of memory", Oom(Gpu)),
    sig("vllm-no-kv-memory", "No available memory for the cache blocks", Oom(Gpu)),
    sig("vllm-kv-too-small", "larger than the maximum number of tokens that can be stored in KV cache", Oom(Gpu)),
    sig("vllm-kv-needed", "KV cache is needed, which is larger than the available KV cache memory", Oom(Gpu)),
    sig("vllm-free-memory", "is less than desired GPU memory utilization", Oom(Gpu)),
    // Host, node-wide
    sig("dataloader-worker-killed", "is killed by signal: Killed", Oom(Host)),
    sig("cpu-allocator", "DefaultCPUAllocator: can't allocate memory", Oom(Host)),
    sig("kernel-oom-kill", "Out of memory: Killed process", Oom(Host)),
    sig("kernel-oom-constraint-none", "constraint=CONSTRAINT_NONE", Oom(Host)),
    sig("torchrun-sigkill", "exitcode: -9", Oom(Host)),
    sig("exit-137", "exit code 137", Oom(Host)),
    sig("exit-status-137", "exit status 137", Oom(Host)),
    sig("k8s-evicted-memory", "low on resource: memory", Oom(Host)),
    // Job or container limits
    sig("slurm-oom-kill-events", "oom_kill event", Oom(JobLimit)),
    sig("slurm-oom-kill-events", "oom-kill event", Oom(JobLimit)),
    sig("slurm-exceeded-step-limit", "exceeded memory limit", Oom(JobLimit)),
    sig("slurm-exceeded-job-limit", "Exceeded job memory limit", Oom(JobLimit)),
    exact("slurm-out-of-memory-state", "OUT_OF_MEMORY", Oom(JobLimit)),
    exact("slurm-task-out-of-memory", ": Out Of Memory", Oom(JobLimit)),
    sig("memcg-oom-kill", "Memory cgroup out of memory", Oom(JobLimit)),
    sig("kernel-oom-constraint-memcg", "constraint=CONSTRAINT_MEMCG", Oom(JobLimit)),
    exact("k8s-oomkilled", "OOMKilled", Oom(JobLimit)),
    // A shell's job report (`line 28:  8156 Killed   python3 main.py`) or a bare
    // `Killed`: SIGKILL, almost always the OOM killer. Checked in context.
    exact("bare-killed", "Killed", Oom(Host)),
    // Shared memory
    sig("dataloader-bus-error", "is killed by signal: Bus error", Oom(Shm)),
    sig("dataloader-shm", "insufficient shared memory", Oom(Shm)),
    sig("dataloader-shm", "out of shared memory", Oom(Shm)),
    sig("dataloader-worker-exited", "exited unexpectedly", Suspect(Shm)),
    sig("nccl-shm-open", "ncclShmOpen", Oom(Shm)),
    // Look-alikes that are not OOM
    sig(
        "cuda-illegal-memory-access",
        "illegal memory access",
        NotOom("an illegal memory access: an out-of-bounds read or write in a kernel, not exhaustion"),
    ),
    sig(
        "cuda-device-side-assert",
        "device-side assert triggered",
        NotOom("a device-side assert: usually an index out of range (e.g. a label >= num_classes)"),
    ),
    sig(
        "nccl-watchdog-timeout",
        "Watchdog caught collective operation timeout",
        NotOom("an NCCL collective timed out: a rank hung or diverged, not memory"),
    ),
    sig("segfault", "Segmentation fault", NotOom("a segmentation fault in native code")),
    sig("segfault", "SIGSEGV", NotOom("a segmentation fault in native code")),
    sig("disk-quota", "disk quota exceeded", NotOom("the disk quota is full (saving a checkpoint), not memory")),
    sig("disk-full", "No space left on device", NotOom("the disk is full, not memory")),
    sig("slurm-time-limit", "DUE TO TIME LIMIT", NotOom("SLURM ended the job at its time limit")),
    sig(
        "no-kernel-image",
        "no kernel image is available",
        NotOom("the PyTorch build does not support this GPU's architecture"),
    ),
    sig(
        "vllm-preempted",
        "is preempted by PreemptionMode",
        NotOom("vLLM preempted a sequence for lack of KV space: a throughput warning, not a failure"),
    ),
    // Figures
    sig("tried-to-allocate", "Tried to allocate", Figure),
    sig("total-capacity", "total capacity", Figure),
    sig("total-capacity", "total capacty", Figure),
    sig("memory-in-use", "memory in use", Figure),
    sig("allocated-by-pytorch", "is allocated by PyTorch", Figure),
    sig("already-allocated", "already allocated", Figure),
    sig("total-vm", "total-vm:", Figure),
    sig("cpu-memory-usage", "CPU memory usage:", Figure),
    sig("model-weights", "Loading model weights took", Figure),
    sig("vllm-profile", "total_gpu_memory=", Figure),
    sig("mps-allocated", "MPS allocated:", Figure),
    sig("you-tried-to-allocate", "you tried to allocate", Figure),
    sig("xla-allocate-bytes", "while trying to allocate", Figure),
    sig("nccl-calloc", "CUDA calloc", Figure),
    sig("printed-memory-allocated", "memory allocated:", Figure),
    sig("tf-tensor-shape", "when allocating tensor", Figure),
    sig("vllm-max-seq-len", "max seq len (", Figure),
    // Phases (the innermost frames come last in a Python traceback)
    sig("phase", "optimizer.step", Phase(Phase::OptimizerStep)),
    sig("phase", "torch/optim/", Phase(Phase::OptimizerStep)),
    sig("phase", "/Adam/", Phase(Phase::OptimizerStep)),
    sig("phase", ".backward(", Phase(Phase::Backward)),
    sig("phase", "run_backward", Phase(Phase::Backward)),
    sig("phase", "in backward", Phase(Phase::Backward)),
    sig("phase", "generate", Phase(Phase::Generation)),
    sig("phase", "Output generated", Phase(Phase::Generation)),
    sig("phase", "sampling", Phase(Phase::Generation)),
    sig("phase", "validation", Phase(Phase::Validation)),
    sig("phase", "evaluate", Phase(Phase::Validation)),
    sig("phase", "Valid (", Phase(Phase::Validation)),
    sig("phase", "in test", Phase(Phase::Validation)),
    sig("phase", "from_pretrained", Phase(Phase::ModelLoad)),
    sig("phase", "load_state_dict", Phase(Phase::ModelLoad)),
    sig("phase", "model.cuda()", Phase(Phase::ModelLoad)),
    sig("phase", "Philox", Phase(Phase::ModelLoad)),
    sig("phase", "Loading model", Phase(Phase::ModelLoad)),
    sig("phase", "vector", Phase(Phase::ModelLoad)),
    sig("phase", "DataLoader worker", Phase(Phase::Dataloader)),
    sig("phase", "_worker_loop", Phase(Phase::Dataloader)),
    sig("phase", "KV cache", Phase(Phase::KvCacheInit)),
    sig("phase", "Memory profiling", Phase(Phase::KvCacheInit)),
    sig("phase", "in forward", Phase(Phase::Forward)),
    sig("phase", "self._model(", Phase(Phase::Forward)),
    sig("phase", "grid_sampler", Phase(Phase::Forward)),
    // Stacks
    sig("stack", "torch", Stack(Stack::Pytorch)),
    sig("stack", "Tried to allocate", Stack(Stack::Pytorch)),
    sig("stack", "THCudaCheck", Stack(Stack::Pytorch)),
    sig("stack", "RuntimeError: CUDA", Stack(Stack::Pytorch)),
    sig("stack", "ProcessGroupNCCL", Stack(Stack::Pytorch)),
    sig("stack", "DataLoader worker", Stack(Stack::Pytorch)),
    sig("stack", "slurmstepd", Stack(Stack::Slurm)),
    sig("stack", "srun:", Stack(Stack::Slurm)),
    sig("stack", "slurm_script", Stack(Stack::Slurm)),
    sig("stack", "sbatch", Stack(Stack::Slurm)),
    sig("stack", "Killed process", Stack(Stack::Linux)),
    sig("stack", "oom-kill:", Stack(Stack::Linux)),
    sig("stack", "exitcode: -9", Stack(Stack::Linux)),
    sig("stack", "is killed by signal: Killed", Stack(Stack::Linux)),
    sig("stack", "lightning", Stack(Stack::Lightning)),
    sig("stack", "deepspeed", Stack(Stack::Deepspeed)),
    sig("stack", "fsdp", Stack(Stack::Fsdp)),
    sig("stack", "FullyShardedDataParallel", Stack(Stack::Fsdp)),
    sig("stack", "_distributed.py", Stack(Stack::Fsdp)),
    sig("stack", "vllm", Stack(Stack::Vllm)),
    sig("stack", "KV cache", Stack(Stack::Vllm)),
    sig("stack", "verl", Stack(Stack::Verl)),
    sig("stack", "jax", Stack(Stack::Jax)),
    sig("stack", "XlaRuntimeError", Stack(Stack::Jax)),
    sig("stack", "tensorflow", Stack(Stack::Tensorflow)),
    sig("stack", "ResourceExhaustedError", Stack(Stack::Tensorflow)),
    sig("stack", "/job:localhost", Stack(Stack::Tensorflow)),
    sig("stack", "GpuLaunchKernel", Stack(Stack::Tensorflow)),
    sig("stack", "kubectl", Stack(Stack::Kubernetes)),
    sig("stack", "OOMKilled", Stack(Stack::Kubernetes)),
    sig("stack", "TFJob", Stack(Stack::Kubernetes)),
    sig("stack", "NCCL", Stack(Stack::Nccl)),
    sig("stack", "barrier()", Stack(Stack::Nccl)),
    sig("stack", "MPS backend", Stack(Stack::Mps)),
    sig("stack", "bitsandbytes", Stack(Stack::Bitsandbytes)),
    sig("stack", "wandb", Stack(Stack::Wandb)),
    sig("stack", "accelerate", Stack(Stack::Accelerate)),
];
