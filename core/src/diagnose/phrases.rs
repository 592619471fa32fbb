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
            const OTHER_ENDS: [&str; 10] = [
                "timeout",
                "timed out",
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
fn is_warning(segment: &str) -> bool {
    let t = lines::clean(segment);
    let t = t.trim_start();
    let glog = t.len() > 5 && t.as_bytes()[0] == b'W' && t.as_bytes()[1..5].iter().all(u8::is_ascii_digit);
    glog || t.contains("[W]") || t.contains(": W ") || word_in(t, "warn") || word_in(t, "warning")
}

/// A line that only supposes it: "may not be enough memory", "possibly out of
/// memory", a question ("Not Enough GPU memory? INTERNAL: ..."), a soft limit
/// or one touched "at some point" (nothing was killed).
fn hedges(segment: &str, end: usize) -> bool {
    let sentence = segment[end..].split(['.', '!', ';']).next().unwrap_or("");
    ["may", "might", "possibly", "probably", "likely", "perhaps"].iter().any(|w| word_in(segment, w))
        || ["soft limit", "at some point"].iter().any(|w| find_ci(segment, w).is_some())
        || sentence.contains('?')
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
mod tests {
    use super::*;
    use crate::diagnose::diagnose;
    use MemoryKind::{Gpu, Host, JobLimit, Shm};

    /// The first weak reading of a line, whatever the table says of it.
    fn reading(line: &str) -> Option<(&'static str, Meaning)> {
        PHRASES.iter().find_map(|s| {
            let needles = std::iter::once(s.needle).chain(s.also.iter().copied());
            let found =
                needles.filter_map(|n| crate::scan::find_all_ci(line, n).map(move |at| (at, at + n.len())).next());
            found
                .into_iter()
                .find(|&(start, end)| super::super::matcher::matches_here(s, line, start, end))
                .map(|(_, end)| (s.id, meaning(s.id, line, end, s.meaning)))
        })
    }

    fn oom(kind: MemoryKind) -> Meaning {
        Meaning::Oom(kind)
    }

    fn suspect(kind: MemoryKind) -> Meaning {
        Meaning::Suspect(kind)
    }

    // Lines of real logs (the corpus entry each comes from is named). Most are
    // in the table by now; these readings would have caught them before.
    #[test]
    fn a_memory_word_beside_running_out() {
        for (line, id, want) in [
            ("Memory limit of 2048M exceeded with 2126M used.", "memory-phrase", oom(JobLimit)), // gpt2cloudrun22
            ("RuntimeError: Executor creation failed due to insufficient GPU memory.", "memory-phrase", oom(Gpu)), // trtllm5950
            ("RuntimeError: Insufficient VRAM for model and cache", "memory-phrase", oom(Gpu)), // exllamav2-383
            (
                "Error from slot1_8@worker: Job has gone over memory limit of 16384 megabytes. Peak usage: 16328 megabytes.",
                "memory-phrase",
                oom(JobLimit),
            ), // galaxy-tpv30
            ("2022-07-06T08:33:31.645496+00:00 heroku[web.1]: Error R15 (Memory quota vastly exceeded)", "memory-phrase", oom(JobLimit)), // nagisa28
            (
                "17/04/12 20:38:18 WARN MemoryStore: Not enough space to cache rdd_6_7 in memory! (computed 17.1 MB so far)",
                "memory-phrase",
                suspect(Host),
            ), // nel8: a warning
            (
                "> The generation of the video has encountered an error: it is likely that you have unsufficient VRAM and you should therefore reduce the video resolution or its number of frames.",
                "memory-phrase",
                suspect(Gpu),
            ), // wan2gp39: misspelt, and only likely
        ] {
            assert_eq!(reading(line), Some((id, want)), "{line}");
        }
    }

    #[test]
    fn an_allocation_that_failed() {
        for (line, id, want) in [
            ("ggml_vulkan: Device memory allocation of size 118497280 failed.", "allocation-phrase", oom(Gpu)), // llamacpp15256
            ("WARN src/core.cu:225 failed to allocate 2101248 byte device buffer", "allocation-phrase", suspect(Gpu)), // nccl33
            ("*** error: can't allocate region", "allocation-phrase", oom(Host)), // joblib415
            (
                "Uncaught (in promise) abort(\"Cannot enlarge memory arrays. Either (1) compile with -s TOTAL_MEMORY=X\")",
                "allocation-phrase",
                oom(Host),
            ), // webmlpolyfill139
            (
                "Error retrieving SQL data: \"Exception of type 'System.OutOfMemoryException' was thrown.\"",
                "oom-identifier",
                oom(Host),
            ), // mlnetmodelbuilder647
        ] {
            assert_eq!(reading(line), Some((id, want)), "{line}");
        }
    }

    #[test]
    fn a_kill_or_shared_memory_in_other_words() {
        for (line, id) in [
            (
                "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGKILL",
                "sigkill-phrase",
            ), // prompt4nr3
            ("Command terminated by signal 9", "sigkill-phrase"), // ogb17
            (
                "  Process `QUANTMS:DIA:INSILICO_LIBRARY_GENERATION` terminated with an error exit status (137)",
                "exit-137-phrase",
            ), // quantmsdiann96
            ("67e7a97f08aa   dmtf/redfish-mockup-server   Exited (137) 7 seconds ago", "exit-137-phrase"), // redfishmockup89
        ] {
            assert_eq!(reading(line), Some((id, suspect(Host))), "{line}");
        }
        for line in [
            "Failed to increase the shared memory pool size for key 'triton_python_backend_shm_region_7' to 1073741824 bytes.", // tritonserver5701
            "RuntimeError: unable to open shared memory object </torch_16550_876314950> in read-write mode", // mmaction2-218
        ] {
            assert_eq!(reading(line), Some(("shm-phrase", suspect(Shm))), "{line}");
        }
    }

    #[test]
    fn running_out_of_a_memory_that_is_named() {
        for (line, want) in [
            ("ERROR: Out of GPU memory trying to allocate 2.000 GiB", oom(Gpu)), // CUDA.jl
            ("System is out of GPU memory", oom(Gpu)),                           // Blender Cycles
            ("fatal: out of host memory", oom(Host)),
        ] {
            let got = reading(line).map(|(_, meaning)| meaning);
            assert_eq!(got, Some(want), "{line}");
        }
        assert_eq!(
            reading("ERROR: Out of GPU memory trying to allocate 2.000 GiB").map(|r| r.0),
            Some("out-of-named-memory-phrase")
        );
        for line in [
            "using 3 out of 16 GB memory",           // a share, not its end
            "moved 2 out of 8 layers to GPU memory", // the memory word too far
            "out of bounds memory access",           // another cause
        ] {
            assert_eq!(reading(line), None, "{line}");
        }
    }

    #[test]
    fn a_death_with_no_cause_given_is_a_suspicion_one_explained_otherwise_is_not() {
        assert_eq!(reading("Error: the worker crashed unexpectedly"), Some(("death-phrase", suspect(Host))));
        assert_eq!(reading("the job was killed due to timeout"), None);
        assert_eq!(reading("worker 3 was killed by SIGTERM"), None);
    }

    #[test]
    fn a_negative_status_is_a_launchers_kill_and_a_launchers_cleanup_is_not() {
        // Python's subprocess: "returned non-zero exit status -9".
        let line = "subprocess.CalledProcessError: Command '['python', 'train.py']' returned non-zero exit status -9.";
        assert_eq!(reading(line), Some(("exit-minus-9-phrase", oom(Host))), "{line}");
        assert_eq!(reading("lr -9e-4 step 3"), None);
        // DeepSpeed's launcher killing its ranks after one exited says nothing of why it
        // exited (LABELLING.md rule 4; wizardlm93, deepspeed1581), with or without a failure before it.
        let silent = "[INFO] [launch.py:178:sigkill_handler] Killing subprocess 97277\n";
        assert_eq!(diagnose(silent).memory, MemoryKind::None);
    }

    #[test]
    fn memory_errors_in_the_plural_and_earlyooms_kill_report() {
        let d = diagnose(
            "Fatal Python error: Cannot recover from MemoryErrors while normalizing exceptions.
",
        );
        assert_eq!((d.oom, d.memory), (true, Host));
        let d = diagnose(
            "earlyoom[812]: sending SIGTERM to process 4120 uid 1000 \"python\": badness 900, VmRSS 14000 MiB\n",
        );
        assert_eq!((d.oom, d.memory), (true, Host));
    }

    #[test]
    fn memory_words_beside_another_cause() {
        for line in [
            "RuntimeError: CUDA error: an illegal memory access was encountered (allocation failed later)",
            "qsub: submit error (Job exceeds queue resource limits MSG=cannot satisfy queue max mem requirement)", // cbio93
            "User specified GPU index 1 has been occupied with a vLLM model, therefore cannot allocate GPU memory", // xinference1266
            "[mem-watch] KILLED WITH HEADROOM: 13149 MB of 15990 MB stayed available, so memory exhaustion does not explain this kill", // pilens2230
            "Failed to allocate port 8080: address already in use",
            "Device memory allocation of size 1024 bytes",
            "step 12 exit 0, 137 samples",
            "Triton Error [CUDA]: out of resource: shared memory, Required: 327768, Hardware limit: 232448",
        ] {
            assert_eq!(reading(line), None, "{line}");
        }
    }

    /// In a whole log, a reading by shape speaks only where the table said nothing.
    #[test]
    fn readings_by_shape_yield_to_the_table() {
        let decided = |log: &str| {
            let d = diagnose(log);
            (d.oom, d.memory, d.evidence.iter().find(|e| e.rank.0 != 3).map(|e| e.signature))
        };
        // A wording no table lists is read by its shape, and is the evidence shown.
        let log = "ggml_vulkan: Allocating 8 layers\nggml_vulkan: Device memory allocation of size 118497280 failed.\n";
        assert_eq!(decided(log), (true, Gpu, Some("allocation-phrase")));
        // A look-alike anywhere in the log outweighs it (redfishmockup89: docker stop sends SIGKILL).
        assert_eq!(
            decided("$ docker stop 67e7a97f08aa\n67e7a97f08aa   Exited (137) 7 seconds ago").1,
            MemoryKind::None
        );
        // So does the table's own suspicion, and the table's proof.
        let log =
            "WARN NCCL failed to allocate 2101248 byte device buffer\nDataLoader worker (pid 7) exited unexpectedly";
        assert_eq!(decided(log), (false, Shm, Some("dataloader-worker-exited")));
        let log =
            "Host memory allocation of size 4096 failed\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB";
        assert_eq!(decided(log), (true, Gpu, Some("pytorch-cuda-oom")));
    }

    #[test]
    fn exit_status_words() {
        assert!(exit_status_before("Process `X` terminated with an error exit status ("));
        assert!(exit_status_before("Exited ("));
        assert!(exit_status_before("exitCode: "));
        assert!(exit_status_before("make: *** [all] Error "));
        assert!(!exit_status_before("step "));
        assert!(!exit_status_before("src="));
        assert!(!exit_status_before("2024-08-06 15:07:29,"));
    }
}
