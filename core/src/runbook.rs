//! A compiled write-up: what the Runbooks pages show and search indexes.

use crate::memory::{MemoryKind, Stack};
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DocKind {
    /// Something that happened to the lab, with fixes.
    Incident,
    /// Onboarding material: how memory is spent, how to read a message.
    Guide,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Runbook {
    /// URL name, unique in the corpus (front matter `slug`, else from the file name).
    pub slug: String,
    pub title: String,
    pub kind: DocKind,
    /// ISO date (`2025-10-16`) when the write-up gives one.
    pub date: Option<String>,
    pub tags: Vec<String>,
    /// The memory that ran out (none for guides that are not about one kind).
    pub memory: Option<MemoryKind>,
    pub stack: Vec<Stack>,
    pub summary: String,
    pub symptoms: Symptoms,
    /// Sanitised HTML.
    pub root_cause: String,
    pub fixes: Vec<Fix>,
    pub verification: Vec<Step>,
    pub lessons: Vec<String>,
    /// Targets of `[[wiki links]]` and front-matter `related`, as written.
    pub related: Vec<String>,
    /// Figures stated in the write-up.
    pub facts: Facts,
    /// Sections the compiler did not map to a field, kept whole.
    pub other_sections: Vec<Section>,
    /// Where it came from (`content/incidents/x.md`), for error messages and edits.
    pub source: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Symptoms {
    /// Sanitised HTML of the problem description.
    pub html: String,
    /// Log excerpts from fenced blocks: what a matching log looks like.
    pub signatures: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Fix {
    pub title: String,
    pub knobs: Vec<KnobChange>,
    /// Commands and config snippets, ready to copy.
    pub commands: Vec<String>,
    pub effect: Option<String>,
    pub tradeoff: Option<String>,
    /// Sanitised HTML of the fix's own text.
    pub html: String,
}

/// One setting changed by a fix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnobChange {
    pub knob: String,
    /// None when the write-up gives only the new value.
    pub old: Option<String>,
    pub new: String,
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub text: String,
    /// The commands to copy, exactly as the write-up gives them in backticks or a fenced block.
    pub commands: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Section {
    pub heading: String,
    pub html: String,
}

/// Figures a write-up states about its incident.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Facts {
    /// SLURM job ids mentioned.
    pub jobs: Vec<u64>,
    pub oom_kill_events: Option<u32>,
    /// SLURM memory request per node before the fix.
    pub requested_per_node: Option<Bytes>,
    /// Physical memory of one node.
    pub node_memory: Option<Bytes>,
    /// PyTorch's "Tried to allocate".
    pub gpu_requested: Option<Bytes>,
    pub gpu_capacity: Option<Bytes>,
    pub gpu_free: Option<Bytes>,
    /// Memory held by another process on the same GPU.
    pub other_process: Option<Bytes>,
    /// DataLoader workers in flight when it failed.
    pub total_workers: Option<u32>,
    /// Kernel OOM report: the killed process's virtual size.
    pub total_vm: Option<Bytes>,
}
