//! The figures of host memory and its limits: the kernel's OOM killer and
//! memory cgroups, schedulers (SLURM, PBS/Torque, HTCondor, YARN, seff),
//! containers and platforms (Kubernetes, Lambda, Dask, Ray), host allocators.

use super::{bytes_at, keep_first, size_at, size_ending, Collector, GARBAGE};
use crate::scan::{after, find_ci, integer_before, leading_integer, leading_size};
use crate::units::{Bytes, UnitConvention::Binary, KIB};

/// A memory cgroup at its limit: "memory: usage 1048576kB, limit 1048576kB, failcnt 141".
/// The kernel prints this line in every memcg OOM report; usage below the limit
/// is a report of some other cgroup's state.
pub(in crate::diagnose) fn memcg_at_limit(line: &str) -> bool {
    match (size_at(line, "usage"), size_at(line, "limit")) {
        (Some(usage), Some(limit)) => limit.0 < GARBAGE && usage.0 >= limit.0 - limit.0 / 100,
        _ => false,
    }
}

/// seff's "Memory Efficiency: 99.81% of 10.00 GB": the peak as a share of the request.
pub(in crate::diagnose) fn seff_efficiency(line: &str) -> Option<f64> {
    let rest = after(line, "Memory Efficiency:")?.trim_start();
    let number: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    rest[number.len()..].starts_with('%').then(|| number.parse().ok()).flatten()
}

/// AWS Lambda's REPORT line with the peak at the function's size: "Memory Size:
/// 6000 MB  Max Memory Used: 6000 MB". A peak below it is a report of a healthy call.
pub(in crate::diagnose) fn lambda_at_size(line: &str) -> bool {
    match (size_at(line, "Memory Size:"), size_at(line, "Max Memory Used:")) {
        (Some(size), Some(used)) => size.0 < GARBAGE && used.0 >= size.0,
        _ => false,
    }
}

impl Collector {
    /// Reads a host or limit figure; `id` is one no device reader took.
    pub(super) fn read_host(&mut self, id: &str, line: &str) {
        let n = &mut self.numbers;
        match id {
            // Ray's memory monitor: "... memory used=0.05GB) was running was 54.86GB / 57.60GB (0.952354)".
            "ray-memory-threshold" => {
                keep_first(&mut n.rss, size_at(line, "memory used="));
                let node = after(line, "was running was").and_then(|rest| after(rest, "/"));
                keep_first(&mut n.capacity, node.and_then(|rest| leading_size(rest.trim_start(), Binary)));
            }
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
            "ray-shm-request" => {
                keep_first(&mut n.requested, bytes_at(line, "request is for"));
                keep_first(&mut n.free, bytes_at(line, "amount available is"));
            }
            "k8s-evicted-memory" => keep_first(&mut n.rss, size_at(line, "was using")),
            "torque-resources" => {
                // "resources_used.vmem=286793240kb", "req_information.memory.0=209715200kb".
                keep_first(&mut n.total_vm, size_at(line, "resources_used.vmem="));
                keep_first(&mut n.rss, size_at(line, "resources_used.mem="));
                keep_first(&mut n.job_limit, size_at(line, "req_information.memory.0="));
            }
            "seff-memory" => {
                // seff: "Memory Utilized: 0.00 MB" and "Memory Efficiency: 0.00% of 10.00 GB".
                keep_first(&mut n.rss, size_at(line, "Memory Utilized:"));
                keep_first(&mut n.job_limit, after(line, "% of").and_then(|r| leading_size(r, Binary)));
            }
            "tf-ten-percent-warning" => keep_first(&mut n.requested, bytes_at(line, "Allocation of")),
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
            "numpy-unable-to-allocate" => keep_first(&mut n.requested, size_at(line, "Unable to allocate")),
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
            "you-tried-to-allocate" | "cpu-allocator" => {
                keep_first(&mut n.requested, size_at(line, "you tried to allocate"))
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::figures::Collector;

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
}
