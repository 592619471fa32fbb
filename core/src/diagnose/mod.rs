//! The log diagnoser: any pasted log in, a [`Diagnosis`] out: is it an OOM,
//! which memory ran out, the stack and phase, every figure in bytes, and the
//! lines that are evidence. Never panics; a log without an OOM says so and
//! lists what it did recognise.
//!
//! Logs can be huge, so the text is fed in chunks ([`Diagnoser::feed`]) and
//! scanned once by an Aho-Corasick automaton over every signature; only lines
//! holding a match are looked at further.

mod figures;
mod lines;
mod signatures;

use crate::memory::{MemoryKind, Stack};
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use serde::Serialize;
use signatures::{Meaning, SIGNATURES};
use std::sync::OnceLock;

pub use figures::Numbers;
pub use lines::{excerpt, ExcerptLine};

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
    /// 1-based line number in the pasted text.
    pub line: usize,
    /// The line, without colour codes, cut to a readable length.
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
    pub fixes: Vec<crate::recommend::Fix>,
    /// One sentence: what ran out, or what was recognised instead.
    pub summary: String,
    /// Lines read.
    pub lines: usize,
}

const MAX_EVIDENCE: usize = 60;

struct Matcher {
    automaton: AhoCorasick,
    /// For each distinct needle, the signatures it stands for.
    needles: Vec<Vec<usize>>,
}

fn matcher() -> &'static Matcher {
    static MATCHER: OnceLock<Matcher> = OnceLock::new();
    MATCHER.get_or_init(|| {
        let mut texts: Vec<String> = Vec::new();
        let mut needles: Vec<Vec<usize>> = Vec::new();
        for (i, s) in SIGNATURES.iter().enumerate() {
            let lower = s.needle.to_ascii_lowercase();
            match texts.iter().position(|t| *t == lower) {
                Some(at) => needles[at].push(i),
                None => {
                    texts.push(lower);
                    needles.push(vec![i]);
                }
            }
        }
        let automaton = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(&texts)
            .expect("the signature table builds");
        Matcher { automaton, needles }
    })
}

/// Every text the diagnoser looks for (for comparisons with other tools).
pub fn signature_needles() -> Vec<&'static str> {
    let mut needles: Vec<&'static str> = SIGNATURES.iter().map(|s| s.needle).collect();
    needles.dedup();
    needles
}

/// Incremental diagnosis: feed the log in pieces of any size, then finish.
#[derive(Default)]
pub struct Diagnoser {
    /// The incomplete last line of the previous chunk.
    carry: String,
    lines_before: usize,
    evidence: Vec<Evidence>,
    oom_kinds: Vec<(MemoryKind, usize)>,
    suspect: Option<(MemoryKind, &'static str)>,
    not_oom: Vec<(&'static str, &'static str)>,
    phases: Vec<Phase>,
    stack: Vec<Stack>,
    figures: figures::Collector,
    has_figures: bool,
}

impl Diagnoser {
    pub fn new() -> Diagnoser {
        Diagnoser::default()
    }

    pub fn feed(&mut self, chunk: &str) {
        let joined;
        let text = if self.carry.is_empty() {
            chunk
        } else {
            joined = std::mem::take(&mut self.carry) + chunk;
            joined.as_str()
        };
        match text.rfind('\n') {
            Some(last) => {
                self.scan(&text[..=last]);
                self.carry = text[last + 1..].to_string();
            }
            None => self.carry = text.to_string(),
        }
    }

    /// Finds the next line holding any signature with the automaton's fast
    /// (prefiltered) search, then reads every signature on that line; lines
    /// without a match are never looked at twice.
    fn scan(&mut self, text: &str) {
        let m = matcher();
        let bytes = text.as_bytes();
        let mut counted_to = 0;
        let mut line_no = self.lines_before;
        let mut from = 0;
        while from < bytes.len() {
            let Some(first) = m.automaton.find(aho_corasick::Input::new(text).range(from..)) else { break };
            let line_start = memchr::memrchr(b'\n', &bytes[..first.start()]).map_or(0, |i| i + 1);
            let line_end = memchr::memchr(b'\n', &bytes[first.end()..]).map_or(bytes.len(), |i| first.end() + i);
            line_no += memchr::memchr_iter(b'\n', &bytes[counted_to..line_start]).count();
            counted_to = line_start;
            let line = &text[line_start..line_end];
            for hit in m.automaton.find_overlapping_iter(line) {
                for &index in &m.needles[hit.pattern().as_usize()] {
                    let signature = &SIGNATURES[index];
                    if signature.exact_case && &line.as_bytes()[hit.start()..hit.end()] != signature.needle.as_bytes() {
                        continue;
                    }
                    let segment = lines::segment(line, 0, line.len(), hit.start());
                    self.record(index, segment, line_no + 1);
                }
            }
            from = line_end + 1;
        }
        self.lines_before += memchr::memchr_iter(b'\n', bytes).count();
    }

    fn record(&mut self, index: usize, segment: &str, line: usize) {
        let signature = &SIGNATURES[index];
        let evidence = match signature.meaning {
            Meaning::Oom(kind) => {
                if signature.id == "bare-killed" {
                    if !lines::is_bare_killed(segment) {
                        return;
                    }
                    if !self.stack.contains(&Stack::Linux) {
                        self.stack.push(Stack::Linux);
                    }
                }
                match self.oom_kinds.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, n)) => *n += 1,
                    None => self.oom_kinds.push((kind, 1)),
                }
                self.figures.read(signature.id, segment);
                true
            }
            Meaning::Suspect(kind) => {
                self.suspect.get_or_insert((kind, signature.id));
                true
            }
            Meaning::NotOom(what) => {
                if !self.not_oom.iter().any(|(id, _)| *id == signature.id) {
                    self.not_oom.push((signature.id, what));
                }
                true
            }
            Meaning::Figure => {
                self.figures.read(signature.id, segment);
                self.has_figures = true;
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
                false
            }
        };
        if !evidence {
            return;
        }
        let class = match signature.meaning {
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

    pub fn finish(mut self) -> Diagnosis {
        if !self.carry.is_empty() {
            let mut last = std::mem::take(&mut self.carry);
            last.push('\n');
            self.scan(&last);
        }
        // A job or container limit explains a kill better than "the node ran out";
        // a GPU message is more specific than a SIGKILL that followed it.
        let priority = [MemoryKind::JobLimit, MemoryKind::Gpu, MemoryKind::Shm, MemoryKind::Host];
        let found = priority.into_iter().find(|k| self.oom_kinds.iter().any(|(kind, _)| kind == k));
        let oom = found.is_some();
        let memory = found.or(self.suspect.map(|(k, _)| k)).unwrap_or(MemoryKind::None);
        let phase = choose_phase(&self.phases, memory);
        self.stack.sort();
        let numbers = self.figures.finish();
        let summary = summary(oom, memory, phase, &self.not_oom, self.suspect, &self.evidence, self.lines_before);
        self.evidence.sort_by_key(|e| e.line);
        Diagnosis {
            oom,
            memory,
            stack: self.stack,
            phase,
            numbers,
            evidence: self.evidence,
            fixes: Vec::new(),
            summary,
            lines: self.lines_before,
        }
    }
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

/// Diagnoses a whole log and recommends fixes, linking the given runbooks.
pub fn diagnose(text: &str, runbooks: &[crate::runbook::Runbook]) -> Diagnosis {
    let mut d = Diagnoser::new();
    d.feed(text);
    let mut diagnosis = d.finish();
    diagnosis.fixes = crate::recommend::recommend(&diagnosis, text, runbooks);
    diagnosis
}

#[cfg(test)]
mod tests;
