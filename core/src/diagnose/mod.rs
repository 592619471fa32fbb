//! The log diagnoser: any pasted log in, a [`Diagnosis`] out: is it an OOM,
//! which memory ran out, the stack and phase, every figure in bytes, and the
//! lines that are evidence. Never panics; a log without an OOM says so and
//! lists what it did recognise.
//!
//! Logs can be huge, so the text is fed in chunks ([`Diagnoser::feed`]) and
//! scanned once by an Aho-Corasick automaton over every signature; only lines
//! holding a match are looked at further.

mod device_memory;
mod figures;
mod frames;
mod hints;
mod host_memory;
mod lines;
mod lookalikes;
mod matcher;
mod pasted;
mod phrases;
mod reconcile;
mod record;
mod settings;
mod signature;
mod signatures;
mod verdict;
mod wrap;

use crate::memory::{MemoryKind, Stack};
use matcher::{cut_needle, logical_line_end, matcher, record_start};
use record::Weak;
use serde::Serialize;

pub use figures::Numbers;
pub use frames::Frame;
pub use lines::{excerpt, ExcerptLine};
pub use matcher::signature_needles;
pub use settings::{Knob, Setting, Settings};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Forward,
    Backward,
    OptimizerStep,
    Validation,
    Dataloader,
    Generation,
    ModelLoad,
    KvCacheInit,
}

impl Phase {
    pub const ALL: [Phase; 8] = [
        Phase::Forward,
        Phase::Backward,
        Phase::OptimizerStep,
        Phase::Validation,
        Phase::Dataloader,
        Phase::Generation,
        Phase::ModelLoad,
        Phase::KvCacheInit,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Phase::Forward => "forward pass",
            Phase::Backward => "backward pass",
            Phase::OptimizerStep => "optimizer step",
            Phase::Validation => "validation / evaluation",
            Phase::Dataloader => "data loading",
            Phase::Generation => "generation",
            Phase::ModelLoad => "model loading",
            Phase::KvCacheInit => "KV-cache initialisation",
        }
    }
}

/// One line of the log that supports the diagnosis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// 1-based line number in the pasted text (the first, for a wrapped message).
    pub line: usize,
    /// The line, without colour codes or wrap breaks, cut to a readable length.
    pub text: String,
    pub signature: &'static str,
    /// Which signature speaks for a line that matched several: an OOM
    /// message before a figure, then the order of the signature table.
    #[serde(skip)]
    rank: (u8, usize),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnosis {
    pub oom: bool,
    pub memory: MemoryKind,
    pub stack: Vec<Stack>,
    pub phase: Option<Phase>,
    pub numbers: Numbers,
    pub evidence: Vec<Evidence>,
    /// One sentence: what ran out, or what was recognised instead.
    pub summary: String,
    /// Lines read.
    pub lines: usize,
    /// The job's settings found in the log, for the fixes' old -> new values.
    #[serde(skip)]
    pub settings: Settings,
    /// The frames of the traceback that raised, innermost last.
    #[serde(skip)]
    pub frames: Vec<(Frame, usize)>,
    /// Every signature recognised, with the first line it was seen on (also
    /// those past the evidence cap, and context hints such as WSL).
    #[serde(skip)]
    pub seen: Vec<(&'static str, usize)>,
    /// The last line reporting a failure (`ValueError: …`, `srun: error: …`):
    /// what failed, when it was not memory.
    #[serde(skip)]
    pub failure: Option<(usize, String)>,
    /// Every look-alike recognised (its signature, what it is in words), in the
    /// order found: a signature's meaning may have been refined on its line.
    #[serde(skip)]
    pub look_alikes: Vec<(&'static str, &'static str)>,
}

impl Diagnosis {
    /// The first line on which signature `id` was seen.
    pub fn first_seen(&self, id: &str) -> Option<usize> {
        first_seen(&self.seen, id)
    }

    pub fn has(&self, id: &str) -> bool {
        self.first_seen(id).is_some()
    }

    /// The first look-alike the log shows: its line, and what it is in words.
    pub fn look_alike(&self) -> Option<(usize, &'static str)> {
        let e = self.evidence.iter().find(|e| e.rank.0 == 1)?;
        self.look_alikes.iter().find(|(id, _)| *id == e.signature).map(|(_, what)| (e.line, *what))
    }

    /// The first line of evidence for the out-of-memory verdict, if any.
    pub fn oom_line(&self) -> Option<&Evidence> {
        self.evidence.iter().find(|e| e.rank.0 == 0)
    }
}

/// An unfinished line longer than this is read up to its last record end.
const LONG_TAIL: usize = 1 << 20;

/// Incremental diagnosis: feed the log in pieces of any size, then finish.
#[derive(Default)]
pub struct Diagnoser {
    /// Text not yet read: a few complete lines kept back, so a message that
    /// continues on the next lines is read whole, and the incomplete last line.
    pending: String,
    /// Line breaks in `pending`.
    pending_breaks: usize,
    /// The last byte fed: a final line without a break still counts as a line.
    last_byte: Option<u8>,
    /// Lines before `pending`.
    lines_before: usize,
    evidence: Vec<Evidence>,
    oom_kinds: Vec<(MemoryKind, usize)>,
    /// The last line where a list of possible causes opened (its words, or a verdict they hedge).
    cause_list_line: Option<usize>,
    /// An OOM proven by more than a SIGKILL report (`Killed`, `exitcode: -9`).
    proof_beyond_kills: bool,
    suspect: Option<(MemoryKind, &'static str)>,
    not_oom: Vec<(&'static str, &'static str)>,
    phases: Vec<Phase>,
    stack: Vec<Stack>,
    figures: figures::Collector,
    settings: Settings,
    frames: frames::Frames,
    seen: Vec<(&'static str, usize)>,
    failure: Option<(usize, String)>,
    /// TensorFlow named by more than the bare word (a Python module, Keras, its errors).
    tensorflow_itself: bool,
    /// The best reading of a message no table lists (`phrases.rs`), kept aside
    /// until the whole log is read: the first OOM, else the first suspicion.
    weak: Option<Weak>,
    /// The last line where a runtime said it goes on another way after an OOM.
    fell_back: Option<usize>,
    /// The memory named by the row above the line being read, where that row
    /// introduces it ("what():  …/SimpleCudaMalloc_impl.hpp(42):" over "error: out of memory").
    named_above: Option<MemoryKind>,
    /// The same for the last row of what was read, for a line that opens the next read.
    named_by_last_row: Option<MemoryKind>,
}

impl Diagnoser {
    pub fn new() -> Diagnoser {
        Diagnoser::default()
    }

    pub fn feed(&mut self, chunk: &str) {
        self.last_byte = chunk.as_bytes().last().copied().or(self.last_byte);
        let breaks = memchr::memchr_iter(b'\n', chunk.as_bytes()).count();
        if self.pending.is_empty() {
            // The usual case for a whole log or a first chunk: read it in place.
            let text = pasted::undo(chunk);
            let rest = self.read_back_from(&text);
            self.pending = text[rest..].to_string();
        } else if self.pending_breaks + breaks <= wrap::MAX_CONTINUATION
            && self.pending.len() + chunk.len() <= LONG_TAIL
        {
            // Not enough lines yet to read any of them.
            self.pending.push_str(chunk);
            self.pending_breaks += breaks;
            return;
        } else {
            self.pending.push_str(chunk);
            let pending = std::mem::take(&mut self.pending);
            let text = pasted::undo(&pending);
            let rest = self.read_back_from(&text);
            self.pending = text[rest..].to_string();
        }
        self.pending_breaks = memchr::memchr_iter(b'\n', self.pending.as_bytes()).count();
    }

    /// Reads `text` except its last MAX_CONTINUATION complete lines (and the
    /// incomplete one), which a message starting before them can run on into;
    /// returns where the unread rest starts.
    fn read_back_from(&mut self, text: &str) -> usize {
        let bytes = text.as_bytes();
        // The start of the (MAX_CONTINUATION + 1)-th line from the end, when there is one.
        let mut limit = 0;
        let mut end = bytes.len();
        for _ in 0..=wrap::MAX_CONTINUATION {
            match memchr::memrchr(b'\n', &bytes[..end]) {
                Some(at) => {
                    end = at;
                    limit = at + 1;
                }
                None => {
                    limit = 0;
                    break;
                }
            }
        }
        // A long unfinished line (progress bars redrawn with \r for hours, NUL padding)
        // is read up to its last record end, so it is never held whole.
        let tail_start = memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1);
        if bytes.len() - tail_start > LONG_TAIL {
            if let Some(at) = memchr::memrchr2(b'\r', b'\0', &bytes[tail_start..]) {
                limit = limit.max(tail_start + at + 1);
            }
        }
        if limit == 0 {
            return 0;
        }
        self.scan(text, limit)
    }

    /// Reads every message that starts before `limit` (a line start) and
    /// returns where the next read resumes (a line start at or after `limit`).
    ///
    /// Finds the next line holding any needle with the automaton's fast
    /// search, extends it over the lines a wrap cut it into, then reads every
    /// signature on it; lines without a match are never looked at twice.
    fn scan(&mut self, text: &str, limit: usize) -> usize {
        let m = matcher();
        let bytes = text.as_bytes();
        let mut counted_to = 0;
        let mut line_no = self.lines_before;
        let mut from = 0;
        while from < limit {
            let first = m.automaton.find(aho_corasick::Input::new(text).range(from..));
            let next_row = first.map_or(limit, |f| record_start(bytes, f.start()).min(limit));
            // A needle the terminal cut at its width, on a row before the next match.
            let cut = cut_needle(text, m, from, next_row);
            let (found_on, match_end) = match (cut, first) {
                (Some(cut), _) => cut,
                (None, Some(f)) => (record_start(bytes, f.start()), f.end()),
                (None, None) => break,
            };
            if found_on >= limit {
                break;
            }
            // A message the terminal cut at its width starts on the rows before.
            let line_start = wrap::first_row(text, found_on, from);
            let line_end = logical_line_end(text, m, match_end);
            line_no += memchr::memchr_iter(b'\n', &bytes[counted_to..line_start]).count();
            counted_to = line_start;
            let line = wrap::join(&text[line_start..line_end]);
            // Nothing ends before the first match, so nothing starts more than a needle's
            // length before it (on rows joined before it, anything may).
            let mut scan_from = if line_start < found_on || cut.is_some() {
                0
            } else {
                (match_end - line_start).saturating_sub(m.longest).min(line.len())
            };
            while !line.is_char_boundary(scan_from) {
                scan_from -= 1;
            }
            self.named_above = match line_start.checked_sub(1) {
                Some(end) => lines::introduced_by(text, end),
                None => self.named_by_last_row,
            };
            self.read_line(m, &line, scan_from, line_no + 1);
            from = line_end + 1;
        }
        let resume = from.max(limit).min(text.len());
        if resume > 0 {
            // A message that opens the next read may have been introduced on this row.
            self.named_by_last_row =
                (bytes[resume - 1] == b'\n').then(|| lines::introduced_by(text, resume - 1)).flatten();
        }
        self.lines_before = line_no + memchr::memchr_iter(b'\n', &bytes[counted_to..resume]).count();
        resume
    }
}

/// The first line on which signature `id` was seen, in a list of `(id, first line)`.
fn first_seen(seen: &[(&str, usize)], id: &str) -> Option<usize> {
    seen.iter().find(|(s, _)| *s == id).map(|(_, line)| *line)
}

/// The look-alike of a GPU the log shows mostly free (`verdict::free_gpu`).
pub const GPU_MOSTLY_FREE: &str = "gpu-mostly-free";

/// Diagnoses a whole log at once (fixes are `recommend`'s job).
pub fn diagnose(text: &str) -> Diagnosis {
    let mut d = Diagnoser::new();
    d.feed(text);
    d.finish()
}

#[cfg(test)]
mod tests;
