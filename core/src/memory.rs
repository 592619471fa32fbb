//! The vocabulary shared by runbooks, diagnoses and budgets: which memory ran
//! out and which software was involved (the diagnosis contract's words).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which memory ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemoryKind {
    /// Device memory of a GPU (or MPS / XLA device).
    Gpu,
    /// The host's RAM, node-wide (the kernel's global OOM killer).
    Host,
    /// A job or container limit: SLURM `--mem`, a cgroup, a Kubernetes limit.
    JobLimit,
    /// Shared memory, `/dev/shm`.
    Shm,
    /// Nothing ran out.
    None,
}

impl MemoryKind {
    pub const ALL: [MemoryKind; 5] =
        [MemoryKind::Gpu, MemoryKind::Host, MemoryKind::JobLimit, MemoryKind::Shm, MemoryKind::None];

    /// The contract's spelling (`gpu`, `host`, `job-limit`, `shm`, `none`).
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryKind::Gpu => "gpu",
            MemoryKind::Host => "host",
            MemoryKind::JobLimit => "job-limit",
            MemoryKind::Shm => "shm",
            MemoryKind::None => "none",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            MemoryKind::Gpu => "GPU memory",
            MemoryKind::Host => "Host RAM",
            MemoryKind::JobLimit => "Job memory limit",
            MemoryKind::Shm => "Shared memory (/dev/shm)",
            MemoryKind::None => "No memory exhausted",
        }
    }

    pub fn parse(text: &str) -> Option<MemoryKind> {
        MemoryKind::ALL.into_iter().find(|k| k.as_str() == text.trim().to_ascii_lowercase())
    }
}

impl fmt::Display for MemoryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Software in the stack, as the diagnosis contract names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stack {
    Pytorch,
    Slurm,
    Linux,
    Lightning,
    Deepspeed,
    Fsdp,
    Vllm,
    Verl,
    Jax,
    Tensorflow,
    Kubernetes,
    Nccl,
    Mps,
    Bitsandbytes,
    Wandb,
    Accelerate,
}

impl Stack {
    pub const ALL: [Stack; 16] = [
        Stack::Pytorch,
        Stack::Slurm,
        Stack::Linux,
        Stack::Lightning,
        Stack::Deepspeed,
        Stack::Fsdp,
        Stack::Vllm,
        Stack::Verl,
        Stack::Jax,
        Stack::Tensorflow,
        Stack::Kubernetes,
        Stack::Nccl,
        Stack::Mps,
        Stack::Bitsandbytes,
        Stack::Wandb,
        Stack::Accelerate,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Stack::Pytorch => "pytorch",
            Stack::Slurm => "slurm",
            Stack::Linux => "linux",
            Stack::Lightning => "lightning",
            Stack::Deepspeed => "deepspeed",
            Stack::Fsdp => "fsdp",
            Stack::Vllm => "vllm",
            Stack::Verl => "verl",
            Stack::Jax => "jax",
            Stack::Tensorflow => "tensorflow",
            Stack::Kubernetes => "kubernetes",
            Stack::Nccl => "nccl",
            Stack::Mps => "mps",
            Stack::Bitsandbytes => "bitsandbytes",
            Stack::Wandb => "wandb",
            Stack::Accelerate => "accelerate",
        }
    }

    pub fn parse(text: &str) -> Option<Stack> {
        let text = text.trim().to_ascii_lowercase();
        Stack::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
