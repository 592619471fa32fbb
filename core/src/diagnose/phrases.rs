//! Messages no table lists, read by their shape: a memory word beside a word
//! of running out ("Device memory allocation of size N failed", "Memory limit
//! of 2048M exceeded"), a process ended by SIGKILL or exit status 137, shared
//! memory that failed. Every new collection of real logs brought wordings
//! that no signature held; these readings catch the next ones. They are weak
//! (`Signature::weak`): a verdict from them counts only where no signature of
//! the table decided anything in the whole log, so they never overrule a
//! known message or a look-alike. Part of `signatures::SIGNATURES`.

use super::lines;
use super::signature::{Boundary, Meaning, Signature};
use crate::memory::MemoryKind;
use crate::scan::find_ci;

/// How far from its trigger a memory word may stand and still be its subject.
const REACH: usize = 60;

const fn phrase(id: &'static str, needle: &'static str) -> Signature {
    Signature {
        id,
        needle,
        meaning: Meaning::OomByContext(MemoryKind::Host),
        exact_case: false,
        boundary: Boundary::None,
        generic: true,
        weak: true,
        also: &[],
    }
}

/// Words that say something ran out; each is read together with a memory word near it.
const RUNNING_OUT: &[&str] = &[
    "exceeded",
    "exceeds",
    "exceeding",
    "insufficient",
    // A common misspelling in apps' own banners ("you have unsufficient VRAM").
    "unsufficient",
    "not enough",
    // "you may not have enough available memory" (ollama), "doesn't have enough RAM".
    "not have enough",
    "n't have enough",
    "too little",
    "exhausted",
    "exhaustion",
    "ran out",
    "run out",
    "running out",
    "gone over",
    "went over",
    "quota",
    "too much",
    "excessive",
    "killed",
    "reached",
];

/// Words that say an allocation failed: memory, unless the line names another
/// resource (a port, an address, a node).
const ALLOCATION_FAILED: &[&str] = &[
    "failed to alloc",
    "fail to alloc",
    "failed to reserve",
    "unable to alloc",
    "unable to reserve",
    "could not alloc",
    "couldn't alloc",
    "cannot alloc",
    "can't alloc",
    "can not alloc",
    "could not be allocated",
    "allocation failed",
    "allocation failure",
    "alloc failed",
    "allocation of",
    "cannot enlarge",
    "failed to grow",
    "unable to grow",
];

/// A process that died with no cause given: the contract's worker that "exited
/// unexpectedly", in words no table spells out ("the worker crashed
/// unexpectedly", "process has died", "got killed"). Most often the OOM
/// killer, so a suspicion of host memory (LABELLING.md rule 3).
const DIED: &[&str] = &[
    "died unexpectedly",
    "terminated unexpectedly",
    "crashed unexpectedly",
    "quit unexpectedly",
    "exited prematurely",
    "terminated abruptly",
    "has died",
    "process died",
    "was killed",
    "got killed",
    "been killed",
    "gets killed",
];

/// A process killed by SIGKILL, in words no table spells out.
const KILLED_BY_SIGNAL_9: &[&str] =
    &["signal 9", "signal: 9", "signal=9", "signal -9", "signal=-9", "signal: -9", "kill -9"];

pub(super) const PHRASES: &[Signature] = &[
    Signature { also: RUNNING_OUT.split_at(1).1, ..phrase("memory-phrase", RUNNING_OUT[0]) },
    Signature { also: ALLOCATION_FAILED.split_at(1).1, ..phrase("allocation-phrase", ALLOCATION_FAILED[0]) },
    // "Out of GPU memory trying to allocate" (CUDA.jl), "System is out of GPU memory" (Cycles):
    // running out of a memory the table's "out of memory" does not name.
    Signature { boundary: Boundary::Word, ..phrase("out-of-named-memory-phrase", "out of") },
    // An error's name in any runtime's spelling: System.OutOfMemoryException, "Error Code 2: OutOfMemory".
    Signature { also: &["out_of_memory"], ..phrase("oom-identifier", "outofmemory") },
    Signature {
        boundary: Boundary::Identifier,
        meaning: Meaning::Suspect(MemoryKind::Host),
        ..phrase("sigkill-phrase", "SIGKILL")
    },
    Signature {
        boundary: Boundary::Word,
        meaning: Meaning::Suspect(MemoryKind::Host),
        also: KILLED_BY_SIGNAL_9.split_at(1).1,
        ..phrase("sigkill-phrase", KILLED_BY_SIGNAL_9[0])
    },
    Signature {
        boundary: Boundary::Word,
        meaning: Meaning::Suspect(MemoryKind::Host),
        ..phrase("exit-137-phrase", "137")
    },
    // A negative status is a signal: "returned non-zero exit status -9" (Python's subprocess),
    // "ERROR: error code -9" (DIGITS): a parent reporting its child's SIGKILL, as a
    // launcher's "exitcode: -9" (corpus/LABELLING.md rule 2.4).
    Signature {
        boundary: Boundary::Word,
        meaning: Meaning::Oom(MemoryKind::Host),
        ..phrase("exit-minus-9-phrase", "-9")
    },
    Signature {
        meaning: Meaning::Suspect(MemoryKind::Shm),
        also: &["shared memory"],
        ..phrase("shm-phrase", "/dev/shm")
    },
    Signature {
        boundary: Boundary::Word,
        meaning: Meaning::Suspect(MemoryKind::Host),
        also: DIED.split_at(1).1,
        ..phrase("death-phrase", DIED[0])
    },
    // ggml's context buffer came back NULL: "GGML_ASSERT(ctx->mem_buffer != NULL) failed". A
    // suspicion, and a weak one: the allocation's own "failed to allocate N bytes" says more.
    Signature { meaning: Meaning::Suspect(MemoryKind::Host), ..phrase("ggml-mem-buffer-phrase", "mem_buffer != NULL") },
    // nvidia-smi's table with a card's memory all but full: "|  16273MiB / 16280MiB |". A limit
    // close to hit, which the contract calls a suspicion (LABELLING.md rule 3).
    Signature { meaning: Meaning::Suspect(MemoryKind::Gpu), ..phrase("nvidia-smi-full", "MiB / ") },
];

/// Whether the weak signature `id`, found at `line[start..end]`, reads as its
/// meaning there: a memory word for a word of running out, an exit status
/// for 137, a failure for shared memory; nothing that names another cause.
pub(super) fn reads(id: &str, line: &str, start: usize, end: usize) -> bool {
    let segment = lines::segment(line, 0, line.len(), start);
    let offset = segment.as_ptr() as usize - line.as_ptr() as usize;
    let (start, end) = (start - offset, end - offset);
    match id {
        // The phrase's own "not" ("does not have enough") denies nothing: only the words around it can.
        "memory-phrase" => {
            memory_word_near(segment, start, end)
                && !names_another_cause(&segment[..start])
                && !names_another_cause(&segment[end..])
        }
        "allocation-phrase" => {
            // "allocation of size N" says nothing failed until the line says so.
            let failed = !segment[start..end].eq_ignore_ascii_case("allocation of")
                || find_ci(&segment[end..], "fail").is_some();
            // Podman's "allocating lock for new container: allocation failed; exceeded num_locks".
            const OTHER_RESOURCES: [&str; 11] = [
                "port",
                "ports",
                "address",
                "addresses",
                "node",
                "nodes",
                "resource",
                "resources",
                "ip",
                "lock",
                "locks",
            ];
            failed && !names_another_cause(segment) && !OTHER_RESOURCES.iter().any(|w| word_in(segment, w))
        }
        "out-of-named-memory-phrase" => memory_named_after(&segment[end..]) && !names_another_cause(segment),
        "oom-identifier" => !names_another_cause(segment),
        // A death the line explains otherwise: a timeout, another signal, a user.
        "death-phrase" => {
            const OTHER_ENDS: [&str; 11] = [
                "timeout",
                "timed out",
                // A supervisor's liveness check: "killed because a heartbeat was not received".
                "heartbeat",
                "SIGTERM",
                "SIGSEGV",
                "SIGABRT",
                "segmentation",
                "by user",
                "cancel",
                "interrupt",
                "signal 15",
            ];
            !names_another_cause(segment) && !OTHER_ENDS.iter().any(|w| find_ci(segment, w).is_some())
        }
        "sigkill-phrase" => !names_another_cause(segment),
        "nvidia-smi-full" => nvidia_smi_full(segment, start, end),
        "exit-137-phrase" | "exit-minus-9-phrase" => exit_status_before(&segment[..start]),
        "shm-phrase" => {
            const FAILED: [&str; 13] = [
                "no space",
                "full",
                "insufficient",
                "not enough",
                "out of",
                "unable",
                "fail",
                "cannot",
                "can't",
                "could not",
                "exceed",
                "100%",
                "has only",
            ];
            // Removing a segment someone else removed ("unlink shared memory ... failed, error:
            // No such file or directory") is not a full /dev/shm.
            FAILED.iter().any(|w| find_ci(segment, w).is_some())
                && !names_another_cause(segment)
                && find_ci(segment, "No such file").is_none()
        }
        _ => true,
    }
}

/// Runtimes that allocate on an accelerator unless they name the host:
/// XLA's and TensorFlow's RESOURCE_EXHAUSTED, TensorRT, ONNX Runtime's arena
/// (LABELLING.md rule 5), the Gaudi bridge's device memory.
const ACCELERATOR_RUNTIMES: [&str; 6] =
    ["resource_exhausted", "resource exhausted", "tensorrt", "[trt]", "onnxruntime", "devmem"];

/// What a weak match proves once read: which memory the line names (shared
/// memory, a device, a limit, else the host), and a suspicion only where the
/// line is a warning or hedges.
pub(super) fn meaning(id: &str, segment: &str, end: usize, meaning: Meaning) -> Meaning {
    if !matches!(id, "memory-phrase" | "allocation-phrase" | "oom-identifier" | "out-of-named-memory-phrase") {
        return meaning;
    }
    let named = |words: &[&str]| words.iter().any(|w| find_ci(segment, w).is_some());
    let kind = if names_shared_memory(segment) {
        MemoryKind::Shm
    } else if named(&["pinned", "host_malloc"]) {
        // A page-locked staging buffer is host memory, whichever device it serves.
        MemoryKind::Host
    } else if let Some(kind) = lines::memory_named(segment) {
        kind
    } else if (named(&["limit", "quota"]) && named(&["exceed", "over", "reach", "hit"]))
        || (named(&["container", "cgroup", "pod"]) && named(&["killed", "exceed"]))
    {
        MemoryKind::JobLimit
    } else if named(&ACCELERATOR_RUNTIMES) {
        MemoryKind::Gpu
    } else {
        MemoryKind::Host
    };
    if is_warning(segment) || hedges(segment, end.min(segment.len())) {
        Meaning::Suspect(kind)
    } else {
        Meaning::Oom(kind)
    }
}

/// nvidia-smi's memory cell, used over total, in a table row: at least FULL of the card in use.
fn nvidia_smi_full(segment: &str, start: usize, end: usize) -> bool {
    const FULL: f64 = 0.97;
    let used = segment[..start].rsplit(|c: char| !c.is_ascii_digit()).next().and_then(|n| n.parse::<f64>().ok());
    let total = segment[end..].split(|c: char| !c.is_ascii_digit()).next().and_then(|n| n.parse::<f64>().ok());
    let cell = segment[..start].trim_end_matches(|c: char| c.is_ascii_digit()).trim_end().ends_with('|')
        && segment[end..].trim_start_matches(|c: char| c.is_ascii_digit()).starts_with("MiB |");
    match (used, total) {
        (Some(used), Some(total)) if cell && total > 0.0 => used / total >= FULL,
        _ => false,
    }
}

/// "GPU memory", "device memory", "video RAM": at most two words that say
/// whose memory, then a memory word. A number between ("3 out of 16 GB memory")
/// makes it a share of the memory, not its end.
fn memory_named_after(after: &str) -> bool {
    const WORDS: [&str; 6] = ["memory", "mem", "ram", "vram", "heap", "hbm"];
    // A terminal's colour code closing the line ("Out of GPU memory\x1b[0m") is no part of a word.
    let after = match after.contains('\u{1b}') {
        true => std::borrow::Cow::Owned(lines::clean(after)),
        false => std::borrow::Cow::Borrowed(after),
    };
    let mut words = after.split_ascii_whitespace();
    (0..3).map_while(|_| words.next()).any(|word| {
        let word = word.trim_end_matches(|c: char| c.is_ascii_punctuation());
        WORDS.iter().any(|w| word.eq_ignore_ascii_case(w))
    }) && after.split_ascii_whitespace().take(3).all(|w| !w.starts_with(|c: char| c.is_ascii_digit()))
}

/// A memory word (memory, mem, RAM, VRAM, heap, HBM, swap) standing as a word
/// within REACH bytes of `segment[start..end]`.
fn memory_word_near(segment: &str, start: usize, end: usize) -> bool {
    const WORDS: [&str; 7] = ["memory", "mem", "ram", "vram", "heap", "hbm", "swap"];
    let mut from = start.saturating_sub(REACH);
    while !segment.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (end + REACH).min(segment.len());
    while !segment.is_char_boundary(to) {
        to += 1;
    }
    WORDS.iter().any(|word| word_in(&segment[from..to], word))
}

/// Words that put the failure elsewhere, though the line speaks of memory:
/// a bad address, a leak report, a per-object or per-block size limit,
/// locked memory, the disk, a scheduler refusing a request, a device taken
/// by another job, a sentence that denies it.
fn names_another_cause(segment: &str) -> bool {
    const ELSEWHERE: [&str; 32] = [
        "does not",
        "doesn't",
        "did not",
        "didn't",
        "is not",
        "isn't",
        "rather than",
        "occupied",
        "memory access",
        "memory leak",
        "memory_format",
        "memory format",
        "pin_memory",
        "pin memory",
        "memory-efficient",
        "memory efficient",
        "locked memory",
        "memlock",
        "size limit",
        "per block",
        "max alloc",
        "max size",
        "maximum size",
        "hardware limit",
        "out of resource",
        "permission",
        "disk",
        "storage",
        "file descriptor",
        "open files",
        "submit",
        "schedul",
    ];
    ELSEWHERE.iter().any(|w| find_ci(segment, w).is_some())
}

fn names_shared_memory(segment: &str) -> bool {
    ["shared memory", "/dev/shm"].iter().any(|w| find_ci(segment, w).is_some())
}

/// A warning line: "WARN", "Warning:", TensorRT's "[W]", glog's "W0102 ..." and
/// TensorFlow's "2019-11-19 17:13:26.913409: W tensorflow/...".
pub(super) fn is_warning(segment: &str) -> bool {
    let t = lines::clean(segment);
    let t = t.trim_start();
    let glog = t.len() > 5 && t.as_bytes()[0] == b'W' && t.as_bytes()[1..5].iter().all(u8::is_ascii_digit);
    glog || t.contains("[W]") || t.contains(": W ") || word_in(t, "warn") || word_in(t, "warning")
}

/// A line that only supposes it: "may not be enough memory", "possibly out of
/// memory", a question ("Not Enough GPU memory? INTERNAL: ..."), a condition
/// ("If there is none then your RAM was full"), a soft limit or one touched
/// "at some point" (nothing was killed), or one that goes on another way
/// ("Memory not enough to fit folds in parallel. Will do sequential fitting instead.").
fn hedges(segment: &str, end: usize) -> bool {
    let sentence = segment[end..].split(['.', '!', ';']).next().unwrap_or("");
    let opening = segment[..end].rsplit(['.', '!', ';']).next().unwrap_or("");
    ["may", "might", "possibly", "probably", "likely", "perhaps"].iter().any(|w| word_in(segment, w))
        || ["soft limit", "at some point"].iter().any(|w| find_ci(segment, w).is_some())
        || sentence.contains('?')
        || word_in(opening, "if")
        || word_in(segment, "instead")
}

fn word_in(text: &str, word: &str) -> bool {
    let bytes = text.as_bytes();
    crate::scan::find_all_ci(text, word).any(|at| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + word.len()).copied();
        !before.is_some_and(|b| b.is_ascii_alphanumeric()) && !after.is_some_and(|b| b.is_ascii_alphanumeric())
    })
}

/// A child's exit status of -9 (SIGKILL) named on the line: "exited unexpectedly (code -9)".
pub(super) fn sigkill_status(segment: &str) -> bool {
    crate::scan::find_all_ci(segment, "-9").any(|at| {
        let after = segment.as_bytes().get(at + 2);
        !after.is_some_and(u8::is_ascii_alphanumeric) && exit_status_before(&segment[..at])
    })
}

/// "exit status (137)", "Exited (137)", "exitCode: 137", "Error 137", "rc=137":
/// an exit status word, then only spaces and punctuation, then the number.
fn exit_status_before(before: &str) -> bool {
    const STATUS: [&str; 6] = ["exited", "exit", "status", "code", "rc", "error"];
    // One status of several: "failed with return code list: [1, 137, 137]".
    let before = match before.rfind('[') {
        Some(at) if before[at + 1..].bytes().all(|b| b.is_ascii_digit() || b", -".contains(&b)) => {
            let head = before[..at].trim_end_matches(|c: char| c.is_ascii_whitespace() || c == ':');
            head.strip_suffix("list").unwrap_or(head)
        }
        _ => before,
    };
    let word = before.trim_end_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_punctuation());
    let lower = word.get(word.len().saturating_sub(6)..).unwrap_or(word).to_ascii_lowercase();
    STATUS.iter().any(|w| {
        lower.strip_suffix(w).is_some_and(|rest| {
            // "exitCode", "ExitStatus": a status word may close an identifier; "src" is not "rc".
            let joined = matches!(*w, "code" | "status");
            joined || !rest.ends_with(|c: char| c.is_ascii_alphanumeric())
        })
    })
}

#[cfg(test)]
mod tests;
