//! What the allocator's own figures say (catalog D2 rules 1-3, G-06, G-07,
//! G-15): a request larger than the GPU, memory held elsewhere, fragmentation,
//! ranks on one GPU, a library's workspace on a full GPU.

use super::Facts;
use crate::memory::Stack;
use crate::recommend::{at, b, Ranking};

/// D2 rule 1 / G-14: one request larger than the whole device.
pub(super) fn impossible_request(f: &Facts, out: &mut Ranking) {
    let (Some(r), Some(t)) = (f.requested, f.capacity) else { return };
    let others = f.d.numbers.other_process.unwrap_or(0);
    if r <= t.saturating_sub(others) {
        return;
    }
    out.add(
        "smaller_seq_len",
        97,
        format!("a single {} request exceeds the whole {} GPU: no allocator setting helps; shrink the input (resolution, sequence length, points or grid per call) or chunk that operation", b(r), b(t)),
        format!("{}: the request ({}) is larger than the GPU ({})", at(f.line), b(r), b(t)),
    );
    // Maintainers answer such a request with the operation, not the batch: a
    // shape bug, an eager attention path, data kept on the GPU (G-14).
    out.add(
        "other",
        95,
        "one request this size is a shape bug or an algorithmic peak (catalog G-14): chunk that operation (its chunk, tile or ray-batch size), use a memory-efficient kernel (flash attention instead of an eager path), or keep that data on the CPU",
        format!("{}: {} requested in one piece, more than the GPU has", at(f.line), b(r)),
    );
    out.add(
        "reduce_batch",
        90,
        "the request scales with the batch: halve it (and accumulate to keep the effective batch), down to 1 if need be",
        format!("{}: {} requested in one piece", at(f.line), b(r)),
    );
}

/// D2 rule 4: the job is genuinely larger than a small card. On a GPU of
/// 24 GiB or less, with no other process shown holding it, the answer
/// maintainers give is the card or the workload's size, not a training knob.
pub(super) fn small_card(f: &Facts, out: &mut Ranking) {
    const SMALL: u64 = 24 << 30;
    let Some(t) = f.capacity.filter(|&t| t <= SMALL + SMALL / 50) else { return };
    let others = f.d.numbers.other_process.is_some_and(|o| o.saturating_mul(10) >= t);
    if others || f.requested.is_some_and(|r| r > t) {
        return;
    }
    workload_larger_than_the_card(f, SMALL_CARD_SCORE, out);
}

const SMALL_CARD_SCORE: u8 = 81;

/// D2 rule 4's answer, as a concrete `other`: a card with more memory, or a
/// smaller workload.
pub(super) fn workload_larger_than_the_card(f: &Facts, score: u8, out: &mut Ranking) {
    let card = f.capacity.map_or_else(|| "the".to_string(), |t| format!("this {}", b(t)));
    let because = match f.capacity {
        Some(t) => format!("{}: the whole GPU is {}", at(f.line), b(t)),
        None => format!("{}: GPU memory ran out and nothing in the log shows training to shrink", at(f.line)),
    };
    out.add(
        "other",
        score,
        format!("the workload needs more than {card} GPU has (catalog D2 rule 4): run it on a GPU with more memory, or shrink the workload itself: a smaller variant of the model, lower resolution, fewer frames or points per call, the project's chunk or tile size"),
        because,
    );
}

/// D2 rule 2 / G-06: other processes hold the memory.
pub(super) fn other_processes(f: &Facts, out: &mut Ranking) {
    let n = &f.d.numbers;
    let Some(t) = f.capacity else { return };
    let named = n.other_process.filter(|o| o.saturating_mul(10) >= t);
    // Without process lines: the GPU is full, but PyTorch itself holds little of it.
    let unexplained = match (f.free, f.own.or(n.this_process)) {
        (Some(free), Some(own)) if named.is_none() && own > 0 => {
            let used = t.saturating_sub(free);
            (used > own && (used - own).saturating_mul(3) >= t).then(|| used - own)
        }
        _ => None,
    };
    if let Some(held) = named.or(unexplained) {
        let what = if named.is_some() { "other processes hold" } else { "something other than PyTorch holds" };
        out.add(
            "free_other_process",
            96,
            format!("{what} {} of {}: find them (nvidia-smi --query-compute-apps=pid,used_memory --format=csv), stop stale ones (ps -elf | grep python), or run on a GPU of your own (CUDA_VISIBLE_DEVICES)", b(held), b(t)),
            format!("{}: {what} {} of the {} GPU", at(f.line), b(held), b(t)),
        );
    }
    if let Some(line) = f.d.first_seen("vllm-free-memory") {
        out.add(
            "free_other_process",
            95,
            "the GPU was not empty when the engine started: stop what else runs on it, or lower --gpu-memory-utilization to the share that is free",
            format!("{}: free memory at start-up is less than gpu_memory_utilization asks for", at(line)),
        );
        out.add(
            "lower_gpu_mem_util",
            93,
            "gpu_memory_utilization is a share of the whole GPU, per engine: set it to what is free (e.g. 0.9 -> the free fraction minus a margin)",
            format!("{}: free memory is less than the utilization asked for", at(line)),
        );
    }
}

/// D2 rule 3 / G-02: reserved but unallocated memory is fragmentation.
pub(super) fn fragmentation(f: &Facts, out: &mut Ranking) {
    let Some(u) = f.d.numbers.reserved_unallocated else { return };
    let covers = f.requested.is_some_and(|r| u >= r);
    // A share of PyTorch's own memory: a few MiB left over beside a full GPU is not fragmentation.
    let share = |percent: u64| f.own.is_some_and(|own| own > 0 && u.saturating_mul(100) >= own.saturating_mul(percent));
    let large = share(10) && u >= 256 << 20;
    if !(covers || large) {
        return;
    }
    let score = if covers && share(2) { 94 } else { 80 };
    let request = f.requested.map_or_else(|| "the request".to_string(), b);
    // The wording dates the PyTorch: "cached" (<= 1.3) and "reserved in total"
    // (1.4-2.0) come from versions without expandable segments.
    let setting = if f.d.evidence.iter().any(|e| e.text.contains(" cached)")) {
        "this PyTorch (it says \"cached\") predates both allocator settings: upgrade PyTorch, or reduce the batch"
    } else if f.d.numbers.reserved_by_pytorch.is_some() {
        "export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128 before the process starts (this PyTorch's wording predates expandable_segments; after upgrading, expandable_segments:True)"
    } else {
        "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True before the process starts"
    };
    out.add(
        "expandable_segments",
        score,
        format!("{} is reserved by PyTorch but unallocated (request {request}): {setting}", b(u)),
        format!(
            "{}: {} reserved but unallocated{}",
            at(f.line),
            b(u),
            if covers { format!(", more than the {request} request") } else { String::new() }
        ),
    );
}

/// G-07: every rank created a context on GPU 0.
pub(super) fn ranks_share_a_gpu(f: &Facts, out: &mut Ranking) {
    let n = &f.d.numbers;
    let nothing_allocated = n.allocated_by_pytorch == Some(0);
    let nccl_only =
        f.stack(Stack::Nccl) && f.requested.is_none() && f.capacity.is_none() && n.allocated_by_pytorch.is_none();
    if !(nothing_allocated || nccl_only) {
        return;
    }
    let because = if nothing_allocated {
        format!("{}: PyTorch holds 0 bytes on this GPU, so the memory went to other contexts", at(f.line))
    } else {
        format!("{}: the OOM comes from NCCL's own buffers, with no PyTorch allocation figures", at(f.line))
    };
    out.add(
        "other",
        95,
        "several ranks likely share GPU 0: call torch.cuda.set_device(local_rank) before init_process_group and pass device_ids to barrier(), or give each rank one visible GPU",
        because,
    );
}

/// G-15: cuDNN or cuBLAS could not get memory for a handle or an
/// algorithm's workspace. They allocate outside the framework's allocator, at
/// their first call, so they are what fails when the GPU is already full:
/// held by another process, or taken up front by TensorFlow or XLA (F-19, F-20).
pub(super) fn workspace(f: &Facts, out: &mut Ranking) {
    const WORKSPACE: [&str; 3] = ["cublas-alloc-failed", "cudnn-alloc-failed", "cudnn-workspace"];
    let Some(line) = WORKSPACE.into_iter().find_map(|id| f.d.first_seen(id)) else { return };
    // An allocator message with a request says more than the library's complaint.
    if f.requested.is_some() {
        return;
    }
    let because = format!("{}: cuDNN/cuBLAS could not get GPU memory for their workspace", at(line));
    library_memory(f, because, out);
}

/// cuDNN or cuBLAS could not start (a look-alike: no memory words): where the
/// log does not show the GPU mostly free, a GPU already taken is the usual
/// cause (G-15, F-19, F-20), so its fixes come before a version check.
pub(super) fn library_start(f: &Facts, out: &mut Ranking) {
    let Some(line) = f.d.first_seen("gpu-library-start") else { return };
    if f.d.numbers.gpu_mostly_free() {
        return;
    }
    let because = format!("{}: cuDNN/cuBLAS could not start, most often because the GPU was already taken", at(line));
    library_memory(f, because, out);
}

/// The fixes for a library that found no room on the GPU.
fn library_memory(f: &Facts, because: String, out: &mut Ranking) {
    let preallocating = f.stack(Stack::Tensorflow) || f.stack(Stack::Jax) || f.d.has("xla");
    if preallocating {
        out.add(
            "other",
            93,
            "TensorFlow and XLA take most of the GPU up front and leave cuDNN/cuBLAS no room: TensorFlow tf.config.experimental.set_memory_growth(gpu, True) (or TF_FORCE_GPU_ALLOW_GROWTH=true); JAX XLA_PYTHON_CLIENT_PREALLOCATE=false or XLA_PYTHON_CLIENT_MEM_FRACTION=.6 (EXLA: the client's memory_fraction)",
            because.clone(),
        );
    }
    out.add(
        "free_other_process",
        92,
        "the GPU was already full when the library asked for its workspace: check nvidia-smi for other processes (or a second model on the same card) and run alone on the GPU (CUDA_VISIBLE_DEVICES)",
        because.clone(),
    );
    if !preallocating {
        out.add(
            "other",
            90,
            "the job needs more free GPU memory than the card has left: a GPU with more memory, one model per GPU, or smaller inputs (resolution, batch)",
            because,
        );
    }
}
