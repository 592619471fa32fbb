//! From a diagnosis to the first draft of a write-up in the content format
//! (`content/incidents/*.md`): front matter from the diagnosis, the evidence
//! lines as symptoms, what the diagnosis established as root cause, one fix
//! section per chosen fix with its knob table, how to verify, and
//! `{{placeholders}}` for what only the author knows. The draft is redacted
//! before it is returned: nothing of it is shown or saved unredacted.
//!
//! The new values in knob tables are the recommender's (read from its fix
//! text); the old ones are the log's. Where either is unknown the cell is a
//! placeholder, so `headroom check` names it until it is filled in.

use crate::diagnose::{Knob, Phase};
use crate::memory::{MemoryKind, Stack};
use crate::recommend::{Fix, Report};
use crate::redact::{self, Redacted};
use crate::runbook::Runbook;
use crate::units::Bytes;
use crate::writeup::lint::placeholder;
use crate::writeup::slugify;
use std::fmt::Write;

/// How many evidence lines the symptoms quote.
const EVIDENCE_LINES: usize = 10;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The title; a proposal from the diagnosis when None.
    pub title: Option<String>,
    /// Today, `YYYY-MM-DD` (the caller knows the clock; this crate does not).
    pub date: String,
    /// Ids of the fixes that were applied, in order; none means the first.
    pub fixes: Vec<String>,
    pub redact: redact::Options,
}

/// The redacted draft of a write-up of `report`, linking matching `runbooks`.
pub fn draft(report: &Report, runbooks: &[Runbook], options: &Options) -> Redacted {
    redact::redact(&compose(report, runbooks, options), options.redact)
}

/// The file name to save a draft under: its slug.
pub fn file_name(slug: &str) -> String {
    format!("{}.md", if slug.is_empty() { "write-up" } else { slug })
}

/// The draft before redaction.
fn compose(report: &Report, runbooks: &[Runbook], options: &Options) -> String {
    let title = options.title.clone().filter(|t| !t.trim().is_empty()).unwrap_or_else(|| proposed_title(report));
    let title = title.trim().replace(['\n', '\r'], " ");
    let mut slug = slugify(&title);
    if slug.is_empty() || runbooks.iter().any(|r| r.slug == slug) {
        slug = slugify(&format!("{slug} {}", options.date));
    }
    let chosen = chosen_fixes(report, &options.fixes);
    let mut out = String::new();
    front_matter(&mut out, report, runbooks, &chosen, &title, &slug, &options.date);
    let _ = writeln!(out, "\n# {title}\n");
    symptoms(&mut out, report);
    root_cause(&mut out, report);
    if chosen.is_empty() {
        blank_fix(&mut out);
    }
    for fix in &chosen {
        fix_section(&mut out, report, fix);
    }
    verify(&mut out, &chosen);
    let _ = writeln!(out, "## Lessons\n\n- {}", placeholder("what the lab should remember, one line each"));
    out
}

fn chosen_fixes<'a>(report: &'a Report, ids: &[String]) -> Vec<&'a Fix> {
    if ids.is_empty() {
        return report.fixes.iter().take(1).collect();
    }
    ids.iter().filter_map(|id| report.fixes.iter().find(|f| f.id == id)).collect()
}

/// "GPU memory runs out during the backward pass (pytorch, verl)".
pub fn proposed_title(report: &Report) -> String {
    let what = match report.memory {
        MemoryKind::Gpu => "GPU memory runs out",
        MemoryKind::Host => "Host RAM runs out",
        MemoryKind::JobLimit => "The job hits its memory limit",
        MemoryKind::Shm => "Shared memory (/dev/shm) runs out",
        MemoryKind::None => "A failure that is not an OOM",
    };
    let mut title = what.to_string();
    if let Some(phase) = report.phase {
        let _ = write!(title, " during the {}", phase.label());
    }
    if !report.stack.is_empty() {
        let names: Vec<&str> = report.stack.iter().take(3).map(|s| s.as_str()).collect();
        let _ = write!(title, " ({})", names.join(", "));
    }
    title
}

fn front_matter(
    out: &mut String,
    report: &Report,
    runbooks: &[Runbook],
    chosen: &[&Fix],
    title: &str,
    slug: &str,
    date: &str,
) {
    let stack: Vec<&str> = report.stack.iter().map(|s| s.as_str()).collect();
    let _ = writeln!(out, "---\ntitle: {}\nslug: {slug}\ndate: {date}", quoted(title));
    let _ = writeln!(out, "memory: {}\nstack: [{}]", report.memory, stack.join(", "));
    let tags = tags(report);
    if !tags.is_empty() {
        let _ = writeln!(out, "tags: [{}]", tags.join(", "));
    }
    let _ = writeln!(out, "summary: {}", placeholder("one sentence: what failed, why, and the fix that worked"));
    // The runbooks behind the chosen fixes, else behind any fix.
    let mut related: Vec<&str> = Vec::new();
    for fixes in [chosen.to_vec(), report.fixes.iter().collect()] {
        for slug in fixes.iter().flat_map(|f| &f.runbooks) {
            if !related.contains(&slug.as_str()) && runbooks.iter().any(|r| r.slug == *slug) {
                related.push(slug);
            }
        }
        if !related.is_empty() {
            break;
        }
    }
    if !related.is_empty() {
        let _ = writeln!(out, "related: [{}]", related.join(", "));
    }
    out.push_str("---\n");
}

/// A front-matter text value, quoted when YAML would misread it.
fn quoted(text: &str) -> String {
    let risky = text.starts_with(['[', '"', '\'', '{', '-', '#', '&', '*', '!', '|', '>', '%', '@']);
    if risky {
        format!("\"{}\"", text.replace('"', "'"))
    } else {
        text.to_string()
    }
}

/// Tags from the phase and the knobs the log set.
fn tags(report: &Report) -> Vec<&'static str> {
    let mut tags = Vec::new();
    if let Some(phase) = report.phase {
        tags.push(match phase {
            Phase::Forward => "forward",
            Phase::Backward => "backward",
            Phase::OptimizerStep => "optimizer",
            Phase::Validation => "validation",
            Phase::Dataloader => "dataloader",
            Phase::Generation => "generation",
            Phase::ModelLoad => "model-loading",
            Phase::KvCacheInit => "kv-cache",
        });
    }
    for setting in report.settings.iter() {
        let tag = match setting.knob {
            Knob::MicroBatch => "batch-size",
            Knob::Workers => "dataloader-workers",
            Knob::SeqLen => "sequence-length",
            Knob::GpuMemUtil => "gpu-memory-utilization",
            Knob::Dtype => "dtype",
            Knob::GradAccumulation => "gradient-accumulation",
            Knob::GradCheckpointing => "gradient-checkpointing",
        };
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    }
    tags
}

fn symptoms(out: &mut String, report: &Report) {
    let _ = writeln!(
        out,
        "## Symptoms\n\n{}\n",
        placeholder("what was running (model, GPUs, job script) and when it failed")
    );
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut evidence: Vec<_> = report.evidence.iter().collect();
    evidence.sort_by_key(|e| e.line);
    for e in evidence {
        if lines.len() < EVIDENCE_LINES && !lines.iter().any(|(_, t)| *t == e.text) && !e.text.trim().is_empty() {
            lines.push((e.line, &e.text));
        }
    }
    if lines.is_empty() {
        let _ = writeln!(out, "{}\n", placeholder("paste the log lines that show the failure in a fenced block"));
    } else {
        // A fence longer than any run of backticks in the lines it holds.
        let longest = lines.iter().map(|(_, t)| longest_run(t, '`')).max().unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        let first = lines.first().map_or(0, |l| l.0);
        let last = lines.last().map_or(0, |l| l.0);
        let span = if first == last { format!("line {first}") } else { format!("lines {first}-{last}") };
        let _ = writeln!(out, "The log ({span}):\n\n{fence}log");
        for (_, text) in &lines {
            let _ = writeln!(out, "{text}");
        }
        let _ = writeln!(out, "{fence}\n");
    }
    let figures = figures(report);
    if !figures.is_empty() {
        let list: Vec<String> = figures.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(out, "Figures in the log: {}.\n", list.join(", "));
    }
}

fn longest_run(text: &str, c: char) -> usize {
    text.split(|x| x != c).map(str::len).max().unwrap_or(0)
}

/// The log's figures as (name, value): bytes in binary units, counts as numbers.
pub fn figures(report: &Report) -> Vec<(String, String)> {
    let numbers = serde_json::to_value(&report.numbers).unwrap_or_default();
    let Some(map) = numbers.as_object() else { return Vec::new() };
    map.iter()
        .map(|(key, value)| {
            let n = value.as_u64().unwrap_or(0);
            let shown =
                if key.ends_with("_tokens") || key == "oom_kill_events" { n.to_string() } else { Bytes(n).to_string() };
            (key.replace('_', " "), shown)
        })
        .collect()
}

fn root_cause(out: &mut String, report: &Report) {
    let _ = writeln!(out, "## Root cause\n\nHeadroom's reading of the log: {}\n", report.summary.trim());
    if report.oom {
        let _ = writeln!(out, "- Memory that ran out: {}.", report.memory.label());
    }
    if let Some(phase) = report.phase {
        let _ = writeln!(out, "- It failed during the {}.", phase.label());
    }
    let settings: Vec<String> =
        report.settings.iter().map(|s| format!("`{}={}` (line {})", s.name, s.value, s.line)).collect();
    if !settings.is_empty() {
        let _ = writeln!(out, "- The job's settings in the log: {}.", settings.join(", "));
    }
    let _ = writeln!(
        out,
        "\n{}\n",
        placeholder("why it ran out this time: what changed (data, model, batch, node), and what the figures say")
    );
}

/// One knob of a fix table: what it is called, and its old and new values.
struct Row {
    knob: String,
    old: Option<String>,
    new: Option<String>,
}

fn fix_section(out: &mut String, report: &Report, fix: &Fix) {
    // In prose an arrow would read as a knob change (`0.9 -> 0.95`); the table says it.
    let detail = fix.detail.replace(" -> ", " to ");
    let _ = writeln!(out, "## Fix: {}\n\n{detail}\n\nWhy: {}.\n", fix.title, fix.because.trim_end_matches('.'));
    out.push_str("| Knob | Old | New |\n|---|---|---|\n");
    for row in rows(report, fix) {
        let knob = if row.knob.contains("{{") { row.knob } else { format!("`{}`", row.knob) };
        let old = row.old.map_or_else(|| placeholder("old value"), |v| cell(&v));
        let new = row.new.map_or_else(|| placeholder("new value"), |v| cell(&v));
        let _ = writeln!(out, "| {knob} | {old} | {new} |");
    }
    let effect = placeholder("what changed after the fix: peak memory, step time, did the run finish");
    let _ = writeln!(out, "\n**Effect:** {effect}\n\n**Trade-off:** {}\n", fix.tradeoff);
    let source = match fix.source.split_once(": http") {
        Some((name, url)) => format!("{name}, <http{url}>"),
        None => fix.source.to_string(),
    };
    let _ = writeln!(out, "Source: {source}.\n");
}

fn blank_fix(out: &mut String) {
    let _ = writeln!(
        out,
        "## Fix: {}\n\n| Knob | Old | New |\n|---|---|---|\n| {} | {} | {} |\n\n**Effect:** {}\n\n**Trade-off:** {}\n",
        placeholder("what you changed"),
        placeholder("setting"),
        placeholder("old value"),
        placeholder("new value"),
        placeholder("what changed after the fix"),
        placeholder("what it costs"),
    );
}

fn cell(value: &str) -> String {
    value.replace('|', "\\|")
}

/// The knobs a fix changes, with the log's old value and the recommender's new one.
fn rows(report: &Report, fix: &Fix) -> Vec<Row> {
    let setting = |knob: Knob, canonical: &str| {
        let found = report.settings.get(knob);
        let name = found.map_or(canonical.to_string(), |s| s.name.clone());
        let old = found.map(|s| s.value.clone());
        let names = [name.as_str(), canonical];
        let new = new_value(&fix.detail, &names, old.as_deref());
        Row { knob: name, old, new }
    };
    let fixed = |knob: &str| Row { knob: knob.to_string(), old: None, new: new_value(&fix.detail, &[knob], None) };
    let row = match fix.id {
        "reduce_batch" => setting(Knob::MicroBatch, "micro_batch_size"),
        "grad_accumulation" => setting(Knob::GradAccumulation, "gradient_accumulation_steps"),
        "grad_checkpointing" => setting(Knob::GradCheckpointing, "gradient_checkpointing"),
        "fewer_workers" => setting(Knob::Workers, "num_workers"),
        "smaller_seq_len" => setting(Knob::SeqLen, "max_model_len"),
        "lower_gpu_mem_util" => setting(Knob::GpuMemUtil, "gpu_memory_utilization"),
        "mixed_precision" => setting(Knob::Dtype, "torch_dtype"),
        "expandable_segments" => fixed("PYTORCH_CUDA_ALLOC_CONF"),
        "bigger_shm" => fixed("--shm-size"),
        "more_host_mem_request" => {
            let knob = if report.stack.contains(&Stack::Kubernetes) {
                "resources.limits.memory".to_string()
            } else if report.stack.contains(&Stack::Slurm) || report.numbers.job_limit.is_some() {
                "#SBATCH --mem".to_string()
            } else {
                placeholder("the job's memory request")
            };
            // `--mem=0` (the whole node) is the alternative the text offers, not the value.
            let new = new_value(&fix.detail, &["--mem"], None).filter(|v| v != "0");
            Row { knob, old: report.numbers.job_limit.map(|b| Bytes(b).to_string()), new }
        }
        _ => Row { knob: placeholder("setting"), old: None, new: None },
    };
    vec![row]
}

/// The new value the fix's text gives: after `old -> `, or after a name and `=` or a space.
fn new_value(detail: &str, names: &[&str], old: Option<&str>) -> Option<String> {
    let after_arrow = old.and_then(|old| {
        let at = detail.find(&format!("{old} -> "))?;
        Some(&detail[at + old.len() + 4..])
    });
    let after_name = || {
        names.iter().find_map(|name| {
            let name = name.trim_start_matches('#').trim();
            [format!("{name}="), format!("{name} ")].iter().find_map(|marker| {
                let at = detail.find(marker.as_str())?;
                value_at(&detail[at + marker.len()..])
            })
        })
    };
    after_arrow.and_then(value_at).or_else(after_name)
}

/// The value a text starts with, if it is one (a number, a size, `True`, a dtype).
fn value_at(text: &str) -> Option<String> {
    let word = text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ')')).next()?;
    let word = word.trim_end_matches('.');
    let valueish = word.chars().any(|c| c.is_ascii_digit())
        || ["true", "false"].contains(&word.to_ascii_lowercase().as_str())
        || word.contains(':');
    (valueish && !word.is_empty()).then(|| word.to_string())
}

fn verify(out: &mut String, chosen: &[&Fix]) {
    out.push_str("## Verify\n\n");
    for (i, fix) in chosen.iter().enumerate() {
        let _ = writeln!(out, "{}. {}: `{}`", i + 1, fix.title, fix.verify);
    }
    let how = placeholder("how you confirmed the fix: the run that finished, the peak memory it reached");
    let _ = writeln!(out, "{}. {how}\n", chosen.len() + 1);
}

/// A draft to start from when there is no diagnosis.
pub fn blank(date: &str) -> String {
    let report = crate::recommend::diagnose("", &[]);
    let options =
        Options { title: Some(placeholder("what ran out, and where")), date: date.to_string(), ..Options::default() };
    compose(&report, &[], &options)
}

#[cfg(test)]
mod tests;
