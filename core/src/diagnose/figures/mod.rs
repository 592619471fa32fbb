//! The figures in a log, in bytes (counts for events and tokens). Each
//! reader takes one line that carried a figure signature. Units follow the
//! tools: PyTorch, vLLM and ColossalAI print binary units (`GiB`, and `GB`/
//! `MB` meaning GiB/MiB), the kernel and SLURM print KiB.
//!
//! `device.rs` reads accelerator runtimes' figures, `host.rs` host memory and
//! its limits, `requested.rs` the size an OOM line asked for where no reader
//! of its signature found one.

mod device;
mod host;
mod requested;

use crate::scan::{after, find_ci, leading_integer, leading_size, size_before};
use crate::units::{Bytes, UnitConvention::Binary};
use serde::Serialize;

/// NVML reports 2^64 bytes when it cannot read a process (seen as
/// "17179869184.00 GiB"): such figures are garbage, not usage. A request
/// of an exbibyte is not (NumPy's "Unable to allocate 1.17 EiB" for an
/// array whose shape came out wrong).
const GARBAGE: u64 = 1 << 63;

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
    /// "Process 12345 has 14.52 GiB memory in use": in a container often the job itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process_in_use: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub private_pools: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_process: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_allocations: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_allowed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_allocation: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temp_allocation: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_limit: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rss: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_vm: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anon_rss: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_rss: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shmem_rss: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oom_kill_events: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_weights: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_kv_blocks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_seq_len_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache_tokens: Option<u64>,
    /// TensorFlow prints a shape, not bytes: elements x dtype size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_derived_from_shape: Option<u64>,
}

impl Numbers {
    /// The log's own figures show at least half the GPU free.
    pub fn gpu_mostly_free(&self) -> bool {
        matches!((self.free, self.capacity), (Some(free), Some(total)) if free.saturating_mul(2) >= total)
    }

    /// The log's own figures show less than a quarter of the GPU free.
    pub fn gpu_mostly_taken(&self) -> bool {
        matches!((self.free, self.capacity), (Some(free), Some(total)) if free.saturating_mul(4) < total)
    }
}

/// Other processes on the GPU, by pid, for summing without double counting.
#[derive(Debug, Default)]
pub struct Collector {
    pub numbers: Numbers,
    other_processes: Vec<(u64, u64)>,
    /// A TPU's "Used X of Y hbm": the total allocation unless "Total hbm usage >=" says more.
    hbm_used: Option<u64>,
}

fn keep_first(slot: &mut Option<u64>, value: Option<Bytes>) {
    if slot.is_none() {
        *slot = value.map(|b| b.0).filter(|&b| b < GARBAGE);
    }
}

fn size_at(text: &str, marker: &str) -> Option<Bytes> {
    leading_size(after(text, marker)?, Binary)
}

/// A plain count of bytes after the first `marker` ("buffer of size 1073741824").
fn bytes_at(text: &str, marker: &str) -> Option<Bytes> {
    after(text, marker).and_then(leading_integer).map(Bytes)
}

pub(in crate::diagnose) use host::{lambda_at_size, memcg_at_limit, seff_efficiency};

fn size_ending(text: &str, marker: &str) -> Option<Bytes> {
    size_before(text, find_ci(text, marker)?, Binary)
}

impl Collector {
    /// Reads the figures of one line that matched signature `id`.
    pub fn read(&mut self, id: &str, line: &str) {
        if !self.read_device(id, line) {
            self.read_host(id, line);
        }
    }

    /// Final figures. Without a "this process" line, a single other process
    /// about the size of PyTorch's own memory is this process seen from a
    /// container (a PID-namespace mismatch), not contention.
    pub fn finish(mut self) -> Numbers {
        let n = &mut self.numbers;
        n.total_allocation = n.total_allocation.or(self.hbm_used);
        if n.reserved_unallocated.is_none() {
            if let (Some(reserved), Some(allocated)) = (n.reserved_by_pytorch, n.allocated_by_pytorch) {
                n.reserved_unallocated = Some(reserved.saturating_sub(allocated));
            }
        }
        // Saturating: a pasted figure may be any size (a garbled one up to 2^63 bytes).
        let own = n.allocated_by_pytorch.unwrap_or(0).saturating_add(n.reserved_unallocated.unwrap_or(0));
        match self.other_processes.as_slice() {
            [] => {}
            [(_, size)] if n.this_process.is_none() && own > 0 && size.abs_diff(own).saturating_mul(10) <= own => {
                n.this_process = Some(*size)
            }
            others => n.other_process = Some(others.iter().fold(0, |sum: u64, (_, s)| sum.saturating_add(*s))),
        }
        self.numbers
    }
}

/// An integer that may be written with thousands separators: `23,648`.
fn grouped_integer(text: &str) -> Option<u64> {
    let text = text.trim_start_matches([' ', ':', '=', '(']);
    let end = text.find(|c: char| !(c.is_ascii_digit() || c == ',')).unwrap_or(text.len());
    let digits: String = text[..end].trim_end_matches(',').chars().filter(|c| *c != ',').collect();
    digits.parse().ok()
}

/// vLLM found no room at all for its KV cache: "# GPU blocks: 0".
pub fn zero_gpu_blocks(line: &str) -> bool {
    after(line, "blocks:").and_then(grouped_integer) == Some(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vllm_and_kernel_figures() {
        let mut c = Collector::default();
        c.read("vllm-kv-cache-tokens", "INFO [kv_cache_utils.py:578] GPU KV cache size: 23,648 tokens");
        c.read("vllm-gpu-blocks", "INFO 11-21 [executor_base.py:110] # GPU blocks: 0, # CPU blocks: 2048");
        c.read("total-vm", "Out of memory: Killed process 4242 (python) total-vm:61203636kB, anon-rss:29512748kB, file-rss:1024kB, shmem-rss:8kB");
        let n = c.finish();
        assert_eq!((n.kv_cache_tokens, n.gpu_kv_blocks), (Some(23_648), Some(0)));
        assert_eq!((n.anon_rss, n.file_rss, n.shmem_rss), (Some(29512748 * 1024), Some(1024 * 1024), Some(8 * 1024)));
        assert!(zero_gpu_blocks("# GPU blocks: 0, # CPU blocks: 2048") && !zero_gpu_blocks("# GPU blocks: 0512"));
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
