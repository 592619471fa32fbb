//! GPU memory: which fix the log's evidence points at (catalog D2 and §1-2).
//! Each rule adds candidates with a strength; a specific reading (the
//! request cannot fit at all, another process holds the GPU, the memory is
//! fragmented, ranks share GPU 0) outranks advice that fits any OOM.

mod allocator;
mod workload;

use super::{at, b, Ranking};
use crate::diagnose::{Diagnosis, Frame, Knob, Phase};
use crate::memory::Stack;

/// What the GPU rules read off a diagnosis, once.
pub(super) struct Facts<'a> {
    pub(super) d: &'a Diagnosis,
    /// The line of the out-of-memory message (or of the first evidence).
    pub(super) line: usize,
    pub(super) requested: Option<u64>,
    pub(super) capacity: Option<u64>,
    pub(super) free: Option<u64>,
    /// PyTorch's own allocated + reserved-but-unallocated bytes.
    pub(super) own: Option<u64>,
    pub(super) inference: bool,
    /// The log shows training: backward, an optimizer step, a loss, a
    /// training framework or a training setting.
    pub(super) training: bool,
}

impl Facts<'_> {
    pub(super) fn stack(&self, s: Stack) -> bool {
        self.d.stack.contains(&s)
    }

    pub(super) fn frame(&self, f: Frame) -> Option<usize> {
        self.d.frames.iter().rev().find(|(frame, _)| *frame == f).map(|(_, line)| *line)
    }

    /// "requested 17.66 GiB with 4.97 GiB free (12.69 GiB short): " when the log says so.
    pub(super) fn shortfall(&self) -> String {
        match (self.requested, self.free) {
            (Some(r), Some(f)) if r > f => format!("requested {} with {} free ({} short): ", b(r), b(f), b(r - f)),
            (Some(r), _) => format!("requested {}: ", b(r)),
            _ => String::new(),
        }
    }
}

fn facts(d: &Diagnosis) -> Facts<'_> {
    let n = &d.numbers;
    let line = d.oom_line().or(d.evidence.first()).map_or(1, |e| e.line);
    let own = match (n.allocated_by_pytorch, n.reserved_unallocated) {
        (None, None) => None,
        (a, u) => Some(a.unwrap_or(0) + u.unwrap_or(0)),
    };
    let training_frames = d.frames.iter().any(|(f, _)| matches!(f, Frame::Backward | Frame::OptimizerStep));
    let training = training_frames
        || d.frames.iter().any(|(f, _)| *f == Frame::CrossEntropy)
        || matches!(d.phase, Some(Phase::Backward | Phase::OptimizerStep | Phase::Validation))
        || [Stack::Deepspeed, Stack::Fsdp, Stack::Lightning, Stack::Verl].iter().any(|s| d.stack.contains(s))
        || d.settings.get(Knob::GradAccumulation).is_some()
        || d.settings.get(Knob::GradCheckpointing).is_some();
    let inference = !training_frames
        && !matches!(d.phase, Some(Phase::Backward | Phase::OptimizerStep))
        && (d.stack.contains(&Stack::Vllm)
            || matches!(d.phase, Some(Phase::Generation | Phase::KvCacheInit))
            || d.frames.iter().any(|(f, _)| *f == Frame::Generate));
    Facts {
        d,
        line,
        requested: n.requested.or(n.requested_derived_from_shape),
        capacity: n.capacity,
        free: n.free,
        own,
        inference,
        training,
    }
}

/// A look-alike with a GPU cause beside it: cuDNN or cuBLAS that could not start.
pub(super) fn library_start(d: &Diagnosis, out: &mut Ranking) {
    allocator::library_start(&facts(d), out);
}

pub(super) fn rank(d: &Diagnosis, out: &mut Ranking) {
    let f = facts(d);
    // TensorFlow's BFC warning without a failure: it retried with less memory (catalog F-19).
    if let Some(line) = d.first_seen("tf-allocator-warning").filter(|_| !d.oom) {
        out.add(
            "not_oom_fix",
            99,
            "TensorFlow says this failed allocation is not a failure: it went on with less memory (perhaps slower); if the job runs, nothing needs fixing, otherwise the error is further down the log",
            format!("{}: the allocator's warning says it is not a failure", at(line)),
        );
    }
    // DeepSpeed's cache flushes and allocation retries: the run goes on, slower.
    if let Some(line) = d.first_seen("allocator-pressure").filter(|_| !d.oom) {
        out.add(
            "not_oom_fix",
            98,
            "a warning of memory pressure, not a failure: the run goes on with the allocator flushing its cache (slower steps); if the slowdown matters, lower memory use per step (a smaller micro batch, activation checkpointing)",
            format!("{}: the allocator retried or flushed its cache and the run went on", at(line)),
        );
    }
    allocator::impossible_request(&f, out);
    allocator::small_card(&f, out);
    allocator::other_processes(&f, out);
    allocator::fragmentation(&f, out);
    allocator::ranks_share_a_gpu(&f, out);
    allocator::workspace(&f, out);
    // cuDNN/cuBLAS that could not start on a GPU the log shows nearly full (a suspect).
    allocator::library_start(&f, out);
    workload::frameworks(&f, out);
    workload::frames_and_phase(&f, out);
    workload::settings(&f, out);
    workload::defaults(&f, out);
    workload::batch_of_one(&f, out);
}
