//! What a reading leads to: the figures in bytes, the phase, and the fixes
//! ranked from them (the wording itself: reading.rs).

use super::{corpus, gib, ids};
use headroom_core::memory::MemoryKind;

#[test]
fn windows_cpu_allocator_wording_points_at_the_commit_limit() {
    let r = corpus("easydiffusion289-alloc-cpu-81-extend-prefix");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
    assert_eq!(r.fixes[0].id, "other");
    assert!(r.fixes[0].detail.contains("paging file"), "{:?}", r.fixes[0]);
}

#[test]
fn vllm_start_up_figures() {
    // "the rest of the memory reserved for KV Cache is -1.05GiB" and "# cuda blocks: 0".
    let r = corpus("vllm13882-negative-kv-cache-cuda-blocks-0");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Gpu));
    assert_eq!((r.numbers.gpu_kv_blocks, r.numbers.capacity), (Some(0), Some(gib(8.0))));
    let r = corpus("pytorch175666-vllm-free-memory-below-utilization-ci");
    assert_eq!((r.numbers.free, r.numbers.capacity), (Some(gib(19.77)), Some(gib(22.05))));
}

#[test]
fn tpu_hbm_breakdown() {
    let r = corpus("colabfold62-tpu-hbm-breakdown-colab-free");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Gpu));
    assert_eq!(r.numbers.capacity, Some(gib(7.48)));
    assert_eq!(r.numbers.total_allocation, Some(gib(9.60)), "'Total hbm usage >=' over 'Used X of Y'");
    assert_eq!(r.numbers.temp_allocation, Some(gib(9.08)));
}

#[test]
fn slurm_limits_printed_in_bytes() {
    // "exceeded memory limit (169384386560 > 161061273600)": bytes, not KiB.
    let r = corpus("mmf574-job-exceeded-memory-limit-bytes-num-workers");
    assert_eq!((r.numbers.rss, r.numbers.job_limit), (Some(169_384_386_560), Some(161_061_273_600)));
}

#[test]
fn one_huge_array_is_shrunk_not_given_more_ram() {
    // "MemoryError: Unable to allocate 201. GiB for an array with shape (2999, 2999, 2999)"
    let r = corpus("numpy17595-meshgrid-201gib-int64-trailing-dot");
    assert_eq!(ids(&r)[0], "other");
    assert!(r.fixes[0].detail.contains("dtype"), "{}", r.fixes[0].detail);
}

#[test]
fn cudnn_and_cublas_workspace_failures_point_at_a_full_gpu() {
    // PyTorch: another process first; TensorFlow: its up-front grab first.
    let torch = corpus("marqo101-cudnn-no-valid-algorithm-gpu-oom");
    assert_eq!(ids(&torch)[0], "free_other_process");
    // cuDNN and cuBLAS that could not start at all say nothing of memory (a look-alike,
    // LABELLING.md rule 4), yet a GPU already taken leads their fixes, before a version check.
    assert_eq!((torch.oom, torch.memory), (false, MemoryKind::None));
    let handle = corpus("tensorflow24496-cudnn-handle-internal-error-rtx2070-allow-growth");
    assert_eq!((handle.oom, handle.memory), (false, MemoryKind::None));
    assert_eq!(ids(&handle)[..3], ["other", "free_other_process", "not_oom_fix"]);
    assert!(handle.fixes[0].detail.contains("set_memory_growth"), "{}", handle.fixes[0].detail);
    let tf = corpus("tf7072-windows-cublas-alloc-failed-tf-jenkins-paths");
    assert_eq!(ids(&tf)[0], "other");
    assert!(tf.fixes[0].detail.contains("set_memory_growth"), "{}", tf.fixes[0].detail);
}

#[test]
fn vllm_kv_cache_nearly_long_enough_raises_the_utilization_first() {
    // KV cache of 3792 tokens for a max_model_len of 4096: a little more of the GPU closes it.
    let near = corpus("qanything289-chinese-prefix-kv-cache-3792-vs-4096");
    assert_eq!(ids(&near)[..2], ["lower_gpu_mem_util", "smaller_seq_len"]);
    // "No available memory for the cache blocks": vLLM's own advice is the utilization.
    let none = corpus("vllm10439-compose-prefix-no-cache-blocks-qwen05b");
    assert_eq!(ids(&none)[0], "lower_gpu_mem_util");
}

#[test]
fn the_old_wording_gets_the_old_allocator_setting() {
    // "(GPU 0; 10.91 GiB total capacity; ...; 776.30 MiB cached)": PyTorch <= 1.3 has neither setting.
    let cached = corpus("sbert57-cached-format-oom-wrapped-roberta");
    let f =
        cached.fixes.iter().find(|f| f.id == "expandable_segments").expect("776 MiB cached covers a 34 MiB request");
    assert!(f.detail.contains("upgrade PyTorch"), "{}", f.detail);
}

#[test]
fn vllm_out_of_memory_outside_its_kv_cache_plan() {
    // "[rank0]: torch.OutOfMemoryError: Error in model execution ..." with gpu_memory_utilization=0.9.
    let r = corpus("minicpmv612-vllm-rank0-model-execution-oom-3090");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Gpu));
    assert_eq!(r.fixes[0].id, "lower_gpu_mem_util", "{:?}", r.fixes[0]);
    assert!(r.fixes[0].detail.contains("0.9 -> 0.80"), "{}", r.fixes[0].detail);
}

#[test]
fn a_host_oom_at_fork_points_at_the_workers() {
    // `self.pid = os.fork()` then "OSError: [Errno 12] Cannot allocate memory".
    let r = corpus("personreid193-fork-enomem-repeated-test-py2");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
    let workers = r.fixes.iter().position(|f| f.id == "fewer_workers").expect("fewer workers");
    assert!(workers < 3, "{:?}", ids(&r));
    assert!(r.fixes[workers].because.contains("fork"), "{}", r.fixes[workers].because);
}

#[test]
fn loaders_and_samplers_by_their_own_names_give_the_phase() {
    use headroom_core::diagnose::Phase;
    // `return self._apply(convert)` of Module.to(); ComfyUI's CheckpointLoaderSimple node;
    // Ollama's check before it loads ("model requires more system memory").
    for id in [
        "optimumhabana2214-gpt-oss-ep-rank7-pt-devmem-2025mb-model-to",
        "comfyui5886-checkpointloader-exceed-allowed-memory-5gib-free",
        "continue11207-ollama-requires-more-system-memory",
    ] {
        assert_eq!(corpus(id).phase, Some(Phase::ModelLoad), "{id}");
    }
    // ComfyUI's KSampler node.
    assert_eq!(corpus("comfyui5810-ksampler-mps-backend-oom-error-report").phase, Some(Phase::Generation));
    // Ollama loads its own format: no from_pretrained switch to load in 16 bits.
    let ollama = corpus("continue11207-ollama-requires-more-system-memory");
    assert!(!ids(&ollama).contains(&"mixed_precision"), "{:?}", ids(&ollama));
}
