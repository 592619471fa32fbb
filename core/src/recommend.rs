//! Ranked fixes for a diagnosis, in the diagnosis contract's vocabulary, each
//! with concrete values computed from the log's figures, its trade-off, a
//! command that shows it worked, the remediation-catalog entry it rests on,
//! and the lab's runbooks that match. The case analysis follows the catalog's
//! decision rules D1 and D2; `torch.cuda.empty_cache()` is never offered as
//! an OOM fix for the same process (catalog G-05).

use crate::diagnose::{Diagnosis, Phase};
use crate::memory::{MemoryKind, Stack};
use crate::runbook::Runbook;
use crate::scan::{find_ci, leading_integer};
use crate::units::Bytes;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fix {
    pub id: &'static str,
    pub title: &'static str,
    pub detail: String,
    pub tradeoff: &'static str,
    pub verify: String,
    pub source: &'static str,
    pub runbooks: Vec<String>,
}

/// What the catalog says about each fix: title, trade-off, verification, source.
struct Template {
    id: &'static str,
    title: &'static str,
    tradeoff: &'static str,
    verify: &'static str,
    source: &'static str,
    /// Words in a runbook's knobs, fix titles or tags that show it applied this fix.
    runbook_words: &'static [&'static str],
}

const TEMPLATES: &[Template] = &[
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

fn template(id: &str) -> &'static Template {
    TEMPLATES.iter().find(|t| t.id == id).unwrap_or(&TEMPLATES[TEMPLATES.len() - 1])
}

fn b(n: u64) -> String {
    Bytes(n).to_string()
}

/// The first `name=value` / `name: value` / `--name value` setting found near
/// the start or the end of the log, where launchers print their configuration.
fn knob(text: &str, names: &[&str]) -> Option<u64> {
    const WINDOW: usize = 2 << 20;
    let head = &text[..floor_char(text, WINDOW.min(text.len()))];
    let tail = &text[floor_char(text, text.len().saturating_sub(WINDOW))..];
    names.iter().find_map(|name| {
        [head, tail].into_iter().find_map(|part| {
            let at = find_ci(part, name)?;
            let rest = part[at + name.len()..].trim_start_matches([' ', '=', ':', '"', '\'']);
            leading_integer(rest).filter(|&v| v > 0)
        })
    })
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

pub fn recommend(d: &Diagnosis, text: &str, runbooks: &[Runbook]) -> Vec<Fix> {
    let mut picks: Vec<(&'static str, String)> = Vec::new();
    if !d.oom && d.memory == MemoryKind::None {
        not_oom(d, &mut picks);
    } else {
        // A suspected memory kind without proof (a worker that "exited unexpectedly") gets the same fixes.
        match d.memory {
            MemoryKind::Gpu => gpu(d, text, &mut picks),
            MemoryKind::Host => host(d, text, &mut picks),
            MemoryKind::JobLimit => job_limit(d, text, &mut picks),
            MemoryKind::Shm => shm(text, &mut picks),
            MemoryKind::None => {}
        }
    }
    let mut seen = Vec::new();
    picks
        .into_iter()
        .filter(|(id, _)| {
            let first = !seen.contains(id);
            seen.push(*id);
            first
        })
        .map(|(id, detail)| {
            let t = template(id);
            let verify = match (id, d.memory) {
                ("more_host_mem_request", MemoryKind::JobLimit) if d.stack.contains(&Stack::Kubernetes) => {
                    "kubectl describe pod <pod> (Last State, Reason)".to_string()
                }
                _ => t.verify.to_string(),
            };
            Fix {
                id,
                title: t.title,
                detail,
                tradeoff: t.tradeoff,
                verify,
                source: t.source,
                runbooks: matching_runbooks(d.memory, t, runbooks),
            }
        })
        .collect()
}

fn gpu(d: &Diagnosis, text: &str, picks: &mut Vec<(&'static str, String)>) {
    let n = &d.numbers;
    let (r, t, f) = (n.requested, n.capacity, n.free);
    let others = n.other_process.unwrap_or(0);
    let own = n.allocated_by_pytorch.unwrap_or(0) + n.reserved_unallocated.unwrap_or(0);
    let batch = knob(
        text,
        &["micro_batch_size_per_gpu", "micro_batch_size", "per_device_train_batch_size", "batch_size", "batch-size"],
    );
    let stack = |s| d.stack.contains(&s);

    // Rule 1: a single request larger than the whole device.
    if let (Some(r), Some(t)) = (r, t) {
        if r > t.saturating_sub(others) {
            picks.push(("smaller_seq_len", format!("a single {} request exceeds the whole {} GPU: no allocator setting or batch split helps; shrink the input (resolution, sequence length, grid) or chunk that operation", b(r), b(t))));
        }
    }
    // Rule 2: other processes hold the memory.
    if t.is_some_and(|t| others > t / 4) {
        picks.push(("free_other_process", format!("other processes hold {} of {}: stop them (ps -elf | grep python; kill -9 <pid>) or run on a GPU of your own (CUDA_VISIBLE_DEVICES)", b(others), b(t.unwrap_or(0)))));
    }
    // Rule 3: reserved but unallocated memory is fragmentation.
    if let Some(u) = n.reserved_unallocated {
        if r.is_some_and(|r| u >= r) || (own > 0 && u * 10 >= own) {
            picks.push(("expandable_segments", format!("{} is reserved by PyTorch but unallocated (request {}): export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True before the process starts", b(u), r.map_or("unknown".into(), b))));
        }
    }
    if let (Some(cap), Some(f)) = (n.max_allowed, f) {
        if !stack(Stack::Mps) && f > r.unwrap_or(0) {
            picks.push(("other", format!("a per-process cap of {} is set while {} is free: raise torch.cuda.set_per_process_memory_fraction or remove it", b(cap), b(f))));
        }
    }
    let without_allocator_numbers = r.is_none() && t.is_none();
    if stack(Stack::Mps) {
        picks.push(("other", format!("Apple MPS ran out{}: use a smaller model or lower precision; PYTORCH_MPS_HIGH_WATERMARK_RATIO only moves the limit (and can freeze the machine)", r.map(|r| format!(" asking for {}", b(r))).unwrap_or_default())));
    }
    if d.evidence.iter().any(|e| e.signature.starts_with("vllm-")) {
        let tokens = n
            .kv_cache_tokens
            .map(|k| format!("--max-model-len {k} or less (the KV cache holds {k} tokens)"))
            .unwrap_or_else(|| "a smaller --max-model-len".into());
        picks.push(("smaller_seq_len", tokens));
        picks.push(("lower_gpu_mem_util", "when the engine shares the GPU, lower --gpu-memory-utilization to what is free; on a GPU of its own, raise it (default 0.9) for more KV cache".into()));
    }
    if (stack(Stack::Nccl) && without_allocator_numbers) || n.allocated_by_pytorch == Some(0) {
        picks.push(("other", "several ranks likely share GPU 0: call torch.cuda.set_device(local_rank) before init_process_group and pass device_ids to barrier(), or give each rank one visible GPU".into()));
    }
    if stack(Stack::Jax) || stack(Stack::Tensorflow) {
        picks.push(("free_other_process", "JAX and TensorFlow preallocate most of the GPU: check no other job holds it; share deliberately with XLA_PYTHON_CLIENT_MEM_FRACTION or tf.config.experimental.set_memory_growth".into()));
    }
    match d.phase {
        Some(Phase::OptimizerStep) => {
            picks.push(("quantize", "optimizer state is created at the first step: an 8-bit optimizer keeps 2 bytes per parameter instead of 8 (bitsandbytes AdamW8bit); torch.optim.Adam(foreach=False) also drops one parameter-sized temporary".into()));
            picks.push(("shard_fsdp_zero", "shard optimizer state over the GPUs (ZeRO-1/2, FSDP SHARD_GRAD_OP)".into()));
            picks.push(("cpu_offload", "offload optimizer state to CPU (FSDP CPUOffload, DeepSpeed offload_optimizer)".into()));
        }
        Some(Phase::Validation) => picks.push(("other", "wrap evaluation in torch.inference_mode() (model.eval() alone still builds graphs) and use a smaller eval batch; in HF Trainer set eval_accumulation_steps".into())),
        Some(Phase::Generation) => picks.push(("smaller_seq_len", "fewer concurrent sequences or max_new_tokens; the KV cache grows with batch x tokens (HF: cache_implementation=\"offloaded\")".into())),
        Some(Phase::ModelLoad) => picks.push(("mixed_precision", "load in 16-bit: from_pretrained(..., torch_dtype=torch.bfloat16) (or torch_dtype=\"auto\"); 8/4-bit loading if it still does not fit".into())),
        _ => {}
    }
    let short = match (r, f) {
        (Some(r), Some(f)) if r > f => format!("requested {} with {} free ({} short): ", b(r), b(f), b(r - f)),
        (Some(r), _) => format!("requested {}: ", b(r)),
        _ => String::new(),
    };
    let halve = match batch {
        Some(bs) if bs >= 2 => {
            format!("halve the micro batch {bs} -> {} and accumulate 2 steps to keep the effective batch {bs}", bs / 2)
        }
        _ => "halve the micro batch and accumulate 2 steps to keep the effective batch".into(),
    };
    picks.push(("reduce_batch", format!("{short}{halve}")));
    picks.push((
        "grad_checkpointing",
        "checkpoint activations (HF gradient_checkpointing=True; verl enable_gradient_checkpointing=True)".into(),
    ));
    picks.push(("grad_accumulation", format!("with a smaller micro batch, set accumulate_grad_batches / gradient_accumulation_steps so micro batch x steps x GPUs stays the same{}", batch.map(|bs| format!(" ({bs} x 1 -> {} x 2)", bs / 2)).unwrap_or_default())));
    picks.push(("shard_fsdp_zero", "shard model states over the GPUs: FSDP FULL_SHARD or DeepSpeed ZeRO-3".into()));
    picks.push(("cpu_offload", "offload parameters and optimizer state to CPU".into()));
}

fn host(d: &Diagnosis, text: &str, picks: &mut Vec<(&'static str, String)>) {
    let workers = knob(text, &["num_workers", "workers"]);
    let batch = knob(text, &["batch_size", "batch-size", "batch"]);
    let peak = d.numbers.total_vm.or(d.numbers.rss);
    let worker_detail = match workers {
        Some(w) if w >= 2 => {
            format!("num_workers {w} -> {} (and prefetch_factor 2 -> 1); num_workers=0 confirms the diagnosis", w / 2)
        }
        _ => "halve num_workers and set prefetch_factor=1; num_workers=0 confirms the diagnosis".into(),
    };
    let peak_note = peak.map(|p| format!("the killed process had {} mapped; ", b(p))).unwrap_or_default();
    if d.evidence.iter().any(|e| e.signature == "torchrun-sigkill") && peak.is_some() {
        picks.push(("other", format!("{peak_note}host RAM holds whatever is offloaded to CPU (per rank): fewer ranks per node, less offload, or a node with more RAM")));
    }
    if d.evidence.iter().any(|e| e.signature == "k8s-evicted-memory") {
        picks.push(("more_host_mem_request", "the node ran low and evicted pods without memory requests: set resources.requests.memory and limits.memory on the training containers".into()));
    }
    picks.push(("fewer_workers", format!("{peak_note}{worker_detail}")));
    if let Some(bs) = batch.filter(|&bs| bs >= 2) {
        picks.push((
            "reduce_batch",
            format!("batch {bs} -> {} with 2 accumulation steps: fewer samples in flight per worker", bs / 2),
        ));
    }
    if d.phase == Some(Phase::ModelLoad) {
        picks.push(("mixed_precision", "load weights in 16-bit and load once per node (Accelerate fsdp_cpu_ram_efficient_loading), not once per rank".into()));
    }
    picks.push((
        "other",
        "confirm with dmesg -T | grep -i 'killed process' (or journalctl -k) and watch free -g while it runs".into(),
    ));
}

fn job_limit(d: &Diagnosis, text: &str, picks: &mut Vec<(&'static str, String)>) {
    let n = &d.numbers;
    let kubernetes = d.stack.contains(&Stack::Kubernetes);
    let need = n.rss.or(n.total_vm).map(|used| used + used / 5);
    let request = match (need, n.job_limit) {
        (Some(need), Some(limit)) => format!("the job used {} against a {} limit: request at least {} (#SBATCH --mem={}G), or --mem=0 for the whole node", b(need * 5 / 6), b(limit), b(need), need.div_ceil(1 << 30)),
        _ if kubernetes => "raise the container's resources.limits.memory (and requests) to the measured peak plus headroom".into(),
        _ => format!(
            "{}raise #SBATCH --mem per node (check what the node has with scontrol show node), or --mem=0 for the whole node",
            n.oom_kill_events.map(|e| format!("{e} oom_kill event(s): ")).unwrap_or_default()
        ),
    };
    picks.push(("more_host_mem_request", request));
    let workers = knob(text, &["num_workers"]);
    picks.push(("fewer_workers", match workers {
        Some(w) if w >= 2 => format!("num_workers {w} -> {} per rank; ranks per node x workers is what fills the node (and the validation loader adds its own)", w / 2),
        _ => "fewer DataLoader workers per rank and persistent_workers=False for the validation loader; every rank's workers count against the job".into(),
    }));
}

fn shm(text: &str, picks: &mut Vec<(&'static str, String)>) {
    picks.push((
        "bigger_shm",
        "docker run --shm-size=8g (or --ipc=host); on Kubernetes mount an emptyDir with medium: Memory at /dev/shm"
            .into(),
    ));
    let workers = knob(text, &["num_workers"]);
    picks.push((
        "fewer_workers",
        match workers {
            Some(w) if w >= 2 => format!("if /dev/shm cannot grow: num_workers {w} -> {} and prefetch_factor=1", w / 2),
            _ => "if /dev/shm cannot grow: fewer workers and prefetch_factor=1".into(),
        },
    ));
}

fn not_oom(d: &Diagnosis, picks: &mut Vec<(&'static str, String)>) {
    let has = |id: &str| d.evidence.iter().any(|e| e.signature == id);
    let detail = if has("cuda-illegal-memory-access") || has("cuda-device-side-assert") {
        "run with CUDA_LAUNCH_BLOCKING=1 to find the kernel, then check indices and shapes (labels < num_classes, gather/scatter indices); memory settings will not fix it"
    } else if has("nccl-watchdog-timeout") {
        "find the rank that stopped (NCCL_DEBUG=INFO, TORCH_DISTRIBUTED_DEBUG=DETAIL): a hang, a crash on one rank or mismatched collectives; raise the timeout only once that is understood"
    } else if has("segfault") {
        "a crash in native code: enable faulthandler (python -X faulthandler) and check that compiled extensions match the installed torch and CUDA"
    } else if has("disk-quota") || has("disk-full") {
        "free disk space or quota where checkpoints are written (df -h, quota -s); shorten the checkpoint path"
    } else if has("slurm-time-limit") {
        "the job hit its time limit: ask for more --time or the right partition, and resume from checkpoints"
    } else if has("no-kernel-image") {
        "install a PyTorch build compiled for this GPU's architecture (check torch.cuda.get_arch_list())"
    } else if has("vllm-preempted") {
        "not a failure: for throughput, raise --gpu-memory-utilization or lower --max-num-seqs"
    } else {
        return;
    };
    picks.push(("not_oom_fix", detail.into()));
}

fn matching_runbooks(memory: MemoryKind, t: &Template, runbooks: &[Runbook]) -> Vec<String> {
    let family = |m: Option<MemoryKind>| match m {
        Some(MemoryKind::Host | MemoryKind::JobLimit) => 1,
        Some(MemoryKind::Gpu) => 2,
        Some(MemoryKind::Shm) => 3,
        _ => 0,
    };
    let mut matches: Vec<&Runbook> = runbooks
        .iter()
        .filter(|r| family(r.memory) == family(Some(memory)) && family(Some(memory)) != 0)
        .filter(|r| {
            let haystack = r
                .fixes
                .iter()
                .flat_map(|f| f.knobs.iter().map(|k| k.knob.as_str()).chain([f.title.as_str()]))
                .chain(r.tags.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase();
            t.runbook_words.iter().any(|w| haystack.contains(w))
        })
        .collect();
    matches.sort_by_key(|r| r.kind != crate::runbook::DocKind::Incident);
    matches.into_iter().take(3).map(|r| r.slug.clone()).collect()
}

/// Calculator fields implied by a diagnosis, for "open in Budget": the GPU's
/// capacity, the job's memory limit, the requested batch of a GPU OOM.
pub fn budget_fields(d: &Diagnosis) -> Vec<(&'static str, String)> {
    let gib = |b: u64| format!("{:.2}", b as f64 / (1u64 << 30) as f64);
    let mut pairs = Vec::new();
    if let Some(capacity) = d.numbers.capacity.filter(|_| d.memory == MemoryKind::Gpu) {
        pairs.push(("gpu", "custom".to_string()));
        pairs.push(("gpu_mem_gib", gib(capacity)));
    }
    if let Some(limit) = d.numbers.job_limit {
        pairs.push(("mem_gib", gib(limit)));
    }
    if d.memory == MemoryKind::Gpu && d.stack.contains(&Stack::Vllm) {
        pairs.push(("workload", "inference".to_string()));
    }
    pairs
}
