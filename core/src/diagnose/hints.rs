//! Signatures that are not the verdict's proof: warnings that only suggest
//! memory, figures, phases, frames, stacks, failure lines and where the job
//! ran. Part of `signatures::SIGNATURES`.

use super::signature::{exact, sig, word, Boundary, Meaning, Signature};
use crate::diagnose::frames::Frame;
use crate::diagnose::Phase;
use crate::memory::{MemoryKind, Stack};

use Meaning::*;
use MemoryKind::{Gpu, Host};

/// Figures, phases, stacks and context hints: what a line says beside the verdict.
pub(super) const HINTS: &[Signature] = &[
    // Warnings about GPU memory that are not failures: the suspect, not proof.
    sig("vllm-preempted", "is preempted by PreemptionMode", Suspect(Gpu)),
    sig("tf-allocator-warning", "indicates that this is not a failure", Suspect(Gpu)),
    // XLA's "Can't reduce memory use below 10.64GiB ... by rematerialization": the program
    // needs more than the device has, which the allocation may or may not survive.
    sig("xla-remat-warning", "by rematerialization", Suspect(Gpu)),
    // ggml's Metal backend past the GPU's recommended working set: the next
    // allocation may fail or page, but this line itself is a warning.
    sig("metal-working-set-warning", "greater than the recommended max working set", Suspect(Gpu)),
    // TensorFlow 1.x names the op's device on the `[[Node: ...]]` line after its OOM (see
    // reconcile.rs): its own `_device`, not a `recv_device` it copies from (see `matches_here`).
    Signature {
        // TensorFlow's pinned host allocator running out names itself: "Allocator (cuda_host_bfc) ran out of memory".
        also: &["_device=\"/job:localhost/replica:0/task:0/device:CPU:", "(cuda_host_bfc)", "(gpu_host_bfc)"],
        ..sig("tf-node-on-cpu", "_device=\"/job:localhost/replica:0/task:0/cpu:", Context)
    },
    Signature {
        also: &["_device=\"/job:localhost/replica:0/task:0/device:GPU:"],
        ..sig("tf-node-on-gpu", "_device=\"/job:localhost/replica:0/task:0/gpu:", Context)
    },
    // A tool's own guard on host memory: Video Helper Suite's "Memory limit hit after loading 1347 frames".
    sig("memory-limit-hit", "Memory limit hit", Suspect(Host)),
    // Spark refusing to start on a heap below its minimum: "System memory 127729664 must be at
    // least 471859200. Please increase heap size using the --driver-memory option".
    sig("spark-heap-too-small", "Please increase heap size", Suspect(Host)),
    // XLA's pinned host buffer for a transfer: "could not allocate pinned host of size: 4294967296".
    sig("pinned-host-warning", "could not allocate pinned host", Suspect(Host)),
    // Figures
    sig("tried-to-allocate", "Tried to allocate", Figure),
    sig("reserved-in-total", "reserved in total by PyTorch", Figure),
    sig("tf-bfc-limit", "Limit:", Figure),
    // The old wording's parenthesis, broken by a paste: its later figures on a line of their own.
    // (No needle starts with a space: the automaton's prefilter skips ahead by first bytes.)
    sig("old-wording-tail", "cached)", Figure),
    sig("old-wording-tail", "free;", Figure),
    sig("allowed-memory-figures", "Currently allocated", Figure),
    sig("allowed-memory-figures", "Device limit", Figure),
    sig("allowed-memory-figures", "(according to CUDA)", Figure),
    sig("xla-memory-usage", "bytes free,", Figure),
    sig("tpu-hbm-total", "Total hbm usage", Figure),
    sig("tpu-hlo-temp", "HLO temp", Figure),
    sig("tpu-padding", "Extra memory due to padding", Context),
    sig("seff-memory", "Memory Utilized:", Figure),
    sig("seff-memory", "Memory Efficiency:", Figure),
    sig("vllm-concurrency", "Maximum concurrency for", Figure),
    sig("total-capacity", "total capacity", Figure),
    sig("total-capacity", "total capacty", Figure),
    sig("memory-in-use", "memory in use", Figure),
    sig("allocated-by-pytorch", "is allocated by PyTorch", Figure),
    sig("reserved-unallocated", "but unallocated", Figure),
    sig("already-allocated", "already allocated", Figure),
    sig("total-vm", "total-vm:", Figure),
    sig("cpu-memory-usage", "CPU memory usage:", Figure),
    sig("model-weights", "Loading model weights took", Figure),
    sig("model-weights", "Model loading took", Figure),
    sig("vllm-profile", "total_gpu_memory", Figure),
    sig("vllm-kv-cache-memory", "Available KV cache memory:", Figure),
    sig("vllm-kv-cache-tokens", "GPU KV cache size:", Figure),
    sig("vllm-gpu-blocks", "# GPU blocks:", Figure),
    sig("vllm-gpu-blocks", "# cuda blocks:", Figure),
    sig("vllm-max-seq-len", "max_seq_len=", Figure),
    sig("mps-allocated", "MPS allocated:", Figure),
    sig("you-tried-to-allocate", "you tried to allocate", Figure),
    sig("xla-allocate-bytes", "while trying to allocate", Figure),
    sig("xla-buffer-stats", "total allocation:", Figure),
    sig("xla-buffer-stats", "temp allocation:", Figure),
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
    sig("phase", "process_images", Phase(Phase::Generation)),
    sig("phase", "decode_first_stage", Phase(Phase::Generation)),
    // ComfyUI's sampler node.
    sig("phase", "ksampler", Phase(Phase::Generation)),
    sig("phase", "validation", Phase(Phase::Validation)),
    sig("phase", "evaluate", Phase(Phase::Validation)),
    sig("phase", "Valid (", Phase(Phase::Validation)),
    sig("phase", "in test", Phase(Phase::Validation)),
    sig("phase", "from_pretrained", Phase(Phase::ModelLoad)),
    sig("phase", "load_state_dict", Phase(Phase::ModelLoad)),
    sig("phase", "model.cuda()", Phase(Phase::ModelLoad)),
    sig("phase", "Philox", Phase(Phase::ModelLoad)),
    sig("phase", "Loading model", Phase(Phase::ModelLoad)),
    sig("phase", "checkpoint shards", Phase(Phase::ModelLoad)),
    sig("phase", "load_checkpoint", Phase(Phase::ModelLoad)),
    sig("phase", "torch.load", Phase(Phase::ModelLoad)),
    // Word vectors being loaded ("1-dimensional vector ['300']"), not R's own vectors (see matcher.rs).
    word("phase-vector", "vector", Phase(Phase::ModelLoad)),
    // A loader's own name in a traceback or a status line: load_model, load_models, "Loading checkpoint".
    sig("phase", "load_model", Phase(Phase::ModelLoad)),
    sig("phase", "Loading checkpoint", Phase(Phase::ModelLoad)),
    // Weights moving to the device: nn.Module.to()/.cuda() run `_apply`; accelerate places each tensor.
    sig("phase", "._apply(", Phase(Phase::ModelLoad)),
    sig("phase", "set_module_tensor_to_device", Phase(Phase::ModelLoad)),
    // Loaders by their own names: safetensors, vLLM's model_loader, llama.cpp's load_tensors,
    // ComfyUI's loader nodes, "Loading weights/parameters".
    sig("phase", "safe_open(", Phase(Phase::ModelLoad)),
    sig("phase", "model_loader", Phase(Phase::ModelLoad)),
    sig("phase", "load_weights", Phase(Phase::ModelLoad)),
    sig("phase", "load_tensors", Phase(Phase::ModelLoad)),
    sig("phase", "CheckpointLoader", Phase(Phase::ModelLoad)),
    sig("phase", "UNETLoader", Phase(Phase::ModelLoad)),
    sig("phase", "Loading weights", Phase(Phase::ModelLoad)),
    sig("phase", "Loading parameters", Phase(Phase::ModelLoad)),
    // A runtime's check before it loads a model: Ollama's "model requires more system memory".
    sig("phase", "requires more system memory", Phase(Phase::ModelLoad)),
    sig("phase", "DataLoader worker", Phase(Phase::Dataloader)),
    sig("phase", "_worker_loop", Phase(Phase::Dataloader)),
    sig("phase", "_MultiProcessingDataLoaderIter", Phase(Phase::Dataloader)),
    // Windows starts DataLoader workers by spawning Python again.
    sig("phase", "multiprocessing\\spawn.py", Phase(Phase::Dataloader)),
    sig("phase", "KV cache", Phase(Phase::KvCacheInit)),
    sig("phase", "Memory profiling", Phase(Phase::KvCacheInit)),
    sig("phase", "in forward", Phase(Phase::Forward)),
    sig("phase", "self._model(", Phase(Phase::Forward)),
    sig("phase", "grid_sampler", Phase(Phase::Forward)),
    // Frames, read only on traceback lines
    sig("traceback", "File \"", Traceback),
    sig("frame", "cross_entropy", Frame(Frame::CrossEntropy)),
    sig("frame", "log_softmax", Frame(Frame::CrossEntropy)),
    sig("frame", "nll_loss", Frame(Frame::CrossEntropy)),
    sig("frame", "attention", Frame(Frame::Attention)),
    sig("frame", "attn", Frame(Frame::Attention)),
    sig("frame", "embedding", Frame(Frame::Embedding)),
    sig("frame", "embed_tokens", Frame(Frame::Embedding)),
    sig("frame", "optimizer.step", Frame(Frame::OptimizerStep)),
    sig("frame", "torch/optim/", Frame(Frame::OptimizerStep)),
    sig("frame", ".backward(", Frame(Frame::Backward)),
    sig("frame", "run_backward", Frame(Frame::Backward)),
    sig("frame", "generate", Frame(Frame::Generate)),
    sig("frame", "from_pretrained", Frame(Frame::FromPretrained)),
    sig("frame", "load_state_dict", Frame(Frame::FromPretrained)),
    sig("frame", "load_checkpoint", Frame(Frame::FromPretrained)),
    sig("frame", "torch.load", Frame(Frame::TorchLoad)),
    sig("frame", "serialization.py", Frame(Frame::TorchLoad)),
    sig("frame", "collate", Frame(Frame::Collate)),
    // Starting a worker process: fork's ENOMEM is the parent's memory copied per worker.
    sig("frame", "os.fork()", Frame(Frame::ProcessStart)),
    sig("frame", "popen_fork", Frame(Frame::ProcessStart)),
    // Stacks, as whole words
    word("stack", "torch", Stack(Stack::Pytorch)),
    word("stack", "pytorch", Stack(Stack::Pytorch)),
    word("stack", "torchrun", Stack(Stack::Pytorch)),
    sig("stack", "Tried to allocate", Stack(Stack::Pytorch)),
    sig("stack", "THCudaCheck", Stack(Stack::Pytorch)),
    sig("stack", "RuntimeError: CUDA", Stack(Stack::Pytorch)),
    sig("stack", "ProcessGroupNCCL", Stack(Stack::Pytorch)),
    sig("stack", "DataLoader worker", Stack(Stack::Pytorch)),
    sig("stack", "slurmstepd", Stack(Stack::Slurm)),
    sig("stack", "srun:", Stack(Stack::Slurm)),
    sig("stack", "slurm_script", Stack(Stack::Slurm)),
    word("stack", "sbatch", Stack(Stack::Slurm)),
    sig("stack", "Killed process", Stack(Stack::Linux)),
    sig("stack", "oom-kill:", Stack(Stack::Linux)),
    sig("stack", "exitcode: -9", Stack(Stack::Linux)),
    sig("stack", "is killed by signal: Killed", Stack(Stack::Linux)),
    word("stack", "lightning", Stack(Stack::Lightning)),
    word("stack", "deepspeed", Stack(Stack::Deepspeed)),
    word("stack", "fsdp", Stack(Stack::Fsdp)),
    sig("stack", "FullyShardedDataParallel", Stack(Stack::Fsdp)),
    sig("stack", "_distributed.py", Stack(Stack::Fsdp)),
    word("stack", "vllm", Stack(Stack::Vllm)),
    sig("stack", "KV cache", Stack(Stack::Vllm)),
    // Settings only vLLM takes, and its worker's wrapper around an OOM.
    sig("stack", "gpu_memory_utilization", Stack(Stack::Vllm)),
    sig("stack", "Error in model execution", Stack(Stack::Vllm)),
    word("stack", "verl", Stack(Stack::Verl)),
    word("stack", "jax", Stack(Stack::Jax)),
    word("stack", "jaxlib", Stack(Stack::Jax)),
    sig("stack", "XlaRuntimeError", Stack(Stack::Jax)),
    // JAX's XLA prints TensorFlow's C++ paths (external/org_tensorflow/...): the
    // bare word is TensorFlow only when nothing says JAX (see `Diagnoser::finish`).
    word("stack-tensorflow-word", "tensorflow", Stack(Stack::Tensorflow)),
    sig("stack", "org_tensorflow", Stack(Stack::Jax)),
    sig("stack", "tensorflow.python", Stack(Stack::Tensorflow)),
    word("stack", "keras", Stack(Stack::Tensorflow)),
    sig("stack", "ResourceExhaustedError", Stack(Stack::Tensorflow)),
    sig("stack", "/job:localhost", Stack(Stack::Tensorflow)),
    sig("stack", "GpuLaunchKernel", Stack(Stack::Tensorflow)),
    word("stack", "kubectl", Stack(Stack::Kubernetes)),
    sig("stack", "OOMKilled", Stack(Stack::Kubernetes)),
    word("stack", "TFJob", Stack(Stack::Kubernetes)),
    word("stack", "NCCL", Stack(Stack::Nccl)),
    sig("stack", "barrier()", Stack(Stack::Nccl)),
    sig("stack", "MPS backend", Stack(Stack::Mps)),
    word("stack", "bitsandbytes", Stack(Stack::Bitsandbytes)),
    word("stack", "wandb", Stack(Stack::Wandb)),
    word("stack", "accelerate", Stack(Stack::Accelerate)),
    // What failed: an exception (`SomethingError:`, a class name before it), an
    // `error:` line, a FAILED or CANCELLED state, an abort.
    exact("raised", "Error:", Failure),
    exact("raised", "Exception:", Failure),
    // A traceback's last line with no message: `EOFError`, `MemoryError` (see `matches_here`).
    exact("bare-exception", "Error", Failure),
    exact("failure", "error:", Failure),
    exact("failure", "ERROR", Failure),
    exact("failure", "FAILED", Failure),
    exact("failure", "CANCELLED", Failure),
    // Also the shell's abort in translation: "已放弃 (核心已转储)", "Abortado (`core' generado)".
    Signature {
        also: &[
            "核心已转储",
            "core' generado",
            "Speicherabzug geschrieben",
            "core' généré",
            "コアダンプ",
            "образ памяти сброшен",
        ],
        ..sig("failure", "core dumped", Failure)
    },
    sig("failure", "Aborted", Failure),
    // An assertion in native code (Metal's "failed assertion '...'"), a compiler's or
    // build tool's error ("ptxas error   :", "CMake Error at"), a library's "Failed to ...".
    sig("failure", "failed assertion", Failure),
    Signature { boundary: Boundary::Word, ..exact("failure", "assert", Failure) },
    sig("failure", "Exception during", Failure),
    exact("failure", "Error at ", Failure),
    exact("failure", "error   :", Failure),
    exact("failure", "Failed to ", Failure),
    // A runtime's status ("Cuda failure 1 'invalid argument'", "unspecified launch
    // failure"), Kubernetes' probes and back-offs, a cloud API's "An error occurred".
    Signature { also: &["probe failed", "error occurred"], ..word("failure", "failure", Failure) },
    exact("failure", "BackOff", Failure),
    // TFLite's delegate and kernels: "Node number 2 (CONV_2D) failed to prepare".
    sig("failure", "failed to prepare", Failure),
    // A runtime that could not start: "ggml_cuda_init: failed to initialize CUDA: system not yet initialized".
    sig("failure", "failed to initialize", Failure),
    // ggml's and CUDA samples' checks: "CUDA error 9 at ggml-cuda.cu:6863: invalid configuration argument".
    exact("failure", "CUDA error", Failure),
    // Where it ran, and on what
    // The opening of a list of possible causes (Ray's "There are some potential root causes."),
    // which may wrap onto the lines after it.
    sig("cause-list", "potential root cause", Context),
    sig("cause-list", "possible cause", Context),
    sig("cause-list", "could be because", Context),
    word("xla", "XLA", Context),
    sig("xla", "xla/service", Context),
    // Where it ran
    sig("wsl", "microsoft-standard-WSL", Context),
    word("wsl", "WSL", Context),
    sig("windows", ":\\Users\\", Context),
    // macOS: Homebrew's prefix on Apple silicon, the kernel's name.
    sig("macos", "/opt/homebrew/", Context),
    word("macos", "Darwin", Context),
    word("macos", "macOS", Context),
    sig("windows", "site-packages\\", Context),
    word("docker", "docker", Context),
];
