//! Ranked fixes for a diagnosis, in the diagnosis contract's vocabulary. The
//! ranking weighs what the log shows: the frame that raised, the request
//! against the GPU, memory held by other processes or reserved but unused,
//! the job's own settings, inference or training, the stack. Every fix says
//! why it is there (a line or a figure of the log), its concrete values, its
//! trade-off, how to verify it worked, and the remediation-catalog entry it
//! rests on. `torch.cuda.empty_cache()` is never offered as an OOM fix
//! (catalog G-05).
//!
//! `recommend` reads only the [`Diagnosis`]: everything it needs from the log
//! (figures, settings, frames) was collected in the diagnoser's one pass.

mod catalog;
mod gpu;
mod host;

use crate::diagnose::{Diagnoser, Diagnosis, Knob};
use crate::memory::{MemoryKind, Stack};
use crate::runbook::Runbook;
use crate::units::Bytes;
use catalog::{template, Template};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fix {
    pub id: &'static str,
    pub title: &'static str,
    pub detail: String,
    /// What in the log put this fix here: a line or a figure.
    pub because: String,
    pub tradeoff: &'static str,
    pub verify: String,
    pub source: &'static str,
    pub runbooks: Vec<String>,
}

/// A diagnosis with its ranked fixes: the contract's JSON, and what the pages show.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    #[serde(flatten)]
    pub diagnosis: Diagnosis,
    pub fixes: Vec<Fix>,
}

/// A report reads as its diagnosis (`report.memory`, `report.numbers`).
impl std::ops::Deref for Report {
    type Target = Diagnosis;
    fn deref(&self) -> &Diagnosis {
        &self.diagnosis
    }
}

/// Diagnoses a whole log and recommends fixes, linking the given runbooks.
pub fn diagnose(text: &str, runbooks: &[Runbook]) -> Report {
    let mut diagnoser = Diagnoser::new();
    diagnoser.feed(text);
    report(diagnoser.finish(), runbooks)
}

/// The fixes for a finished diagnosis.
pub fn report(diagnosis: Diagnosis, runbooks: &[Runbook]) -> Report {
    let fixes = recommend(&diagnosis, runbooks);
    Report { diagnosis, fixes }
}

/// A candidate fix and how strongly the log speaks for it (0-100).
struct Candidate {
    id: &'static str,
    score: u8,
    detail: String,
    because: String,
}

/// Candidates by id: the strongest reason for each fix wins.
#[derive(Default)]
struct Ranking(Vec<Candidate>);

impl Ranking {
    fn add(&mut self, id: &'static str, score: u8, detail: impl Into<String>, because: impl Into<String>) {
        let candidate = Candidate { id, score, detail: detail.into(), because: because.into() };
        match self.0.iter_mut().find(|c| c.id == id) {
            Some(existing) if existing.score < score => *existing = candidate,
            Some(_) => {}
            None => self.0.push(candidate),
        }
    }

    /// Drops a fix the log shows is already in place.
    fn remove(&mut self, id: &str) {
        self.0.retain(|c| c.id != id);
    }

    fn ranked(mut self) -> Vec<Candidate> {
        // Stable: equal scores keep the order the rules added them in.
        self.0.sort_by_key(|c| std::cmp::Reverse(c.score));
        self.0
    }
}

pub fn recommend(d: &Diagnosis, runbooks: &[Runbook]) -> Vec<Fix> {
    let mut ranking = Ranking::default();
    match d.memory {
        MemoryKind::None => {
            host::not_oom(d, &mut ranking);
            gpu::library_start(d, &mut ranking);
        }
        // A suspected memory kind without proof (a worker that "exited unexpectedly") gets the same fixes.
        MemoryKind::Gpu => gpu::rank(d, &mut ranking),
        MemoryKind::Host => host::host(d, &mut ranking),
        MemoryKind::JobLimit => host::job_limit(d, &mut ranking),
        MemoryKind::Shm => host::shm(d, &mut ranking),
    }
    ranking
        .ranked()
        .into_iter()
        .map(|c| {
            let t = template(c.id);
            let verify = match (c.id, d.memory) {
                ("more_host_mem_request", MemoryKind::JobLimit) if d.stack.contains(&Stack::Kubernetes) => {
                    "kubectl describe pod <pod> (Last State, Reason)".to_string()
                }
                _ => t.verify.to_string(),
            };
            Fix {
                id: c.id,
                title: t.title,
                detail: c.detail,
                because: c.because,
                tradeoff: t.tradeoff,
                verify,
                source: t.source,
                runbooks: matching_runbooks(d.memory, t, runbooks),
            }
        })
        .collect()
}

fn b(n: u64) -> String {
    Bytes(n).to_string()
}

/// "line 12" for a reason.
fn at(line: usize) -> String {
    format!("line {line}")
}

/// A line of the log quoted as code: its own backticks would end the quote early and
/// leave the rest read as markdown (a `[[...]]` in it as a link), so they become quotes.
fn quoted(text: &str) -> String {
    format!("`{}`", text.replace('`', "'"))
}

fn matching_runbooks(memory: MemoryKind, t: &Template, runbooks: &[Runbook]) -> Vec<String> {
    let family = |m: Option<MemoryKind>| match m {
        Some(MemoryKind::Host | MemoryKind::JobLimit) => 1,
        Some(MemoryKind::Gpu) => 2,
        Some(MemoryKind::Shm) => 3,
        _ => 0,
    };
    let mut matches: Vec<&Runbook> = runbooks
        .iter()
        .filter(|r| family(r.memory) == family(Some(memory)) && family(Some(memory)) != 0)
        .filter(|r| {
            let haystack = r
                .fixes
                .iter()
                .flat_map(|f| f.knobs.iter().map(|k| k.knob.as_str()).chain([f.title.as_str()]))
                .chain(r.tags.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase();
            t.runbook_words.iter().any(|w| haystack.contains(w))
        })
        .collect();
    matches.sort_by_key(|r| r.kind != crate::runbook::DocKind::Incident);
    matches.into_iter().take(3).map(|r| r.slug.clone()).collect()
}

/// Calculator fields implied by a diagnosis, for "open in Budget": the GPU's
/// capacity, the job's memory limit, and from a vLLM start-up log the vLLM
/// fields (its utilization, max_model_len, block size and profile peak), so
/// the page prints the start-up the log shows.
pub fn budget_fields(d: &Diagnosis) -> Vec<(&'static str, String)> {
    let gib = |b: u64| format!("{:.2}", b as f64 / (1u64 << 30) as f64);
    let n = &d.numbers;
    let vllm_figures = n.kv_cache.is_some() || n.gpu_kv_blocks.is_some() || n.kv_cache_tokens.is_some();
    let mut pairs = Vec::new();
    let capacity = n.capacity.filter(|_| d.memory == MemoryKind::Gpu || vllm_figures);
    if let Some(capacity) = capacity {
        pairs.push(("gpu", "custom".to_string()));
        pairs.push(("gpu_mem_gib", gib(capacity)));
    }
    if let Some(limit) = n.job_limit {
        pairs.push(("mem_gib", gib(limit)));
    }
    if vllm_figures || (d.memory == MemoryKind::Gpu && d.stack.contains(&Stack::Vllm)) {
        pairs.push(("workload", "inference".to_string()));
    }
    if vllm_figures {
        // 0.9 is vLLM's default when the log does not name the setting.
        let utilization = d.settings.fraction(Knob::GpuMemUtil).unwrap_or(0.9);
        pairs.push(("vllm_util", utilization.to_string()));
        if let Some(len) = n.max_seq_len_tokens.or_else(|| d.settings.number(Knob::SeqLen)) {
            pairs.push(("seq_len", len.to_string()));
        }
        if let (Some(tokens), Some(blocks)) = (n.kv_cache_tokens, n.gpu_kv_blocks.filter(|&b| b > 0)) {
            if tokens % blocks == 0 {
                pairs.push(("block_size", (tokens / blocks).to_string()));
            }
        }
        // What vLLM kept back besides weights and KV cache: its profile peak.
        if let (Some(capacity), Some(weights), Some(kv)) = (capacity, n.model_weights, n.kv_cache) {
            let peak = utilization * capacity as f64 - weights as f64 - kv as f64;
            if peak > 0.0 {
                pairs.push(("vllm_overhead_gib", gib(peak as u64)));
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests;
