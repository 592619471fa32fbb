//! The log diagnoser: any pasted log in, a [`Diagnosis`] out: is it an OOM,
//! which memory ran out, the stack and phase, every figure in bytes, and the
//! lines that are evidence. Never panics; a log without an OOM says so and
//! lists what it did recognise.
//!
//! Logs can be huge, so the text is fed in chunks ([`Diagnoser::feed`]) and
//! scanned once by an Aho-Corasick automaton over every signature; only lines
//! holding a match are looked at further.

mod figures;
mod frames;
mod hints;
mod lines;
mod lookalikes;
mod matcher;
mod phrases;
mod reconcile;
mod settings;
mod signature;
mod signatures;
mod wrap;

use crate::memory::{MemoryKind, Stack};
use matcher::{decisive, hedge, logical_line_end, matcher, matches_here, record_start, Hedge, Matcher, Target};
use serde::Serialize;
use signature::Meaning;
use signatures::SIGNATURES;

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
        SIGNATURES.iter().find_map(|s| match s.meaning {
            Meaning::NotOom(what) if s.id == e.signature => Some((e.line, what)),
            _ => None,
        })
    }

    /// The first line of evidence for the out-of-memory verdict, if any.
    pub fn oom_line(&self) -> Option<&Evidence> {
        self.evidence.iter().find(|e| e.rank.0 == 0)
    }
}

const MAX_EVIDENCE: usize = 60;

/// An unfinished line longer than this is read up to its last record end.
const LONG_TAIL: usize = 1 << 20;

/// How many lines a wrapped list of possible causes may run on.
const CAUSE_LIST_LINES: usize = 2;

/// Signatures that report a SIGKILL, which proves an OOM only while nothing
/// else in the log sent it (see `lookalikes::KILL_SENDERS`).
const KILL_REPORTS: [&str; 8] = [
    "bare-killed",
    "zsh-killed",
    "zsh-job-killed",
    "sigkill-launcher",
    "srun-task-killed",
    "go-signal-killed",
    "fish-sigkill",
    "gcc-child-killed",
];

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

/// A verdict read from a line's shape, with the line that says it.
struct Weak {
    meaning: Meaning,
    id: &'static str,
    evidence: Evidence,
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
            let rest = self.read_back_from(chunk);
            self.pending = chunk[rest..].to_string();
        } else if self.pending_breaks + breaks <= wrap::MAX_CONTINUATION
            && self.pending.len() + chunk.len() <= LONG_TAIL
        {
            // Not enough lines yet to read any of them.
            self.pending.push_str(chunk);
            self.pending_breaks += breaks;
            return;
        } else {
            self.pending.push_str(chunk);
            let text = std::mem::take(&mut self.pending);
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
            let Some(first) = m.automaton.find(aho_corasick::Input::new(text).range(from..)) else { break };
            let found_on = record_start(bytes, first.start());
            if found_on >= limit {
                break;
            }
            // A message the terminal cut at its width starts on the rows before.
            let line_start = wrap::first_row(text, found_on, from);
            let line_end = logical_line_end(text, m, first.end());
            line_no += memchr::memchr_iter(b'\n', &bytes[counted_to..line_start]).count();
            counted_to = line_start;
            let line = wrap::join(&text[line_start..line_end]);
            // Nothing ends before the first match, so nothing starts more than a needle's
            // length before it (on rows joined before it, anything may).
            let mut scan_from = if line_start < found_on {
                0
            } else {
                (first.end() - line_start).saturating_sub(m.longest).min(line.len())
            };
            while !line.is_char_boundary(scan_from) {
                scan_from -= 1;
            }
            self.named_above = match line_start.checked_sub(1) {
                Some(end) => lines::introduces(row_before(text, end)),
                None => self.named_by_last_row,
            };
            self.read_line(m, &line, scan_from, line_no + 1);
            from = line_end + 1;
        }
        let resume = from.max(limit).min(text.len());
        if resume > 0 {
            // A message that opens the next read may have been introduced on this row.
            self.named_by_last_row =
                (bytes[resume - 1] == b'\n').then(|| lines::introduces(row_before(text, resume - 1))).flatten();
        }
        self.lines_before = line_no + memchr::memchr_iter(b'\n', &bytes[counted_to..resume]).count();
        resume
    }

    /// Every needle on one (logical) line. A generic wording ("out of
    /// memory", "No space left on device") counts only where no specific
    /// signature spoke.
    fn read_line(&mut self, m: &Matcher, line: &str, scan_from: usize, line_no: usize) {
        let mut hits: Vec<(usize, usize, usize)> = Vec::new();
        let input = aho_corasick::Input::new(line).range(scan_from..);
        for hit in m.automaton.find_overlapping_iter(input) {
            for &target in &m.needles[hit.pattern().as_usize()] {
                match target {
                    Target::Setting(index) => {
                        let segment = lines::segment(line, 0, line.len(), hit.start());
                        self.settings.read(&settings::NAMES[index], segment, line_no);
                    }
                    Target::Signature(index) => {
                        if matches_here(&SIGNATURES[index], line, hit.start(), hit.end()) {
                            hits.push((index, hit.start(), hit.end()));
                        }
                    }
                }
            }
        }
        let specific = hits.iter().any(|&(i, ..)| {
            !SIGNATURES[i].generic
                && (decisive(SIGNATURES[i].meaning) || matches!(SIGNATURES[i].meaning, Meaning::NotOom(_)))
        });
        for (index, start, end) in hits {
            if !(specific && SIGNATURES[index].generic) {
                self.record(index, line, start, end, line_no);
            }
        }
    }

    fn record(&mut self, index: usize, text: &str, start: usize, end: usize, line: usize) {
        let signature = &SIGNATURES[index];
        let segment = lines::segment(text, 0, text.len(), start);
        let mut meaning = signature::refined(signature.id, segment, signature.meaning);
        if let Meaning::OomByContext(default) = meaning {
            meaning = Meaning::Oom(lines::memory_named(segment).or(self.named_above).unwrap_or(default));
        }
        // Only a verdict can be hedged: phases, stacks and figures skip the look back.
        let verdict = decisive(meaning) || matches!(meaning, Meaning::NotOom(_));
        // A list of causes wrapped by the terminal goes on over the next lines.
        let listed = verdict && self.cause_list_line.is_some_and(|l| line > l && line <= l + CAUSE_LIST_LINES);
        let on_line = verdict.then(|| hedge(text, start)).flatten();
        if on_line == Some(Hedge::CauseList) || signature.id == "cause-list" {
            self.cause_list_line = Some(line);
        }
        let hedged = on_line.or(listed.then_some(Hedge::CauseList));
        if signature.weak {
            let offset = segment.as_ptr() as usize - text.as_ptr() as usize;
            meaning = phrases::meaning(signature.id, segment, end.saturating_sub(offset), meaning);
        }
        match (hedged, meaning) {
            (Some(Hedge::Advice), m) if decisive(m) => return,
            (Some(Hedge::CauseList), Meaning::NotOom(_)) => return,
            (Some(Hedge::CauseList), Meaning::Oom(kind)) => meaning = Meaning::Suspect(kind),
            _ => {}
        }
        // "Not Enough GPU memory?": a question is a suspicion, not proof.
        if let Meaning::Oom(kind) = meaning {
            if text[end..].starts_with('?') {
                meaning = Meaning::Suspect(kind);
            }
        }
        if signature.weak {
            self.keep_weak(meaning, index, segment, line);
            return;
        }
        let evidence = match meaning {
            Meaning::Oom(kind) => {
                self.proof_beyond_kills |= !KILL_REPORTS.contains(&signature.id);
                if matches!(signature.id, "bare-killed" | "zsh-job-killed") && !self.stack.contains(&Stack::Linux) {
                    self.stack.push(Stack::Linux);
                }
                match self.oom_kinds.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, n)) => *n += 1,
                    None => self.oom_kinds.push((kind, 1)),
                }
                self.figures.read(signature.id, segment);
                self.figures.read_requested(segment);
                true
            }
            Meaning::OomByContext(_) => unreachable!("resolved above"),
            Meaning::Suspect(kind) => {
                self.suspect.get_or_insert((kind, signature.id));
                self.figures.read(signature.id, segment);
                true
            }
            Meaning::NotOom(what) => {
                if !self.not_oom.iter().any(|(id, _)| *id == signature.id) {
                    self.not_oom.push((signature.id, what));
                }
                self.figures.read(signature.id, segment);
                true
            }
            Meaning::Figure => {
                self.figures.read(signature.id, segment);
                true
            }
            Meaning::Phase(phase) => {
                if !self.phases.contains(&phase) {
                    self.phases.push(phase);
                }
                false
            }
            Meaning::Stack(stack) => {
                if !self.stack.contains(&stack) {
                    self.stack.push(stack);
                }
                self.tensorflow_itself |= stack == Stack::Tensorflow && signature.id != "stack-tensorflow-word";
                false
            }
            Meaning::Frame(frame) => {
                self.frames.hint(frame, line);
                false
            }
            Meaning::Traceback => {
                self.frames.traceback_line(line);
                false
            }
            Meaning::Context => false,
            Meaning::Fallback => {
                self.fell_back = Some(line);
                false
            }
            Meaning::Failure => {
                self.failure = Some((line, lines::clean(segment)));
                false
            }
        };
        if first_seen(&self.seen, signature.id).is_none() {
            self.seen.push((signature.id, line));
        }
        if !evidence {
            return;
        }
        let class = match meaning {
            Meaning::Oom(_) => 0,
            Meaning::NotOom(_) => 1,
            Meaning::Suspect(_) => 2,
            _ => 3,
        };
        let rank = (class, index);
        let room = self.evidence.len() < MAX_EVIDENCE;
        match self.evidence.iter_mut().find(|e| e.line == line) {
            Some(existing) if rank < existing.rank => {
                existing.signature = signature.id;
                existing.rank = rank;
            }
            Some(_) => {}
            None if room => {
                self.evidence.push(Evidence { line, text: lines::clean(segment), signature: signature.id, rank })
            }
            None => {}
        }
    }

    /// Keeps a reading by shape aside: the first OOM, else the first suspicion.
    fn keep_weak(&mut self, meaning: Meaning, index: usize, segment: &str, line: usize) {
        let oom = matches!(meaning, Meaning::Oom(_));
        if !decisive(meaning) || self.weak.as_ref().is_some_and(|w| !oom || matches!(w.meaning, Meaning::Oom(_))) {
            return;
        }
        let id = SIGNATURES[index].id;
        let rank = (if oom { 0 } else { 2 }, index);
        self.weak =
            Some(Weak { meaning, id, evidence: Evidence { line, text: lines::clean(segment), signature: id, rank } });
    }

    /// A reading by shape decides only where nothing else did: no OOM, no
    /// suspicion and no look-alike from the table.
    fn apply_weak(&mut self) {
        let Some(weak) = self.weak.take() else { return };
        if !self.oom_kinds.is_empty() || !self.not_oom.is_empty() || self.suspect.is_some() {
            return;
        }
        if phrases::needs_a_silent_log(weak.id) && self.failure.is_some() {
            return;
        }
        match weak.meaning {
            Meaning::Oom(kind) => {
                self.oom_kinds.push((kind, 1));
                self.proof_beyond_kills = true;
            }
            Meaning::Suspect(kind) => self.suspect = Some((kind, weak.id)),
            _ => return,
        }
        self.seen.push((weak.id, weak.evidence.line));
        self.evidence.retain(|e| e.line != weak.evidence.line);
        self.evidence.push(weak.evidence);
    }

    pub fn finish(mut self) -> Diagnosis {
        let text = std::mem::take(&mut self.pending);
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

/// The row that ends at `end` (a line break).
fn row_before(text: &str, end: usize) -> &str {
    let start = memchr::memrchr(b'\n', &text.as_bytes()[..end]).map_or(0, |i| i + 1);
    &text[start..end]
}

/// The first line on which signature `id` was seen, in a list of `(id, first line)`.
fn first_seen(seen: &[(&str, usize)], id: &str) -> Option<usize> {
    seen.iter().find(|(s, _)| *s == id).map(|(_, line)| *line)
}

/// The look-alike id of [`free_gpu`].
pub const GPU_MOSTLY_FREE: &str = "gpu-mostly-free";

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

/// Diagnoses a whole log at once (fixes are `recommend`'s job).
pub fn diagnose(text: &str) -> Diagnosis {
    let mut d = Diagnoser::new();
    d.feed(text);
    d.finish()
}

#[cfg(test)]
mod tests;
