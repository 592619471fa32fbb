//! The log signatures the diagnoser recognises: what each one proves (an OOM
//! of some memory, a look-alike that is not an OOM, a figure, a phase, a
//! frame, a stack or a context hint). All are matched at once by one
//! Aho-Corasick automaton, ASCII case-insensitively, so a log is scanned once.

use super::hints::HINTS;
use super::lookalikes::LOOK_ALIKES;
use super::phrases::PHRASES;
use super::signature::{concat, exact, generic, sig, word, Boundary, Meaning, Signature};
use crate::memory::MemoryKind;

/// The word a shell prints for a child killed by SIGKILL (`strsignal(9)`), in
/// the locales people run clusters in: English, Chinese, Japanese, German,
/// French, Spanish, Russian, Portuguese, Korean, Italian. Checked in context
/// (a bare line or a shell job report), see `lines::is_shell_killed`.
pub const KILLED_WORDS: [&str; 10] = [
    "Killed",
    "已杀死",
    "強制終了",
    "Getötet",
    "Processus arrêté",
    "Terminado (killed)",
    "Убито",
    "Morto",
    "죽었음",
    "Ucciso",
];

/// Windows' ERROR_COMMITMENT_LIMIT (1455) in the languages it ships most.
const PAGING_FILE_TOO_SMALL: &[&str] = &[
    "页面文件太小",
    "頁面檔太小",
    "ページング ファイルが小さすぎ",
    "Auslagerungsdatei ist zu klein",
    "fichier de pagination est insuffisant",
    "archivo de paginación es demasiado",
    "Файл подкачки слишком",
    "페이징 파일이 너무 작",
];

use Meaning::*;
use MemoryKind::{Gpu, Host, JobLimit, Shm};

/// Every signature, in order of precedence on a line: the memories, the
/// look-alikes (`lookalikes.rs`), the context, then the weak readings of
/// messages no table lists (`phrases.rs`).
pub const SIGNATURES: &[Signature] = &concat::<{ MEMORY.len() + LOOK_ALIKES.len() + HINTS.len() + PHRASES.len() }>([
    MEMORY,
    LOOK_ALIKES,
    HINTS,
    PHRASES,
]);

/// Proof or suspicion of each memory running out.
const MEMORY: &[Signature] = &[
    // GPU
    sig("pytorch-cuda-oom", "CUDA out of memory", Oom(Gpu)),
    sig("pytorch-hip-oom", "HIP out of memory", Oom(Gpu)),
    // Trainers that catch the CUDA OOM and go on (fairseq, Lightning-based codes):
    // "WARNING: ran out of memory, skipping batch".
    sig("oom-skipping-batch", "out of memory, skipping batch", Oom(Gpu)),
    // torch's OutOfMemoryError, also where only its class name stands (IPython's traceback
    // header, Ray's "RayTaskError(OutOfMemoryError)"); Java's names its heap, OpenCV's has its own.
    generic("out-of-memory-error", "OutOfMemoryError", OomByContext(Gpu)),
    sig("thc-out-of-memory", "error=2 : out of memory", Oom(Gpu)),
    sig("cuda-error-oom", "CUDA error: out of memory", Oom(Gpu)),
    sig("cuda-error-oom", "cudaErrorMemoryAllocation", Oom(Gpu)),
    sig("cuda-error-oom", "CUDA_ERROR_OUT_OF_MEMORY", Oom(Gpu)),
    // Old ROCm: hipErrorMemoryAllocation is 1002 ("failed to allocate 7.35G (7889485824 bytes) from device: hipError_t(1002)").
    sig("cuda-error-oom", "hipError_t(1002)", Oom(Gpu)),
    sig("cuda-error-oom", "hipErrorOutOfMemory", Oom(Gpu)),
    // PaddlePaddle: "Out of memory error on GPU 0. Cannot allocate 25.00MB memory on GPU 0, available memory is only 15.19MB."
    sig("paddle-oom", "Out of memory error on GPU", Oom(Gpu)),
    // PyTorch's allocator under a memory fraction (TGI's warm-up): "Allocation on device 0 would exceed allowed memory."
    sig("allowed-memory", "exceed allowed memory", Oom(Gpu)),
    // DirectML (torch-directml): "Could not allocate tensor with N bytes. There is not enough GPU video memory available!"
    sig("directml-oom", "GPU video memory", Oom(Gpu)),
    // torch-directml's heap: "[W dml_heap_allocator.cc:97] DML allocator out of memory!" (a device heap, not Java's).
    sig("directml-oom", "DML allocator out of memory", Oom(Gpu)),
    // ONNX Runtime's arena, almost always the CUDA execution provider's.
    sig("ort-arena", "for requested buffer of size", OomByContext(Gpu)),
    // ggml (llama.cpp, Ollama): "failed to allocate CUDA0 buffer of size 882903040", and the
    // cudaMalloc line before it; their OOM is read from "out of memory" on the same lines.
    sig("buffer-of-size", "buffer of size", Figure),
    // ggml's buffer that could not be had, in the backend the line names
    // ("ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size"); see `matches_here`.
    sig("alloc-buffer-failed", "buffer of size", OomByContext(Gpu)),
    sig("ggml-cuda-malloc", "cudaMalloc failed", Figure),
    // Rust servers (candle, mistral.rs): `DriverError(CUDA_ERROR_OUT_OF_MEMORY, …)` is covered above.
    sig("hip-error-oom", "hipErrorOutOfMemory", Oom(Gpu)),
    sig("cublas-alloc-failed", "CUBLAS_STATUS_ALLOC_FAILED", Oom(Gpu)),
    sig("cudnn-alloc-failed", "CUDNN_STATUS_ALLOC_FAILED", Oom(Gpu)),
    sig("nccl-cuda-oom", "'out of memory'", Oom(Gpu)),
    sig("xpu-oom", "XPU out of memory", Oom(Gpu)),
    sig("mps-oom", "MPS backend out of memory", Oom(Gpu)),
    sig("xla-resource-exhausted", "RESOURCE_EXHAUSTED: Out of memory", Oom(Gpu)),
    // XLA's own wording without the status in front (EXLA's "(RuntimeError) Out of memory while
    // trying to allocate N bytes."), and its status cut after the code ("Execution of replica 0
    // failed: RESOURCE_EXHAUSTED:"): a device's memory unless the line names the host.
    sig("xla-resource-exhausted", "Out of memory while trying to allocate", OomByContext(Gpu)),
    sig("xla-resource-exhausted", "failed: RESOURCE_EXHAUSTED", OomByContext(Gpu)),
    // NCCL 1's "NCCL Init failed (10) 'cuda malloc failed'": its buffers did not fit, or it failed for another reason.
    sig("nccl-cuda-malloc", "'cuda malloc failed'", Suspect(Gpu)),
    sig("xla-resource-exhausted", "Resource exhausted: Out of memory", Oom(Gpu)),
    // TensorFlow 1.x's session error without a shape: "Resource exhausted: failed to allocate memory".
    sig("tf-resource-exhausted", "Resource exhausted: failed to allocate memory", OomByContext(Gpu)),
    // ROCm's MIOpen: "Memory not available to allocate buffer: 528515072".
    sig("miopen-buffer", "Memory not available to allocate buffer", Oom(Gpu)),
    // MLX on Metal: "[metal::malloc] Attempting to allocate 48736917632 bytes which is greater
    // than the maximum allowed buffer size of 30150672384 bytes."
    sig("metal-max-buffer", "greater than the maximum allowed buffer size", Oom(Gpu)),
    sig("xla-failed-to-allocate", "Failed to allocate request for", Oom(Gpu)),
    // Any of the TPU's memory spaces: hbm, vmem (a core's vector memory), smem.
    sig("tpu-hbm-oom", "Ran out of memory in memory space", Oom(Gpu)),
    // TPU runtime: "Attempting to reserve 5.23G at the bottom of memory. That was not possible."
    sig("tpu-hbm-oom", "That was not possible", OomByContext(Gpu)),
    // XLA's HBM breakdown is printed for an OOM: without its error line, a suspicion.
    sig("tpu-hbm-report", "Program hbm requirement", Suspect(Gpu)),
    // TensorFlow's hint after a ResourceExhaustedError: "If you want to see a list of allocated
    // tensors when OOM happens, add report_tensor_allocations_upon_oom to RunOptions".
    sig("tf-oom-hint", "report_tensor_allocations_upon_oom", Suspect(Gpu)),
    sig("tf-oom-allocating", "OOM when allocating tensor", OomByContext(Gpu)),
    sig("tf-internal-oom", "Internal: out of memory", Oom(Gpu)),
    // TensorFlow's BFC allocator running out (LABELLING.md rule 2.1), unless the same
    // message goes on "The caller indicates that this is not a failure" (signature::refined).
    sig("tf-bfc-ran-out", "ran out of memory trying to allocate", Oom(Gpu)),
    // cuDNN says its workspace did not fit; TensorFlow's copy to the GPU fails when the
    // GPU is already full. (cuDNN and cuBLAS failing to start at all: `gpu-library-start`.)
    sig("cudnn-workspace", "CUDNN_STATUS_NOT_ENOUGH_WORKSPACE", Suspect(Gpu)),
    sig("tf-dst-tensor", "Dst tensor is not initialized", Suspect(Gpu)),
    // Warnings of GPU memory pressure while the run goes on: DeepSpeed's "N pytorch allocator
    // cache flushes since last step" (and its advice's tail), a trainer's "CUDA memory allocation retries".
    Signature {
        also: &["flush their caches at the same time", "memory allocation retries"],
        ..sig("allocator-pressure", "allocator cache flushes", Suspect(Gpu))
    },
    Signature {
        also: &["not enough VRAM", "not enough device memory", "Insufficient VRAM", "insufficient GPU memory"],
        ..sig("not-enough-gpu-memory", "not enough GPU memory", Oom(Gpu))
    },
    sig("vllm-no-kv-memory", "No available memory for the cache blocks", Oom(Gpu)),
    sig("vllm-kv-too-small", "tokens that can be stored in KV cache", Oom(Gpu)),
    sig("vllm-kv-needed", "than the available KV cache memory", Oom(Gpu)),
    sig("vllm-free-memory", "less than desired GPU memory", Oom(Gpu)),
    sig("vllm-zero-blocks", "# GPU blocks: 0", Oom(Gpu)),
    sig("vllm-zero-blocks", "# cuda blocks: 0", Oom(Gpu)),
    sig("vllm-negative-kv", "reserved for KV Cache is -", Oom(Gpu)),
    // PyTorch's old parenthesis, "(GPU 0; 1.96 GiB total capacity; ...", pasted without its first words.
    sig("old-wording-capacity", "total capacity;", Oom(Gpu)),
    // CuPy's pool (Chainer, CuPy code): "out of memory to allocate 163840000 bytes (total 1673061376 bytes)",
    // newer "Out of memory allocating 1,024 bytes (allocated so far: 0 bytes)".
    sig("cupy-oom", "out of memory to allocate", Oom(Gpu)),
    sig("cupy-oom", "(allocated so far:", Oom(Gpu)),
    // Apple's Metal (MLX, Swift): "Command buffer execution failed: Insufficient Memory
    // (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)", "Insufficient Memory (IOAF code 8)".
    sig("metal-oom", "execution failed: Insufficient Memory", Oom(Gpu)),
    sig("metal-oom", "CallbackErrorOutOfMemory", Oom(Gpu)),
    // Vulkan's result codes (Isaac Sim, llama.cpp's Vulkan backend).
    sig("vulkan-oom", "ERROR_OUT_OF_DEVICE_MEMORY", Oom(Gpu)),
    sig("vulkan-oom", "ERROR_OUT_OF_HOST_MEMORY", Oom(Host)),
    // ncnn's Vulkan apps (Upscayl, Real-ESRGAN, waifu2x) print the bare VkResult:
    // "vkAllocateMemory failed -2" (-2 is out of device memory, -1 out of host memory).
    word("vulkan-oom", "vkAllocateMemory failed -2", Oom(Gpu)),
    word("vulkan-oom", "vkAllocateMemory failed -1", Oom(Host)),
    // Vulkan-Hpp's spelling: "vk::Device::allocateMemory: ErrorOutOfDeviceMemory".
    exact("vulkan-oom", "ErrorOutOfDeviceMemory", Oom(Gpu)),
    // AWS Neuron's runtime ("TDRV:dmem_alloc_internal Failed to alloc DEVICE memory: 180355072") and
    // Habana's ("FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::268435456").
    sig("neuron-device-alloc", "Failed to alloc DEVICE memory", Oom(Gpu)),
    sig("neuron-device-alloc", "NRT allocation failed", Oom(Gpu)),
    sig("habana-devmem", "PT_DEVMEM Allocation failed", Oom(Gpu)),
    // Intel's Level Zero / SYCL: "UR_RESULT_ERROR_OUT_OF_RESOURCES", "PI_ERROR_OUT_OF_RESOURCES":
    // often the device memory, not always. Not ROCm's HSA_STATUS_ERROR_OUT_OF_RESOURCES, whose
    // text names queues, threads and events ("failed to allocate the necessary resources").
    Signature {
        also: &["PI_ERROR_OUT_OF_RESOURCES"],
        ..sig("intel-out-of-resources", "UR_RESULT_ERROR_OUT_OF_RESOURCES", Suspect(Gpu))
    },
    exact("vulkan-oom", "ErrorOutOfHostMemory", Oom(Host)),
    sig("metal-oom", "(IOAF code 8)", Oom(Gpu)),
    // DirectML: a failed D3D12 CreateCommittedResource is the device heap refusing a buffer.
    sig("d3d12-create-resource", "CreateCommittedResource", Suspect(Gpu)),
    // PaddlePaddle 1.x: "Expected allocating <= available, but received allocating:5403593101 > available:5300944640."
    sig("paddle-allocating", "Expected allocating <= available", Oom(Gpu)),
    // joblib's loky: "The exit codes of the workers are {SIGKILL(-9)}": the OOM killer, as for DataLoader workers.
    sig("joblib-worker-sigkill", "workers are {SIGKILL", Oom(Host)),
    Signature { boundary: Boundary::Identifier, ..sig("arrow-memory-error", "ArrowMemoryError", Oom(Host)) },
    // Ray's object store: "System memory request exceeds memory available in /dev/shm. The request is for N bytes".
    sig("ray-shm-request", "exceeds memory available in /dev/shm", Oom(Shm)),
    // Ray's object store refusing a put: "Failed to put object ... in object store because it is
    // full. Object size is N bytes." (ObjectStoreFullError; its plasma status gives the capacity).
    sig("ray-object-store-full", "in object store because it is full", Oom(Host)),
    sig("plasma-capacity", "(global lru) capacity:", Figure),
    // TensorRT's builder: "[E] 2: [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory".
    sig("tensorrt-oom", "Error Code 2: OutOfMemory", Oom(Gpu)),
    // MindSpore's device pool (Ascend, GPU): "TotalUsedMemStatistics : N plus ... alloc size : N
    // is more than total mem size : N".
    sig("mindspore-device-pool", "is more than total mem size", Oom(Gpu)),
    // PaddlePaddle Fluid's GPU allocator check: "enforce allocating <= available failed, N > M".
    sig("paddle-gpu-enforce", "allocating <= available", Oom(Gpu)),
    // OpenCL's CL_MEM_OBJECT_ALLOCATION_FAILURE (-4): "CL error code -4: Memory object allocation failure".
    Signature {
        also: &["CL_MEM_OBJECT_ALLOCATION_FAILURE"],
        ..sig("opencl-allocation-failure", "Memory object allocation failure", Oom(Gpu))
    },
    // Ray's plasma store before ObjectStoreFullError: "PlasmaStoreFull: object does not fit in the plasma store".
    sig("ray-object-store-full", "PlasmaStoreFull", Oom(Host)),
    sig("tensorrt-requested", "Requested amount of GPU memory (", Figure),
    // SGLang's start-up check on its KV pool: "Not enough memory. Please try to increase --mem-fraction-static."
    sig("sglang-mem-fraction", "increase --mem-fraction-static", Oom(Gpu)),
    // PyTorch 2.1's allocator asks NVML for the process list only while it builds the OOM
    // message; where NVML is refused (MIG slices) the assert replaces the message, so
    // the log no longer shows the exhaustion itself: a suspect (LABELLING.md rule 3).
    sig("nvml-assert-in-oom", "NVML_SUCCESS == r INTERNAL ASSERT", Suspect(Gpu)),
    // GCC and other tools built on xmalloc: "virtual memory exhausted: Cannot allocate memory".
    sig("virtual-memory-exhausted", "virtual memory exhausted", Oom(Host)),
    // Any other wording: the line's own words say which memory.
    generic("out-of-memory", "out of memory", OomByContext(Host)),
    generic("cannot-allocate-memory", "Cannot allocate memory", OomByContext(Host)),
    // ENOMEM's text where the C library speaks the user's language (Chinese, Japanese,
    // Russian, French, Spanish): "could not map anonymous shared memory: 无法分配内存".
    Signature {
        also: &[
            "メモリを確保できません",
            "Невозможно выделить память",
            "Impossible d'allouer de la mémoire",
            "No se puede asignar memoria",
        ],
        ..generic("cannot-allocate-memory", "无法分配内存", OomByContext(Host))
    },
    // Also with the memory named: "Not enough host memory available" (SGLang's host KV cache).
    Signature {
        also: &["not enough host memory", "not enough system memory", "not enough CPU memory", "not enough RAM"],
        ..generic("not-enough-memory", "not enough memory", OomByContext(Host))
    },
    // More ways runtimes say it (C libraries, R, Windows, TensorRT, bison).
    generic("insufficient-memory", "insufficient memory", OomByContext(Host)),
    generic("memory-exhausted", "memory exhausted", OomByContext(Host)),
    // PhysX writes it in the present tense: "PxgCudaDeviceMemoryAllocator fail to allocate memory 100663296 bytes!!".
    Signature {
        also: &["fail to allocate memory"],
        ..generic("failed-to-allocate-memory", "failed to allocate memory", OomByContext(Host))
    },
    generic("memory-allocation-failed", "memory allocation failed", OomByContext(Host)),
    generic("could-not-allocate-memory", "could not allocate memory", OomByContext(Host)),
    // R: "Error: cannot allocate vector of size 2.5 Gb".
    sig("r-cannot-allocate-vector", "cannot allocate vector of size", Oom(Host)),
    Signature { exact_case: true, boundary: Boundary::Word, ..generic("oom-word", "OOM", OomByContext(Host)) },
    // CPython's fatal error names them in the plural: "Cannot recover from MemoryErrors while normalizing exceptions."
    Signature {
        boundary: Boundary::Identifier,
        also: &["MemoryErrors"],
        ..generic("python-memory-error", "MemoryError", OomByContext(Host))
    },
    generic("cpp-bad-alloc", "std::bad_alloc", OomByContext(Host)),
    // MSVC's std::bad_alloc::what(): "Status Message: bad allocation".
    Signature { boundary: Boundary::Word, ..generic("cpp-bad-alloc", "bad allocation", OomByContext(Host)) },
    generic("oom-killed", "OOM-killed", OomByContext(Host)),
    generic("oom-killed", "OOM killed", OomByContext(Host)),
    // Rust's allocation failure (tokenizers, Rust servers): "memory allocation of 2097152 bytes failed".
    sig("rust-alloc-failed", "bytes failed", OomByContext(Host)),
    // Host, node-wide
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
    // Ray's account of a dead actor lists the OOM killer first among its possible causes.
    sig("ray-actor-died-oom-cause", "killed by SIGKILL by OOM killer", Suspect(Host)),
    // Hugging Face datasets' map with num_proc: "One of the subprocesses has abruptly died
    // during map operation", usually a worker the OOM killer took.
    sig("datasets-map-worker-died", "abruptly died", Suspect(Host)),
    // concurrent.futures' BrokenProcessPool: "A process in the process pool was terminated
    // abruptly while the future was running or pending": the same death, in the standard library.
    sig("process-pool-broken", "terminated abruptly", Suspect(Host)),
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
    // Job or container limits
    sig("slurm-oom-kill-events", "oom_kill event", Oom(JobLimit)),
    sig("slurm-oom-kill-events", "oom-kill event", Oom(JobLimit)),
    sig("slurm-exceeded-step-limit", "exceeded memory limit", Oom(JobLimit)),
    // Docker's event stream: "2019-05-04T18:05:45.011Z container oom 29d72966e0be… (image=…)".
    exact("docker-container-oom", "container oom ", Oom(JobLimit)),
    // A platform's container limit in its own words: Hugging Face Spaces' "Memory limit exceeded (30G)".
    sig("memory-limit-exceeded", "Memory limit exceeded", Oom(JobLimit)),
    // Cloud Run's "Memory limit of 2048M exceeded with 2126M used" (see `matches_here`).
    sig("memory-limit-of-exceeded", "Memory limit of", Oom(JobLimit)),
    // Heroku's dyno quota: R15 "Memory quota vastly exceeded" kills; R14 "Memory quota exceeded" swaps and goes on.
    sig("heroku-r15", "Memory quota vastly exceeded", Oom(JobLimit)),
    sig("heroku-r14", "Memory quota exceeded", Suspect(JobLimit)),
    sig("slurm-exceeded-job-limit", "Exceeded job memory limit", Oom(JobLimit)),
    // "slurmstepd: Exceeded step memory limit at some point": the cgroup touched its limit
    // (page cache counts) without necessarily killing anything.
    sig("slurm-limit-touched", "memory limit at some point", Suspect(JobLimit)),
    // sacct cuts the state to its column's width: "OUT_OF_ME+".
    Signature {
        boundary: Boundary::Identifier,
        also: &["OUT_OF_ME+"],
        ..exact("slurm-out-of-memory-state", "OUT_OF_MEMORY", Oom(JobLimit))
    },
    // srun's step report: "srun: error: c002: task 0: Killed": a launcher's SIGKILL
    // (LABELLING.md rule 2.4); the job's limit only where the log names it.
    exact("srun-task-killed", ": Killed", Oom(Host)),
    exact("slurm-task-out-of-memory", ": Out Of Memory", Oom(JobLimit)),
    // YARN (Spark, TonY): "Container killed by YARN for exceeding memory limits. 7.2 GB of 4.2 GB virtual memory used".
    sig("yarn-memory-limit", "killed by YARN for exceeding memory limits", Oom(JobLimit)),
    // The NodeManager's own diagnostics: "Container [pid=40959,...] is running beyond virtual
    // memory limits. Current usage: 76.1 MB of 2 GB physical memory used; ... Killing container."
    Signature {
        also: &["is running beyond physical memory limits"],
        ..sig("yarn-memory-limit", "is running beyond virtual memory limits", Oom(JobLimit))
    },
    sig("memcg-oom-kill", "Memory cgroup out of memory", Oom(JobLimit)),
    sig("memcg-usage-limit", "memory: usage", Figure),
    // PBS and LSF name their memory kills too.
    // "PBS: job killed: vmem 3372163072 exceeded limit 2147483648", for any of PBS's memory resources.
    Signature {
        also: &["job killed: vmem", "job killed: pmem", "job killed: pvmem"],
        ..sig("pbs-mem-exceeded", "job killed: mem", Oom(JobLimit))
    },
    // Moab's hard limit kills: "job 3132467 exceeded MEM usage hard limit (2528 > 1126)".
    sig("moab-hard-limit", "MEM usage hard limit", Oom(JobLimit)),
    // Grid Engine's abort mail: "failed execd enforced h_vmem limit because:".
    sig("sge-h-vmem", "enforced h_vmem limit", Oom(JobLimit)),
    sig("lsf-memlimit", "TERM_MEMLIMIT", Oom(JobLimit)),
    // Torque: "Job exceeded a memory resource limit (vmem, pvmem, etc.). Job was aborted".
    sig("torque-mem-limit", "a memory resource limit", Oom(JobLimit)),
    sig("torque-resources", "resources_used.", Figure),
    sig("torque-resources", "memory.0=", Figure),
    // HTCondor holds the job instead of killing it.
    sig("htcondor-memory-hold", "due to memory usage", Oom(JobLimit)),
    sig("htcondor-memory-hold", "exceeded request_memory", Oom(JobLimit)),
    sig("htcondor-memory-hold", "gone over memory limit", Oom(JobLimit)),
    // Moab warns at a soft limit: the job was not killed.
    sig("moab-soft-limit", "usage soft limit", Suspect(JobLimit)),
    sig("kernel-oom-constraint-memcg", "constraint=CONSTRAINT_MEMCG", Oom(JobLimit)),
    // "OOMKilled" in a pod's state, "OOMKill" in a restart reason, and the
    // kubelet's first spelling of the reason, "reason": "OOM Killed".
    Signature { also: &["\"OOM Killed\""], ..exact("k8s-oomkilled", "OOMKill", Oom(JobLimit)) },
    // The state's name as a word in any case, as people retype it: "got oomkilled", "due to OOMKIlled".
    Signature { boundary: Boundary::Word, ..sig("k8s-oomkilled", "OOMKilled", Oom(JobLimit)) },
    // A shell's job report (`line 28:  8156 Killed   python3 main.py`) or a bare
    // `Killed`, in any of its translations: SIGKILL, almost always the OOM killer.
    Signature { also: KILLED_WORDS.split_at(1).1, ..exact("bare-killed", KILLED_WORDS[0], Oom(Host)) },
    // Shared memory
    sig("dataloader-bus-error", "is killed by signal: Bus error", Oom(Shm)),
    sig("dataloader-shm", "insufficient shared memory", Oom(Shm)),
    sig("dataloader-shm", "out of shared memory", Oom(Shm)),
    sig("dataloader-worker-exited", "exited unexpectedly", Suspect(Shm)),
    // A worker that could not open a tensor's /torch_<pid> segment: /dev/shm full, or its file limit.
    sig("shm-object-open", "unable to open shared memory object", Suspect(Shm)),
    // nnU-Net's batchgenerators: "One or more background workers are no longer alive", the same death.
    sig("dataloader-worker-exited", "background workers are no longer alive", Suspect(Shm)),
    sig("nccl-shm-open", "ncclShmOpen", Oom(Shm)),
    // NCCL sizes its /dev/shm segments with posix_fallocate (shm.h): "No space left" there is /dev/shm.
    sig("nccl-shm-open", "Call to posix_fallocate failed", Oom(Shm)),
    sig("shm-segment", "creating shared memory segment", Oom(Shm)),
    // Triton's Python backend: "Unable to initialize shared memory key '...'", "Failed to increase the
    // shared memory pool size for key ... to N bytes"; a full /dev/shm when the line says so.
    sig("triton-shm", "shared memory key", Suspect(Shm)),
    sig("triton-shm", "shared memory pool size", Suspect(Shm)),
    // df's row for a full /dev/shm: "shm  64M  64M  0 100% /dev/shm".
    sig("df-shm-full", "100% /dev/shm", Suspect(Shm)),
    // pandarallel passes data through /dev/shm: "Pandarallel will use Memory file system".
    sig("memory-file-system", "Memory file system", Context),
    // NCCL's "Call to shm_open failed : Permission denied" (see reconcile.rs).
    sig("shm-permission-denied", "shm_open failed : Permission denied", Context),
    // A runtime that goes on another way after an OOM (see reconcile.rs). Not "falling
    // back to": Ray's object store falls back to disk and the job still dies.
    sig("oom-fallback", "retrying without", Fallback),
    // TensorRT's builder skips a tactic whose workspace did not fit and tries the others.
    sig("oom-fallback", "Skipping tactic", Fallback),
    // LMCache's connector skips storing what did not fit: "The KV cache will not be stored."
    sig("oom-fallback", "will not be stored", Fallback),
    // A tool that says /dev/shm has no room: pandarallel's "you don't have enough available space in `dev/shm`".
    sig("shm-no-space", "enough available space in `dev/shm`", Oom(Shm)),
    // Spark's MemoryStore cannot cache a block in the executor's memory: a warning, the job goes on.
    sig("spark-memorystore", "Not enough space to cache", Suspect(Host)),
    // PyTorch's shared-memory tensors live in /dev/shm as /torch_<pid>_<n>: a full
    // /dev/shm reads "No space left on device" there, which is not the disk.
    sig("torch-shm-file", "unable to write to file </torch_", Suspect(Shm)),
    // Ray's warning at start-up: a small /dev/shm (a container's 64 MB) slows it, and runs out first.
    // Its second half too, for a terminal that wrapped the first ("... using /tmp instead\n  of /dev/shm
    // because /dev/shm has only 5368709120 bytes available").
    Signature {
        also: &["because /dev/shm has only"],
        ..sig("ray-shm-fallback", "/tmp instead of /dev/shm", Suspect(Shm))
    },
];
