//! What a log signature is: a needle, how it must match, and what a match
//! proves. The table of signatures is `signatures.rs`.

use crate::diagnose::figures::memcg_at_limit;
use crate::diagnose::frames::Frame;
use crate::diagnose::signatures::KILLED_WORDS;
use crate::diagnose::Phase;
use crate::memory::{MemoryKind, Stack};
use crate::scan::find_ci;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// Proves an out-of-memory failure in this memory.
    Oom(MemoryKind),
    /// Proves an out-of-memory failure; which memory is read from the line's
    /// own words (`cuda`, `gpu`, `cgroup`...), this kind when they say nothing.
    OomByContext(MemoryKind),
    /// Suggests a memory problem without proving exhaustion (a worker that
    /// "exited unexpectedly" is usually /dev/shm in containers).
    Suspect(MemoryKind),
    /// A failure that looks like an OOM but is not; says what it is.
    NotOom(&'static str),
    /// A line whose figures are read (see figures.rs).
    Figure,
    Phase(Phase),
    Stack(Stack),
    /// Which code raised, on traceback lines (see frames.rs).
    Frame(Frame),
    /// `File "…", line N`: a Python traceback line.
    Traceback,
    /// Where the job ran (WSL, Windows, a container): recorded for the fixes, not evidence.
    Context,
    /// A runtime that goes on another way after an OOM ("retrying without pipeline
    /// parallelism", TensorRT's "Skipping tactic"): an OOM it follows was not the failure.
    Fallback,
    /// A line that reports a failure (`RuntimeError: …`, `srun: error: …`,
    /// `FAILED`): the last one is kept, to say what failed when it was not memory.
    Failure,
}

#[derive(Clone, Copy, Debug)]
pub struct Signature {
    /// The name reported with the evidence line.
    pub id: &'static str,
    pub needle: &'static str,
    pub meaning: Meaning,
    /// Matched with exact case: SLURM's `task 0: Out Of Memory` must not
    /// match CUDA's `CUDA error: out of memory`.
    pub exact_case: bool,
    /// What may not touch the match: `jax` is not in `ajax`, SLURM's
    /// `OUT_OF_MEMORY` not in `CUDA_ERROR_OUT_OF_MEMORY`.
    pub boundary: Boundary,
    /// A generic wording ("out of memory"): ignored on a line where a specific
    /// signature already spoke, which knows better what ran out.
    pub generic: bool,
    /// A wording read by its shape, not a known message (`phrases.rs`): its
    /// verdict counts only where no other signature decided anything in the log.
    pub weak: bool,
    /// Other spellings of the needle (translations), with the same meaning.
    pub also: &'static [&'static str],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boundary {
    None,
    /// No letter or digit on either side.
    Word,
    /// No letter, digit or `_` on either side.
    Identifier,
}

pub(super) const fn sig(id: &'static str, needle: &'static str, meaning: Meaning) -> Signature {
    Signature {
        id,
        needle,
        meaning,
        exact_case: false,
        boundary: Boundary::None,
        generic: false,
        weak: false,
        also: &[],
    }
}

pub(super) const fn exact(id: &'static str, needle: &'static str, meaning: Meaning) -> Signature {
    Signature { exact_case: true, ..sig(id, needle, meaning) }
}

pub(super) const fn word(id: &'static str, needle: &'static str, meaning: Meaning) -> Signature {
    Signature { boundary: Boundary::Word, ..sig(id, needle, meaning) }
}

pub(super) const fn generic(id: &'static str, needle: &'static str, meaning: Meaning) -> Signature {
    Signature { generic: true, ..sig(id, needle, meaning) }
}

/// How many signatures the tables hold together.
pub(super) const fn total(tables: &[&[Signature]]) -> usize {
    let (mut t, mut n) = (0, 0);
    while t < tables.len() {
        n += tables[t].len();
        t += 1;
    }
    n
}

/// The tables joined into one at compile time, in order (`Signature` is `Copy`).
pub(super) const fn concat<const N: usize, const T: usize>(tables: [&[Signature]; T]) -> [Signature; N] {
    let mut out = [tables[0][0]; N];
    let (mut t, mut at) = (0, 0);
    while t < tables.len() {
        let mut i = 0;
        while i < tables[t].len() {
            out[at] = tables[t][i];
            at += 1;
            i += 1;
        }
        t += 1;
    }
    out
}

/// What a match proves once the rest of its line is read: a figure or a word
/// beside the needle can turn a report into proof.
/// Whether `needle` follows SIGKILL's word (`strsignal(9)` in any of [`KILLED_WORDS`]' locales).
fn killed_word_before(segment: &str, needle: &str) -> bool {
    let Some(at) = segment.find(needle) else { return false };
    let before = segment[..at].trim_end();
    KILLED_WORDS
        .iter()
        .any(|word| before.strip_suffix(word).is_some_and(|rest| !rest.ends_with(|c: char| c.is_alphanumeric())))
}

pub(super) fn refined(id: &str, segment: &str, meaning: Meaning) -> Meaning {
    match id {
        "memcg-usage-limit" if memcg_at_limit(segment) => Meaning::Oom(MemoryKind::JobLimit),
        // An enforcer that only warns ("WARNING - Process memory limit exceeded: 60.3GB / 60.2GB")
        // killed nothing yet: a limit reached (LABELLING.md rule 3).
        "memory-limit-exceeded" if super::phrases::is_warning(segment) => Meaning::Suspect(MemoryKind::JobLimit),
        // Another signal's word before gcc's "signal terminated program" (a segfault) is no kill.
        "gcc-child-killed" if !killed_word_before(segment, "signal terminated program") => Meaning::Failure,
        // SuiteSparse's CHOLMOD allocates on the host: "Cholmod error 'out of memory' at file
        // ../Core/cholmod_memory.c" (R's Matrix package) is not NCCL's quoted CUDA error.
        "nccl-cuda-oom" if find_ci(segment, "cholmod").is_some() => Meaning::Oom(MemoryKind::Host),
        // An OOM after which the batch goes on in CPU mode was the device's ("... CPU mode is
        // applied in this batch", YOLOX): the CPU is where it falls back to, not what ran out.
        "oom-word" if find_ci(segment, "CPU mode is applied").is_some() => Meaning::OomByContext(MemoryKind::Gpu),
        // detectron2 retries the op on the CPU: "Attempting to copy inputs of <function …> to CPU due
        // to CUDA OOM": the device ran short, and the run goes on (LABELLING.md rule 3).
        "oom-word" if find_ci(segment, "to CPU due to CUDA OOM").is_some() => Meaning::Suspect(MemoryKind::Gpu),
        "sglang-kv-pool" if find_ci(segment, "retracted").is_some() => Meaning::Suspect(MemoryKind::Gpu),
        // Julia's Base exception, printed as its constructor: "ERROR: LoadError: OutOfMemoryError()"
        // (CUDA.jl's is OutOfGPUMemoryError).
        "out-of-memory-error" if segment.contains("OutOfMemoryError()") => Meaning::Oom(MemoryKind::Host),
        // The caller retries with less: a suspicion until an OOM error follows.
        "tf-bfc-ran-out" if find_ci(segment, "not a failure").is_some() => Meaning::Suspect(MemoryKind::Gpu),
        // Its allocator for pinned host buffers: "Allocator (cuda_host_bfc) ran out of memory".
        "tf-bfc-ran-out" if find_ci(segment, "_host_bfc").is_some() => Meaning::Oom(MemoryKind::Host),
        // PyTorch's /torch_<pid>_<n> segments live in /dev/shm: ENOSPC there is a full /dev/shm.
        "torch-shm-file" if find_ci(segment, "No space left on device").is_some() => Meaning::Oom(MemoryKind::Shm),
        // ENOSPC on a file the line places in /dev/shm (NCCL's "failed to extend /dev/shm/nccl-..."):
        // shared memory is full, not the disk (LABELLING.md rule 2.3).
        "disk-full" if find_ci(segment, "/dev/shm").is_some() => Meaning::Oom(MemoryKind::Shm),
        // PostgreSQL's "could not resize shared memory segment \"/PostgreSQL.638321836\" to 16777216
        // bytes: No space left on device": growing the segment filled /dev/shm (rule 2.3); its
        // shmget's "could not create" is a System V id or size limit, a suspicion.
        "disk-full" if find_ci(segment, "resize shared memory segment").is_some() => Meaning::Oom(MemoryKind::Shm),
        // ... or one that only names shared memory beside it (a container's shm size in prose).
        "disk-full" if find_ci(segment, "shared memory").is_some() => Meaning::Suspect(MemoryKind::Shm),
        // A parent that names its child's SIGKILL: "Multiprocess executor: child process for step X
        // was terminated by signal 9 (SIGKILL)" (Dagster; LABELLING.md rule 2.4).
        "sigkill-exit" if find_ci(segment, "child process").is_some() => Meaning::Oom(MemoryKind::Host),
        // A worker whose parent names its SIGKILL: "exited unexpectedly (code -9)" (LABELLING.md rule 2.4).
        "dataloader-worker-exited" if super::phrases::sigkill_status(segment) => Meaning::Oom(MemoryKind::Host),
        // A kernel's on-chip shared memory, per block: "FullyFusedMLP: insufficient shared memory
        // available on the GPU" (tiny-cuda-nn) is a launch limit, not /dev/shm.
        "dataloader-shm" if find_ci(segment, "on the GPU").is_some() || find_ci(segment, "per block").is_some() => {
            Meaning::NotOom(
                "the GPU's on-chip shared memory per block (a kernel's launch limit), not /dev/shm or device memory",
            )
        }
        // App Engine's "Exceeded soft memory limit of 256 MB with 340 MB": a soft limit kills nothing.
        "memory-limit-of-exceeded" if find_ci(segment, "soft memory limit").is_some() => {
            Meaning::Suspect(MemoryKind::JobLimit)
        }
        // PyTorch's full message goes on "...out of shared memory"; without those words
        // the bus error only suggests /dev/shm (LABELLING.md rule 2.3 against rule 3).
        "dataloader-bus-error" if find_ci(segment, "shared memory").is_none() => Meaning::Suspect(MemoryKind::Shm),
        // A bus error that names shared memory beside it, in any words: "bus error, insufficient
        // shared memery (shm)" (rule 2.3).
        "sigbus" if find_ci(segment, "shm").is_some() || find_ci(segment, "shared memory").is_some() => {
            Meaning::Oom(MemoryKind::Shm)
        }
        "triton-shm" if find_ci(segment, "No space left").is_some() => Meaning::Oom(MemoryKind::Shm),
        "tcmalloc-large-alloc" if find_ci(segment, "== (nil)").is_some() => Meaning::Oom(MemoryKind::Host),
        // docker inspect's state: `"OOMKilled": false` says the limit was not hit.
        "k8s-oomkilled" if oom_killed_false(segment) => Meaning::Context,
        // Vulkan's code for one buffer over the device's per-buffer limit ("Requested buffer
        // size exceeds device buffer size limit: ErrorOutOfDeviceMemory"), which ggml survives.
        "vulkan-oom" if find_ci(segment, "buffer size limit").is_some() => Meaning::NotOom(
            "one buffer larger than the device allows per allocation (a size limit), not memory running out",
        ),
        // XLA's cuDNN autotuner: "Failed to determine best cudnn convolution algorithm: Resource
        // exhausted: Out of memory ..." goes on with another algorithm ("performance may be suboptimal").
        "xla-resource-exhausted" if find_ci(segment, "determine best cudnn convolution").is_some() => {
            Meaning::Suspect(MemoryKind::Gpu)
        }
        // A pinned host buffer that failed for want of memory, not for a driver or an argument.
        "pinned-memory" if find_ci(segment, "out of memory").is_some() => Meaning::Oom(MemoryKind::Host),
        // CUDA's own error codes also report its pinned (page-locked) host buffers:
        // TensorFlow's "failed to alloc N bytes on host: CUDA_ERROR_OUT_OF_MEMORY".
        _ => match meaning {
            Meaning::Oom(MemoryKind::Gpu) if find_ci(segment, "bytes on host").is_some() => {
                Meaning::Oom(MemoryKind::Host)
            }
            _ => meaning,
        },
    }
}

/// `"OOMKilled": false` or `OOMKilled: false`: a container state that denies the kill.
fn oom_killed_false(segment: &str) -> bool {
    find_ci(segment, "OOMKilled").is_some_and(|at| {
        let rest = segment[at + "OOMKilled".len()..].trim_start_matches(['"', ':', '=', ' ', '\t']);
        rest.get(..5).is_some_and(|word| word.eq_ignore_ascii_case("false"))
    })
}
