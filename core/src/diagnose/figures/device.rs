//! The figures of accelerator runtimes: PyTorch's allocator in both its
//! wordings, TensorFlow, XLA and TPUs, vLLM's start-up, and other device
//! allocators.

use super::{bytes_at, grouped_integer, keep_first, size_at, size_ending, Collector, GARBAGE};
use crate::scan::{after, find_ci, leading_integer, leading_size};
use crate::units::{Bytes, UnitConvention::Binary};

impl Collector {
    /// Reads a device runtime's figures; false when `id` is none of its signatures.
    pub(super) fn read_device(&mut self, id: &str, line: &str) -> bool {
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
            "pinned-memory" => keep_first(&mut n.requested, size_at(line, "failed to allocate")),
            "opencv-oom" => keep_first(&mut n.requested, bytes_at(line, "Failed to allocate")),
            // "fail to allocate memory 100663296 bytes", "failed to allocate memory (2.00 GiB)".
            "failed-to-allocate-memory" => keep_first(&mut n.requested, size_at(line, "allocate memory")),
            "tensorrt-requested" => keep_first(&mut n.requested, bytes_at(line, "GPU memory (")),
            "paddle-allocating" => {
                keep_first(&mut n.requested, bytes_at(line, "received allocating:"));
                keep_first(&mut n.free, bytes_at(line, "> available:"));
            }
            "cupy-oom" => {
                let count = |marker| after(line, marker).map(|r| r.replace(',', "")).and_then(|r| leading_integer(&r));
                keep_first(&mut n.requested, count("to allocate").or_else(|| count("allocating")).map(Bytes));
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
            "vllm-concurrency" if n.max_seq_len_tokens.is_none() => {
                n.max_seq_len_tokens = after(line, "Maximum concurrency for").and_then(grouped_integer);
            }
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
            "model-weights" => keep_first(&mut n.model_weights, size_at(line, "took")),
            "vllm-kv-cache-memory" => keep_first(&mut n.kv_cache, size_at(line, "KV cache memory:")),
            "vllm-kv-cache-tokens" if n.kv_cache_tokens.is_none() => {
                n.kv_cache_tokens = after(line, "KV cache size:").and_then(grouped_integer);
            }
            "xla-buffer-stats" => {
                keep_first(&mut n.total_allocation, size_at(line, "total allocation:"));
                keep_first(&mut n.temp_allocation, size_at(line, "temp allocation:"));
            }
            "forge-free-gpu" => keep_first(&mut n.free, size_at(line, "Free GPU Memory:")),
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
            _ => return false,
        }
        true
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
}
