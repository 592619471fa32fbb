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

/// A memory cgroup at its limit: "memory: usage 1048576kB, limit 1048576kB, failcnt 141".
/// The kernel prints this line in every memcg OOM report; usage below the limit
/// is a report of some other cgroup's state.
pub(super) fn memcg_at_limit(line: &str) -> bool {
    match (size_at(line, "usage"), size_at(line, "limit")) {
        (Some(usage), Some(limit)) => limit.0 < GARBAGE && usage.0 >= limit.0 - limit.0 / 100,
        _ => false,
    }
}

/// seff's "Memory Efficiency: 99.81% of 10.00 GB": the peak as a share of the request.
pub(super) fn seff_efficiency(line: &str) -> Option<f64> {
    let rest = after(line, "Memory Efficiency:")?.trim_start();
    let number: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    rest[number.len()..].starts_with('%').then(|| number.parse().ok()).flatten()
}

/// AWS Lambda's REPORT line with the peak at the function's size: "Memory Size:
/// 6000 MB  Max Memory Used: 6000 MB". A peak below it is a report of a healthy call.
pub(super) fn lambda_at_size(line: &str) -> bool {
    match (size_at(line, "Memory Size:"), size_at(line, "Max Memory Used:")) {
        (Some(size), Some(used)) => size.0 < GARBAGE && used.0 >= size.0,
        _ => false,
    }
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
                self.read_old_wording(line);
                self.read_current_wording(line);
            }
            // The old wording's parenthesis, when a paste broke it onto a second line.
            "reserved-in-total" | "old-wording-tail" | "old-wording-capacity" => self.read_old_wording(line),
            "paddle-oom" => {
                keep_first(&mut n.requested, size_at(line, "Cannot allocate"));
                keep_first(&mut n.free, size_at(line, "available memory is only"));
            }
            // The figures may share the line (escaped inside a panic message) or have their own.
            "allowed-memory" | "allowed-memory-figures" => {
                let field = |label: &str| {
                    after(line, label).and_then(|r| leading_size(r.trim_start_matches([' ', ':']), Binary))
                };
                keep_first(&mut n.allocated_by_pytorch, field("Currently allocated"));
                keep_first(&mut n.capacity, field("Device limit"));
                keep_first(&mut n.free, field("Free (according to CUDA)"));
                keep_first(&mut n.requested, field("Requested"));
            }
            "directml-oom" => keep_first(&mut n.requested, size_at(line, "allocate tensor with")),
            "ort-arena" | "buffer-of-size" => keep_first(&mut n.requested, bytes_at(line, "buffer of size")),
            // ggml: "allocating 144817.04 MiB on device 0: cudaMalloc failed: out of memory".
            "ggml-cuda-malloc" => keep_first(&mut n.requested, size_at(line, "allocating")),
            // vLLM V1: "(24.00 GiB KV cache is needed, which is larger than the available KV cache memory (9.97 GiB)".
            "vllm-kv-needed" => {
                keep_first(&mut n.requested, size_ending(line, "KV cache is needed"));
                keep_first(&mut n.kv_cache, size_at(line, "available KV cache memory ("));
                if n.max_seq_len_tokens.is_none() {
                    n.max_seq_len_tokens = after(line, "max seq len (").and_then(grouped_integer);
                }
            }
            // Ray's memory monitor: "... memory used=0.05GB) was running was 54.86GB / 57.60GB (0.952354)".
            "ray-memory-threshold" => {
                keep_first(&mut n.rss, size_at(line, "memory used="));
                let node = after(line, "was running was").and_then(|rest| after(rest, "/"));
                keep_first(&mut n.capacity, node.and_then(|rest| leading_size(rest.trim_start(), Binary)));
            }
            "pinned-memory" => keep_first(&mut n.requested, size_at(line, "failed to allocate")),
            "pbs-mem-exceeded" => {
                // "job killed: mem 8421356kb exceeded limit 8388608kb"; Torque also writes bare bytes.
                let size = |rest: &str| leading_size(rest, Binary).or_else(|| leading_integer(rest).map(Bytes));
                let used = after(line, "job killed: ").map(|r| r.trim_start_matches(|c: char| c.is_ascii_alphabetic()));
                let field = if find_ci(line, "job killed: mem").is_some() || find_ci(line, "job killed: pmem").is_some()
                {
                    &mut n.rss
                } else {
                    &mut n.total_vm
                };
                keep_first(field, used.and_then(size));
                keep_first(&mut n.job_limit, after(line, "exceeded limit").and_then(size));
            }
            "tcmalloc-large-alloc" => keep_first(&mut n.requested, bytes_at(line, "large alloc")),
            "triton-shm" => {
                keep_first(&mut n.requested, bytes_at(line, "requested size (").or(bytes_at(line, "' to ")))
            }
            "dask-worker-pausing" => keep_first(&mut n.job_limit, size_at(line, "Worker memory limit:")),
            "memory-limit-exceeded" => keep_first(&mut n.job_limit, size_at(line, "exceeded")),
            "memory-limit-of-exceeded" => keep_first(&mut n.job_limit, size_at(line, "Memory limit of")),
            "lambda-memory-at-size" => {
                keep_first(&mut n.job_limit, size_at(line, "Memory Size:"));
                keep_first(&mut n.rss, size_at(line, "Max Memory Used:"));
            }
            "htcondor-memory-hold" if find_ci(line, "megabytes").is_some() => {
                let mib = |marker| after(line, marker).and_then(leading_integer).map(|m| Bytes(m << 20));
                keep_first(&mut n.job_limit, mib("memory limit of"));
                keep_first(&mut n.rss, mib("Peak usage:"));
            }
            "opencv-oom" => keep_first(&mut n.requested, bytes_at(line, "Failed to allocate")),
            // "fail to allocate memory 100663296 bytes", "failed to allocate memory (2.00 GiB)".
            "failed-to-allocate-memory" => keep_first(&mut n.requested, size_at(line, "allocate memory")),
            "macos-malloc-size" => keep_first(&mut n.requested, bytes_at(line, "mach_vm_map(size=")),
            "yarn-memory-limit" => {
                let used = size_at(line, "memory limits.");
                if find_ci(line, "virtual memory used").is_some() {
                    keep_first(&mut n.total_vm, used);
                    keep_first(&mut n.job_limit, size_ending(line, "virtual memory used"));
                } else {
                    keep_first(&mut n.rss, used);
                    keep_first(&mut n.job_limit, size_ending(line, "physical memory used"));
                }
            }
            "ray-object-store-full" => keep_first(&mut n.requested, bytes_at(line, "Object size is")),
            "plasma-capacity" => keep_first(&mut n.capacity, bytes_at(line, "capacity:")),
            "tensorrt-requested" => keep_first(&mut n.requested, bytes_at(line, "GPU memory (")),
            "ray-shm-request" => {
                keep_first(&mut n.requested, bytes_at(line, "request is for"));
                keep_first(&mut n.free, bytes_at(line, "amount available is"));
            }
            "paddle-allocating" => {
                keep_first(&mut n.requested, bytes_at(line, "received allocating:"));
                keep_first(&mut n.free, bytes_at(line, "> available:"));
            }
            "cupy-oom" => {
                let count = |marker| after(line, marker).map(|r| r.replace(',', "")).and_then(|r| leading_integer(&r));
                keep_first(&mut n.requested, count("to allocate").or_else(|| count("allocating")).map(Bytes));
            }
            "k8s-evicted-memory" => keep_first(&mut n.rss, size_at(line, "was using")),
            "torque-resources" => {
                // "resources_used.vmem=286793240kb", "req_information.memory.0=209715200kb".
                keep_first(&mut n.total_vm, size_at(line, "resources_used.vmem="));
                keep_first(&mut n.rss, size_at(line, "resources_used.mem="));
                keep_first(&mut n.job_limit, size_at(line, "req_information.memory.0="));
            }
            "cuda-error-oom" => {
                // "failed to allocate 528.00M (553648128 bytes) from device": the exact count wins.
                let exact = after(line, "(")
                    .and_then(|rest| leading_integer(rest).filter(|_| find_ci(rest, "bytes").is_some()));
                let stated = after(line, "failed to alloc")
                    .map(|rest| rest.trim_start_matches(|c: char| c.is_ascii_alphabetic()));
                keep_first(&mut n.requested, exact.map(Bytes).or_else(|| stated.and_then(|r| leading_size(r, Binary))));
            }
            "tf-bfc-limit" => {
                // TensorFlow's BFC stats block: "Limit:  11353969050" bytes, the device's share.
                keep_first(&mut n.capacity, bytes_at(line, "Limit:"));
            }
            "tpu-hbm-oom" => {
                // "Used 9.08G of 7.48G hbm": the TPU runtime's G is GiB.
                if let Some(rest) = after(line, "Used ") {
                    self.hbm_used = self.hbm_used.or(leading_size(rest, Binary).map(|b| b.0));
                    keep_first(&mut self.numbers.capacity, after(rest, " of ").and_then(|r| leading_size(r, Binary)));
                }
            }
            "tpu-hbm-total" => keep_first(&mut n.total_allocation, size_at(line, "hbm usage >=")),
            "tpu-hlo-temp" => keep_first(&mut n.temp_allocation, size_at(line, "HLO temp")),
            "vllm-free-memory" => {
                // "Free memory on device cuda:1 (19.77/22.05 GiB) on startup is less than desired
                // GPU memory utilization (0.9, 19.84 GiB)"
                if let Some(rest) = after(line, "Free memory on device") {
                    let inside = after(rest, "(").unwrap_or(rest);
                    let unit = inside
                        .split(')')
                        .next()
                        .unwrap_or("")
                        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '/');
                    let free = inside.split('/').next().map(|f| format!("{f}{unit}"));
                    keep_first(&mut n.free, free.and_then(|f| leading_size(&f, Binary)));
                    keep_first(&mut n.capacity, after(inside, "/").and_then(|t| leading_size(t, Binary)));
                }
                keep_first(
                    &mut n.requested,
                    after(line, "utilization (").and_then(|r| after(r, ",")).and_then(|r| leading_size(r, Binary)),
                );
            }
            "seff-memory" => {
                // seff: "Memory Utilized: 0.00 MB" and "Memory Efficiency: 0.00% of 10.00 GB".
                keep_first(&mut n.rss, size_at(line, "Memory Utilized:"));
                keep_first(&mut n.job_limit, after(line, "% of").and_then(|r| leading_size(r, Binary)));
            }
            "vllm-concurrency" if n.max_seq_len_tokens.is_none() => {
                n.max_seq_len_tokens = after(line, "Maximum concurrency for").and_then(grouped_integer);
            }
            "tf-ten-percent-warning" => keep_first(&mut n.requested, bytes_at(line, "Allocation of")),
            "total-capacity"
            | "memory-in-use"
            | "allocated-by-pytorch"
            | "already-allocated"
            | "reserved-unallocated" => {
                self.read_current_wording(line);
                // The old wording's parenthesis, hard-wrapped (an e-mail reply) so
                // that its figures sit on a line of their own.
                self.read_old_wording(line);
            }
            "total-vm" | "kernel-oom-kill" | "memcg-oom-kill" => {
                keep_first(&mut n.total_vm, size_at(line, "total-vm:"));
                keep_first(&mut n.rss, size_at(line, "anon-rss:"));
                keep_first(&mut n.anon_rss, size_at(line, "anon-rss:"));
                keep_first(&mut n.file_rss, size_at(line, "file-rss:"));
                keep_first(&mut n.shmem_rss, size_at(line, "shmem-rss:"));
            }
            "memcg-usage-limit" => {
                // "memory: usage 4194304kB, limit 4194304kB, failcnt 120"
                keep_first(&mut n.job_limit, size_at(line, "limit"));
            }
            "cpu-memory-usage" => {
                // Reported every step: the run's peak is the largest.
                if let Some(b) = size_at(line, "CPU memory usage:") {
                    n.rss = Some(n.rss.map_or(b.0, |r| r.max(b.0)));
                }
            }
            "model-weights" => keep_first(&mut n.model_weights, size_at(line, "took")),
            "vllm-kv-cache-memory" => keep_first(&mut n.kv_cache, size_at(line, "KV cache memory:")),
            "vllm-kv-cache-tokens" if n.kv_cache_tokens.is_none() => {
                n.kv_cache_tokens = after(line, "KV cache size:").and_then(grouped_integer);
            }
            "xla-buffer-stats" => {
                keep_first(&mut n.total_allocation, size_at(line, "total allocation:"));
                keep_first(&mut n.temp_allocation, size_at(line, "temp allocation:"));
            }
            "numpy-unable-to-allocate" => keep_first(&mut n.requested, size_at(line, "Unable to allocate")),
            "miopen-buffer" => keep_first(&mut n.requested, bytes_at(line, "allocate buffer:")),
            "metal-max-buffer" => {
                keep_first(&mut n.requested, bytes_at(line, "Attempting to allocate"));
                keep_first(&mut n.max_allowed, bytes_at(line, "buffer size of"));
            }
            "tf-bfc-ran-out" => keep_first(&mut n.requested, size_at(line, "trying to allocate")),
            "xla-memory-usage" => {
                // XLA's cuDNN/cuBLAS handle errors: "Memory usage: 11372396544 bytes free, 11539054592 bytes total."
                keep_first(&mut n.free, bytes_at(line, "Memory usage:"));
                keep_first(&mut n.capacity, bytes_at(line, "free,"));
            }
            "vllm-gpu-blocks" | "vllm-zero-blocks" if n.gpu_kv_blocks.is_none() => {
                n.gpu_kv_blocks = after(line, "blocks:").and_then(grouped_integer);
            }
            "vllm-profile" => {
                // "total_gpu_memory=79.15GiB" (V0) or "total_gpu_memory (8.00GiB) x gpu_memory_utilization".
                keep_first(&mut n.capacity, size_at(line, "total_gpu_memory"));
                keep_first(&mut n.kv_cache, size_at(line, "kv_cache_size="));
            }
            "shm-segment" => {
                // "Error while creating shared memory segment /dev/shm/nccl-1YsMbG (size 7340384)": bytes.
                let size = bytes_at(line, "(size");
                keep_first(&mut n.requested, size);
            }
            "ollama-system-memory" => {
                // "model requires more system memory (18.7 GiB) than is available (4.1 GiB)"
                keep_first(&mut n.requested, size_at(line, "system memory"));
                keep_first(&mut n.free, size_at(line, "is available"));
            }
            "rust-alloc-failed" => {
                // "memory allocation of 2097152 bytes failed": the last whole message on the line.
                let size = line.rsplit("allocation of").next().and_then(|rest| leading_size(rest, Binary));
                keep_first(&mut n.requested, size);
            }
            "vllm-max-seq-len" | "vllm-kv-too-small" => {
                if n.max_seq_len_tokens.is_none() {
                    n.max_seq_len_tokens =
                        after(line, "max seq len (").or_else(|| after(line, "max_seq_len=")).and_then(grouped_integer);
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
            "printed-memory-allocated" => keep_first(&mut n.allocated_by_pytorch, bytes_at(line, "memory allocated:")),
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
                // "exceeded memory limit (52917772 > 20971520)": KiB in most SLURM
                // versions, bytes in some. A limit that would be over 64 TiB in
                // KiB is no node's: those figures are bytes.
                if let Some(rest) = after(line, "exceeded memory limit") {
                    let used = leading_integer(rest);
                    let limit = rest.split_once('>').and_then(|(_, l)| leading_integer(l));
                    let unit = if limit.is_some_and(|l| l > 64 << 30) { 1 } else { KIB };
                    keep_first(&mut n.rss, used.map(|u| Bytes(u.saturating_mul(unit))));
                    keep_first(&mut n.job_limit, limit.map(|l| Bytes(l.saturating_mul(unit))));
                }
            }
            _ => {}
        }
    }

    /// PyTorch < 2.1, all in one parenthesis: "(GPU 0; T total capacity; A
    /// already allocated; F free; R reserved in total by PyTorch)".
    fn read_old_wording(&mut self, line: &str) {
        let n = &mut self.numbers;
        keep_first(&mut n.capacity, size_ending(line, "total capacity;"));
        keep_first(&mut n.allocated_by_pytorch, size_ending(line, "already allocated"));
        keep_first(&mut n.free, size_ending(line, " free;"));
        keep_first(&mut n.reserved_by_pytorch, size_ending(line, "reserved in total by PyTorch"));
        // PyTorch <= 1.3 said "cached" for reserved-but-unallocated.
        keep_first(&mut n.reserved_unallocated, size_ending(line, " cached)"));
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
        keep_first(&mut n.private_pools, size_ending(line, "allocated in private pools"));
        let mut rest = line;
        // A reflowed paste may drop the pid: "Process has 22.29 GiB memory in use."
        keep_first(&mut n.process_in_use, size_at(line, "Process has"));
        while let Some(i) = find_ci(rest, "Process ") {
            rest = &rest[i + 8..];
            let Some(pid) = leading_integer(rest) else { continue };
            let Some(size) = after(rest, " has ").and_then(|r| leading_size(r, Binary)) else { continue };
            if size.0 < GARBAGE && !self.other_processes.iter().any(|(p, _)| *p == pid) {
                self.other_processes.push((pid, size.0));
                n.process_in_use.get_or_insert(size.0);
            }
        }
    }

    /// The size an OOM line says was asked for, in any runtime's words, where
    /// no reader of its signature found one: "Attempting to allocate 15.65G",
    /// "NRT allocation failed for size 233658313344", "Failed to alloc DEVICE
    /// memory: 180355072", "(requested 2097152 bytes)". After the asking word
    /// only a few connecting words may stand before the number, so a PID, a
    /// device index or another figure further on is not taken for it.
    pub fn read_requested(&mut self, line: &str) {
        const ASKING: [&str; 3] = ["alloc", "request", "needed"];
        const CONNECTING: [&str; 16] = [
            "a", "an", "the", "of", "for", "to", "size", "failed", "buffer", "memory", "device", "host", "pinned",
            "new", "block", "chunk",
        ];
        if self.numbers.requested.is_some() {
            return;
        }
        let lower = line.to_ascii_lowercase();
        let mut starts: Vec<usize> = ASKING.iter().flat_map(|w| lower.match_indices(w).map(|(at, _)| at)).collect();
        starts.sort_unstable();
        for start in starts {
            let mut rest = lower[start..].trim_start_matches(|c: char| c.is_ascii_alphabetic());
            for _ in 0..6 {
                rest = rest.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ':' | '=' | '(' | '*' | '`'));
                let word_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                if word_len == 0 {
                    break;
                }
                if rest.starts_with(|c: char| c.is_ascii_digit()) {
                    // The original spelling: units are case-sensitive ("528.00M", "4 GB").
                    let at = line.len() - rest.len();
                    // A bare count is bytes only where no other word counts it ("1444 tokens").
                    let size = leading_size(&line[at..], Binary).filter(|b| b.0 > 0).or_else(|| {
                        let bytes = leading_integer(&line[at..])?;
                        let after = line[at..].trim_start_matches(|c: char| c.is_ascii_digit());
                        let counted = after.trim_start().starts_with(|c: char| c.is_alphabetic());
                        (bytes >= KIB && !counted && !after.starts_with(['.', ','])).then_some(Bytes(bytes))
                    });
                    keep_first(&mut self.numbers.requested, size);
                    break;
                }
                if !CONNECTING.contains(&&rest[..word_len]) {
                    break;
                }
                rest = &rest[word_len..];
            }
            if self.numbers.requested.is_some() {
                return;
            }
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

/// `shape[64,2016,9,9] and type float` -> 64·2016·9·9·4 bytes.
fn tensor_bytes(line: &str) -> Option<u64> {
    let start = find_ci(line, "shape")?;
    let open = start + line[start..].find('[')?;
    let close = open + line[open..].find(']')?;
    let mut elements: u64 = 1;
    for dim in line[open + 1..close].split(',') {
        elements = elements.checked_mul(dim.trim().parse().ok()?)?;
    }
    // Without a type, TensorFlow's default: float32.
    let dtype =
        after(&line[close..], "type ").map_or(Some("float"), |t| t.split(|c: char| !c.is_alphanumeric()).next())?;
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
        assert_eq!(tensor_bytes("OOM when allocating tensor with shape[3,1000,1501,64]"), Some(1_152_768_000));
    }

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
    fn limits_reached_by_a_lambda_or_a_slurm_job() {
        let at_size = "REPORT RequestId: 1b69  Duration: 6082.95 ms  Memory Size: 6000 MB  Max Memory Used: 6000 MB";
        assert!(lambda_at_size(at_size));
        assert!(!lambda_at_size("REPORT RequestId: d88f  Memory Size: 256 MB  Max Memory Used: 18 MB"));
        let mut c = Collector::default();
        c.read("lambda-memory-at-size", at_size);
        let n = c.finish();
        assert_eq!((n.job_limit, n.rss), (Some(6000 << 20), Some(6000 << 20)));
        assert_eq!(seff_efficiency("Memory Efficiency: 99.81% of 10.00 GB (10.00 GB/node)"), Some(99.81));
        assert_eq!(seff_efficiency("Memory Efficiency: 0.00% of 4.00 GB"), Some(0.0));
        assert_eq!(seff_efficiency("Memory Efficiency: unknown"), None);
    }

    /// OOM lines of runtimes no reader names (corpus dev logs: JAX, Neuron, Gaudi,
    /// IHaskell); a count of something else or a word between is not a request.
    #[test]
    fn a_request_in_any_runtimes_words() {
        let requested = |line: &str| {
            let mut c = Collector::default();
            c.read_requested(line);
            c.finish().requested
        };
        assert_eq!(requested("RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 196.00M. That was not possible."), Some(205_520_896));
        assert_eq!(requested("RuntimeError: NRT allocation failed for size 233658313344 (OOM)"), Some(233_658_313_344));
        assert_eq!(
            requested("ERROR  TDRV:dmem_alloc_internal   Failed to alloc DEVICE memory: 180355072"),
            Some(180_355_072)
        );
        assert_eq!(requested("RuntimeError: [Rank:7] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::2123366400 (2025)MB"), Some(2_123_366_400));
        assert_eq!(requested("ihaskell: out of memory (requested 2097152 bytes)"), Some(2_097_152));
        assert_eq!(requested("RuntimeError: Prefill out of memory. Try to allocate 1444 tokens."), None);
        assert_eq!(requested("Memory allocation error on worker 0: std::bad_alloc"), None);
        assert_eq!(requested("Allocation on device 0 would exceed allowed memory. (out of memory)"), None);
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
