//! Host RAM, job limits, shared memory and look-alikes (catalog D1, §3-5).

use super::{at, b, quoted, Ranking};
use crate::diagnose::{Diagnosis, Frame, Knob, Phase, GPU_MOSTLY_FREE};
use crate::memory::Stack;

/// The line of the out-of-memory message (or of the first evidence).
fn line(d: &Diagnosis) -> usize {
    d.oom_line().or(d.evidence.first()).map_or(1, |e| e.line)
}

/// Where DataLoader workers show in the log: their death, their phase, collate, their setting.
fn workers_evidence(d: &Diagnosis) -> Option<String> {
    if let Some(l) = d.first_seen("dataloader-worker-killed") {
        return Some(format!("{}: a DataLoader worker was killed by SIGKILL", at(l)));
    }
    if let Some(w) = d.settings.get(Knob::Workers).filter(|_| d.settings.number(Knob::Workers).is_some_and(|w| w >= 2))
    {
        return Some(format!("{}: {}={}", at(w.line), w.name, w.value));
    }
    if let Some((f, l)) = d.frames.iter().find(|(f, _)| matches!(f, Frame::Collate | Frame::ProcessStart)) {
        return Some(format!("{}: the traceback goes through {}", at(*l), f.label()));
    }
    (d.phase == Some(Phase::Dataloader)).then(|| format!("{}: it failed while loading data", at(line(d))))
}

fn fewer_workers_detail(d: &Diagnosis) -> String {
    match d.settings.number(Knob::Workers) {
        Some(w) if w >= 2 => {
            format!("num_workers {w} -> {} (and prefetch_factor 2 -> 1); num_workers=0 confirms the diagnosis", w / 2)
        }
        _ => "halve num_workers and set prefetch_factor=1; num_workers=0 confirms the diagnosis".into(),
    }
}

pub(super) fn host(d: &Diagnosis, out: &mut Ranking) {
    let n = &d.numbers;
    let loading = d.frames.iter().find(|(f, _)| matches!(f, Frame::FromPretrained | Frame::TorchLoad)).map(|(_, l)| *l);
    let l = line(d);
    let peak = n.total_vm.or(n.rss);
    let peak_note = peak.map(|p| format!("the killed process had {} mapped; ", b(p))).unwrap_or_default();
    let workers = workers_evidence(d);
    // Windows' allocator says "not enough memory" where Linux says "can't allocate": the commit limit (catalog H-10).
    let windows_allocator = d
        .first_seen("cpu-allocator")
        .filter(|_| d.evidence.iter().any(|e| e.signature == "cpu-allocator" && e.text.contains("not enough memory")));
    if let Some(paging) = d.first_seen("windows-paging-file").or(windows_allocator) {
        let because = format!("{}: Windows refused to commit more memory (the paging file is full)", at(paging));
        out.add("other", 96, "Windows does not overcommit and every spawned worker re-imports torch: enlarge the paging file (System > Advanced > Performance > Virtual memory) or let Windows manage it, and use num_workers 0-2", because.clone());
        out.add("fewer_workers", 92, fewer_workers_detail(d), because);
    }
    if let Some(wsl) = d.first_seen("wsl") {
        out.add(
            "other",
            93,
            "WSL 2 runs in a VM capped below the machine's RAM (50% by default): raise [wsl2] memory= (and swap=) in %UserProfile%\\.wslconfig, then wsl --shutdown",
            format!("{}: the job runs under WSL 2", at(wsl)),
        );
    }
    if let Some(colab) = d.first_seen("colab-ram") {
        let because = format!("{}: Colab ended the session at its RAM limit", at(colab));
        out.add(
            "more_host_mem_request",
            93,
            "a High-RAM runtime (Runtime > Change runtime type), or a machine with more RAM",
            because.clone(),
        );
        out.add("other", 91, "load less into RAM: weights in 16-bit (torch_dtype / dtype=bfloat16) with low_cpu_mem_usage=True, or a smaller model; load parameters onto the device directly instead of building them on the host first", because);
    }
    if let Some(mac) = d.first_seen("macos-jetsam").or(d.first_seen("macos")) {
        out.add(
            "other",
            92,
            "macOS kills the largest process under memory pressure (jetsam); CPU and GPU share the unified memory: a smaller model or lower precision, fewer things open, and confirm with log show --last 1h --predicate 'eventMessage contains \"jetsam\"'",
            format!("{}: the job runs on macOS", at(mac)),
        );
    }
    if let Some(ray) = d.first_seen("ray-node-low-memory").or(d.first_seen("ray-oom-killer")) {
        out.add(
            "other",
            92,
            "Ray kills tasks when the node passes RAY_memory_usage_threshold (0.95): run fewer tasks at once (more num_cpus per task) or use nodes with more memory; moving the threshold only moves the guard",
            format!("{}: Ray's memory monitor killed a worker", at(ray)),
        );
    }
    if let Some(evicted) = d.first_seen("k8s-evicted-memory") {
        out.add("more_host_mem_request", 95, "the node ran low and evicted pods without memory requests: set resources.requests.memory and limits.memory on the training containers", format!("{}: the kubelet evicted the pod under node memory pressure", at(evicted)));
    }
    if let (Some(sigkill), Some(p)) = (d.first_seen("torchrun-sigkill"), peak) {
        out.add("other", 86, format!("{peak_note}host RAM holds whatever is offloaded to CPU (per rank): fewer ranks per node, less offload, or a node with more RAM"), format!("{}: a rank was SIGKILLed with {} of host memory in use", at(sigkill), b(p)));
    }
    // DataLoader workers lead only when the log shows them (catalog H-01,
    // H-02): in public threads a bare host OOM was answered with more RAM or
    // a smaller batch, and once in thirty with fewer workers.
    let no_workers = workers.is_none();
    out.add(
        "fewer_workers",
        if workers.is_some() { 94 } else { 64 },
        format!("{peak_note}{}", fewer_workers_detail(d)),
        workers.unwrap_or_else(|| format!("{l}: host RAM ran out; in training, DataLoader workers (each a copy of the dataset and the parent's memory) are a common cause", l = at(l))),
    );
    if no_workers && n.requested.is_none() && d.settings.get(Knob::MicroBatch).is_none() {
        out.add(
            "reduce_batch",
            68,
            "a smaller batch (and fewer batches prefetched) lowers the peak; accumulate gradients to keep the effective batch",
            format!("{}: host RAM ran out and the log shows no DataLoader workers", at(l)),
        );
    }
    one_array(d, out);
    refused_in_process(d, out);
    if let Some(r) = n.requested {
        out.add(
            "reduce_batch",
            76,
            format!("one allocation of {} failed: make the array or batch smaller, or process it in chunks", b(r)),
            format!("{}: {} requested in one allocation", at(l), b(r)),
        );
    }
    if let Some(batch) =
        d.settings.get(Knob::MicroBatch).filter(|_| d.settings.number(Knob::MicroBatch).is_some_and(|b| b >= 2))
    {
        let bs = d.settings.number(Knob::MicroBatch).unwrap_or(2);
        out.add(
            "reduce_batch",
            84,
            format!("batch {bs} -> {} with 2 accumulation steps: fewer samples in flight per worker", bs / 2),
            format!("{}: {}={}", at(batch.line), batch.name, batch.value),
        );
    }
    // The advice is PyTorch's loader's (from_pretrained, torch.load): a runtime that loads
    // its own format (Ollama, ComfyUI on Windows) has no such switch.
    let torch_loading = (d.phase == Some(Phase::ModelLoad) && d.stack.contains(&Stack::Pytorch)).then_some(l);
    if let Some(load_line) = loading.or(torch_loading) {
        out.add("mixed_precision", 90, "load weights in 16-bit with low_cpu_mem_usage=True, and once per node (Accelerate fsdp_cpu_ram_efficient_loading), not once per rank", format!("{}: it failed while loading the model", at(load_line)));
    }
    let scheduled = d.stack.contains(&Stack::Slurm) || d.stack.contains(&Stack::Kubernetes);
    let more_ram = if scheduled {
        "ask the scheduler for more memory (#SBATCH --mem, or the container's resources.limits.memory)"
    } else {
        "run on a machine with more RAM (or add swap); on a cluster, request more memory (#SBATCH --mem)"
    };
    let (score, because) = match loading.or((d.phase == Some(Phase::ModelLoad)).then_some(l)) {
        Some(load_line) => (85, format!("{}: the model did not fit in host RAM while loading", at(load_line))),
        None if scheduled => (78, format!("{}: a scheduled job ran out of host memory", at(l))),
        // One allocation refused: the process needs more RAM than there was (a kill with nothing
        // more to go on points at DataLoader workers first, catalog H-01/H-02).
        None => match n.requested {
            Some(r) => (80, format!("{}: an allocation of {} was refused", at(l), b(r))),
            None => (70, format!("{}: the process needed more host RAM than the machine had", at(l))),
        },
    };
    out.add("more_host_mem_request", score, more_ram, because);
    // Off a scheduler, with no workers in view, maintainers in the dev threads
    // answered most often with the data held at once (catalog H-09), not the machine.
    let (data_score, data_because) = if scheduled || !no_workers {
        (60, format!("{}: a kill by SIGKILL needs the kernel log to confirm it was the OOM killer", at(l)))
    } else {
        (
            69,
            format!("{}: host RAM ran out and the log shows neither a scheduler's limit nor DataLoader workers", at(l)),
        )
    };
    out.add(
        "other",
        data_score,
        "hold less at once (catalog H-09): stream, sample or chunk the input instead of loading it whole, smaller inputs (resolution, dataset, cache or buffer sizes); first confirm it was the OOM killer: dmesg -T | grep -i 'killed process' (or journalctl -k), and watch free -g while it runs",
        data_because,
    );
}

/// One allocation that no machine has to spare (numpy's "Unable to allocate
/// 201. GiB for an array with shape ..."): shrink the array, not the machine.
fn one_array(d: &Diagnosis, out: &mut Ranking) {
    let array =
        d.evidence.iter().find(|e| e.signature == "numpy-unable-to-allocate" && e.text.contains("array with shape"));
    let huge = d.numbers.requested.filter(|&r| r >= 16 << 30);
    if array.is_none() && huge.is_none() {
        return;
    }
    let l = array.map_or(line(d), |e| e.line);
    // Old numpy ("Unable to allocate array with shape (93849, 1, 52300)") names no size.
    let size = d.numbers.requested.map_or_else(|| "the array".to_string(), b);
    out.add(
        "other",
        if huge.is_some() { 93 } else { 88 },
        format!("one array of {size}: a narrower dtype (float32/float16, int32), build or process it in chunks (np.memmap, dask, a loop over slices), or avoid materialising it (broadcasting instead of meshgrid); a smaller input (resolution, volume) if it is data"),
        format!("{}: {size} asked for in one {}", at(l), if array.is_some() { "array" } else { "allocation" }),
    );
}

/// The process's own allocation was refused (MemoryError, std::bad_alloc,
/// PyTorch's CPU allocator, R's vectors): no kill, the data it builds does not fit.
/// Maintainers answer with the data, not the machine (catalog H-09: stream or
/// shard what is loaded).
fn refused_in_process(d: &Diagnosis, out: &mut Ranking) {
    const IN_PROCESS: [&str; 10] = [
        "python-memory-error",
        "r-cannot-allocate-vector",
        "memory-exhausted",
        "cpp-bad-alloc",
        "cpu-allocator",
        "numpy-unable-to-allocate",
        "arrow-memory-error",
        "cannot-allocate-memory",
        "not-enough-memory",
        "rust-alloc-failed",
    ];
    let Some(e) = d.oom_line().filter(|e| IN_PROCESS.contains(&e.signature)) else { return };
    out.add(
        "other",
        REFUSED_SCORE,
        "the data this step builds does not fit in RAM (catalog H-09): stream or shard it instead of materialising it whole (process in chunks, memory-map, keep it sparse instead of dense, a narrower dtype); a 32-bit Python has about 2 GB of address space whatever the machine has",
        format!("{}: the process's own allocation was refused; nothing killed it", at(e.line)),
    );
}

const REFUSED_SCORE: u8 = 82;

pub(super) fn job_limit(d: &Diagnosis, out: &mut Ranking) {
    let n = &d.numbers;
    let l = line(d);
    let kubernetes = d.stack.contains(&Stack::Kubernetes);
    let need = n.rss.or(n.total_vm).map(|used| used + used / 5);
    let (request, because) = match (need, n.job_limit) {
        (Some(need), Some(limit)) => (
            format!("the job used {} against a {} limit: request at least {} (#SBATCH --mem={}G), or --mem=0 for the whole node", b(need * 5 / 6), b(limit), b(need), need.div_ceil(1 << 30)),
            format!("{}: {} used against a {} limit", at(l), b(need * 5 / 6), b(limit)),
        ),
        _ if kubernetes => (
            "raise the container's resources.limits.memory (and requests) to the measured peak plus headroom".into(),
            format!("{}: the container hit its memory limit", at(l)),
        ),
        _ => (
            format!("{}raise #SBATCH --mem per node (check what the node has with scontrol show node), or --mem=0 for the whole node", n.oom_kill_events.map(|e| format!("{e} oom_kill event(s): ")).unwrap_or_default()),
            format!("{}: the job's memory limit killed it", at(l)),
        ),
    };
    out.add("more_host_mem_request", 92, request, because);
    let workers = workers_evidence(d);
    out.add(
        "fewer_workers",
        if workers.is_some() { 93 } else { 80 },
        match d.settings.number(Knob::Workers) {
            Some(w) if w >= 2 => format!("num_workers {w} -> {} per rank; ranks per node x workers is what fills the node (and the validation loader adds its own)", w / 2),
            _ => "fewer DataLoader workers per rank and persistent_workers=False for the validation loader; every rank's workers count against the job".into(),
        },
        workers.unwrap_or_else(|| format!("{}: every rank's DataLoader workers count against the job's limit", at(l))),
    );
    if let Some(batch) =
        d.settings.get(Knob::MicroBatch).filter(|_| d.settings.number(Knob::MicroBatch).is_some_and(|b| b >= 2))
    {
        out.add(
            "reduce_batch",
            70,
            "a smaller batch holds fewer samples in host memory per worker",
            format!("{}: {}={}", at(batch.line), batch.name, batch.value),
        );
    }
}

pub(super) fn shm(d: &Diagnosis, out: &mut Ranking) {
    let l = line(d);
    out.add(
        "bigger_shm",
        97,
        "docker run --shm-size=8g (or --ipc=host); on Kubernetes mount an emptyDir with medium: Memory at /dev/shm",
        format!("{}: shared memory (/dev/shm) is what ran out; containers start with 64 MB", at(l)),
    );
    out.add(
        "fewer_workers",
        85,
        match d.settings.number(Knob::Workers) {
            Some(w) if w >= 2 => format!("if /dev/shm cannot grow: num_workers {w} -> {} and prefetch_factor=1", w / 2),
            _ => "if /dev/shm cannot grow: fewer workers and prefetch_factor=1".into(),
        },
        workers_evidence(d).unwrap_or_else(|| format!("{}: workers pass batches through /dev/shm", at(l))),
    );
}

/// A look-alike: say what the failure is instead.
pub(super) fn not_oom(d: &Diagnosis, out: &mut Ranking) {
    const LOOK_ALIKES: [(&str, &str); 29] = [
        ("nvidia-xid", "a GPU fault, not a full GPU: read the Xid number in dmesg (31: a kernel used a bad address, run compute-sanitizer; 79 or 'fallen off the bus': power, cooling or the PCIe link; nvidia-smi -q and a node drain)"),
        ("pin-memory-thread", "set pin_memory=False in the DataLoader to confirm, then check that torch, CUDA and the driver match; memory settings will not fix it"),
        ("sigterm-received", "find what stopped the job: the scheduler's log (time limit, preemption, scancel), or the sibling process (an orchestrator or inference server) whose crash made the launcher shut down"),
        ("illegal-instruction", "install a build for this CPU (a wheel or image without AVX/AVX2 requirements, or build from source on the machine); memory settings will not help"),
        ("missing-library", "install the library the loader names, in the version the framework was built with (for cuDNN: the nvidia-cudnn wheel matching the CUDA build, or the system package), or add its directory to LD_LIBRARY_PATH"),
        ("cudnn-version-mismatch", "install the cuDNN the framework was built with (pip's CUDA extras, e.g. jax[cuda12] or torch's own wheels, in a clean environment) and drop older copies from LD_LIBRARY_PATH"),
        ("cuda-illegal-memory-access", "run with CUDA_LAUNCH_BLOCKING=1 to find the kernel, then check indices and shapes (labels < num_classes, gather/scatter indices); memory settings will not fix it"),
        ("cuda-device-side-assert", "run with CUDA_LAUNCH_BLOCKING=1 to find the kernel, then check indices and shapes (labels < num_classes, gather/scatter indices); memory settings will not fix it"),
        ("nccl-watchdog-timeout", "find the rank that stopped (NCCL_DEBUG=INFO, TORCH_DISTRIBUTED_DEBUG=DETAIL): a hang, a crash on one rank or mismatched collectives; raise the timeout only once that is understood"),
        ("segfault", "a crash in native code: enable faulthandler (python -X faulthandler) and check that compiled extensions match the installed torch and CUDA"),
        ("disk-quota", "free disk space or quota where checkpoints are written (df -h, quota -s); shorten the checkpoint path"),
        ("disk-full", "free disk space where the job writes (df -h; checkpoints, caches, /tmp)"),
        ("slurm-time-limit", "the job hit its time limit: ask for more --time or the right partition, and resume from checkpoints"),
        ("no-kernel-image", "install a PyTorch build compiled for this GPU's architecture (check torch.cuda.get_arch_list())"),
        ("slurm-preempted", "the job was preempted: resubmit (or use a partition without preemption) and resume from a checkpoint (#SBATCH --requeue)"),
        ("driver-too-old", "update the NVIDIA driver, or install a build for the CUDA version the driver supports (nvidia-smi shows it)"),
        ("access-violation", "a crash in native code: check that the CUDA, torch and extension builds match (pip list), and update the GPU driver"),
        ("grpc-message-size", "raise the gRPC message size limit (grpc.max_send_message_length / max_receive_message_length) or send smaller requests"),
        ("quota-exceeded", "ask for more quota, or run where quota is left; memory settings will not help"),
        ("tf-ten-percent-warning", "a warning, not the failure: look for the actual error further in the log"),
        ("memlock-limit", "raise the locked-memory limit: memlock unlimited in /etc/security/limits.conf (check ulimit -l inside mpirun/srun), LimitMEMLOCK=infinity for dockerd or docker run --ulimit memlock=-1"),
        ("pbs-walltime", "the job hit its walltime: request more (#PBS -l walltime=) and resume from checkpoints"),
        ("too-many-open-files", "raise the open-file limit (ulimit -n 65536, or LimitNOFILE for a service); with DataLoader workers, torch.multiprocessing.set_sharing_strategy(\"file_system\")"),
        ("k8s-failed-scheduling", "lower the pod's resource requests to what a node has free, or add nodes (kubectl describe nodes shows what each can still allocate)"),
        ("nccl-unhandled", "rerun with NCCL_DEBUG=INFO to see the call that failed: a /dev/shm segment (docker --shm-size, --ipc=host), a network interface (NCCL_SOCKET_IFNAME), or the CUDA driver and NCCL versions"),
        ("nan-loss", "lower the learning rate or add warm-up and gradient clipping, check the data for bad samples, and under fp16 use a loss scaler or bf16; memory settings will not help"),
        ("k8s-evicted-disk", "give the pod disk: resources.requests/limits ephemeral-storage, a bigger node disk, or write caches and checkpoints to a volume"),
        ("gpu-library-start", "if the GPU had room: check that cuDNN and cuBLAS match the framework's CUDA build (versions, LD_LIBRARY_PATH) and the driver"),
        (GPU_MOSTLY_FREE, "the GPU had room: check that the cuDNN/CUDA libraries match the framework build (versions, LD_LIBRARY_PATH) and the driver"),
    ];
    let known = LOOK_ALIKES.iter().find_map(|(id, detail)| d.first_seen(id).map(|l| (*id, *detail, l)));
    if let Some((id, detail, l)) = known {
        let because = match (id, d.numbers.free, d.numbers.capacity) {
            (GPU_MOSTLY_FREE | "gpu-library-start", Some(free), Some(total)) if d.numbers.gpu_mostly_free() => {
                format!("{}: {} of the {} GPU was free", at(l), b(free), b(total))
            }
            _ => {
                let what = d.evidence.iter().find(|e| e.signature == id).map_or(id.to_string(), |e| e.text.clone());
                format!("{}: {}, which is not memory running out", at(l), quoted(&what))
            }
        };
        // cuDNN/cuBLAS failing to start is more often a GPU already taken (gpu::library_start),
        // unless the log shows the GPU had room.
        let score = if id == "gpu-library-start" && !d.numbers.gpu_mostly_free() { 90 } else { 100 };
        out.add("not_oom_fix", score, detail, because);
    } else if let Some((l, what)) = d.look_alike() {
        // A look-alike without a fix of its own in the table: say what it is.
        out.add(
            "not_oom_fix",
            95,
            format!("{what}: fix that; memory settings will not help"),
            format!("{}: the log shows a failure that is not memory running out", at(l)),
        );
    } else if let Some((l, text)) = &d.failure {
        out.add(
            "not_oom_fix",
            90,
            format!("the failure is {}: fix that error; memory settings will not help", quoted(text)),
            format!("{}: the last failure in the log is not memory running out", at(*l)),
        );
    } else {
        // Nothing recognised at all: still say where to look, hedged for a log cut short.
        out.add(
            "not_oom_fix",
            80,
            "no sign of memory running out: look for the first error in the full log and fix that; memory settings are unlikely to help (unless the paste was cut before the error)",
            format!("none of the {} line(s) shows an OOM message, a kill or a memory warning", d.lines),
        );
    }
}
