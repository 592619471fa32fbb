//! The matching machinery: one Aho-Corasick DFA over every signature,
//! setting name and broken generic wording, and the rules that decide
//! whether a needle found on a line is the signature (case, boundaries,
//! hedges), where a record starts and where a wrapped message ends.

use super::settings;
use super::signature::{Boundary, Meaning, Signature};
use super::signatures::SIGNATURES;
use super::{figures, lines, phrases, wrap};
use crate::scan;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use std::ops::Not;
use std::sync::OnceLock;

/// Words that, shortly before a signature, say the log only speaks about
/// running out of memory ("to avoid out of memory"): the signature does not count there.
/// Only what comes before the needle is read, so a phrase ends before the
/// needle's first word ("may run" before "out of memory").
const ADVICE: &[&str] = &[
    "may run",
    "might run",
    "could run",
    "to avoid",
    "to prevent",
    "avoid out of memory",
    "if you run",
    "if you are",
    "if you're",
    "in case of",
    "reduce the risk",
    "retrying",
    "will retry",
    "if you encounter",
    "if you get",
    "if you see",
    // A pointer to documentation: Ray's "Refer to the documentation on how to address the out of memory issue".
    "how to address",
    "how to handle",
    "how to fix",
    "how to deal with",
];

/// Words that open a list of possible causes (Ray's "There are some potential
/// root causes. (1) ... OOM killer ... (3) ... SIGSEGV"): anything after them
/// on the line is a suspicion, neither proof of an OOM nor of a look-alike.
const CAUSE_LIST: &[&str] = &[
    "potential root cause",
    "possible cause",
    "can happen due to",
    "can happen when",
    // Flower's banner: "All the actors in your pool crashed. This could be because: - You clients hit an out-of-memory (OOM) error ...".
    "could be because",
    // A tool's guess at why an earlier attempt crashed (GPT4All: "resulted in crash ... most
    // likely due to out of memory"): a hint (LABELLING.md rule 3), not what failed.
    "likely due to",
    "probably due to",
    "possibly due to",
    // A prediction: RELION's "you will likely run out of memory on the GPU(s)".
    "likely run",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hedge {
    Advice,
    CauseList,
}

/// What a needle of the automaton stands for.
#[derive(Clone, Copy)]
pub(super) enum Target {
    Signature(usize),
    Setting(usize),
}

pub(super) struct Matcher {
    pub(super) automaton: AhoCorasick,
    /// For each distinct needle, what it stands for.
    pub(super) needles: Vec<Vec<Target>>,
    /// The longest needle in bytes: how far before a match another one can start.
    pub(super) longest: usize,
    /// Only the broken variants, to ask cheaply whether one spans a line break.
    broken: AhoCorasick,
    /// The longest broken variant in bytes.
    longest_broken: usize,
    /// Every two bytes that follow each other in a needle (ASCII lower-cased),
    /// as a bit set: a row break between two others cuts no needle.
    pairs: Box<[u64; 1024]>,
}

impl Matcher {
    /// Whether `a` then `b` occur together in a needle (ASCII case-insensitively).
    fn pair(&self, a: u8, b: u8) -> bool {
        let (word, bit) = pair_bit(a, b);
        self.pairs[word] & bit != 0
    }
}

/// Where the pair `a` then `b` (ASCII lower-cased) lives in `Matcher::pairs`: a word and its bit.
fn pair_bit(a: u8, b: u8) -> (usize, u64) {
    let at = usize::from(a.to_ascii_lowercase()) << 8 | usize::from(b.to_ascii_lowercase());
    (at / 64, 1 << (at % 64))
}

/// The generic wordings ("out of memory", "OutOfMemoryError") are also
/// searched for broken by a wrap: every specific message contains one of
/// them ("CUDA out of mem|ory"), and the joined line's own words then say
/// which memory. Only these: each broken variant costs automaton states,
/// built on the first diagnosis. Figures cut by a wrap are read by joining
/// the lines ([`wrap::continues`]).
fn breakable(signature: &Signature) -> bool {
    // A suspicion is not worth its variants' states (TensorFlow's exception class cut by a terminal).
    let proves = !matches!(signature.meaning, Meaning::Suspect(_));
    signature.generic && !signature.weak && proves && signature.needle.len() >= 8
}

pub(super) fn matcher() -> &'static Matcher {
    static MATCHER: OnceLock<Matcher> = OnceLock::new();
    MATCHER.get_or_init(|| {
        let mut texts: Vec<String> = Vec::new();
        let mut needles: Vec<Vec<Target>> = Vec::new();
        let mut broken: Vec<String> = Vec::new();
        let mut add = |text: String, target: Target| {
            let lower = text.to_ascii_lowercase();
            match texts.iter().position(|t| *t == lower) {
                Some(at) => needles[at].push(target),
                None => {
                    texts.push(lower);
                    needles.push(vec![target]);
                }
            }
        };
        for (i, s) in SIGNATURES.iter().enumerate() {
            add(s.needle.to_string(), Target::Signature(i));
            for other in s.also {
                add(other.to_string(), Target::Signature(i));
            }
            if breakable(s) {
                for variant in wrap::broken(s.needle) {
                    broken.push(variant.clone());
                    add(variant, Target::Signature(i));
                }
            }
        }
        for (i, name) in settings::NAMES.iter().enumerate() {
            add(name.text.to_string(), Target::Setting(i));
        }
        let build = |patterns: &[String]| {
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::Standard)
                // A DFA: the fastest scan, and small to build with few broken variants.
                .kind(Some(aho_corasick::AhoCorasickKind::DFA))
                // With hundreds of needles the prefilter finds candidates the DFA
                // then rejects: off, the scan is 6-8% faster (benches/diagnose.rs).
                .prefilter(false)
                .build(patterns)
                .expect("the signature table builds")
        };
        let mut pairs = Box::new([0u64; 1024]);
        for pair in texts.iter().flat_map(|t| t.as_bytes().windows(2)) {
            let (word, bit) = pair_bit(pair[0], pair[1]);
            pairs[word] |= bit;
        }
        Matcher {
            pairs,
            automaton: build(&texts),
            needles,
            longest: texts.iter().map(String::len).max().unwrap_or(0),
            longest_broken: broken.iter().map(String::len).max().unwrap_or(0),
            broken: build(&broken),
        }
    })
}

/// Every text the diagnoser looks for (for comparisons with other tools).
pub fn signature_needles() -> Vec<&'static str> {
    let mut needles: Vec<&'static str> =
        SIGNATURES.iter().flat_map(|s| std::iter::once(s.needle).chain(s.also.iter().copied())).collect();
    needles.extend(settings::NAMES.iter().map(|n| n.text));
    needles.sort_unstable();
    needles.dedup();
    needles
}

/// Whether a needle found at `line[start..end]` is the signature: its case,
/// its boundaries, an exception class before `Error:`.
pub(super) fn matches_here(signature: &Signature, line: &str, start: usize, end: usize) -> bool {
    let found = &line.as_bytes()[start..end];
    if signature.exact_case
        && found != signature.needle.as_bytes()
        && !signature.also.iter().any(|a| found == a.as_bytes())
    {
        return false;
    }
    // `Error:` and `Exception:` count as an exception's line after its class name, or
    // opening the line (Go's and Rust's CLIs: "Error: llama runner process has terminated").
    let after_class_or_opening =
        || line[..start].ends_with(char::is_alphanumeric) || lines::clean(&line[..start]).trim().is_empty();
    if signature.id == "raised" && !after_class_or_opening() {
        return false;
    }
    // Needles that count only in their context; checked here, before the line's
    // other signatures are weighed, so a needle that is not its signature
    // (`killed ` inside "OOM-killed (memory") silences nothing.
    let segment = || lines::segment(line, 0, line.len(), start);
    let in_context = match signature.id {
        "bare-killed" => lines::is_shell_killed(segment()),
        "zsh-job-killed" => lines::is_zsh_job_killed(segment()),
        "vllm-zero-blocks" => figures::zero_gpu_blocks(segment()),
        "srun-task-killed" => scan::find_ci(segment(), "task").is_some(),
        // Frequent needles that count only in one shape of line, rejected before they are weighed.
        "bare-exception" => lines::is_bare_exception(segment()),
        "alloc-buffer-failed" => scan::find_ci(segment(), "failed to allocate").is_some(),
        "memory-limit-of-exceeded" => scan::find_ci(segment(), "exceeded").is_some(),
        "lambda-memory-at-size" => figures::lambda_at_size(segment()),
        "uvicorn-child-died" => scan::find_ci(segment(), "] died").is_some(),
        "seff-at-request" => figures::seff_efficiency(segment()).is_some_and(|percent| percent >= 95.0),
        // "应该不是GPU内存不足" (it should not be the GPU's memory): a denial, in prose.
        "translated-out-of-memory" => {
            let from = line[..start].char_indices().rev().nth(7).map_or(0, |(at, _)| at);
            !["不是", "并非", "没有", "不会"].iter().any(|n| line[from..start].contains(n))
        }
        // "This could be caused by a segmentation fault ... or by an excessive memory usage"
        // (loky) names a segfault as one possibility, not as what happened.
        "segfault" => !line[..start].trim_end().ends_with("caused by a"),
        // loky names the workers' exit codes after its list of causes: a signal other than
        // SIGKILL ("{SIGSEGV(-11)}") answers the list, and not with memory.
        "loky-worker-terminated" => {
            const OTHER_SIGNALS: [&str; 4] = ["SIGSEGV(", "SIGBUS(", "SIGABRT(", "SIGILL("];
            !OTHER_SIGNALS.iter().any(|s| segment().contains(s))
        }
        // A memory quota (Heroku's R14/R15) is memory, not a cloud quota.
        "quota-exceeded" => scan::find_ci(segment(), "Memory quota").is_none(),
        // R's allocator names its own vectors: "cannot allocate vector of size", "vector memory exhausted".
        "phase-vector" => {
            scan::find_ci(segment(), "allocate vector").is_none() && scan::find_ci(segment(), "vector memory").is_none()
        }
        "kernel-killed-process" => scan::find_ci(segment(), "total-vm").is_some(),
        // A metrics table's row that answers no ("Was OOM Killer active?\tNo", Galaxy's job metrics).
        "oom-word" => !answered_no(&line[end..]),
        "julia-worker-terminated" => lines::clean(&line[..start])
            .trim()
            .strip_prefix("Worker ")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())),
        "negative-allocation" => line[end..].starts_with(|c: char| c.is_ascii_digit()),
        "tf-node-on-cpu" | "tf-node-on-gpu" => !line[..start].ends_with(|c: char| c.is_ascii_alphanumeric()),
        _ if signature.weak => phrases::reads(signature.id, line, start, end),
        _ => true,
    };
    if !in_context {
        return false;
    }
    match signature.boundary {
        Boundary::None => true,
        // A word stands between spaces, ASCII punctuation or CJK text ([`separates`]):
        // not inside a longer word, and not between control bytes of binary junk.
        Boundary::Word => lines::touches(line, start, end, |c| !separates(c)).not(),
        Boundary::Identifier => lines::touches(line, start, end, |c| !separates(c) || c == '_').not(),
    }
}

/// Whether the words before `text[at..]` speak about running out of memory
/// without it having happened ("to avoid out of memory errors"), or list it
/// among possible causes. Only what comes before counts: PyTorch's own message
/// ends with "…to avoid fragmentation".
pub(super) fn hedge(text: &str, at: usize) -> Option<Hedge> {
    // Bounded windows: a record of megabytes with a match every few bytes stays linear.
    let before = |width: usize| {
        let mut from = at.saturating_sub(width);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        &text[from..at]
    };
    // Ray's list runs about 300 bytes from its opening words to its third cause.
    if CAUSE_LIST.iter().any(|h| scan::find_ci(before(512), h).is_some()) {
        return Some(Hedge::CauseList);
    }
    ADVICE.iter().any(|h| scan::find_ci(before(80), h).is_some()).then_some(Hedge::Advice)
}

/// The rest of a key/value row after its key, when its value says no: "\tNo", ": false".
fn answered_no(rest: &str) -> bool {
    rest.rsplit_once(['\t', ':'])
        .is_some_and(|(_, value)| ["no", "false", "disabled"].iter().any(|no| value.trim().eq_ignore_ascii_case(no)))
}

/// Meanings that decide the verdict (and that a hedge or a specific signature can overrule).
pub(super) fn decisive(meaning: Meaning) -> bool {
    matches!(meaning, Meaning::Oom(_) | Meaning::OomByContext(_) | Meaning::Suspect(_))
}

/// Where the record holding `text[at]` starts. Records end at a line break,
/// and also at a carriage return (a progress bar redrawn) or a NUL: no needle
/// spans those, and a log of them alone is never held whole. Only `\n`
/// counts as a line.
pub(super) fn record_start(bytes: &[u8], at: usize) -> usize {
    memchr::memrchr3(b'\n', b'\r', b'\0', &bytes[..at]).map_or(0, |i| i + 1)
}

/// Where the message found at `match_end` ends: the end of its record, or of
/// the last line a wrap cut it into (at most MAX_CONTINUATION more lines).
pub(super) fn logical_line_end(text: &str, m: &Matcher, match_end: usize) -> usize {
    let bytes = text.as_bytes();
    let end_of = |from: usize| memchr::memchr3(b'\n', b'\r', b'\0', &bytes[from..]).map_or(bytes.len(), |i| from + i);
    let mut start = record_start(bytes, match_end.saturating_sub(1));
    let mut end = end_of(match_end.saturating_sub(1).max(start));
    // The terminal's width, worked out once and only for a row that could fill one.
    let first = start;
    let mut width: Option<Option<usize>> = None;
    for _ in 0..wrap::MAX_CONTINUATION {
        // Only a line break (\n or \r\n) can be a wrap.
        let newline = match (bytes.get(end), bytes.get(end + 1)) {
            (Some(b'\n'), _) => end,
            (Some(b'\r'), Some(b'\n')) => end + 1,
            _ => break,
        };
        let next_end = end_of(newline + 1);
        let (line, next) = (&text[start..end], &text[newline + 1..next_end]);
        let mut full_row = || {
            wrap::may_fill(line, next)
                && width
                    .get_or_insert_with(|| wrap::terminal_width(&text[first..], end_of(first) - first))
                    .is_some_and(|w| wrap::fills(line, w, next))
        };
        if !(wrap::continues(line, next) || needle_crosses(text, m, newline) || full_row()) {
            break;
        }
        start = newline + 1;
        end = next_end;
    }
    end
}

/// The first row in `text[from..to]` (`from` a row start) that a terminal cut
/// at its width in the middle of a needle ("exited on sig" | "nal 9
/// (Killed)"): the row's start, and where the needle ends in the next row.
/// The generic wordings are found cut by their broken variants; every other
/// needle is looked for here, across the breaks of rows that could fill a
/// terminal's width, so only those rows cost a second look.
pub(super) fn cut_needle(text: &str, m: &Matcher, from: usize, to: usize) -> Option<(usize, usize)> {
    if from >= to {
        return None;
    }
    let bytes = text.as_bytes();
    let mut breaks = memchr::memchr_iter(b'\n', &bytes[from..]).map(|i| from + i);
    // The ends of the row looked at and of the rows after it that a width is
    // read from (the text's end where there are no more): each break found once.
    let mut ends = [bytes.len(); wrap::WIDTH_WINDOW + 1];
    for end in ends.iter_mut() {
        *end = breaks.next().unwrap_or(bytes.len());
    }
    let mut start = from;
    while start < to && ends[0] < bytes.len() {
        let newline = ends[0];
        let last = bytes[newline.saturating_sub(1)];
        let last = if last == b'\r' { bytes[newline.saturating_sub(2)] } else { last };
        let first = bytes.get(newline + 1).copied().unwrap_or(b'\n');
        if newline - start >= wrap::MIN_WIDTH && m.pair(last, first) {
            let line = &text[start..newline];
            let mut after = ends.windows(2).map(|w| &text[(w[0] + 1).min(bytes.len())..w[1]]);
            let next = after.clone().next().unwrap_or("");
            if wrap::may_fill(line, next) && wrap::may_be_width(line, after.by_ref()) {
                if let Some(needle_end) = needle_across(text, m, newline) {
                    let width = wrap::terminal_width(&text[start..], newline - start);
                    if width.is_some_and(|w| wrap::fills(line, w, next)) {
                        return Some((start, needle_end));
                    }
                }
            }
        }
        start = newline + 1;
        ends.rotate_left(1);
        ends[wrap::WIDTH_WINDOW] = breaks.next().unwrap_or(bytes.len());
    }
    None
}

/// Where a needle of the automaton that spans the line break at `at` ends
/// (in the text, past the break), read as if the break were not there.
fn needle_across(text: &str, m: &Matcher, at: usize) -> Option<usize> {
    let line_end = if at > 0 && text.as_bytes()[at - 1] == b'\r' { at - 1 } else { at };
    let (from, to) = around(text, line_end, at + 1, m.longest);
    let (head, tail) = (&text[from..line_end], &text[at + 1..to]);
    let tail = &tail[..memchr::memchr(b'\n', tail.as_bytes()).unwrap_or(tail.len())];
    let joined = format!("{head}{tail}");
    m.automaton
        .find_overlapping_iter(joined.as_str())
        .find(|hit| hit.start() < head.len() && hit.end() > head.len())
        .map(|hit| at + 1 + (hit.end() - head.len()))
}

/// Whether a needle broken by the line break at `at` spans it.
fn needle_crosses(text: &str, m: &Matcher, at: usize) -> bool {
    let (from, to) = around(text, at, at + 1, m.longest_broken);
    m.broken.find_overlapping_iter(&text[from..to]).any(|hit| from + hit.start() < at && from + hit.end() > at + 1)
}

/// Char boundaries `reach` bytes (or less) before `before` and after `after`:
/// the window a needle spanning the break between them can lie in.
fn around(text: &str, before: usize, after: usize, reach: usize) -> (usize, usize) {
    let mut from = before.saturating_sub(reach);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (after + reach).min(text.len());
    while !text.is_char_boundary(to) {
        to += 1;
    }
    (from, to)
}

/// What ends a word: ASCII spaces and punctuation, and the scripts written
/// without spaces (Chinese, Japanese, Korean) with their full-width punctuation,
/// so that "提示bus error，" holds the words "bus error".
fn separates(c: char) -> bool {
    c.is_ascii_whitespace()
        || c.is_ascii_punctuation()
        || matches!(c,
            '\u{3000}'..='\u{30ff}' // CJK punctuation, hiragana, katakana
            | '\u{3400}'..='\u{9fff}' // CJK ideographs
            | '\u{ac00}'..='\u{d7af}' // Hangul syllables
            | '\u{ff00}'..='\u{ffef}' // full-width forms
        )
}
