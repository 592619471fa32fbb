//! What the remediation catalog (`shared/reference/remediation-catalog.md`)
//! says about each fix id of the diagnosis contract: title, trade-off, how to
//! verify it worked, and the entry it rests on.

/// One fix id of the contract, as the catalog describes it.
pub struct Template {
    pub id: &'static str,
    pub title: &'static str,
    pub tradeoff: &'static str,
    pub verify: &'static str,
    pub source: &'static str,
    /// Words in a runbook's knobs, fix titles or tags that show it applied this fix.
    pub runbook_words: &'static [&'static str],
}

pub const TEMPLATES: &[Template] = &[
    Template { id: "reduce_batch", title: "Smaller micro-batch, same effective batch", tradeoff: "more steps per optimizer update; batch-statistics layers see smaller batches", verify: "log torch.cuda.max_memory_allocated() after each step (reset with torch.cuda.reset_peak_memory_stats())", source: "catalog G-01: https://huggingface.co/docs/transformers/grad_accumulation", runbook_words: &["batch"] },
    Template { id: "grad_accumulation", title: "Accumulate gradients to keep the effective batch", tradeoff: "no memory cost, but no throughput gain over a real large batch", verify: "log the effective batch (micro batch x accumulation x GPUs) and the peak memory per step", source: "catalog G-01/F-16: https://lightning.ai/docs/pytorch/stable/advanced/training_tricks.html", runbook_words: &["accumulat"] },
    Template { id: "grad_checkpointing", title: "Activation checkpointing", tradeoff: "about 20% slower steps (activations are recomputed)", verify: "compare torch.cuda.max_memory_allocated() and step time before and after", source: "catalog G-20: https://huggingface.co/docs/transformers/grad_checkpointing", runbook_words: &["checkpointing"] },
    Template { id: "expandable_segments", title: "Let the allocator grow segments instead of fragmenting", tradeoff: "experimental in some versions; such tensors cannot be shared over CUDA IPC", verify: "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python train.py ... and compare torch.cuda.memory_reserved() - torch.cuda.memory_allocated() at the old failure point", source: "catalog G-02: https://pytorch.org/docs/stable/notes/cuda.html", runbook_words: &["expandable_segments"] },
    Template { id: "free_other_process", title: "Free the GPU from other processes", tradeoff: "sharing a GPU costs throughput; capping every tenant is the alternative", verify: "nvidia-smi --query-compute-apps=pid,used_memory --format=csv", source: "catalog G-06: https://pytorch.org/docs/stable/notes/faq.html", runbook_words: &["contention", "shared-gpu"] },
    Template { id: "shard_fsdp_zero", title: "Shard model states over the GPUs (FSDP / ZeRO)", tradeoff: "extra all-gather and reduce-scatter traffic", verify: "torch.cuda.max_memory_allocated() per rank falls by about (N-1)/N of the sharded states", source: "catalog F-01/F-03: https://pytorch.org/docs/stable/fsdp.html", runbook_words: &["fsdp", "zero"] },
    Template { id: "cpu_offload", title: "Offload parameters or optimizer state to CPU", tradeoff: "CPU-GPU transfers slow each step; host RAM must hold the offloaded state", verify: "GPU peak falls; watch host RAM with free -g", source: "catalog F-02/F-04: https://pytorch.org/docs/stable/fsdp.html", runbook_words: &["offload"] },
    Template { id: "mixed_precision", title: "Load and compute in 16-bit", tradeoff: "needs a numerically stable model in bf16/fp16", verify: "next(model.parameters()).dtype and torch.cuda.memory_allocated() after loading", source: "catalog G-17/G-18: https://huggingface.co/docs/transformers/model_memory_anatomy", runbook_words: &["precision", "bf16"] },
    Template { id: "quantize", title: "Quantise: 8-bit optimizer or 4/8-bit weights", tradeoff: "quantisation error; check convergence or output quality", verify: "compare memory and the loss curve against a short unquantised run", source: "catalog F-05/F-06: https://huggingface.co/docs/bitsandbytes/optimizers", runbook_words: &["8-bit", "quantis"] },
    Template { id: "smaller_seq_len", title: "Shorter sequences or smaller inputs", tradeoff: "changes what the model sees (truncation, lower resolution)", verify: "rerun the failing input and log torch.cuda.max_memory_allocated()", source: "catalog G-14/F-08: https://docs.vllm.ai/en/latest/configuration/conserving_memory.html", runbook_words: &["response_length", "seq_len", "max_model_len"] },
    Template { id: "lower_gpu_mem_util", title: "Give the inference engine a smaller share of the GPU", tradeoff: "a smaller KV cache: fewer concurrent sequences", verify: "nvidia-smi while the engine starts; vLLM logs the KV cache size it got", source: "catalog F-07/F-12: https://verl.readthedocs.io/en/latest/perf/perf_tuning.html", runbook_words: &["gpu_memory_utilization"] },
    Template { id: "fewer_workers", title: "Fewer DataLoader workers, less prefetch", tradeoff: "less input parallelism: watch GPU utilisation", verify: "free -g on the node (or sstat -j <jobid>.0 --format=MaxRSS) through the first epoch boundary", source: "catalog H-02/H-03/H-06: https://github.com/pytorch/pytorch/issues/63301", runbook_words: &["worker"] },
    Template { id: "more_host_mem_request", title: "Request more memory for the job", tradeoff: "a larger request can wait longer in the queue", verify: "sacct -j <jobid> --format=JobID,State,ReqMem,MaxRSS", source: "catalog J-01/J-05: https://slurm.schedmd.com/sbatch.html", runbook_words: &["--mem"] },
    Template { id: "bigger_shm", title: "More shared memory (/dev/shm)", tradeoff: "shared memory is RAM and counts toward the container's limit", verify: "df -h /dev/shm inside the container, then rerun with the same num_workers", source: "catalog S-01/S-04: https://docs.docker.com/engine/reference/run/", runbook_words: &["shm"] },
    Template { id: "not_oom_fix", title: "Not an OOM: fix the actual error", tradeoff: "memory settings will not help; a smaller batch only delays the crash", verify: "CUDA_LAUNCH_BLOCKING=1 python train.py ... (errors point at the real call)", source: "catalog D1: look-alikes that are not exhaustion", runbook_words: &[] },
    Template { id: "other", title: "Other fix", tradeoff: "see detail", verify: "rerun and watch memory (nvidia-smi / free -g)", source: "remediation catalog", runbook_words: &[] },
];

/// The template of a fix id (`other` for an unknown id).
pub fn template(id: &str) -> &'static Template {
    TEMPLATES.iter().find(|t| t.id == id).unwrap_or(&TEMPLATES[TEMPLATES.len() - 1])
}
