//! The verdict once the whole log is read: reconcile the evidence, weigh the
//! memories an OOM named, a suspicion against look-alikes, the phase and the
//! one-sentence summary.

use super::figures::Numbers;
use super::{first_seen, lookalikes, Diagnoser, Diagnosis, Evidence, Phase, GPU_MOSTLY_FREE};
use crate::memory::{MemoryKind, Stack};

impl Diagnoser {
    pub fn finish(mut self) -> Diagnosis {
        let pending = std::mem::take(&mut self.pending);
        let text = super::pasted::undo(&pending);
        self.scan(&text, text.len());
        if self.last_byte.is_some_and(|b| b != b'\n') {
            self.lines_before += 1;
        }
        // A job or container limit explains a kill better than "the node ran out";
        // a GPU message is more specific than a SIGKILL that followed it.
        let priority = [MemoryKind::JobLimit, MemoryKind::Gpu, MemoryKind::Shm, MemoryKind::Host];
        let numbers = std::mem::take(&mut self.figures).finish();
        self.reconcile(&numbers);
        self.apply_weak();
        let found = priority.into_iter().find(|k| self.oom_kinds.iter().any(|(kind, _)| kind == k));
        let oom = found.is_some();
        if let Some(line) = found.is_none().then(|| free_gpu(self.suspect, &self.seen, &numbers)).flatten() {
            self.not_oom
                .push((GPU_MOSTLY_FREE, "the GPU was mostly free when this failed, so its memory is not the cause"));
            self.seen.push((GPU_MOSTLY_FREE, line));
        }
        // A look-alike that explains the failure outweighs a mere suspicion.
        let suspect =
            self.suspect.filter(|_| self.not_oom.iter().all(|(id, _)| lookalikes::YIELD_TO_SUSPECTS.contains(id)));
        let memory = found.or(suspect.map(|(k, _)| k)).unwrap_or(MemoryKind::None);
        let phase = choose_phase(&self.phases, memory);
        // In a JAX log the word "tensorflow" is XLA's C++ path, not TensorFlow.
        if self.stack.contains(&Stack::Jax) && !self.tensorflow_itself {
            self.stack.retain(|s| *s != Stack::Tensorflow);
        }
        self.stack.sort();
        let summary = summary(oom, memory, phase, &self.not_oom, suspect, &self.evidence, self.lines_before);
        self.evidence.sort_by_key(|e| e.line);
        let oom_line = self.evidence.iter().find(|e| e.rank.0 == 0).map(|e| e.line);
        Diagnosis {
            oom,
            memory,
            stack: self.stack,
            phase,
            numbers,
            evidence: self.evidence,
            summary,
            lines: self.lines_before,
            settings: self.settings,
            frames: self.frames.around(oom_line),
            seen: self.seen,
            failure: self.failure,
            look_alikes: self.not_oom,
        }
    }
}

/// A GPU failure that only suggests memory (a cuDNN handle that could not be
/// created) while the log's own figures show most of the GPU free and nothing
/// requested: memory is ruled out. XLA prints "Memory usage: N bytes free, M
/// bytes total" beside such errors because a full GPU is the usual cause.
/// Returns the suspect's line.
fn free_gpu(suspect: Option<(MemoryKind, &str)>, seen: &[(&str, usize)], n: &Numbers) -> Option<usize> {
    let (MemoryKind::Gpu, id) = suspect? else { return None };
    if n.requested.is_some() || !n.gpu_mostly_free() {
        return None;
    }
    Some(first_seen(seen, id).unwrap_or(1))
}

/// The phase: when data loading is what died on the host, that; otherwise the
/// most specific hint in the log (a traceback that reached the optimizer also
/// ran forward, so forward comes last).
fn choose_phase(phases: &[Phase], memory: MemoryKind) -> Option<Phase> {
    if matches!(memory, MemoryKind::Host | MemoryKind::Shm | MemoryKind::JobLimit)
        && phases.contains(&Phase::Dataloader)
    {
        return Some(Phase::Dataloader);
    }
    [
        Phase::KvCacheInit,
        Phase::OptimizerStep,
        Phase::Backward,
        Phase::Generation,
        Phase::Validation,
        Phase::ModelLoad,
        Phase::Dataloader,
        Phase::Forward,
    ]
    .into_iter()
    .find(|p| phases.contains(p))
}

fn summary(
    oom: bool,
    memory: MemoryKind,
    phase: Option<Phase>,
    not_oom: &[(&str, &str)],
    suspect: Option<(MemoryKind, &str)>,
    evidence: &[Evidence],
    lines: usize,
) -> String {
    let during = phase.map(|p| format!(" during {}", p.label())).unwrap_or_default();
    if oom {
        return format!("Out of memory: {}{during}.", memory.label());
    }
    if let Some((_, what)) = not_oom.first() {
        return format!("Not an out-of-memory failure: {what}.");
    }
    if let Some((kind, id)) = suspect {
        return format!("No OOM message, but `{id}` usually means {} ran out{during}.", kind.label().to_lowercase());
    }
    let recognised = if evidence.is_empty() {
        "nothing memory-related".to_string()
    } else {
        format!("{} line(s) with memory figures", evidence.len())
    };
    format!("No OOM found in {lines} line(s); recognised {recognised}.")
}
