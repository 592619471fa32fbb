//! Making one matched line readable: the `\r`-separated segment a progress
//! bar left (tqdm redraws with carriage returns), without ANSI colour codes,
//! cut to a length a page can show.

use crate::diagnose::signatures::KILLED_WORDS;
use crate::memory::MemoryKind;
use crate::scan::find_ci;

const MAX_CHARS: usize = 400;

/// The `\r`-delimited part of `text[line_start..line_end]` that holds `at`.
pub fn segment(text: &str, line_start: usize, line_end: usize, at: usize) -> &str {
    let line = &text[line_start..line_end];
    let offset = at - line_start;
    let start = line[..offset].rfind('\r').map_or(0, |i| i + 1);
    let end = line[offset..].find('\r').map_or(line.len(), |i| offset + i);
    &line[start..end]
}

/// Without ANSI escape sequences and trailing space, at most MAX_CHARS characters.
pub fn clean(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len().min(MAX_CHARS * 4));
    let mut chars = segment.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        if !c.is_control() || c == '\t' {
            out.push(c);
        }
    }
    let trimmed = out.trim_end();
    match trimmed.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{}…", &trimmed[..cut]),
        None => trimmed.to_string(),
    }
}

/// A bare `Killed` (what a shell prints when its child gets SIGKILL, in any
/// of [`KILLED_WORDS`]' languages), or a shell job report such as `line 28:
/// 8156 Killed   python3 main.py` or `[1]+  已杀死   nohup python …`, after
/// any docker-compose (`trainer-1  | `), rank (`[rank3]: `) or timestamp prefix.
pub fn is_shell_killed(segment: &str) -> bool {
    let cleaned = clean(segment);
    // The bar is a docker-compose prefix's, or the shell's own in a pipeline's
    // job report (`19 Killed     | samtools sort`): the line is read whole and after each.
    let after_bars = cleaned.match_indices(" | ").map(|(at, bar)| &cleaned[at + bar.len()..]);
    // A bar quoted as markdown inline code in a sentence ("`… ?seconds/s]Killed` on my terminal",
    // the span perhaps opened on a row above): each piece between backticks is read for a bar
    // the word ended.
    if cleaned.contains('`')
        && cleaned.split('`').any(|piece| KILLED_WORDS.iter().any(|word| after_progress_bar(piece.trim(), word)))
    {
        return true;
    }
    std::iter::once(cleaned.as_str()).chain(after_bars).any(|t| {
        let t = without_timestamp(t.rsplit("]: ").next().unwrap_or(t).trim());
        // A line quoted in markdown, at any depth (> > Killed), or marked as output with a
        // comment sign (# Killed).
        let t = t.trim_start_matches(|c: char| c == '>' || c == '#' || c.is_whitespace());
        // A workspace tool's prefix, one word and a colon: "@packages/net-stubbing: Killed".
        let t = t.split_once(": ").filter(|(name, _)| !name.contains(' ')).map_or(t, |(_, rest)| rest);
        // A line pasted as markdown inline code or emphasis: `Killed`, **Killed**.
        let t = t.trim_matches(['`', '*']).trim();
        // Retyped in lowercase, the word counts only alone on its line.
        t == "killed"
            || KILLED_WORDS.iter().any(|word| {
                t == *word || job_report(t, word) || after_progress_bar(t, word) || over_progress_count(t, word)
            })
    })
}

/// Without the date and time a line opens with: `docker logs -t`'s
/// `2024-03-01T12:00:00.123456789Z`, a logger's `2024-03-01 12:00:00,123`.
fn without_timestamp(t: &str) -> &str {
    let mut rest = t;
    for _ in 0..3 {
        let word = rest.split_whitespace().next().unwrap_or("");
        let digits = word.bytes().filter(u8::is_ascii_digit).count();
        let stamp = digits >= 4
            && word.contains([':', '-', '/'])
            && word.bytes().all(|b| b.is_ascii_digit() || b"-:.,/TZ+[]".contains(&b));
        if !stamp {
            break;
        }
        rest = rest[word.len()..].trim_start();
    }
    rest
}

/// A line that is only an exception's (dotted) class name ending in Error:
/// `EOFError`, `[rank0]: pickle.UnpicklingError`.
pub fn is_bare_exception(segment: &str) -> bool {
    let name = segment.rsplit("]: ").next().unwrap_or(segment).trim();
    name.ends_with("Error") && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// zsh's job report, lowercase: `[1]    9301 killed     python3 train.py`
/// (a job number, the pid, then the command), also where it lands after a
/// progress bar that ended without a line break (`… ?it/s][1]    26478 killed …`).
pub fn is_zsh_job_killed(segment: &str) -> bool {
    let cleaned = clean(segment);
    cleaned.match_indices('[').any(|(at, _)| zsh_job_report(&cleaned[at..]))
}

fn zsh_job_report(cleaned: &str) -> bool {
    let mut words = cleaned.split_whitespace();
    let job = words.next().and_then(|w| w.strip_prefix('[')).map(|w| w.trim_end_matches(['+', '-']));
    let job =
        job.and_then(|w| w.strip_suffix(']')).is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()));
    // zsh marks the current job with a separate `+` (the previous with `-`).
    let mut words = words.skip_while(|w| *w == "+" || *w == "-");
    let pid = words.next().is_some_and(|w| w.bytes().all(|c| c.is_ascii_digit()));
    job && pid && words.next() == Some("killed")
}

/// `… 0/2 [00:00<?, ?it/s]Killed`: a progress bar (or a status, `Collecting...`)
/// ends without a line break, so the shell's message lands on its line. Bars
/// end in a bracket, a percentage or a duration (mmcv's `… ETA: 2621s`).
fn after_progress_bar(t: &str, word: &str) -> bool {
    const RATES: [&str; 5] = ["it/s", "s/it", "task/s", "ETA", "%"];
    // tqdm's bar, cut mid-draw: its blocks, or `#` where it draws in ASCII.
    const BLOCKS: [char; 9] = ['█', '▏', '▎', '▍', '▌', '▋', '▊', '▉', '#'];
    // Quoted in prose, the sentence's own stop and quote follow: `…1.39s/it]Killed."`.
    let t = t.trim_end_matches(['.', '"', '\'', '”']);
    t.strip_suffix(word).is_some_and(|bar| {
        let duration = bar.strip_suffix('s').is_some_and(|b| b.ends_with(|c: char| c.is_ascii_digit()));
        // A status printed without a line break: "---> Collecting...Killed", conda's
        // "Solving environment: ...working... Killed".
        let status = bar.trim_end().ends_with("...") || bar.trim_end().ends_with('…');
        // Keras's bar ends with its last metric: "[====>....] - ETA: 365s - loss: 2.1371Killed".
        let metric = bar.ends_with(|c: char| c.is_ascii_digit());
        let drawn = bar.ends_with(['|', ']', '%']) || bar.ends_with(BLOCKS);
        status || ((drawn || duration || metric) && RATES.iter().any(|r| bar.contains(r)))
    })
}

/// `Killed111/111`: the shell's word written over the start of a progress
/// count redrawn in place (`\r`), its tail left behind: digits with a `/` or
/// `%`, or the rest of the progress line's words up to its count
/// (`Killedg in train batch: 127687 / 263115`, over "Processing").
fn over_progress_count(t: &str, word: &str) -> bool {
    t.strip_prefix(word).is_some_and(|rest| {
        let count = rest.starts_with(|c: char| c.is_ascii_digit())
            && rest.contains(['/', '%'])
            && rest.chars().all(|c| c.is_ascii_digit() || "/%. |".contains(c));
        let words = rest.starts_with(|c: char| c.is_ascii_lowercase())
            && rest.rsplit_once('/').is_some_and(|(done, total)| {
                let total = total.trim();
                done.trim_end().ends_with(|c: char| c.is_ascii_digit())
                    && !total.is_empty()
                    && total.chars().all(|c| c.is_ascii_digit())
            });
        count || words
    })
}

/// `… 8156 Killed   python3 main.py` or `[1]+  Killed   python …`: the word
/// right after a pid or a job number, then the command (or nothing).
fn job_report(t: &str, word: &str) -> bool {
    let Some(at) = t.find(word) else { return false };
    let after = &t[at + word.len()..];
    if !(after.is_empty() || after.starts_with(char::is_whitespace)) {
        return false;
    }
    let Some(last) = t[..at].split_whitespace().next_back() else { return false };
    let job = last.starts_with('[') && last.trim_end_matches(['+', '-']).ends_with(']');
    job || last.chars().all(|c| c.is_ascii_digit())
}

/// Whether a character `inside` a word touches `line[start..end]` on either side.
/// A colour code or another control character stands between words
/// ("\x1b[31mMemoryError\x1b[0m").
pub fn touches(line: &str, start: usize, end: usize, inside: impl Fn(char) -> bool) -> bool {
    let inside = |c: char| !c.is_control() && inside(c);
    let before = &line[..start];
    let coloured = colour_code_ending(before).is_some();
    (!coloured && before.chars().next_back().is_some_and(inside)) || line[end..].chars().next().is_some_and(inside)
}

/// Where the colour code that `text` ends with starts (`…\x1b[0m`): a code
/// ends in a letter, a few bytes after its escape.
fn colour_code_ending(text: &str) -> Option<usize> {
    if !text.ends_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let from = text.len().saturating_sub(16);
    let esc = from + memchr::memrchr(0x1b, &text.as_bytes()[from..])?;
    is_colour_code(&text[esc..]).then_some(esc)
}

/// `\x1b[1;31m`: a whole ANSI CSI sequence.
fn is_colour_code(text: &str) -> bool {
    let Some(body) = text.strip_prefix("\u{1b}[") else { return false };
    let Some((last, params)) = body.as_bytes().split_last() else { return false };
    last.is_ascii_alphabetic() && params.iter().all(|b| b.is_ascii_digit() || *b == b';')
}

/// The memory a line's own words name: a device (`cuda`, `gpu`, `hip`,
/// `mps`, `xla`, `hbm`, `vram`, a device ordinal), shared memory, a cgroup or
/// container limit, or a process heap (Java's and Node's "heap").
pub fn memory_named(line: &str) -> Option<MemoryKind> {
    // TensorFlow names the CPU as a device: "on /job:localhost/.../device:CPU:0 by allocator cpu".
    // CUDA's pinned (page-locked) buffers are host memory: "could not allocate pinned host memory".
    // The JVM's other OutOfMemoryErrors name no heap: "GC overhead limit exceeded",
    // "Metaspace", "Direct buffer memory", "Requested array size exceeds VM limit".
    // CUDA's pinned host allocations by name: "cudaMallocHost", "cudaHostAlloc", OpenCV's
    // page-locked allocator's file "cuda_host_mem.cpp".
    const HOST: [&str; 17] = [
        "cudaMallocHost",
        "cudaHostAlloc",
        "host_mem",
        "java",
        "GC overhead",
        "Metaspace",
        "Direct buffer memory",
        "exceeds VM limit",
        "device:CPU",
        "allocator cpu",
        "bytes on host",
        "pinned host",
        "system memory",
        "host memory",
        "cpu memory",
        "cpu_buffer",
        "CPU buffer",
    ];
    // A process's heap, as a word: not a driver's "heap_alloc_managed" (Ascend's device heap).
    let heap = crate::scan::find_all_ci(line, "heap")
        .any(|at| !touches(line, at, at + "heap".len(), |c| c.is_alphanumeric() || c == '_'));
    if heap || HOST.iter().any(|w| find_ci(line, w).is_some()) {
        return Some(MemoryKind::Host);
    }
    // A serving stack's prefill batch runs on the accelerator.
    // An accelerator's "DRAM buffer" (Tenstorrent's banks) is its own memory.
    // The GPU math libraries' workspaces: "rocBLAS error: Could not allocate memory".
    // TensorRT's loggers tag their lines "[TRT]", "[TensorRT]", "[TensorRT-LLM]": its workspace is the device's,
    // as is a tactic's it skipped for insufficient memory.
    // Ascend's NPU driver ("[ascend]...[devmm]") and other NPUs: an accelerator's memory.
    // NVIDIA's video encoder ("[h264_nvenc @ 0x…] InitializeEncoder failed: out of memory (10)"),
    // Thrust, CUDA's C++ library ("thrust::system::system_error"), and bitsandbytes' CUDA
    // wrapper (".../bitsandbytes/csrc/pythonInterface.c") work in the device's memory.
    const DEVICE: [&str; 35] = [
        "[TRT]",
        "[TensorRT",
        "nvenc",
        "thrust::",
        "bitsandbytes",
        "Skipping tactic",
        "ascend",
        "cuda",
        "gpu",
        "hbm",
        "vram",
        "device",
        "cudnn",
        "cublas",
        "nccl",
        "xpu",
        "prefill",
        "rocm",
        "metal",
        "vulkan",
        "opencl",
        "directml",
        "Direct ML",
        "DmlExecutionProvider",
        "sycl",
        "DRAM buffer",
        "rocblas",
        "miopen",
        "rccl",
        "cufft",
        "cusparse",
        "cusolver",
        // The CUDA driver's allocation call, under any wrapper ("MemoryError: cuMemAlloc failed: out of memory", pycuda).
        "cuMemAlloc",
        "video memory",
        "graphics memory",
    ];
    // MPI's transports: "Unable to allocate shared memory for intra-node messaging".
    const SHARED: [&str; 2] = ["shared memory", "/dev/shm"];
    // "Your job has used more RAM than asked for" (a centre's notice): the request is the limit.
    // A platform's instance size: App Engine's "an instance with insufficient memory. Consider
    // setting a larger instance class", Render's "Ran out of memory (used over 512MB)".
    const LIMIT: [&str; 6] =
        ["cgroup", "memory limit", "than asked for", "than requested", "instance class", "(used over"];
    if DEVICE.iter().any(|w| find_ci(line, w).is_some()) || SHORT_DEVICE.iter().any(|w| short_word_in(line, w)) {
        return Some(MemoryKind::Gpu);
    }
    // Not PostgreSQL's "anonymous shared memory": a mapping backed by RAM and swap, not /dev/shm.
    if SHARED.iter().any(|w| find_ci(line, w).is_some()) && find_ci(line, "anonymous shared memory").is_none() {
        return Some(MemoryKind::Shm);
    }
    LIMIT.iter().any(|w| find_ci(line, w).is_some()).then_some(MemoryKind::JobLimit)
}

/// Device names short enough to hide inside other words: "npu" in "input", "mps" in
/// "timestamps", "hip" in "relationship", "xla" in AWS's "2xlarge" (see [`short_word_in`]).
const SHORT_DEVICE: [&str; 4] = ["npu", "hip", "mps", "xla"];

/// `word` on `line` where no letter runs into it from before, and none after but
/// an identifier's next capital or a plural's `s`: "torch_npu", "hipMalloc",
/// "XlaRuntimeError", "NPUs"; not "input", "chip", "jumps", "xlarge".
fn short_word_in(line: &str, word: &str) -> bool {
    let bytes = line.as_bytes();
    crate::scan::find_all_ci(line, word).any(|at| {
        let end = at + word.len();
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = |i: usize| bytes.get(end + i).copied();
        let plural = after(0).is_some_and(|b| b.eq_ignore_ascii_case(&b's'))
            && !after(1).is_some_and(|b| b.is_ascii_alphabetic());
        !before.is_some_and(|b| b.is_ascii_alphabetic())
            && (plural || !after(0).is_some_and(|b| b.is_ascii_lowercase()))
    })
}

/// The memory named by the row of `text` that ends at `end` (a line break)
/// when it introduces the message on the next row (ends with a colon), as a
/// C++ exception's `what():` names its source file. Only the row's end is
/// looked at first, so rows that introduce nothing cost nothing; long rows
/// introduce nothing, so they are never carried between reads.
pub fn introduced_by(text: &str, end: usize) -> Option<MemoryKind> {
    // Only this row's own trailing blanks and colour codes: a blank row introduces nothing.
    let without_blanks = |to: usize| text[..to].trim_end_matches([' ', '\t', '\r']).len();
    let mut row_end = without_blanks(end);
    while let Some(code) = colour_code_ending(&text[..row_end]) {
        row_end = without_blanks(code);
    }
    // C++'s terminate handler names the exception's type on the row above its
    // what(): "terminate called after throwing an instance of 'thrust::system::system_error'".
    let colon = text[..row_end].ends_with(':');
    if !colon && !text[..row_end].ends_with('\'') {
        return None;
    }
    let window = row_end.saturating_sub(MAX_INTRODUCING_ROW);
    let start = match memchr::memrchr(b'\n', &text.as_bytes()[window..row_end]) {
        Some(at) => window + at + 1,
        None if window == 0 => 0,
        None => return None,
    };
    let row = &text[start..row_end];
    if !colon && find_ci(row, "throwing an instance of").is_none() {
        return None;
    }
    memory_named(row)
}

const MAX_INTRODUCING_ROW: usize = 1024;

/// One line of an excerpt around the evidence.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ExcerptLine {
    /// 1-based line number in the log.
    pub line: usize,
    pub text: String,
    pub evidence: bool,
}

/// The evidence lines with `radius` lines of context around each, cleaned
/// like evidence (last `\r` segment, no colour codes); `None` marks a gap.
/// Stops after `max_lines` lines so a log with thousands of hits stays readable.
pub fn excerpt(text: &str, evidence: &[usize], radius: usize, max_lines: usize) -> Vec<Option<ExcerptLine>> {
    let mut windows: Vec<(usize, usize)> =
        evidence.iter().map(|&l| (l.saturating_sub(radius).max(1), l + radius)).collect();
    windows.sort_unstable();
    // Merged, so one pointer walks them alongside the lines.
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (from, to) in windows {
        match merged.last_mut() {
            Some(last) if from <= last.1 + 1 => last.1 = last.1.max(to),
            _ => merged.push((from, to)),
        }
    }
    let last = merged.last().map_or(0, |w| w.1);
    let mut out: Vec<Option<ExcerptLine>> = Vec::new();
    let mut previous = 0;
    let mut window = 0;
    for (index, raw) in text.lines().enumerate().take(last) {
        let line = index + 1;
        while merged.get(window).is_some_and(|w| w.1 < line) {
            window += 1;
        }
        if merged.get(window).is_none_or(|w| w.0 > line) {
            continue;
        }
        if out.len() >= max_lines {
            break;
        }
        if previous != 0 && line != previous + 1 {
            out.push(None);
        }
        let shown = raw.rsplit('\r').find(|segment| !segment.trim().is_empty()).unwrap_or("");
        out.push(Some(ExcerptLine { line, text: clean(shown), evidence: evidence.contains(&line) }));
        previous = line;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_marks_evidence_and_gaps() {
        let text = "a\nb\nc\nOOM here\nd\ne\nf\ng\nh\nKilled\n";
        let ex = excerpt(text, &[4, 10], 1, 100);
        let shown: Vec<String> = ex
            .iter()
            .map(|l| l.as_ref().map_or("…".into(), |l| format!("{}{}", l.line, if l.evidence { "*" } else { "" })))
            .collect();
        assert_eq!(shown, vec!["3", "4*", "5", "…", "9", "10*"]);
        assert!(excerpt("", &[], 2, 10).is_empty());
        assert_eq!(excerpt("x\n", &[50], 2, 10), Vec::<Option<ExcerptLine>>::new());
    }

    #[test]
    fn carriage_returns_and_colours() {
        let text = "epoch 1  10%\repoch 1  20%\r\u{1b}[31mRuntimeError: CUDA out of memory\u{1b}[0m\rtail";
        let at = text.find("CUDA").unwrap();
        let seg = segment(text, 0, text.len(), at);
        assert_eq!(clean(seg), "RuntimeError: CUDA out of memory");
    }

    #[test]
    fn bare_killed_only_in_shell_form() {
        assert!(is_shell_killed("Killed"));
        assert!(is_shell_killed(
            "/var/spool/slurmd/job00191/slurm_script: line 28:  8156 Killed                  python3 main.py"
        ));
        assert!(!is_shell_killed("Some of the step tasks have been OOM Killed."));
        assert!(!is_shell_killed("Killed process 1234 (python)"));
    }

    #[test]
    fn killed_in_other_languages_and_behind_prefixes() {
        assert!(is_shell_killed("[1]+  已杀死               nohup python train.py"));
        assert!(is_shell_killed("./run.sh: Zeile 3: 4242 Getötet                 python train.py"));
        // A status conda printed without its line break, behind BuildKit's step prefix.
        assert!(is_shell_killed("#11 212.9 Solving environment: ...working... Killed"));
        assert!(is_shell_killed("強制終了"));
        assert!(is_shell_killed("Убито"));
        assert!(is_shell_killed("trainer-1  | Killed"));
        assert!(is_shell_killed("[rank3]: Killed"));
        assert!(is_shell_killed("Loading checkpoint shards:   0%|          | 0/2 [00:00<?, ?it/s]Killed"));
        assert!(is_shell_killed("> Killed"), "a quoted paste");
        assert!(is_shell_killed("       ---> Collecting...Killed"), "a status without its line break");
        assert!(is_shell_killed("@packages/net-stubbing: Killed"), "a workspace tool's prefix");
        assert!(!is_shell_killed("Status: was Killed"));
        assert!(!is_shell_killed("已杀死服务器进程: 1234"), "a sentence, not a shell report");
        assert!(!is_shell_killed("Всего врагов Убито: 3"));
        assert!(is_shell_killed("`Killed`"));
        assert!(is_shell_killed("2024-03-01T12:00:00.123456789Z Killed"), "docker logs -t");
        assert!(is_shell_killed("[2024-03-01 12:00:00,123] Killed"));
        // ncov2019articnf30: a pipeline's job report, the bar the shell's own.
        assert!(is_shell_killed("          19 Killed                  | samtools sort -o x.sorted.bam"));
        assert!(!is_shell_killed("2024-03-01 12:00:00 Killed process 1234 (python)"));
        assert!(is_zsh_job_killed("[1]    9301 killed     python3 scripts/dream.py "));
        assert!(is_zsh_job_killed("[2]  + 77 killed     python train.py"));
        assert!(!is_zsh_job_killed("[1] worker 9301 killed by the supervisor"));
        assert!(!is_zsh_job_killed("process 9301 killed     python3"));
        assert!(is_zsh_job_killed(
            "Loading checkpoint shards:   0%|     | 0/3 [00:00<?, ?it/s][1]    26478 killed     python test.py"
        ));
    }

    #[test]
    fn colour_codes_stand_between_words() {
        let line = "\u{1b}[31mMemoryError\u{1b}[0m";
        let word = |c: char| c.is_alphanumeric();
        assert!(!touches(line, 5, 16, word));
        assert!(touches("xMemoryError", 1, 12, word));
        assert!(touches("\u{1b}[31;xmMemoryError", 8, 19, word), "not a colour code");
    }

    #[test]
    fn the_shells_word_over_a_progress_lines_start() {
        assert!(is_shell_killed("Killed111/111"));
        assert!(is_shell_killed("Killedg in train batch: 127687 / 263115"));
        assert!(!is_shell_killed("Killedg in train batch"), "no count left of the line");
        assert!(!is_shell_killed("Killed processes: 3/4"), "a word of its own after the shell's");
    }

    #[test]
    fn memory_named_by_the_line() {
        assert_eq!(memory_named("Cuda failure 2 'out of memory'"), Some(MemoryKind::Gpu));
        assert_eq!(memory_named("Memory cgroup out of memory: Killed process 1"), Some(MemoryKind::JobLimit));
        assert_eq!(memory_named("OSError: [Errno 12] Cannot allocate memory"), None);
        assert_eq!(memory_named("Caused by: OutOfMemoryError: Metaspace"), Some(MemoryKind::Host));
        assert_eq!(
            memory_named("OOM when allocating tensor with shape[24,1,2304] and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu"),
            Some(MemoryKind::Host)
        );
        // The GPU math libraries and the graphics stacks name the device in their own words.
        assert_eq!(memory_named("rocBLAS error: Could not allocate memory"), Some(MemoryKind::Gpu));
        assert_eq!(memory_named("There is not enough video memory available"), Some(MemoryKind::Gpu));
        assert_eq!(memory_named("Unable to allocate shared memory for intra-node messaging."), Some(MemoryKind::Shm));
        assert_eq!(memory_named("FATAL:  could not map anonymous shared memory: Cannot allocate memory"), None);
    }

    #[test]
    fn a_row_names_memory_for_the_next_only_when_it_introduces_it() {
        let what = "  what():  /scratch/picongpu/thirdParty/mallocMC/SimpleCudaMalloc_impl.hpp(42):";
        let introduced = |row: &str| introduced_by(&format!("log\n{row}\nerror"), row.len() + 4);
        assert_eq!(introduced(what), Some(MemoryKind::Gpu));
        assert_eq!(introduced("  File \"/opt/torch/cuda/memory.py\", line 12, in alloc"), None);
        assert_eq!(introduced(&format!("{}cuda:", "x".repeat(MAX_INTRODUCING_ROW))), None);
        assert_eq!(introduced(&format!("{}cuda:", "x".repeat(MAX_INTRODUCING_ROW - 8))), Some(MemoryKind::Gpu));
        // A colour code closing the row hides nothing.
        assert_eq!(
            introduced("\u{1b}[31m  what():  /src/SimpleCudaMalloc_impl.hpp(42):\u{1b}[0m"),
            Some(MemoryKind::Gpu)
        );
        // A blank row between them: nothing introduced, in any chunking.
        assert_eq!(introduced_by("  what():  /src/SimpleCudaMalloc_impl.hpp(42):\n   \nerror", 50), None);
    }

    #[test]
    fn long_lines_are_cut_on_a_character_boundary() {
        let long = "é".repeat(1000);
        assert_eq!(clean(&long).chars().count(), MAX_CHARS + 1);
    }
}
