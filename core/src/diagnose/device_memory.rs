//! Signatures that prove or suggest a device's memory ran out: CUDA, HIP/ROCm,
//! MPS and Metal, XPU, TPU HBM, NPUs, Vulkan, OpenCL, DirectML, and the
//! runtimes and libraries that allocate on them. Part of the signature table
//! (`signatures.rs`), first in its order of precedence.

use super::signature::{exact, generic, sig, word, Boundary, Meaning, Signature};
use crate::memory::MemoryKind;

use Meaning::*;
use MemoryKind::{Gpu, Host, Shm};

pub(super) const DEVICE_MEMORY: &[Signature] = &[
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
    // The same status in words (`cublasGetStatusString`, as ggml and XLA print it):
    // "CUDA error: the resource allocation failed ... in function cublas_handle".
    sig("cublas-alloc-failed", "the resource allocation failed", Oom(Gpu)),
    sig("cudnn-alloc-failed", "CUDNN_STATUS_ALLOC_FAILED", Oom(Gpu)),
    // nvJPEG's decoder (DALI): 'NVJPEG error "5" : NVJPEG_STATUS_ALLOCATOR_FAILURE'.
    sig("nvjpeg-alloc-failed", "NVJPEG_STATUS_ALLOCATOR_FAILURE", Oom(Gpu)),
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
    // Its status in TensorFlow 2's spelling: "op_kernel.cc:1733] RESOURCE_EXHAUSTED: failed to allocate memory".
    sig("tf-resource-exhausted", "RESOURCE_EXHAUSTED: failed to allocate memory", OomByContext(Gpu)),
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
    // Rockchip's NPU runtime: "E RKNN: failed to malloc npu memory, size: 1427746880" is printed
    // for any failed buffer ioctl (errno 14 "Bad address" beside it), not only for want of memory.
    sig("rknn-npu-malloc", "failed to malloc npu memory", Suspect(Gpu)),
    // MPS refusing one buffer over the device's per-buffer limit: "RuntimeError: Invalid buffer
    // size: 19.45 GB" (a cap, not memory running out; dev labels read it as a suspicion).
    sig("mps-buffer-cap", "Invalid buffer size:", Suspect(Gpu)),
    // Forge's (stable-diffusion-webui-forge) memory planner before it loads a model:
    // "[Memory Management] Estimated Remaining GPU Memory: -2831.22 MB" — the model does not
    // fit what is free, seen before any failure (LABELLING.md rule 3); it swaps or offloads.
    sig("forge-remaining-negative", "Estimated Remaining GPU Memory: -", Suspect(Gpu)),
    sig("forge-free-gpu", "Current Free GPU Memory:", Figure),
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
    // glog's CHECK on a CUDA call prints the codes it compared: cudaErrorMemoryAllocation is 2
    // ("Check failed: (cudaMalloc(&gpu_ptr_, size_)) == cudaSuccess (2 vs. 0)", Caffe's forks).
    sig("cuda-error-oom", "== cudaSuccess (2 vs. 0)", Oom(Gpu)),
    // XGBoost's device allocator: "Memory allocation error on worker 3: Caching allocator",
    // then "- Free memory: N" and "- Requested memory: N".
    sig("xgboost-device-alloc", "Memory allocation error on worker", Oom(Gpu)),
    // Faiss names the failed call, and CUDA's error only where the build prints it: "Failed to
    // cudaMalloc 4294967296 bytes" alone suggests the device ran out (its "error 2 out of memory" proves it).
    generic("faiss-cudamalloc", "Failed to cudaMalloc", Suspect(Gpu)),
    // The Human library's guess when WebGL loses its context: "possible browser memory leak using webgl".
    sig("webgl-memory-leak-hint", "possible browser memory leak", Suspect(Gpu)),
    // nvdiffrast's check prints the code: "Cuda error: 2[cudaMalloc(&m_gpuPtr, bytes);]".
    sig("cuda-error-oom", "Cuda error: 2[", Oom(Gpu)),
    // Blender Cycles: "System is out of GPU and shared host memory", "System is out of GPU memory".
    sig("cycles-out-of-gpu", "System is out of GPU", Oom(Gpu)),
    // A glog check on a pinned host allocation ("Check failed: cudaSuccess == cudaHostAlloc(&values,
    // ...) (0 vs. 1)"): the code says why, and only 2 says memory ran out.
    generic("pinned-alloc-check", "== cudaHostAlloc(", Suspect(Host)),
    // DeepSpeed's inference kernels: "RuntimeError: Workspace can't be allocated, no enough memory."
    sig("deepspeed-workspace", "Workspace can't be allocated", Oom(Gpu)),
    // TensorFlow's BFC allocator dumps its bins and chunks ("Chunk at 0x7f91c6ddee00 of size 256",
    // "memory_limit_: 5773524992 available bytes: 0") only when an allocation failed: where the
    // paste lost the error line itself, the dump suggests the device's memory.
    // Not gpu_bfc_allocator.cc, which only reads its settings ("Overriding orig_value setting because
    // the TF_FORCE_GPU_ALLOW_GROWTH environment variable is set").
    Signature { boundary: Boundary::Identifier, ..generic("tf-bfc-dump", "bfc_allocator.cc", Suspect(Gpu)) },
];
