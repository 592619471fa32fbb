//! What the workload shows (catalog §1-2): its framework's settings, the frame
//! that raised and the phase, its own knobs, and the fixes that fit any GPU OOM.

use super::{allocator, Facts};
use crate::diagnose::{Frame, Knob, Phase};
use crate::memory::Stack;
use crate::recommend::{at, b, Ranking};

/// Framework-specific settings: JAX and TensorFlow preallocate, MPS has a
/// ceiling, vLLM budgets its KV cache, a per-process cap may be set.
pub(super) fn frameworks(f: &Facts, out: &mut Ranking) {
    let d = f.d;
    let n = &d.numbers;
    // XLA's own allocator messages, in JAX or any XLA runtime (not TPU HBM, which is not preallocated).
    let xla = ["xla-failed-to-allocate", "xla-resource-exhausted", "xla"].into_iter().find_map(|id| d.first_seen(id));
    if (f.stack(Stack::Jax) || xla.is_some()) && !d.has("tpu-hbm-oom") {
        out.add(
            "other",
            84,
            "XLA (JAX) preallocates 75% of the GPU at the first operation: with another process on the GPU set XLA_PYTHON_CLIENT_PREALLOCATE=false, or give each a share with XLA_PYTHON_CLIENT_MEM_FRACTION (e.g. .45); alone on the GPU, the computation itself is too big: smaller batch",
            format!("{}: an XLA allocation failed", at(xla.unwrap_or(f.line))),
        );
    }
    if let Some(line) = d.first_seen("tpu-hbm-oom") {
        let padding = d.first_seen("tpu-padding");
        out.add(
            "other",
            if padding.is_some() { 92 } else { 86 },
            if padding.is_some() {
                "TPU tiles pad small trailing dimensions (to 8x128): reorder or reshape the big tensor so its last two dimensions are large, then look at the 'Extra memory due to padding' lines again"
            } else {
                "TPU HBM is per core: shard the model and batch over more cores (a larger slice, a mesh / pjit sharding) or a TPU generation with more HBM; a smaller per-core batch otherwise"
            },
            format!("{}: {}", at(padding.unwrap_or(line)), if padding.is_some() { "the HBM breakdown shows memory lost to padding" } else { "a TPU core's HBM is what ran out" }),
        );
    }
    if let Some(line) = d.first_seen("vllm-preempted") {
        out.add(
            "lower_gpu_mem_util",
            92,
            "give the KV cache more room: raise gpu_memory_utilization (e.g. 0.9 -> 0.95) or tensor_parallel_size; or lower max_num_seqs",
            format!("{}: vLLM preempted sequences for lack of KV cache blocks", at(line)),
        );
        out.add(
            "smaller_seq_len",
            86,
            "fewer concurrent sequences (max_num_seqs) or a shorter max_model_len",
            format!("{}: the KV cache is full", at(line)),
        );
    }
    if f.stack(Stack::Tensorflow) {
        out.add(
            "free_other_process",
            74,
            "TensorFlow grabs the whole GPU at start: check nothing else runs on it, and share deliberately with tf.config.experimental.set_memory_growth(gpu, True) (or TF_FORCE_GPU_ALLOW_GROWTH=true)",
            format!("{}: a TensorFlow allocation failed", at(f.line)),
        );
    }
    if f.stack(Stack::Mps) {
        out.add(
            "other",
            92,
            format!("Apple MPS ran out{}: use a smaller model or lower precision; PYTORCH_MPS_HIGH_WATERMARK_RATIO only moves the limit (and can freeze the machine)", f.requested.map(|r| format!(" asking for {}", b(r))).unwrap_or_default()),
            format!("{}: the MPS backend (unified memory shared with macOS) is out of memory", at(f.line)),
        );
    }
    if let (Some(cap), Some(free)) = (n.max_allowed, f.free) {
        if !f.stack(Stack::Mps) && free > f.requested.unwrap_or(0) {
            out.add(
                "other",
                93,
                format!("a per-process cap of {} is set while {} is free: raise torch.cuda.set_per_process_memory_fraction or remove it", b(cap), b(free)),
                format!("{}: {} allowed while {} is free", at(f.line), b(cap), b(free)),
            );
        }
    }
    let kv_signature = ["vllm-kv-too-small", "vllm-kv-needed", "vllm-no-kv-memory", "vllm-zero-blocks"]
        .into_iter()
        .find_map(|id| d.first_seen(id));
    // vLLM takes gpu_memory_utilization of the GPU for weights and KV cache
    // up front; an allocation outside that plan (activations, an encoder, the
    // sampler) gets only the rest.
    let planned = kv_signature.is_some() || d.has("vllm-preempted") || d.has("vllm-free-memory");
    if f.stack(Stack::Vllm) && !planned {
        let util = d.settings.fraction(Knob::GpuMemUtil);
        out.add(
            "lower_gpu_mem_util",
            89,
            match util {
                Some(u) => format!("gpu_memory_utilization {u} leaves {:.0}% of the GPU for everything outside the KV cache: lower it ({u} -> {:.2}) so activations fit", (1.0 - u) * 100.0, (u - 0.1).max(0.1)),
                None => "vLLM keeps 90% of the GPU (gpu_memory_utilization 0.9) for weights and KV cache: lower it (e.g. 0.9 -> 0.8) so activations fit".into(),
            },
            format!("{}: vLLM ran out of GPU memory outside the KV cache it plans for", at(f.line)),
        );
    }
    if let Some(line) = kv_signature {
        let tokens = n
            .kv_cache_tokens
            .map(|k| format!("--max-model-len {k} or less (the KV cache holds {k} tokens)"))
            .unwrap_or_else(|| "a smaller --max-model-len (vLLM prints the largest that fits)".into());
        let util = d.settings.fraction(Knob::GpuMemUtil);
        // No room for any block, or a cache nearly long enough: a little more
        // of the GPU closes the gap (vLLM's own advice) without a shorter
        // context. A cache far shorter than max_model_len needs the context cut.
        let nearly = match (n.kv_cache_tokens, n.max_seq_len_tokens) {
            (Some(kv), Some(len)) => kv.saturating_mul(4) >= len.saturating_mul(3),
            // No figures: vLLM found no memory at all for KV cache blocks.
            _ => d.has("vllm-no-kv-memory") || d.has("vllm-zero-blocks"),
        };
        let room_to_raise = util.is_none_or(|u| u < 0.95);
        let (seq_score, util_score) = if nearly && room_to_raise { (90, 94) } else { (94, 90) };
        out.add(
            "smaller_seq_len",
            seq_score,
            tokens,
            format!("{}: the KV cache cannot hold one sequence of max_model_len", at(line)),
        );
        out.add(
            "lower_gpu_mem_util",
            util_score,
            match util {
                Some(u) => format!("gpu_memory_utilization {u}: on a GPU of its own raise it (e.g. {u} -> {:.2}) for more KV cache; when the engine shares the GPU, set it to the free share", (u + 0.05).min(0.95)),
                None => "on a GPU of its own, raise --gpu-memory-utilization (default 0.9) for more KV cache; when the engine shares the GPU, set it to the free share".into(),
            },
            format!("{}: the KV cache is what did not fit", at(line)),
        );
        out.add(
            "quantize",
            70,
            "quantised weights (AWQ/GPTQ/FP8) or --kv-cache-dtype fp8 leave more of the GPU to the KV cache",
            format!("{}: weights and KV cache share the GPU", at(line)),
        );
    }
}

/// The frame that raised and the phase (catalog G-08, G-10, G-12, G-14, G-18).
pub(super) fn frames_and_phase(f: &Facts, out: &mut Ranking) {
    let d = f.d;
    let frame_or_phase = |frame: Frame, phase: Phase| {
        f.frame(frame).map(|line| format!("{}: the traceback goes through {}", at(line), frame.label())).or_else(|| {
            (d.phase == Some(phase)).then(|| format!("{}: it failed during the {}", at(f.line), phase.label()))
        })
    };
    // 8-bit optimizers, FSDP/ZeRO and offload are PyTorch's answers; TensorFlow and JAX have none of them.
    let pytorch = !(f.stack(Stack::Tensorflow) || f.stack(Stack::Jax)) || f.stack(Stack::Pytorch);
    if let Some(because) = frame_or_phase(Frame::OptimizerStep, Phase::OptimizerStep).filter(|_| pytorch) {
        // Under DeepSpeed or FSDP the configured sharding is the first knob (a higher ZeRO stage).
        let sharded = f.stack(Stack::Deepspeed) || f.stack(Stack::Fsdp);
        if sharded {
            out.add("shard_fsdp_zero", 90, "shard optimizer state further: a higher ZeRO stage (1 -> 2 -> 3) or FSDP FULL_SHARD, over all the GPUs", because.clone());
        }
        out.add("quantize", 88, "optimizer state is created at the first step: an 8-bit optimizer keeps 2 bytes per parameter instead of 8 (bitsandbytes AdamW8bit); torch.optim.Adam(foreach=False) also drops one parameter-sized temporary", because.clone());
        out.add(
            "shard_fsdp_zero",
            85,
            "shard optimizer state over the GPUs (ZeRO-1/2, FSDP SHARD_GRAD_OP)",
            because.clone(),
        );
        out.add(
            "cpu_offload",
            80,
            "offload optimizer state to CPU (FSDP CPUOffload, DeepSpeed offload_optimizer)",
            because,
        );
    }
    if let Some(because) = frame_or_phase(Frame::Backward, Phase::Backward) {
        out.add("grad_checkpointing", 86, "backward keeps every activation of the forward: checkpoint them (HF gradient_checkpointing=True; torch.utils.checkpoint)", because.clone());
        out.add(
            "reduce_batch",
            87,
            format!("{}activations scale with the micro batch: {}", f.shortfall(), halve(f)),
            because,
        );
    }
    if let Some(line) = f.frame(Frame::Attention) {
        let because = format!("{}: the traceback goes through {}", at(line), Frame::Attention.label());
        out.add("smaller_seq_len", 85, "attention memory grows with the square of the sequence: shorter sequences (max_length / max_seq_len), or memory-efficient attention (attn_implementation=\"sdpa\" or flash_attention_2)", because.clone());
        out.add("reduce_batch", 86, format!("{}{}", f.shortfall(), halve(f)), because);
    }
    if let Some(line) = f.frame(Frame::CrossEntropy) {
        let because = format!("{}: the traceback goes through {}", at(line), Frame::CrossEntropy.label());
        out.add(
            "reduce_batch",
            88,
            format!("{}the logits are batch x sequence x vocabulary floats: {}", f.shortfall(), halve(f)),
            because.clone(),
        );
        out.add(
            "smaller_seq_len",
            83,
            "shorter sequences shrink the logits (batch x sequence x vocabulary) in proportion",
            because,
        );
    }
    if let Some(line) = f.frame(Frame::Embedding) {
        out.add(
            "reduce_batch",
            85,
            format!("{}{}", f.shortfall(), halve(f)),
            format!("{}: the traceback goes through {}", at(line), Frame::Embedding.label()),
        );
    }
    if let Some(line) = f.frame(Frame::TorchLoad) {
        out.add(
            "other",
            91,
            "torch.load puts tensors back on the GPU they were saved from: torch.load(path, map_location=\"cpu\"), then move what is needed",
            format!("{}: the traceback goes through torch.load", at(line)),
        );
    }
    let loading = f
        .frame(Frame::FromPretrained)
        .map(|l| (l, true))
        .or((d.phase == Some(Phase::ModelLoad)).then_some((f.line, false)));
    if let Some((line, from_frame)) = loading {
        let because = if from_frame {
            format!("{}: the traceback goes through {}", at(line), Frame::FromPretrained.label())
        } else {
            format!("{}: it failed while loading the model", at(line))
        };
        out.add("mixed_precision", 90, "load in 16-bit: from_pretrained(..., torch_dtype=torch.bfloat16) (or torch_dtype=\"auto\"); older transformers load fp32 by default", because.clone());
        out.add(
            "quantize",
            86,
            "8/4-bit weights if 16-bit still does not fit (BitsAndBytesConfig(load_in_4bit=True))",
            because.clone(),
        );
        out.add("cpu_offload", 80, "device_map=\"auto\" with max_memory keeps what does not fit on the CPU", because);
    }
    let generating = f.frame(Frame::Generate).or((d.phase == Some(Phase::Generation)).then_some(f.line));
    if let Some(line) = generating {
        let because = format!("{}: it failed while generating", at(line));
        out.add("smaller_seq_len", 87, "fewer concurrent sequences or max_new_tokens; the KV cache grows with batch x tokens (HF: cache_implementation=\"offloaded\")", because.clone());
        out.add("reduce_batch", 86, format!("{}generate for fewer prompts at once", f.shortfall()), because.clone());
        out.add(
            "quantize",
            80,
            "4/8-bit weights leave more of the GPU to activations and the KV cache",
            because.clone(),
        );
        out.add(
            "cpu_offload",
            76,
            "offload what is idle (diffusers enable_model_cpu_offload(); device_map=\"auto\")",
            because,
        );
    }
    if d.phase == Some(Phase::Validation) {
        let because = format!("{}: it failed during validation", at(f.line));
        out.add("other", 88, "wrap evaluation in torch.inference_mode() (model.eval() alone still builds graphs) and use a smaller eval batch; in HF Trainer set eval_accumulation_steps", because.clone());
        out.add(
            "reduce_batch",
            84,
            format!("{}a smaller eval batch (per_device_eval_batch_size)", f.shortfall()),
            because,
        );
    }
}

/// The job's own settings: a batch to halve, fp32 to halve, a feature already on.
pub(super) fn settings(f: &Facts, out: &mut Ranking) {
    let s = &f.d.settings;
    if let Some(batch) = s.get(Knob::MicroBatch).filter(|_| s.number(Knob::MicroBatch).is_some_and(|b| b >= 2)) {
        out.add(
            "reduce_batch",
            89,
            format!("{}{}", f.shortfall(), halve(f)),
            format!("{}: {}={}", at(batch.line), batch.name, batch.value),
        );
    }
    if let Some(dtype) = s.get(Knob::Dtype).filter(|d| d.value.to_ascii_lowercase().contains("32")) {
        out.add(
            "mixed_precision",
            88,
            format!("{} is 4 bytes a value: bf16 (torch_dtype=torch.bfloat16, or autocast for compute) halves weights and activations", dtype.value),
            format!("{}: {}={}", at(dtype.line), dtype.name, dtype.value),
        );
    }
    if s.get(Knob::GradCheckpointing).is_some_and(|g| g.value.eq_ignore_ascii_case("true") || g.value == "1") {
        out.remove("grad_checkpointing");
    }
}

/// What fits any GPU OOM, weaker than anything the log pointed at.
pub(super) fn defaults(f: &Facts, out: &mut Ranking) {
    let because = format!("{}: GPU memory ran out; nothing in the log points at a more specific cause", at(f.line));
    out.add("reduce_batch", 80, format!("{}{}", f.shortfall(), halve(f)), because.clone());
    if f.inference {
        out.add("smaller_seq_len", 76, "shorter inputs or fewer concurrent sequences", because.clone());
        out.add("quantize", 74, "4/8-bit weights", because.clone());
        out.add(
            "cpu_offload",
            70,
            "offload idle weights to CPU (device_map=\"auto\", enable_model_cpu_offload())",
            because,
        );
        return;
    }
    // Unless the log shows this process held most of the GPU, a second
    // process on the card is the commonest answer in public threads (G-06).
    let held_by_this = f
        .own
        .or(f.d.numbers.this_process)
        .zip(f.capacity)
        .is_some_and(|(own, t)| own.saturating_mul(10) >= t.saturating_mul(8));
    if !held_by_this && !f.stack(Stack::Mps) {
        out.add(
            "free_other_process",
            if f.training { 60 } else { 73 },
            "check what else holds the GPU (nvidia-smi --query-compute-apps=pid,used_memory --format=csv): a stale process, a second model or another user's job; run alone on it (CUDA_VISIBLE_DEVICES)",
            format!("{}: GPU memory ran out and the log does not show how much of it this process held", at(f.line)),
        );
    }
    if !f.training {
        // Nothing shows training: in the threads (the dev split), the answer
        // after a smaller batch is most often D2 rule 4's, the card or the
        // workload's size (`small_card` gives it for a card the log sizes);
        // half precision and smaller weights come next, the training-only fixes after.
        if f.capacity.is_none() {
            allocator::workload_larger_than_the_card(f, 71, out);
        }
        out.add(
            "mixed_precision",
            70,
            "run in half precision: torch_dtype=torch.float16 / bfloat16 (or model.half()) for weights and activations",
            because.clone(),
        );
        out.add(
            "quantize",
            66,
            "8/4-bit weights (bitsandbytes, GPTQ/AWQ) if half precision still does not fit",
            because.clone(),
        );
    }
    let multi_gpu = f.stack(Stack::Deepspeed) || f.stack(Stack::Fsdp) || f.stack(Stack::Nccl);
    out.add(
        "grad_checkpointing",
        if f.training { 72 } else { 64 },
        "checkpoint activations (HF gradient_checkpointing=True; verl enable_gradient_checkpointing=True)",
        because.clone(),
    );
    let batch = f.d.settings.number(Knob::MicroBatch);
    out.add("grad_accumulation", if f.training { 68 } else { 62 }, format!("with a smaller micro batch, set accumulate_grad_batches / gradient_accumulation_steps so micro batch x steps x GPUs stays the same{}", batch.map(|bs| format!(" ({bs} x 1 -> {} x 2)", bs / 2)).unwrap_or_default()), because.clone());
    out.add("mixed_precision", 62, "train in bf16 (autocast) if the run is in fp32", because.clone());
    out.add(
        "shard_fsdp_zero",
        if multi_gpu { 70 } else { 58 },
        "shard model states over the GPUs: FSDP FULL_SHARD or DeepSpeed ZeRO-3",
        because.clone(),
    );
    out.add("cpu_offload", 55, "offload parameters and optimizer state to CPU", because);
}

/// A micro batch of 1 cannot be halved: one sample is itself too large
/// (catalog G-01: "goes away with smaller batch or sequence length").
pub(super) fn batch_of_one(f: &Facts, out: &mut Ranking) {
    let Some(batch) = f.d.settings.get(Knob::MicroBatch).filter(|_| f.d.settings.number(Knob::MicroBatch) == Some(1))
    else {
        return;
    };
    out.remove("reduce_batch");
    out.add(
        "smaller_seq_len",
        86,
        "one sample is already too large: shorter sequences or audio segments (max_length, max duration), smaller images or crops, or chunked processing",
        format!("{}: {}={}, so the batch cannot be halved", at(batch.line), batch.name, batch.value),
    );
}

/// "halve the micro batch 32 -> 16 and accumulate 2 steps to keep the effective batch 32".
fn halve(f: &Facts) -> String {
    match f.d.settings.number(Knob::MicroBatch) {
        Some(bs) if bs >= 2 => {
            format!("halve the micro batch {bs} -> {} and accumulate 2 steps to keep the effective batch {bs}", bs / 2)
        }
        _ => "halve the micro batch and accumulate 2 steps to keep the effective batch".into(),
    }
}
