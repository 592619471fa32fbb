//! Reading the message itself: translated and other runtimes' wordings and
//! which memory it names (how it was rendered into the paste: rendering.rs;
//! the figures, phase and fixes it leads to: figures_and_fixes.rs).

use super::{corpus, gib, ids, read_as};
use headroom_core::memory::{MemoryKind, Stack};

#[test]
fn shared_memory_named_by_the_failing_line() {
    // MPI's transport: "Unable to allocate shared memory for intra-node messaging."
    let r = corpus("intel-caffe224-mpi-unable-to-allocate-shared-memory-dev-shm");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Shm));
    // PostgreSQL's anonymous shared mapping is RAM and swap, not /dev/shm.
    let r = corpus("tbase153-could-not-map-anonymous-shared-memory-chinese-enomem");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
}

#[test]
fn msvcs_bad_alloc_in_its_own_words() {
    // ONNX Runtime on Windows: "Status Message: bad allocation" is std::bad_alloc's what().
    let r = corpus("onnxruntime16305-fusedmatmul-status-bad-allocation-api-misuse");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
}

#[test]
fn windows_paging_file_in_english_and_chinese() {
    let r = corpus("yolov5-11418-winerror1455-tqdm-glued-traceback");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
    assert!(r.fixes[0].detail.contains("paging file"), "{:?}", r.fixes[0]);
    // Only the localized text: "DLL load failed: 页面文件太小，无法完成操作。"
    let r = corpus("hyperlpr49-chinese-dll-load-failed-paging-file");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
}

#[test]
fn allocator_formats_beyond_the_classic_message() {
    let hip = corpus("pt138002-hip-oom-fragmentation-comfyui");
    assert_eq!((hip.oom, hip.memory), (true, MemoryKind::Gpu));
    let mps = corpus("pt152351-mps-hf-trainer-backward-cut");
    assert_eq!((mps.oom, mps.memory), (true, MemoryKind::Gpu));
    assert!(mps.stack.contains(&Stack::Mps));
    // A memory-fraction cap: "… X allowed; …".
    let capped = corpus("tgi3105-gemma3-30gib-request-allowed-clause");
    assert_eq!((capped.oom, capped.memory), (true, MemoryKind::Gpu));
    assert!(capped.numbers.max_allowed.is_some(), "{:?}", capped.numbers);
}

#[test]
fn shared_memory_behind_nccls_generic_system_error() {
    // "unhandled system error" … "Last error: Error while creating shared memory segment /dev/shm/nccl-… (size 7340384)"
    let r = corpus("torchtitan853-unhandled-system-error-shm-16mb");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Shm));
    assert_eq!(r.numbers.requested, Some(7_340_384));
    assert_eq!(r.fixes[0].id, "bigger_shm");
}

#[test]
fn allocator_messages_of_other_runtimes() {
    // ONNX Runtime: "BFCArena::AllocateRawInternal Failed to allocate memory for requested buffer of size 939524096"
    let ort = corpus("ort16307-bfcarena-failed-to-allocate-reducesum-cuda-ep");
    assert_eq!((ort.oom, ort.memory, ort.numbers.requested), (true, MemoryKind::Gpu, Some(939_524_096)));
    // ROCm TensorFlow: "failed to allocate 7.35G (7889485824 bytes) from device: hipError_t(1002)"
    let hip = corpus("rocmtf82-hiperror1002-preallocation-other-process-vega");
    assert_eq!((hip.oom, hip.memory, hip.numbers.requested), (true, MemoryKind::Gpu, Some(7_889_485_824)));
    // PaddlePaddle: "Cannot allocate 25.002197MB memory on GPU 0, available memory is only 15.187500MB."
    let paddle = corpus("paddleocr1505-gunicorn-13-workers-gpu0-resource-exhausted");
    assert_eq!((paddle.numbers.requested, paddle.numbers.free), (Some(26_216_704), Some(15_925_248)));
    // DirectML: "Could not allocate tensor with 377487360 bytes. There is not enough GPU video memory available!"
    let dml = corpus("amdgpu38-directml-could-not-allocate-in-wrong-template-field");
    assert_eq!((dml.oom, dml.memory, dml.numbers.requested), (true, MemoryKind::Gpu, Some(377_487_360)));
    // PyTorch under a memory fraction, escaped inside TGI's Rust panic: "Currently allocated     : 16.08 GiB\nRequested ..."
    let tgi = corpus("tgi563-rust-panic-warmup-allocation-exceeds-allowed-memory");
    assert_eq!((tgi.numbers.allocated_by_pytorch, tgi.numbers.capacity), (Some(gib(16.08)), Some(gib(22.20))));
    assert_eq!(tgi.numbers.requested, Some(gib(4.83)));
}

#[test]
fn cloud_notebooks_ray_and_reflowed_allocator_messages() {
    // Colab's dialog, quoted in prose: "Your session crashed after using all available RAM."
    let colab = corpus("dallemini207-colab-pro-session-crashed-after-replicate-params");
    assert_eq!((colab.oom, colab.memory, ids(&colab)[0]), (true, MemoryKind::Host, "more_host_mem_request"));
    assert!(colab.fixes[0].detail.contains("High-RAM"));
    // Ray's raylet, its lines hard-wrapped: "2 Workers (tasks / actors) killed due to memory pressure (OOM)".
    let ray = corpus("vllm1160-raylet-oom-syslog-escapes-hard-wrapped");
    assert_eq!((ray.oom, ray.memory, ids(&ray)[0]), (true, MemoryKind::Host, "other"));
    // Ray's start-up warning that /dev/shm has 64 MB: a suspect, and the fix is a bigger /dev/shm.
    let shm = corpus("llmaz238-ray-object-store-tmp-fallback-dev-shm-64mb-warning");
    assert_eq!((shm.oom, shm.memory, ids(&shm)[0]), (false, MemoryKind::Shm, "bigger_shm"));
    // Reflowed one figure a line, without the pid: "Process has 22.29 GiB memory in use."
    let reflowed = corpus("opendm11-fsdp-init-shard-clone-oom-4090d-reflowed");
    assert_eq!(reflowed.numbers.process_in_use, Some(gib(22.29)));
    // Hard-wrapped at 80 columns: "and 177.74 MiB is reserved by PyTorch but unallocated." on a line of its own.
    let wrapped = corpus("everyvoice178-srun-cuda-oom-hard-wrapped-80-cols-capacty");
    assert_eq!(wrapped.numbers.reserved_unallocated, Some((177.74 * 1048576.0_f64).round() as u64));
    // A Windows fail-fast exit is a crash, not memory.
    let crash = corpus("ollama7031-runner-exit-0xc0000409-fixed-by-update");
    assert_eq!((crash.oom, crash.memory, ids(&crash)[0]), (false, MemoryKind::None, "not_oom_fix"));
}

#[test]
fn nccls_shared_memory_reads_like_a_full_disk() {
    // "include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device".
    let r = corpus("nccl290-horovod-ngc-container-posix-fallocate");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Shm));
    assert_eq!(r.fixes[0].id, "bigger_shm");
}

#[test]
fn allocators_beyond_pytorchs_first_words() {
    // Only the old message's parenthesis: "Tried to allocate 20.00 MiB (GPU 0; 1.96 GiB total capacity; ...".
    let r = corpus("shannonai-selfexplaining6-bare-fragment-2gb-gpu");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Gpu));
    assert_eq!((r.numbers.requested, r.numbers.capacity), (Some(20 << 20), Some(gib(1.96))));
    // CuPy's pool under Chainer: "out of memory to allocate 163840000 bytes (total 1673061376 bytes)".
    let r = corpus("spacenetbuilding3-chainer-cupy-oom-training-loop");
    assert_eq!((r.oom, r.memory, r.numbers.requested), (true, MemoryKind::Gpu, Some(163_840_000)));
    // GCC under nvcc: "virtual memory exhausted: 无法分配内存".
    let r = corpus("cudpp109-nvcc-virtual-memory-exhausted-chinese-strerror");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
}

#[test]
fn more_allocators_and_platforms_in_their_own_words() {
    let cases = [
        // MLX on Metal: "[METAL] Command buffer execution failed: Insufficient Memory".
        ("vmlx58-metal-command-buffer-insufficient-memory-35b-m1max", MemoryKind::Gpu),
        // PaddlePaddle 1.x: "Expected allocating <= available, but received allocating:5403593101 > ...".
        ("paddlemodels2292-enforce-allocating-gt-available-yolov3-infer", MemoryKind::Gpu),
        // TensorFlow on the CPU: "... /device:CPU:0 by allocator cpu".
        ("tfmodels6450-oom-tensor-on-cpu-allocator-cpu", MemoryKind::Host),
        // joblib: "The exit codes of the workers are {SIGKILL(-9)}".
        ("hotpot39-preprocess-terminatedworker-sigkill", MemoryKind::Host),
        ("arrow2549-to-pandas-arrowmemoryerror", MemoryKind::Host),
        // Ray's object store against /dev/shm, with its figures in bytes.
        ("gpustack5014-raylet-shm-request-10gb-exceeds-9gb-ascend", MemoryKind::Shm),
        ("sglang4330-spec-decoding-not-enough-memory-increase-mem-fraction", MemoryKind::Gpu),
        // Ray's ObjectStoreFullError and plasma's "in object store because it is full".
        ("ray11594-rllib-ddppo-objectstorefull-25gb-weights", MemoryKind::Host),
        ("ray22176-plasma-put-200gb-object-capacity-78gb", MemoryKind::Host),
        // OpenCV's allocator on Windows and Android, macOS's malloc, YARN's container kill, Thrust on the GPU.
        ("opencv8349-windows-sift-insufficient-memory-in-markdown-bold", MemoryKind::Host),
        ("opencv10725-android-logcat-dnn-insufficient-memory-after-8h", MemoryKind::Host),
        ("joblib415-macos-malloc-cant-allocate-region-18eb", MemoryKind::Host),
        ("tfos134-yarn-container-killed-virtual-memory-limit", MemoryKind::JobLimit),
        ("xgboost3877-multigpu-thrust-bad-alloc-interleaved-what", MemoryKind::Gpu),
        // tcmalloc's refused large alloc ("== (nil)"); a trainer that skips the batch after a
        // CUDA OOM; ENOMEM beside a container's name, which is no limit.
        ("jax12550-tpu-v3-tcmalloc-large-alloc-377tb-nil-sqrt", MemoryKind::Host),
        ("boltz236-ran-out-of-memory-skipping-batch-1400aa-a10g", MemoryKind::Gpu),
        ("nemo12637-multinode-checkpointing-oserror-errno12-cannot-allocate", MemoryKind::Host),
        // Vulkan's ERROR_OUT_OF_HOST_MEMORY, Ray's RayOutOfMemoryError, make's "*** [...] Killed",
        // HTCondor's "gone over memory limit", Triton's shared memory key with no space left.
        ("unitree-sim-isaaclab5-vkcreatefence-out-of-host-memory-fds", MemoryKind::Host),
        ("ray4877-rllib-impala-rayoutofmemoryerror-top-consumers", MemoryKind::Host),
        ("earth2studio68-sfno-pytest-make-killed-helm-memory-request", MemoryKind::Host),
        ("galaxy-tpv30-htcondor-job-over-memory-limit-held-code34", MemoryKind::JobLimit),
        ("modelanalyzer749-ensemble-shm-key-no-space-despite-shm-size", MemoryKind::Shm),
        // A restart reason "OOMKill", Windows' GetLastError() = 1455, .NET's OutOfMemoryException,
        // Vulkan-Hpp's ErrorOutOfDeviceMemory.
        ("drivor35-k8s-oomkill-report-usage-below-1000gi-limit", MemoryKind::JobLimit),
        ("modin7360-raylet-windows-createfilemapping-1455-spilled", MemoryKind::Host),
        ("mlnetmodelbuilder647-sql-download-system-outofmemoryexception", MemoryKind::Host),
        ("llamacpp15256-vulkan-erroroutofdevicememory-too-many-layers", MemoryKind::Gpu),
        // TensorRT's builder: "Error Code 2: OutOfMemory".
        ("trtllm346-llama2-13b-build-virtualmemorybuffer-outofmemory", MemoryKind::Gpu),
        // torch-directml's "DML allocator out of memory!" from dml_heap_allocator.cc (a device heap).
        ("directml361-dml-allocator-oom-one-element-tensor-wsl-iris-xe", MemoryKind::Gpu),
        ("sdamdgpu174-dml-allocator-oom-after-shrinking-pagefile", MemoryKind::Gpu),
        ("tfmodels5591-cloudml-replica-master-ran-out-of-memory-sigkill", MemoryKind::Host),
    ];
    for (id, memory) in cases {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (true, memory), "{id}");
    }
    // PyTorch 2.1 on a MIG slice: NVML's assert in place of the OOM message shows no
    // exhaustion itself, so the GPU is a suspect (LABELLING.md rule 3).
    let r = corpus("pytorch112377-mig-nvml-assert-masks-cuda-oom");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::Gpu));
    let r = corpus("ray22176-plasma-put-200gb-object-capacity-78gb");
    assert_eq!((r.numbers.requested, r.numbers.capacity), (Some(219_375_455_268), Some(78_466_815_590)));
    // Ray's memory monitor names the node's total; ggml its buffer; vLLM V1 the KV cache it needed.
    let r = corpus("ray28776-chaos-shuffle-1tb-outofmemoryerror-node-95pct");
    assert_eq!(r.numbers.capacity, Some(61_847_529_062));
    let r = corpus("ollama7867-deepseek236b-gallocr-compute-buffer-882903040");
    assert_eq!(r.numbers.requested, Some(882_903_040));
    let r = corpus("vllm16118-v1-kv-cache-needed-24gib-max-seq-1m");
    assert_eq!((r.numbers.requested, r.numbers.max_seq_len_tokens), (Some(24 << 30), Some(1_048_576)));
    let r = corpus("tfos134-yarn-container-killed-virtual-memory-limit");
    assert_eq!((r.numbers.total_vm, r.numbers.job_limit), (Some(7_730_941_133), Some(4_509_715_661)));
    let r = corpus("opencv8349-windows-sift-insufficient-memory-in-markdown-bold");
    assert_eq!(r.numbers.requested, Some(192_000_004));
    let r = corpus("trtllm346-llama2-13b-build-virtualmemorybuffer-outofmemory");
    assert_eq!(r.numbers.requested, Some(24_793_579_520));
    let r = corpus("paddlemodels2292-enforce-allocating-gt-available-yolov3-infer");
    assert_eq!((r.numbers.requested, r.numbers.free), (Some(5_403_593_101), Some(5_300_944_640)));
    let r = corpus("gpustack5014-raylet-shm-request-10gb-exceeds-9gb-ascend");
    assert_eq!((r.numbers.requested, r.numbers.free), (Some(10_200_547_328), Some(9_663_676_416)));
    assert_eq!(r.fixes[0].id, "bigger_shm");
}

#[test]
fn a_lines_own_words_say_which_memory() {
    // TGI-family warmup: "Not enough memory to handle 1024 prefill tokens".
    let prefill = corpus("lorax354-warmup-not-enough-memory-1024-prefill-qwen14b");
    assert_eq!((prefill.oom, prefill.memory), (true, MemoryKind::Gpu));
    // TensorFlow: "failed to alloc 4294967296 bytes on host: CUDA_ERROR_OUT_OF_MEMORY".
    let pinned = corpus("openaigpt2-213-pinned-host-alloc-errors-model-still-runs");
    assert_eq!(pinned.memory, MemoryKind::Host);
}

#[test]
fn buffer_failures_of_rocm_mlx_and_tensorflow_1() {
    // MIOpen: "Memory not available to allocate buffer: 528515072".
    let miopen = corpus("rocmtf30-miopen-memory-not-available-528mb-rx470");
    assert_eq!((miopen.oom, miopen.memory, miopen.numbers.requested), (true, MemoryKind::Gpu, Some(528_515_072)));
    // MLX: "Attempting to allocate 48736917632 bytes which is greater than the maximum allowed buffer size".
    let mlx = corpus("lmstudio2240-mlx-metal-malloc-over-max-buffer-prompt-cache");
    assert_eq!((mlx.oom, mlx.memory), (true, MemoryKind::Gpu));
    assert_eq!((mlx.numbers.requested, mlx.numbers.max_allowed), (Some(48_736_917_632), Some(30_150_672_384)));
    // TensorFlow 1.x: "(1) Resource exhausted: failed to allocate memory".
    let tf = corpus("dfl5533-windows-3050ti-resource-exhausted-failed-to-allocate-saehd");
    assert_eq!((tf.oom, tf.memory), (true, MemoryKind::Gpu));
}

#[test]
fn buffers_and_limits_in_their_runtimes_words() {
    // PhysX: "PxgCudaDeviceMemoryAllocator fail to allocate memory 100663296 bytes!! Result = 2".
    let physx = corpus("isaacgymenvs256-pxgcudadevicememoryallocator-96mib-result2");
    assert_eq!((physx.oom, physx.memory, physx.numbers.requested), (true, MemoryKind::Gpu, Some(100_663_296)));
    // ggml's CPU buffer for a 1M-token KV cache is host memory.
    let ggml = corpus("llamacpp8101-cpu-kv-cache-128gib-n-ctx-1m-children");
    assert_eq!((ggml.oom, ggml.memory), (true, MemoryKind::Host));
    assert_eq!(ggml.numbers.requested, Some(137_438_953_504));
    // SGLang's "Not enough host memory available. Requesting 40.00 GB ...".
    let sglang = corpus("sglang8102-hicache-not-enough-host-memory-40-of-44gb");
    assert_eq!((sglang.oom, sglang.memory), (true, MemoryKind::Host));
    // Hugging Face Spaces' "Memory limit exceeded (30G)", with its limit.
    let space = corpus("hfspace-magicquill-3-memory-limit-exceeded-30g");
    assert_eq!((space.oom, space.memory, space.numbers.job_limit), (true, MemoryKind::JobLimit, Some(gib(30.0))));
    // sacct cuts OUT_OF_MEMORY to its column: "OUT_OF_ME+".
    let sacct = corpus("snakemake-slurm348-sacct-out-of-me-steps-retried");
    assert_eq!((sacct.oom, sacct.memory), (true, MemoryKind::JobLimit));
    // pandarallel: "you don't have enough available space in `dev/shm`".
    let shm = corpus("pandarallel143-memory-fs-not-enough-dev-shm-kubeflow");
    assert_eq!((shm.oom, shm.memory, ids(&shm)[0]), (true, MemoryKind::Shm, "bigger_shm"));
}

#[test]
fn xla_and_accelerator_wordings_without_their_usual_prefix() {
    for (id, oom, memory) in [
        // EXLA's "(RuntimeError) Out of memory while trying to allocate 117964800 bytes."
        ("xla10660-elixir-nx-exla-livebook-docker-bufferassignment-112mib", true, MemoryKind::Gpu),
        // "Execution of replica 0 failed: RESOURCE_EXHAUSTED:" with the message cut after the code.
        ("xla27322-horizontal-loop-fusion-95gib-temp-gh200", true, MemoryKind::Gpu),
        // ExLlama's "Insufficient VRAM for model and cache".
        ("exllamav2-383-colab-autosplit-insufficient-vram-200k-context", true, MemoryKind::Gpu),
        // Tenstorrent's "Not enough space to allocate 5368709120 B DRAM buffer across 8 banks".
        ("ttmetal40108-tt-fatal-dram-oom-batched-prefill-per-bank", true, MemoryKind::Gpu),
        // torch.multiprocessing.spawn: "process 0 terminated with signal SIGKILL".
        ("prompt4nr3-mp-spawn-process-0-terminated-sigkill", true, MemoryKind::Host),
        // XLA's rematerialization warning, its pinned host buffer, cuDNN's autotuner going on
        // with another algorithm, NCCL 1's 'cuda malloc failed': suspects.
        ("enzymejax1363-remat-cant-reduce-below-warning-only", false, MemoryKind::Gpu),
        ("orbax2090-checkpointer-leak-could-not-allocate-pinned-host-4gib", false, MemoryKind::Host),
        ("torchxla3162-mpirun-ranks-bfc-ran-out-not-a-failure-cudnn", false, MemoryKind::Gpu),
        ("nccl33-nccl1-srun-two-nodes-failed-to-allocate-device-buffer", false, MemoryKind::Gpu),
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (oom, memory), "{id}");
    }
}

#[test]
fn accelerators_beyond_cuda_in_their_runtimes_words() {
    for (id, oom, memory) in [
        // AWS Neuron's "TDRV:dmem_alloc_internal Failed to alloc DEVICE memory: 180355072".
        ("awsneuron1014-llava-trace-tdrv-failed-alloc-device-memory-nc0", true, MemoryKind::Gpu),
        ("optimumneuron668-sdxl-unet-both-cores-tdrv-failed-alloc-10mib", true, MemoryKind::Gpu),
        // Habana's "FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::2123366400".
        ("optimumhabana2214-gpt-oss-ep-rank7-pt-devmem-2025mb-model-to", true, MemoryKind::Gpu),
        ("milabench301-hpu-reformer-pt-devmem-allocation-failed-voir-summary", true, MemoryKind::Gpu),
        // Intel's UR_/PI_ERROR_OUT_OF_RESOURCES: a GPU suspect.
        ("ipexllm12872-llama-server-sycl-ur-out-of-resources-mistral24b", false, MemoryKind::Gpu),
        ("sdnext1526-arc-medvram-pi-error-out-of-resources-at-100pct", false, MemoryKind::Gpu),
        // Video Helper Suite's own guard: "Memory limit hit after loading 1347 frames".
        ("vhs236-loadvideo-memory-limit-hit-1347-frames", false, MemoryKind::Host),
        // A shell's Killed pasted as a markdown quote: "> Killed".
        ("hunyuancustom18-wsl-gpu-poor-killed-at-build-model-cpu-offload", true, MemoryKind::Host),
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (oom, memory), "{id}");
    }
    // Vulkan's ErrorOutOfDeviceMemory for one buffer over the per-buffer limit, which ggml survives.
    let limit = corpus("hotstepcpp27-vae-tiled-decode-vulkan-pinned-buffer-size-limit-continues");
    assert_eq!((limit.oom, limit.memory), (false, MemoryKind::None));
}

#[test]
fn tensorflow_1_names_the_device_on_the_node_after_its_oom() {
    // `[[Node: ... _device="/job:localhost/replica:0/task:0/cpu:0"` after a deviceless OOM: the host.
    let cpu = corpus("tfmodels1993-win10-cifar10-oom-on-cpu0-after-941k-steps");
    assert_eq!((cpu.oom, cpu.memory), (true, MemoryKind::Host));
    // The failing op on gpu:0, then a `_Recv` node on cpu:0 that only copies its tensors: the GPU.
    let gpu = corpus("kerasinceptionresnet3-tf1-oom-shape-no-dtype-gpu0-node");
    assert_eq!((gpu.oom, gpu.memory), (true, MemoryKind::Gpu));
}

#[test]
fn small_machines_platforms_and_new_runtimes() {
    for (id, oom, memory) in [
        // Cloud Run's "Memory limit of 2048M exceeded with 2126M used".
        ("gpt2cloudrun22-cloud-run-memory-limit-2048m-exceeded", true, MemoryKind::JobLimit),
        // Heroku's R15 kills; its R14 swaps and goes on.
        ("nagisa28-heroku-r15-vastly-exceeded-gunicorn-signal9", true, MemoryKind::JobLimit),
        ("taiwanbot9-heroku-free-dyno-r14-use-lite-still-over-quota", false, MemoryKind::JobLimit),
        // Emscripten's "Cannot enlarge memory arrays" and OpenCV 4's "(-4:Insufficient memory)".
        ("webmlpolyfill139-wasm-cannot-enlarge-memory-arrays", true, MemoryKind::Host),
        ("apriltagros16-orin-opencv-insufficient-memory-117tb-garbage-size", true, MemoryKind::Host),
        // TensorRT-LLM's "Executor creation failed due to insufficient GPU memory", Neuron's "NRT allocation failed".
        ("trtllm5950-rc2-executor-creation-insufficient-gpu-memory-table", true, MemoryKind::Gpu),
        ("transformers47029-neuron-nrt-allocation-failed-oom-warmup", true, MemoryKind::Gpu),
        // WebLLM's "This can happen due to insufficient memory": a cause it lists, a suspicion.
        ("webllm647-device-was-lost-insufficient-memory-hint", false, MemoryKind::Gpu),
        // Ray's /dev/shm warning with its first half wrapped by the terminal.
        ("openinstruct1067-ray-object-store-tmp-instead-of-devshm-warning", false, MemoryKind::Shm),
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (oom, memory), "{id}");
    }
}

#[test]
fn serving_and_apple_allocators_and_a_jobs_peak_at_its_request() {
    // SGLang's KV pool: the error ends the server; "happened. #retracted_reqs" goes on.
    let decode = corpus("sglang4602-page-size-64-decode-out-of-memory-148-tokens");
    assert_eq!((decode.oom, decode.memory), (true, MemoryKind::Gpu));
    let retracted = corpus("sglang4184-deepseek-r1-decode-oom-happened-retracted-reqs");
    assert_eq!((retracted.oom, retracted.memory), (false, MemoryKind::Gpu));
    // MLX's Metal allocator: "[malloc_or_wait] Unable to allocate 124 MB".
    let mlx = corpus("mlx-examples823-malloc-or-wait-unable-to-allocate-124mb");
    assert_eq!((mlx.oom, mlx.memory), (true, MemoryKind::Gpu));
    // seff: "Memory Efficiency: 99.81% of 10.00 GB", nothing killed.
    let seff = corpus("jobstats57-sacct-maxrss-seff-99pct-no-oom-question");
    assert_eq!((seff.oom, seff.memory), (false, MemoryKind::JobLimit));
    // A status printed without a line break, then the shell's word: "---> Collecting...Killed".
    let status = corpus("blendedicu42-polars-collect-killed-after-sink-unsupported");
    assert_eq!((status.oom, status.memory), (true, MemoryKind::Host));
}

#[test]
fn windows_out_of_memory_in_its_codes_and_other_languages() {
    // "内存资源不足，无法处理此命令。 (异常来自 HRESULT:0x80070008)", Photoshop's "没有足够内存(RAM)",
    // Docker's "The paging fi\nle is too small" cut by the console.
    read_as(
        &[
            "caliburn777-wpf-glyphmetrics-chinese-not-enough-memory-0x80070008",
            "imgcook77-chinese-photoshop-general-error-not-enough-ram",
            "navdocker383-hyperv-createcomputesystem-paging-file-gbk-mojibake-event",
        ],
        (true, MemoryKind::Host),
    );
    // E_OUTOFMEMORY (8007000E) inside onnxruntime's DmlExecutionProvider: the device's.
    let r = corpus("diffusers552-onnx-img2img-dml-memcpytohost-8007000e-vae-decoder");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Gpu));
}

#[test]
fn reports_printed_for_an_oom_without_its_error_line() {
    // XLA's "Program hbm requirement" breakdown, TensorFlow's report_tensor_allocations_upon_oom hint.
    read_as(
        &[
            "easydel95-tpu-v2-8-hbm-usage-breakdown-without-error-line",
            "seq2seq-couplet11-tf-oom-hint-only-report-tensor-allocations",
        ],
        (false, MemoryKind::Gpu),
    );
    // cuDNN that could not start with 382 MB of 4.2 GB free (XLA preallocated the rest):
    // a GPU suspect, where with the GPU free it is a look-alike.
    let r = corpus("exla86-cudnn-handle-fails-after-bfc-prealloc-382mb-free");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::Gpu));
    // Its fixes are a GPU already taken: XLA's preallocation first, then another process.
    assert_eq!(ids(&r)[..2], ["other", "free_other_process"]);
    assert!(r.fixes[0].detail.contains("memory_fraction"), "{}", r.fixes[0].detail);
}

#[test]
fn matlabs_array_size_preference_in_place_of_its_out_of_memory() {
    // "Requested 1024x1024x16800 (131.3GB) array exceeds maximum array size preference", and a
    // localized MATLAB's English rendering, "exceeded the preset maximum array size".
    read_as(
        &[
            "suite2p172-matlab-zeros-exceeds-max-array-size",
            "somtoolbox31-matlab-90816-square-exceeds-preset-max",
            "coderoad-matlab-zeros-exceeds-maximum-array-size-preference",
        ],
        (true, MemoryKind::Host),
    );
}

#[test]
fn the_jvms_message_relayed_without_its_class() {
    // Gradle relays only the cause's message: "   > Java heap space".
    read_as(&["imodel-native418-android-gradle-merge-java-heap-space"], (true, MemoryKind::Host));
}

#[test]
fn which_memory_a_runtimes_own_tag_or_file_names() {
    // TensorRT's Python logger: "[TensorRT] ERROR: ../rtSafe/WeightsPtr.cpp (92) - OutOfMemory Error in allocate".
    read_as(&["torch2trt661-jetson-nano-requested-150mb-could-not-be-allocated"], (true, MemoryKind::Gpu));
    // NVIDIA's encoder: "[hevc_nvenc @ 0x…] OpenEncodeSessionEx failed: out of memory (10)".
    read_as(&["viseron539-hevc-nvenc-openencodesessionex-out-of-memory-recorder"], (true, MemoryKind::Gpu));
    // Thrust's exception named by C++'s terminate handler on the row above "what():  parallel_for
    // failed: out of memory".
    read_as(&["xgboost6388-dask-thrust-parallel-for-failed-out-of-memory"], (true, MemoryKind::Gpu));
    // ncnn's bare VkResult: "vkAllocateMemory failed -2" (out of device memory).
    read_as(&["upscayl57-vkallocatememory-failed-minus2"], (true, MemoryKind::Gpu));
    // OpenCV's page-locked allocator: "cuda_host_mem.cpp:95: error: (-217:Gpu API call) out of memory".
    read_as(&["denseflow28-opencv-cuda-host-mem-out-of-memory-wsl"], (true, MemoryKind::Host));
}

#[test]
fn a_platforms_instance_size_is_the_jobs_limit() {
    // App Engine: "...was found to be using too much memory and was terminated ... Consider setting
    // a larger instance class"; Render: "Ran out of memory (used over 512MB)".
    read_as(
        &["rawdatarepository4217-gae-process-too-much-memory-terminated", "runit406-render-ran-out-of-memory-512mb"],
        (true, MemoryKind::JobLimit),
    );
    // A soft limit kills nothing: "Exceeded soft memory limit of 256 MB with 340 MB".
    read_as(&["syzkaller2322-gae-exceeded-soft-memory-limit-256mb"], (false, MemoryKind::JobLimit));
}

#[test]
fn bitsandbytes_cuda_wrapper_is_the_device() {
    // "Error out of memory at line 380 in file .../bitsandbytes/csrc/pythonInterface.c".
    read_as(&["xtuner319-wsl-bnb-pythoninterface-line380-out-of-memory"], (true, MemoryKind::Gpu));
}

#[test]
fn databases_in_their_own_words() {
    // ClickHouse: "Memory limit (total) exceeded: would use 64.00 GiB ..., maximum: 64.00 GiB";
    // Redis's crash report: "zmalloc_default_oom" in its stack.
    read_as(
        &[
            "clickhouse21218-memory-limit-total-exceeded-64gib",
            "clickhouse65649-memory-limit-total-mutate-aggregating",
            "ms-redis650-zmalloc-default-oom-abort-rdbsave-windows",
        ],
        (true, MemoryKind::Host),
    );
    // PostgreSQL growing a segment in /dev/shm: "could not resize shared memory segment ... No
    // space left on device"; its shmget's "could not create" is a System V limit, a suspicion.
    read_as(&["vulnerablecode1897-postgres-resize-shared-memory-segment-enospc"], (true, MemoryKind::Shm));
    read_as(&["pg-embedded157-shmget-no-space-hint-not-disk"], (false, MemoryKind::Shm));
}

#[test]
fn ascends_device_malloc_and_a_bus_error_naming_shm_in_chinese() {
    // "Call rtMalloc fail, purpose: page caching, ... device_id:0" under a generic "Failed to
    // allocate memory requested by GE module".
    read_as(&["helios62-ascend-ge-rtmalloc-fail-el0004-conv2d"], (true, MemoryKind::Gpu));
    // "提示bus error，insufficient shared memery (shm)": words end at CJK characters and full-width commas.
    read_as(&["llamafactory7315-chinese-title-bus-error-shm-memery-typo"], (true, MemoryKind::Shm));
}

#[test]
fn short_device_names_only_as_words() {
    // "--input_sentence_size" holds "npu": the prose's `std::bad_alloc` is the host's.
    read_as(&["sentencepiece746-unigram-136m-lines-std-bad-alloc-125gb"], (true, MemoryKind::Host));
    // "with Direct ML (DML)": Windows' E_OUTOFMEMORY text on DirectML's device.
    read_as(&["olive1079-directml-sdxl-not-enough-memory-resources"], (true, MemoryKind::Gpu));
}

#[test]
fn device_allocators_in_their_own_words() {
    read_as(
        &[
            // Sophgo's "bm_alloc_gmem failed" / "Alloc Device Memory Failed! Program Terminated."
            "sophonstream58-zh-bm1684-bm-alloc-gmem-failed-device-memory",
            // Paddle's 'paddle::memory::allocation::BadAlloc' with its what() cut off.
            "paddle42341-zh-badalloc-terminate-scale-kernel-gpucontext",
            // SGLang's "No space left for only one request, ...available_size()=0".
            "sglang-pr14948-no-space-left-for-one-request-kv-pool-zero",
            // llama.cpp under Ollama: "error loading model: unable to allocate backend buffer".
            "ollama5941-unable-to-allocate-backend-buffer-3050ti-4gb",
            // cuBLAS's ALLOC_FAILED in words under ggml: "CUDA error: the resource allocation failed".
            "ollama6999-jetson-cublas-resource-allocation-failed-wrong-cuda-lib",
        ],
        (true, MemoryKind::Gpu),
    );
    // SuiteSparse's CHOLMOD (R's Matrix): "Cholmod error 'out of memory' at file ../Core/cholmod_memory.c".
    read_as(&["bigsnpr142-snp-cor-long-vectors-then-cholmod-out-of-memory"], (true, MemoryKind::Host));
    // FlashInfer's workspace: "Failed to allocate memory for batch_prefill_tmp_v ... in AlignedAllocator".
    read_as(&["sglang2102-title-flashinfer-alignedallocator-batch-prefill-tmp-v"], (false, MemoryKind::None));
}

#[test]
fn the_cuda_drivers_allocation_under_a_host_exception_and_a_prediction() {
    // pycuda: "MemoryError: cuMemAlloc failed: out of memory" is the device's allocator.
    read_as(&["cryosparc142-pycuda-cumemalloc-failed-box-1024-titan-black"], (true, MemoryKind::Gpu));
    // RELION: "you will likely run out of memory on the GPU(s)" predicts, then error-code 30.
    // Rockchip's "failed to malloc npu memory" beside errno 14 "Bad address": a suspicion.
    read_as(
        &[
            "relion351-likely-run-out-of-gpu-memory-warning-then-error-code-30",
            "rknnllm195-qwen2vl-vision-rknn-malloc-npu-memory-errno14-bad-address",
        ],
        (false, MemoryKind::Gpu),
    );
}

#[test]
fn device_libraries_and_a_fallback_to_the_cpu() {
    read_as(
        &[
            // DALI's decoder: 'NVJPEG error "5" : NVJPEG_STATUS_ALLOCATOR_FAILURE'.
            "dali1434-nvjpeg-status-allocator-failure-imagenet-val",
            // TensorFlow 2's status naming no device: "RESOURCE_EXHAUSTED: failed to allocate memory".
            "handsonml3-27-tfhub-use-resource-exhausted-failed-allocate",
        ],
        (true, MemoryKind::Gpu),
    );
    // YOLOX: "OOM RuntimeError is raised ... CPU mode is applied in this batch": it goes on.
    read_as(&["yolox1094-label-assignment-oom-falls-back-to-cpu-mode"], (false, MemoryKind::Gpu));
}
