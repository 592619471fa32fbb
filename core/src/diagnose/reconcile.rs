//! Evidence that changes what other evidence proves, once the whole log is
//! read: who sent a SIGKILL, which device a "No space left" filled, a
//! permission error behind a shared-memory segment, an allocator that could
//! not start behind its library's memory error, a runtime that fell back
//! and went on after its OOM, the device TensorFlow names after its OOM, an
//! allocator line that the next one calls "not a failure".

use super::figures::Numbers;
use super::{first_seen, lines, lookalikes, Diagnoser};
use crate::memory::MemoryKind;
use crate::scan::find_ci;

/// How many lines below a bare "out of memory" may name its memory.
const BARE_REACH: usize = 12;

impl Diagnoser {
    fn saw(&self, id: &str) -> Option<usize> {
        first_seen(&self.seen, id)
    }

    fn drop_look_alike(&mut self, id: &str) -> bool {
        let before = self.not_oom.len();
        self.not_oom.retain(|(seen, _)| *seen != id);
        self.not_oom.len() < before
    }

    pub(super) fn reconcile(&mut self, numbers: &Numbers) {
        // A SIGKILL exit code with the process's host memory in the log (a
        // per-step "CPU memory usage", a kernel rss) is the OOM killer at work.
        if self.suspect.is_some_and(|(_, id)| id == "sigkill-exit")
            && (numbers.rss.is_some() || numbers.total_vm.is_some())
        {
            self.oom_kinds.push((MemoryKind::Host, 1));
        }
        // "No space left on device" beside df's full /dev/shm: the full device is
        // shared memory; beside a tool that writes through /dev/shm, it suggests it.
        if self.saw("df-shm-full").is_some() && self.drop_look_alike("disk-full") {
            self.oom_kinds.push((MemoryKind::Shm, 1));
        } else if self.saw("memory-file-system").is_some() && self.drop_look_alike("disk-full") {
            self.suspect.get_or_insert((MemoryKind::Shm, "memory-file-system"));
        }
        // cuDNN or cuBLAS that could not start while the log's own figures show the GPU
        // nearly full (XLA's preallocation before it): a GPU suspect, not a look-alike.
        if numbers.gpu_mostly_taken() && self.drop_look_alike("gpu-library-start") {
            self.suspect.get_or_insert((MemoryKind::Gpu, "gpu-library-start"));
        }
        // NCCL fails to create its segment when it may not open /dev/shm, too:
        // that is not a full /dev/shm.
        if self.saw("shm-permission-denied").is_some() && self.oom_kinds.iter().any(|(k, _)| *k == MemoryKind::Shm) {
            self.oom_kinds.retain(|(k, _)| *k != MemoryKind::Shm);
            self.suspect = Some((MemoryKind::Shm, "shm-permission-denied"));
        }
        // TensorFlow 1.x's OOM names no device; its `[[Node: ... _device=".../cpu:0"]]` line
        // after it does: an OOM whose own message names no memory was the host's (the line
        // before the message may be a build path such as `release-win\m\windows-gpu`).
        fn message(text: &str) -> &str {
            find_ci(text, "OOM when allocating").map_or(text, |at| &text[at..])
        }
        // The pinned host allocator's own line ("Allocator (cuda_host_bfc) ran out") is the host's already.
        let host_allocator = |e: &super::Evidence| e.signature == "tf-bfc-ran-out" && e.text.contains("_host_bfc");
        let unnamed = || {
            self.evidence
                .iter()
                .filter(|e| e.rank.0 == 0 && !host_allocator(e))
                .all(|e| lines::memory_named(message(&e.text)).is_none())
        };
        // The first node named is the op that failed; later ones copy its tensors (`_Recv`).
        let on_cpu = match (self.saw("tf-node-on-cpu"), self.saw("tf-node-on-gpu")) {
            (Some(cpu), gpu) => gpu.is_none_or(|gpu| cpu < gpu),
            (None, _) => false,
        };
        if on_cpu && self.oom_kinds.iter().all(|(k, _)| matches!(k, MemoryKind::Gpu | MemoryKind::Host)) && unnamed() {
            self.oom_kinds.iter_mut().for_each(|(k, _)| *k = MemoryKind::Host);
        }
        let oom_lines = || self.evidence.iter().filter(|e| e.rank.0 == 0);
        let (first_oom, last_oom) = (oom_lines().map(|e| e.line).min(), oom_lines().map(|e| e.line).max());
        // After an illegal memory access the CUDA context is broken and every later call fails,
        // allocations too ("Unable to allocate memory of size 12 for cMassLocalPosePosDev"):
        // allocation errors that only follow it are its, not memory running out.
        if let (Some(access), Some(oom)) = (self.saw("cuda-illegal-memory-access"), first_oom) {
            if access < oom {
                self.oom_kinds.clear();
            }
        }
        // A line that is only "out of memory" (CUDA's error string, printed by a custom op's
        // check) names no memory: the device the next lines name is the one that ran out.
        let bare = |e: &super::Evidence| {
            lines::clean(&e.text).trim().trim_end_matches(['.', '!']).eq_ignore_ascii_case("out of memory")
        };
        let bare_line = last_oom.filter(|_| oom_lines().all(bare));
        if let Some(at) = bare_line.filter(|_| self.oom_kinds.iter().all(|(k, _)| *k == MemoryKind::Host)) {
            let below = self.evidence.iter().filter(|e| e.line > at && e.line <= at + BARE_REACH);
            if let Some(kind) = below.filter_map(|e| lines::memory_named(&e.text)).next() {
                self.oom_kinds.iter_mut().for_each(|(k, _)| *k = kind);
            }
        }
        // TensorFlow's BFC line, word-wrapped, says "not a failure" on the next line:
        // where it is all the proof, the caller retried with less.
        if self.saw("tf-allocator-warning").is_some()
            && oom_lines().next().is_some()
            && oom_lines().all(|e| e.signature == "tf-bfc-ran-out")
        {
            self.suspect = Some((MemoryKind::Gpu, "tf-allocator-warning"));
            self.oom_kinds.clear();
        }
        // jemalloc that could not start ("Unsupported system page size") has Arrow raise
        // ArrowMemoryError at import: nothing ran out.
        if self.saw("jemalloc-page-size").is_some()
            && oom_lines().next().is_some()
            && oom_lines().all(|e| e.signature == "arrow-memory-error")
        {
            self.oom_kinds.clear();
        }
        // A SIGKILL whose sender the log names (a time limit, preemption, a
        // code-signature check) was not the OOM killer's.
        if !self.proof_beyond_kills && self.seen.iter().any(|(id, _)| lookalikes::KILL_SENDERS.contains(id)) {
            self.oom_kinds.clear();
        }
        // A runtime that says it goes on another way on or after its last OOM line
        // ("retrying without pipeline parallelism", TensorRT's "Skipping tactic 3 due to
        // insufficient memory") did not fail for it (LABELLING.md: "a warning that says
        // it falls back and continues").
        if let (Some(oom), Some(fallback)) = (last_oom, self.fell_back) {
            if fallback >= oom && self.oom_kinds.len() == 1 {
                self.suspect = Some((self.oom_kinds[0].0, "oom-fallback"));
                self.oom_kinds.clear();
            }
        }
    }
}
