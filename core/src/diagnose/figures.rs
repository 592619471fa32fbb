//! The figures in a log, in bytes (counts for events and tokens). Each
//! reader takes one line that carried a figure signature. Units follow the
//! tools: PyTorch, vLLM and ColossalAI print binary units (`GiB`, and `GB`/
//! `MB` meaning GiB/MiB), the kernel and SLURM print KiB.

use crate::scan::{after, find_ci, integer_before, leading_integer, leading_size, size_before};
use crate::units::{Bytes, UnitConvention::Binary, KIB};
use serde::Serialize;

/// NVML reports 2^64 bytes when it cannot read a process (seen as
/// "17179869184.00 GiB"): such figures are garbage, not usage.
const GARBAGE: u64 = 1 << 60;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Numbers {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocated_by_pytorch: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserved_unallocated: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserved_by_pytorch: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub this_process: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_process: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_allocations: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_allowed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_limit: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rss: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_vm: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oom_kill_events: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_weights: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_seq_len_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache_tokens: Option<u64>,
    /// TensorFlow prints a shape, not bytes: elements x dtype size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_derived_from_shape: Option<u64>,
}

/// Other processes on the GPU, by pid, for summing without double counting.
#[derive(Debug, Default)]
pub struct Collector {
    pub numbers: Numbers,
    other_processes: Vec<(u64, u64)>,
}

fn keep_first(slot: &mut Option<u64>, value: Option<Bytes>) {
    if slot.is_none() {
        *slot = value.map(|b| b.0).filter(|&b| b < GARBAGE);
    }
}

fn size_at(text: &str, marker: &str) -> Option<Bytes> {
    leading_size(after(text, marker)?, Binary)
}

fn size_ending(text: &str, marker: &str) -> Option<Bytes> {
    size_before(text, find_ci(text, marker)?, Binary)
}

impl Collector {
    /// Reads the figures of one line that matched signature `id`.
    pub fn read(&mut self, id: &str, line: &str) {
        let n = &mut self.numbers;
        match id {
            "tried-to-allocate" => {
                keep_first(&mut n.requested, size_at(line, "tried to allocate"));
                // Old wording, all in one parenthesis.
                keep_first(&mut n.capacity, size_ending(line, "total capacity;"));
                keep_first(&mut n.allocated_by_pytorch, size_ending(line, "already allocated"));
                keep_first(&mut n.free, size_ending(line, " free;"));
                keep_first(&mut n.reserved_by_pytorch, size_ending(line, "reserved in total by PyTorch"));
                // PyTorch <= 1.3 said "cached" for reserved-but-unallocated.
                keep_first(&mut n.reserved_unallocated, size_ending(line, " cached)"));
                self.read_current_wording(line);
            }
            "total-capacity" | "memory-in-use" | "allocated-by-pytorch" | "already-allocated" => {
                self.read_current_wording(line)
            }
            "total-vm" => {
                keep_first(&mut n.total_vm, size_at(line, "total-vm:"));
                keep_first(&mut n.rss, size_at(line, "anon-rss:"));
            }
            "cpu-memory-usage" => {
                // Reported every step: the run's peak is the largest.
                if let Some(b) = size_at(line, "CPU memory usage:") {
                    n.rss = Some(n.rss.map_or(b.0, |r| r.max(b.0)));
                }
            }
            "model-weights" => keep_first(&mut n.model_weights, size_at(line, "took")),
            "vllm-profile" => {
                keep_first(&mut n.capacity, size_at(line, "total_gpu_memory="));
                keep_first(&mut n.kv_cache, size_at(line, "kv_cache_size="));
            }
            "vllm-max-seq-len" | "vllm-kv-too-small" => {
                if n.max_seq_len_tokens.is_none() {
                    n.max_seq_len_tokens = after(line, "max seq len (").and_then(leading_integer);
                }
                if n.kv_cache_tokens.is_none() {
                    n.kv_cache_tokens = after(line, "stored in KV cache (").and_then(leading_integer);
                }
            }
            "mps-allocated" | "mps-oom" => {
                keep_first(&mut n.allocated_by_pytorch, size_at(line, "MPS allocated:"));
                keep_first(&mut n.other_allocations, size_at(line, "other allocations:"));
                keep_first(&mut n.max_allowed, size_at(line, "max allowed:"));
                keep_first(&mut n.requested, size_at(line, "tried to allocate"));
            }
            "you-tried-to-allocate" | "cpu-allocator" => {
                keep_first(&mut n.requested, size_at(line, "you tried to allocate"))
            }
            "xla-allocate-bytes" => keep_first(&mut n.requested, size_at(line, "while trying to allocate")),
            "xla-failed-to-allocate" => {
                // "2.99GiB (3206250496B)": the exact byte count in parentheses wins.
                let exact = after(line, "(").and_then(|rest| leading_integer(rest).map(Bytes));
                keep_first(&mut n.requested, exact.or_else(|| size_at(line, "request for")));
            }
            "nccl-calloc" => keep_first(&mut n.requested, size_at(line, "CUDA calloc")),
            "printed-memory-allocated" => keep_first(
                &mut n.allocated_by_pytorch,
                after(line, "memory allocated:").and_then(leading_integer).map(Bytes),
            ),
            "tf-tensor-shape" | "tf-oom-allocating" => {
                keep_first(&mut n.requested_derived_from_shape, tensor_bytes(line).map(Bytes))
            }
            "slurm-oom-kill-events" => {
                let at = find_ci(line, "oom_kill event").or_else(|| find_ci(line, "oom-kill event"));
                if n.oom_kill_events.is_none() {
                    n.oom_kill_events = at.and_then(|i| integer_before(line, i));
                }
            }
            "slurm-exceeded-step-limit" => {
                // "exceeded memory limit (52917772 > 20971520)": KiB.
                if let Some(rest) = after(line, "exceeded memory limit") {
                    let used = leading_integer(rest);
                    let limit = rest.split_once('>').and_then(|(_, l)| leading_integer(l));
                    keep_first(&mut n.rss, used.map(|u| Bytes(u.saturating_mul(KIB))));
                    keep_first(&mut n.job_limit, limit.map(|l| Bytes(l.saturating_mul(KIB))));
                }
            }
            _ => {}
        }
    }

    /// PyTorch >= 2.1: "GPU 0 has a total capacity of T of which F is free.
    /// [Process p has X memory in use.] Including non-PyTorch memory, this
    /// process has S memory in use. Of the allocated memory A is allocated by
    /// PyTorch, and U is reserved by PyTorch but unallocated."
    fn read_current_wording(&mut self, line: &str) {
        let n = &mut self.numbers;
        keep_first(&mut n.capacity, size_at(line, "total capacity of").or_else(|| size_at(line, "total capacty of")));
        keep_first(&mut n.free, size_at(line, "of which"));
        keep_first(&mut n.this_process, size_at(line, "this process has"));
        keep_first(&mut n.allocated_by_pytorch, size_at(line, "allocated memory"));
        keep_first(&mut n.reserved_unallocated, size_ending(line, "is reserved by PyTorch but unallocated"));
        keep_first(&mut n.max_allowed, size_ending(line, " allowed;"));
        let mut rest = line;
        while let Some(i) = find_ci(rest, "Process ") {
            rest = &rest[i + 8..];
            let Some(pid) = leading_integer(rest) else { continue };
            let Some(size) = after(rest, " has ").and_then(|r| leading_size(r, Binary)) else { continue };
            if size.0 < GARBAGE && !self.other_processes.iter().any(|(p, _)| *p == pid) {
                self.other_processes.push((pid, size.0));
            }
        }
    }

    /// Final figures. Without a "this process" line, a single other process
    /// about the size of PyTorch's own memory is this process seen from a
    /// container (a PID-namespace mismatch), not contention.
    pub fn finish(mut self) -> Numbers {
        let n = &mut self.numbers;
        if n.reserved_unallocated.is_none() {
            if let (Some(reserved), Some(allocated)) = (n.reserved_by_pytorch, n.allocated_by_pytorch) {
                n.reserved_unallocated = Some(reserved.saturating_sub(allocated));
            }
        }
        let own = n.allocated_by_pytorch.unwrap_or(0) + n.reserved_unallocated.unwrap_or(0);
        match self.other_processes.as_slice() {
            [] => {}
            [(_, size)] if n.this_process.is_none() && own > 0 && size.abs_diff(own) * 10 <= own => {
                n.this_process = Some(*size)
            }
            others => n.other_process = Some(others.iter().map(|(_, s)| s).sum()),
        }
        self.numbers
    }
}

/// `shape[64,2016,9,9] and type float` -> 64·2016·9·9·4 bytes.
fn tensor_bytes(line: &str) -> Option<u64> {
    let start = find_ci(line, "shape")?;
    let open = start + line[start..].find('[')?;
    let close = open + line[open..].find(']')?;
    let mut elements: u64 = 1;
    for dim in line[open + 1..close].split(',') {
        elements = elements.checked_mul(dim.trim().parse().ok()?)?;
    }
    let dtype = after(&line[close..], "type ")?.split(|c: char| !c.is_alphanumeric()).next()?;
    let size = match dtype.to_ascii_lowercase().as_str() {
        "float" | "float32" | "int32" | "uint32" => 4,
        "half" | "float16" | "bfloat16" | "int16" => 2,
        "double" | "float64" | "int64" | "uint64" => 8,
        "int8" | "uint8" | "bool" => 1,
        _ => return None,
    };
    elements.checked_mul(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensorflow_shapes_become_bytes() {
        assert_eq!(
            tensor_bytes("OOM when allocating tensor with shape[64,2016,9,9] and type float on /job"),
            Some(41_803_776)
        );
        assert_eq!(tensor_bytes("OOM when allocating tensor of shape [563354,256] and type float"), Some(576_874_496));
        assert_eq!(tensor_bytes("shape[99999999999,99999999999,99999999999] and type float"), None);
    }

    #[test]
    fn nvml_garbage_is_not_usage() {
        let mut c = Collector::default();
        c.read("tried-to-allocate", "Tried to allocate 20.00 MiB. GPU 0 has a total capacty of 24.00 GiB of which 0 bytes is free. Including non-PyTorch memory, this process has 17179869184.00 GiB memory in use. Process 2954422 has 17179869184.00 GiB memory in use. Of the allocated memory 23.01 GiB is allocated by PyTorch, and 121.23 MiB is reserved by PyTorch but unallocated.");
        let n = c.finish();
        assert_eq!((n.this_process, n.other_process, n.free), (None, None, Some(0)));
        assert_eq!(n.capacity, Some(24 << 30));
    }
}
