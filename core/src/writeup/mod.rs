//! The write-up compiler: a markdown incident write-up or guide in, a typed
//! [`Runbook`] out, or an error naming the line.
//!
//! Accepts the lab's raw notes as they are (front matter optional, headings in
//! any wording, mojibake) and the project's clean write-ups in `content/`.
//! Sections it cannot map are kept as text, never dropped.

mod blocks;
mod facts;
mod fence;
mod front_matter;
mod knobs;
pub mod lint;
mod mojibake;
mod outline;
mod structure;

use crate::memory::{MemoryKind, Stack};
use crate::runbook::{DocKind, Runbook, Symptoms};
use std::fmt;

pub use mojibake::repair as repair_mojibake;

/// A problem in one write-up, at a line (1-based) of its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    pub line: usize,
    pub message: String,
}

impl CompileError {
    pub fn new(line: usize, message: impl Into<String>) -> CompileError {
        CompileError { line, message: message.into() }
    }
}

/// A [`CompileError`] with the file it is in: prints as `file:line: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub file: String,
    pub error: CompileError,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.error.line, self.error.message)
    }
}

/// How strict to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The lab's raw notes: take what is there, infer what is missing.
    Raw,
    /// `content/`: front matter must give `summary`, and for incidents
    /// `memory` and `stack`; incidents need a fix, and every fix a knob change.
    Content,
}

/// Compiles one write-up. `source` names the file in errors and in the result;
/// `default_kind` applies when the front matter has no `kind`.
pub fn compile(source: &str, text: &str, default_kind: DocKind, mode: Mode) -> Result<Runbook, CompileError> {
    let text = mojibake::repair(text);
    let (matter, body, body_line) = front_matter::split(&text)?;
    let (heading, sections) = outline::split(body, body_line);

    let title = match (matter.text("title"), &heading) {
        (Some((t, _)), _) => t.to_string(),
        (None, Some((t, _))) => t.clone(),
        (None, None) => {
            return Err(CompileError::new(body_line, "no title: add a `# Title` line or `title:` in the front matter"))
        }
    };
    let slug = match matter.text("slug") {
        Some((slug, line)) => {
            if !is_slug(slug) {
                return Err(CompileError::new(line, format!("slug `{slug}` may hold only a-z, 0-9 and -")));
            }
            slug.to_string()
        }
        None => slugify(&title),
    };
    let kind = match matter.text("kind") {
        None => default_kind,
        Some(("incident", _)) => DocKind::Incident,
        Some(("guide", _)) => DocKind::Guide,
        Some((other, line)) => {
            return Err(CompileError::new(line, format!("kind `{other}` is not `incident` or `guide`")))
        }
    };
    let date = match matter.text("date").or_else(|| matter.text("created")) {
        Some((d, line)) => {
            Some(iso_date(d).ok_or_else(|| CompileError::new(line, format!("date `{d}` is not YYYY-MM-DD")))?)
        }
        None => date_in_title(&title),
    };
    let memory = match matter.text("memory") {
        Some((m, line)) => Some(MemoryKind::parse(m).ok_or_else(|| {
            CompileError::new(line, format!("memory `{m}` is not one of gpu, host, job-limit, shm, none"))
        })?),
        None if kind == DocKind::Incident && mode == Mode::Raw => Some(infer_memory(&text)),
        None => None,
    };
    let stack = match matter.list("stack") {
        Some((items, line)) => items
            .iter()
            .map(|s| Stack::parse(s).ok_or_else(|| CompileError::new(line, format!("unknown stack `{s}`"))))
            .collect::<Result<Vec<_>, _>>()?,
        None if mode == Mode::Raw => infer_stack(&text),
        None => Vec::new(),
    };
    let tags = matter.list("tags").map(|(t, _)| t).unwrap_or_default();

    let mut runbook = Runbook {
        slug,
        title,
        kind,
        date,
        tags,
        memory,
        stack,
        summary: String::new(),
        symptoms: Symptoms::default(),
        root_cause: String::new(),
        fixes: Vec::new(),
        verification: Vec::new(),
        lessons: Vec::new(),
        related: Vec::new(),
        facts: facts::extract(&text),
        other_sections: Vec::new(),
        source: source.to_string(),
    };
    let fix_lines = structure::build(&sections, &mut runbook);
    runbook.related.extend(matter.list("related").map(|(r, _)| r).unwrap_or_default());
    runbook.related.dedup();
    if let Some((summary, _)) = matter.text("summary") {
        runbook.summary = summary.to_string();
    }
    if mode == Mode::Content {
        let mut required = vec!["summary"];
        if kind == DocKind::Incident {
            required.extend(["memory", "stack"]);
        }
        if let Some(missing) = required.iter().find(|k| !matter.entries.iter().any(|(key, _, _)| key == *k)) {
            return Err(CompileError::new(1, format!("front matter needs `{missing}:`")));
        }
        if kind == DocKind::Incident && runbook.fixes.is_empty() {
            let line = heading.as_ref().map_or(body_line, |h| h.1);
            return Err(CompileError::new(line, "an incident needs at least one fix section (e.g. `## Fix: ...`)"));
        }
        if let Some((fix, line)) =
            runbook.fixes.iter().zip(&fix_lines).find(|(f, _)| f.knobs.is_empty() && f.commands.is_empty())
        {
            return Err(CompileError::new(
                *line,
                format!(
                    "fix `{}` states no knob change (a table with Old/New columns, `key=value`, or `x: a → b`)",
                    fix.title
                ),
            ));
        }
    }
    Ok(runbook)
}

/// Compiles a set of write-ups and checks them against each other: no
/// placeholder left, unique slugs, and every `related` target names a
/// runbook (by slug or title).
pub fn compile_corpus(files: &[(String, String, DocKind)]) -> Result<Vec<Runbook>, Vec<FileError>> {
    let mut errors = Vec::new();
    let mut runbooks = Vec::new();
    // The file each compiled runbook came from (failed files leave gaps).
    let mut origin = Vec::new();
    for (index, (file, text, kind)) in files.iter().enumerate() {
        let in_file = |error| FileError { file: file.clone(), error };
        errors.extend(lint::placeholders(text).into_iter().map(in_file));
        match compile(file, text, *kind, Mode::Content) {
            Ok(r) => {
                runbooks.push(r);
                origin.push(index);
            }
            Err(error) => errors.push(in_file(error)),
        }
    }
    let known = lint::titles(&runbooks);
    for (i, runbook) in runbooks.iter_mut().enumerate() {
        let mut found = Vec::new();
        if let Some(first) = known[..i].iter().position(|(s, _)| *s == runbook.slug) {
            found.push(lint::duplicate_slug(&runbook.slug, &files[origin[first]].0, &files[origin[i]].1));
        }
        found.extend(lint::resolve_related(runbook, &files[origin[i]].1, &known));
        errors.extend(found.into_iter().map(|error| FileError { file: runbook.source.clone(), error }));
    }
    if errors.is_empty() {
        Ok(runbooks)
    } else {
        Err(errors)
    }
}

/// Reads `dir/incidents/*.md` and `dir/guides/*.md` (sorted, for a stable
/// order) and compiles them as one corpus. Paths in errors are as given.
pub fn compile_dir(dir: &std::path::Path) -> Result<Vec<Runbook>, Vec<FileError>> {
    let mut files = Vec::new();
    // Every unreadable file or folder is reported, not only the first.
    let mut unreadable = Vec::new();
    let io_error = |file: String, e: std::io::Error| FileError { file, error: CompileError::new(1, e.to_string()) };
    for (sub, kind) in [("incidents", DocKind::Incident), ("guides", DocKind::Guide)] {
        let folder = dir.join(sub);
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(e) => {
                unreadable.push(io_error(folder.display().to_string(), e));
                continue;
            }
        };
        let mut paths: Vec<_> =
            entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect();
        paths.sort();
        for path in paths {
            let name = path.display().to_string();
            match std::fs::read_to_string(&path) {
                Ok(text) => files.push((name, text, kind)),
                Err(e) => unreadable.push(io_error(name, e)),
            }
        }
    }
    match compile_corpus(&files) {
        Ok(runbooks) if unreadable.is_empty() => Ok(runbooks),
        Ok(_) => Err(unreadable),
        Err(mut errors) => {
            unreadable.append(&mut errors);
            Err(unreadable)
        }
    }
}

fn is_slug(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// "OOM Fix — 2025-10-06" -> "oom-fix-2025-10-06".
pub fn slugify(title: &str) -> String {
    let mut slug = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_string()
}

fn iso_date(text: &str) -> Option<String> {
    let t = text.trim();
    let parts: Vec<&str> = t.split('-').collect();
    let ok = parts.len() == 3
        && parts[0].len() == 4
        && parts[1].len() == 2
        && parts[2].len() == 2
        && parts.iter().all(|p| p.chars().all(|c| c.is_ascii_digit()))
        && (1..=12).contains(&parts[1].parse::<u32>().ok()?)
        && (1..=31).contains(&parts[2].parse::<u32>().ok()?);
    ok.then(|| t.to_string())
}

/// Dates as titles write them: `2025-10-06` or `October 16, 2025`.
fn date_in_title(title: &str) -> Option<String> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let words: Vec<&str> =
        title.split(|c: char| c.is_whitespace() || c == '(' || c == ')').filter(|w| !w.is_empty()).collect();
    if let Some(iso) = words.iter().find_map(|w| iso_date(w)) {
        return Some(iso);
    }
    words.windows(3).find_map(|w| {
        let month = MONTHS.iter().position(|m| *m == w[0].to_lowercase())? + 1;
        let day: u32 = w[1].trim_end_matches(',').parse().ok()?;
        let year: u32 = w[2].parse().ok()?;
        ((1..=31).contains(&day) && (1900..=2999).contains(&year)).then(|| format!("{year:04}-{month:02}-{day:02}"))
    })
}

/// The memory a raw write-up is about, from the words it uses most.
fn infer_memory(text: &str) -> MemoryKind {
    let count = |words: &[&str]| words.iter().map(|w| crate::scan::find_all_ci(text, w).count()).sum::<usize>();
    let scores = [
        (
            MemoryKind::JobLimit,
            count(&["oom_kill", "oom-kill event", "--mem", "job memory limit", "out_of_memory", "per node"]),
        ),
        (
            MemoryKind::Gpu,
            count(&["cuda out of memory", "outofmemoryerror", "tried to allocate", "vram", "gpu memory"]),
        ),
        (MemoryKind::Host, count(&["killed process", "system ram", " ram", "oom killer", "total-vm"])),
        (MemoryKind::Shm, count(&["/dev/shm", "bus error", "shm-size"])),
    ];
    scores.iter().max_by_key(|(_, n)| *n).filter(|(_, n)| *n > 0).map_or(MemoryKind::None, |(k, _)| *k)
}

fn infer_stack(text: &str) -> Vec<Stack> {
    let mentions = |words: &[&str]| words.iter().any(|w| crate::scan::find_ci(text, w).is_some());
    let rules: [(Stack, &[&str]); 12] = [
        (Stack::Pytorch, &["torch", "pytorch", "cuda out of memory"]),
        (Stack::Slurm, &["slurm", "sbatch", "#sbatch", "srun"]),
        (Stack::Linux, &["oom-kill:constraint", "out of memory: killed process", "dmesg"]),
        (Stack::Lightning, &["lightning", "accumulate_grad_batches"]),
        (Stack::Deepspeed, &["deepspeed", "zero-3", "zero3"]),
        (Stack::Fsdp, &["fsdp"]),
        (Stack::Vllm, &["vllm"]),
        (Stack::Verl, &["verl", "actor_rollout_ref", "grpo"]),
        (Stack::Jax, &["jax", "xla"]),
        (Stack::Tensorflow, &["tensorflow"]),
        (Stack::Kubernetes, &["kubernetes", "kubectl", "oomkilled"]),
        (Stack::Wandb, &["wandb", "w&b"]),
    ];
    rules.iter().filter(|(_, words)| mentions(words)).map(|(s, _)| *s).collect()
}

#[cfg(test)]
mod tests;

/// For a crate's build.rs: compiles `<workspace>/content` into `out_file` as
/// JSON, telling cargo to rebuild when a write-up changes. On a malformed
/// write-up it prints `content/...md:LINE: message` lines and exits 1, so the
/// build fails naming file and line (as `headroom check` does).
pub fn embed_for_build(workspace: &std::path::Path, out_file: &std::path::Path) {
    let content = workspace.join("content");
    println!("cargo:rerun-if-changed={}", content.display());
    for sub in ["incidents", "guides"] {
        for entry in std::fs::read_dir(content.join(sub)).into_iter().flatten().flatten() {
            println!("cargo:rerun-if-changed={}", entry.path().display());
        }
    }
    // Relative paths, so errors read `content/incidents/x.md:12: ...`.
    if let Err(e) = std::env::set_current_dir(workspace) {
        eprintln!("error: cannot enter {}: {e}", workspace.display());
        std::process::exit(1);
    }
    match compile_dir(std::path::Path::new("content")) {
        Ok(runbooks) => {
            let json = serde_json::to_string(&runbooks).unwrap_or_else(|_| "[]".into());
            if let Err(e) = std::fs::write(out_file, json) {
                eprintln!("error: cannot write {}: {e}", out_file.display());
                std::process::exit(1);
            }
        }
        Err(errors) => {
            for error in &errors {
                eprintln!("error: {error}");
            }
            eprintln!(
                "content/ has {} problem(s); `cargo run -p headroom-cli -- check content` shows the same",
                errors.len()
            );
            std::process::exit(1);
        }
    }
}
