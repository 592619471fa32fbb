//! Recording what one line says: every needle on it, what each proves once
//! hedges and refinements are applied, and the evidence kept for the report.
//! A reading by shape (`phrases.rs`) waits aside until the whole log is read.

use super::matcher::{decisive, hedge, matches_here, Hedge, Matcher, Target};
use super::signature::{self, Meaning};
use super::signatures::SIGNATURES;
use super::{first_seen, lines, phrases, settings, Diagnoser, Evidence};
use crate::memory::{MemoryKind, Stack};

const MAX_EVIDENCE: usize = 60;

/// How many lines a wrapped list of possible causes may run on.
const CAUSE_LIST_LINES: usize = 2;

/// Signatures that report a SIGKILL, which proves an OOM only while nothing
/// else in the log sent it (see `lookalikes::KILL_SENDERS`).
const KILL_REPORTS: [&str; 9] = [
    "bare-killed",
    "dataloader-worker-exited",
    "zsh-killed",
    "zsh-job-killed",
    "sigkill-launcher",
    "srun-task-killed",
    "go-signal-killed",
    "fish-sigkill",
    "gcc-child-killed",
];

/// A verdict read from a line's shape, with the line that says it.
pub(super) struct Weak {
    meaning: Meaning,
    id: &'static str,
    evidence: Evidence,
}

impl Diagnoser {
    /// Every needle on one (logical) line. A generic wording ("out of
    /// memory", "No space left on device") counts only where no specific
    /// signature spoke.
    pub(super) fn read_line(&mut self, m: &Matcher, line: &str, scan_from: usize, line_no: usize) {
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
            let kind = lines::memory_named(segment).or(self.named_above).unwrap_or(default);
            // "the kernel OOM-kills glomap": a killer ends processes, never a device's allocation.
            let killer = text[end..]
                .get(..5)
                .is_some_and(|w| w.eq_ignore_ascii_case("-kill") || w.eq_ignore_ascii_case(" kill"));
            meaning = Meaning::Oom(if killer && kind == MemoryKind::Gpu { MemoryKind::Host } else { kind });
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
    pub(super) fn apply_weak(&mut self) {
        let Some(weak) = self.weak.take() else { return };
        if !self.oom_kinds.is_empty() || !self.not_oom.is_empty() || self.suspect.is_some() {
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
}
