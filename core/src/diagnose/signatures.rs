//! The log signatures the diagnoser recognises: what each one proves (an OOM
//! of some memory, a look-alike that is not an OOM, a figure, a phase, a
//! frame, a stack or a context hint). All are matched at once by one
//! Aho-Corasick automaton, ASCII case-insensitively, so a log is scanned once.

use super::device_memory::DEVICE_MEMORY;
use super::hints::HINTS;
use super::host_memory::HOST_MEMORY;
use super::lookalikes::LOOK_ALIKES;
use super::phrases::PHRASES;
use super::signature::{concat, exact, generic, sig, total, Boundary, Meaning, Signature};
use crate::memory::MemoryKind;

/// The word a shell prints for a child killed by SIGKILL (`strsignal(9)`), in
/// the locales people run clusters in: English, Chinese, Japanese, German,
/// French, Spanish, Russian, Portuguese, Korean, Italian. Checked in context
/// (a bare line or a shell job report), see `lines::is_shell_killed`.
pub const KILLED_WORDS: [&str; 10] = [
    "Killed",
    "已杀死",
    "強制終了",
    "Getötet",
    "Processus arrêté",
    "Terminado (killed)",
    "Убито",
    "Morto",
    "죽었음",
    "Ucciso",
];

/// Windows' ERROR_COMMITMENT_LIMIT (1455) in the languages it ships most.
pub(super) const PAGING_FILE_TOO_SMALL: &[&str] = &[
    "页面文件太小",
    "頁面檔太小",
    "ページング ファイルが小さすぎ",
    "Auslagerungsdatei ist zu klein",
    "fichier de pagination est insuffisant",
    "archivo de paginación es demasiado",
    "Файл подкачки слишком",
    "페이징 파일이 너무 작",
];

use Meaning::*;
use MemoryKind::{Host, JobLimit, Shm};

/// Every signature, in order of precedence on a line: the memories (a
/// device's, the generic wordings, the host's, job limits and shared memory),
/// the look-alikes (`lookalikes.rs`), the context, then the weak readings of
/// messages no table lists (`phrases.rs`).
pub const SIGNATURES: &[Signature] = &concat::<{ total(&TABLES) }, _>(TABLES);

const TABLES: [&[Signature]; 7] = [DEVICE_MEMORY, WORDINGS, HOST_MEMORY, LIMITS, LOOK_ALIKES, HINTS, PHRASES];

/// Wordings any runtime may use, read by the line's own words where they name no memory.
const WORDINGS: &[Signature] = &[
    // GCC and other tools built on xmalloc: "virtual memory exhausted: Cannot allocate memory".
    sig("virtual-memory-exhausted", "virtual memory exhausted", Oom(Host)),
    // Any other wording: the line's own words say which memory.
    generic("out-of-memory", "out of memory", OomByContext(Host)),
    generic("cannot-allocate-memory", "Cannot allocate memory", OomByContext(Host)),
    // ENOMEM's text where the C library speaks the user's language (Chinese, Japanese,
    // Russian, French, Spanish): "could not map anonymous shared memory: 无法分配内存".
    Signature {
        also: &[
            "メモリを確保できません",
            "Невозможно выделить память",
            "Impossible d'allouer de la mémoire",
            "No se puede asignar memoria",
        ],
        ..generic("cannot-allocate-memory", "无法分配内存", OomByContext(Host))
    },
    // Also with the memory named: "Not enough host memory available" (SGLang's host KV cache).
    Signature {
        // "no enough memory": the same, as often written by those whose first language is not English.
        also: &[
            "not enough host memory",
            "not enough system memory",
            "not enough CPU memory",
            "not enough RAM",
            "no enough memory",
        ],
        ..generic("not-enough-memory", "not enough memory", OomByContext(Host))
    },
    // More ways runtimes say it (C libraries, R, Windows, TensorRT, bison).
    generic("insufficient-memory", "insufficient memory", OomByContext(Host)),
    generic("memory-exhausted", "memory exhausted", OomByContext(Host)),
    // PhysX writes it in the present tense: "PxgCudaDeviceMemoryAllocator fail to allocate memory 100663296 bytes!!".
    Signature {
        also: &["fail to allocate memory"],
        ..generic("failed-to-allocate-memory", "failed to allocate memory", OomByContext(Host))
    },
    generic("memory-allocation-failed", "memory allocation failed", OomByContext(Host)),
    // PaddlePaddle's host allocator: "ResourceExhaustedError: Fail to alloc memory of 5060694016 size".
    generic("fail-to-alloc-memory", "Fail to alloc memory of", OomByContext(Host)),
    generic("could-not-allocate-memory", "could not allocate memory", OomByContext(Host)),
    // R: "Error: cannot allocate vector of size 2.5 Gb".
    sig("r-cannot-allocate-vector", "cannot allocate vector of size", Oom(Host)),
    Signature { exact_case: true, boundary: Boundary::Word, ..generic("oom-word", "OOM", OomByContext(Host)) },
    // CPython's fatal error names them in the plural: "Cannot recover from MemoryErrors while normalizing exceptions."
    Signature {
        boundary: Boundary::Identifier,
        also: &["MemoryErrors"],
        ..generic("python-memory-error", "MemoryError", OomByContext(Host))
    },
    generic("cpp-bad-alloc", "std::bad_alloc", OomByContext(Host)),
    // MSVC's std::bad_alloc::what(): "Status Message: bad allocation".
    Signature { boundary: Boundary::Word, ..generic("cpp-bad-alloc", "bad allocation", OomByContext(Host)) },
    generic("oom-killed", "OOM-killed", OomByContext(Host)),
    generic("oom-killed", "OOM killed", OomByContext(Host)),
    // Rust's allocation failure (tokenizers, Rust servers): "memory allocation of 2097152 bytes failed".
    sig("rust-alloc-failed", "bytes failed", OomByContext(Host)),
];

/// Job or container limits, and shared memory.
const LIMITS: &[Signature] = &[
    // Job or container limits
    sig("slurm-oom-kill-events", "oom_kill event", Oom(JobLimit)),
    sig("slurm-oom-kill-events", "oom-kill event", Oom(JobLimit)),
    sig("slurm-exceeded-step-limit", "exceeded memory limit", Oom(JobLimit)),
    // Galaxy's job metrics table: the memory cgroup's failcnt ("Failed to allocate memory count
    // 5337065") counts allocations refused at the limit, which reclaim may have satisfied: a limit
    // reached, not a kill (its own row "Was OOM Killer active?" says whether one came).
    sig("galaxy-cgroup-failcnt", "Failed to allocate memory count", Suspect(JobLimit)),
    // Toil, after a job failed: "We have increased the default memory of the failed job ... to
    // 2147483648 bytes": it takes the failure for the job's memory request.
    sig("toil-memory-raised", "increased the default memory of the failed job", Suspect(JobLimit)),
    // Docker's event stream: "2019-05-04T18:05:45.011Z container oom 29d72966e0be… (image=…)".
    exact("docker-container-oom", "container oom ", Oom(JobLimit)),
    // The same event through `docker events --format 'Type={{.Type}}  Status={{.Status}}  ID={{.ID}}'`.
    exact("docker-container-oom", "Status=oom ", Oom(JobLimit)),
    // A platform's container limit in its own words: Hugging Face Spaces' "Memory limit exceeded (30G)".
    sig("memory-limit-exceeded", "Memory limit exceeded", Oom(JobLimit)),
    // Cloud Run's "Memory limit of 2048M exceeded with 2126M used" (see `matches_here`).
    sig("memory-limit-of-exceeded", "Memory limit of", Oom(JobLimit)),
    // Heroku's dyno quota: R15 "Memory quota vastly exceeded" kills; R14 "Memory quota exceeded" swaps and goes on.
    sig("heroku-r15", "Memory quota vastly exceeded", Oom(JobLimit)),
    sig("heroku-r14", "Memory quota exceeded", Suspect(JobLimit)),
    sig("slurm-exceeded-job-limit", "Exceeded job memory limit", Oom(JobLimit)),
    // "slurmstepd: Exceeded step memory limit at some point": the cgroup touched its limit
    // (page cache counts) without necessarily killing anything.
    sig("slurm-limit-touched", "memory limit at some point", Suspect(JobLimit)),
    // sacct cuts the state to its column's width: "OUT_OF_ME+".
    Signature {
        boundary: Boundary::Identifier,
        also: &["OUT_OF_ME+"],
        ..exact("slurm-out-of-memory-state", "OUT_OF_MEMORY", Oom(JobLimit))
    },
    // srun's step report: "srun: error: c002: task 0: Killed": a launcher's SIGKILL
    // (LABELLING.md rule 2.4); the job's limit only where the log names it.
    exact("srun-task-killed", ": Killed", Oom(Host)),
    exact("slurm-task-out-of-memory", ": Out Of Memory", Oom(JobLimit)),
    // YARN (Spark, TonY): "Container killed by YARN for exceeding memory limits. 7.2 GB of 4.2 GB virtual memory used".
    sig("yarn-memory-limit", "killed by YARN for exceeding memory limits", Oom(JobLimit)),
    // The NodeManager's own diagnostics: "Container [pid=40959,...] is running beyond virtual
    // memory limits. Current usage: 76.1 MB of 2 GB physical memory used; ... Killing container."
    Signature {
        also: &["is running beyond physical memory limits"],
        ..sig("yarn-memory-limit", "is running beyond virtual memory limits", Oom(JobLimit))
    },
    sig("memcg-oom-kill", "Memory cgroup out of memory", Oom(JobLimit)),
    sig("memcg-usage-limit", "memory: usage", Figure),
    // PBS and LSF name their memory kills too.
    // "PBS: job killed: vmem 3372163072 exceeded limit 2147483648", for any of PBS's memory resources.
    Signature {
        also: &["job killed: vmem", "job killed: pmem", "job killed: pvmem"],
        ..sig("pbs-mem-exceeded", "job killed: mem", Oom(JobLimit))
    },
    // Moab's hard limit kills: "job 3132467 exceeded MEM usage hard limit (2528 > 1126)".
    sig("moab-hard-limit", "MEM usage hard limit", Oom(JobLimit)),
    // Grid Engine's abort mail: "failed execd enforced h_vmem limit because:".
    sig("sge-h-vmem", "enforced h_vmem limit", Oom(JobLimit)),
    sig("lsf-memlimit", "TERM_MEMLIMIT", Oom(JobLimit)),
    // Torque: "Job exceeded a memory resource limit (vmem, pvmem, etc.). Job was aborted".
    sig("torque-mem-limit", "a memory resource limit", Oom(JobLimit)),
    sig("torque-resources", "resources_used.", Figure),
    sig("torque-resources", "memory.0=", Figure),
    // HTCondor holds the job instead of killing it.
    sig("htcondor-memory-hold", "due to memory usage", Oom(JobLimit)),
    sig("htcondor-memory-hold", "exceeded request_memory", Oom(JobLimit)),
    sig("htcondor-memory-hold", "gone over memory limit", Oom(JobLimit)),
    // Moab warns at a soft limit: the job was not killed.
    sig("moab-soft-limit", "usage soft limit", Suspect(JobLimit)),
    sig("kernel-oom-constraint-memcg", "constraint=CONSTRAINT_MEMCG", Oom(JobLimit)),
    // "OOMKilled" in a pod's state, "OOMKill" in a restart reason, and the
    // kubelet's first spelling of the reason, "reason": "OOM Killed".
    Signature { also: &["\"OOM Killed\""], ..exact("k8s-oomkilled", "OOMKill", Oom(JobLimit)) },
    // The state's name as a word in any case, as people retype it: "got oomkilled", "due to OOMKIlled".
    Signature { boundary: Boundary::Word, ..sig("k8s-oomkilled", "OOMKilled", Oom(JobLimit)) },
    // A shell's job report (`line 28:  8156 Killed   python3 main.py`) or a bare
    // `Killed`, in any of its translations: SIGKILL, almost always the OOM killer.
    Signature { also: KILLED_WORDS.split_at(1).1, ..exact("bare-killed", KILLED_WORDS[0], Oom(Host)) },
    // The same word retyped in lowercase, alone on its line (a reporter's "Error:" block): `killed`.
    exact("bare-killed", "killed", Oom(Host)),
    // Shared memory
    sig("dataloader-bus-error", "is killed by signal: Bus error", Oom(Shm)),
    sig("dataloader-shm", "insufficient shared memory", Oom(Shm)),
    sig("dataloader-shm", "out of shared memory", Oom(Shm)),
    // PaddlePaddle's: "DataLoader 8 workers exit unexpectedly, pids: 245, 246".
    Signature {
        also: &["workers exit unexpectedly"],
        ..sig("dataloader-worker-exited", "exited unexpectedly", Suspect(Shm))
    },
    // A worker that could not open a tensor's /torch_<pid> segment: /dev/shm full, or its file limit.
    sig("shm-object-open", "unable to open shared memory object", Suspect(Shm)),
    // nnU-Net's batchgenerators: "One or more background workers are no longer alive", the same death.
    sig("dataloader-worker-exited", "background workers are no longer alive", Suspect(Shm)),
    sig("nccl-shm-open", "ncclShmOpen", Oom(Shm)),
    // NCCL sizes its /dev/shm segments with posix_fallocate (shm.h): "No space left" there is /dev/shm.
    sig("nccl-shm-open", "Call to posix_fallocate failed", Oom(Shm)),
    sig("shm-segment", "creating shared memory segment", Oom(Shm)),
    // Triton's Python backend: "Unable to initialize shared memory key '...'", "Failed to increase the
    // shared memory pool size for key ... to N bytes"; a full /dev/shm when the line says so.
    sig("triton-shm", "shared memory key", Suspect(Shm)),
    sig("triton-shm", "shared memory pool size", Suspect(Shm)),
    // df's row for a full /dev/shm: "shm  64M  64M  0 100% /dev/shm".
    sig("df-shm-full", "100% /dev/shm", Suspect(Shm)),
    // pandarallel passes data through /dev/shm: "Pandarallel will use Memory file system".
    sig("memory-file-system", "Memory file system", Context),
    // NCCL's "Call to shm_open failed : Permission denied" (see reconcile.rs).
    sig("shm-permission-denied", "shm_open failed : Permission denied", Context),
    // A runtime that goes on another way after an OOM (see reconcile.rs). Not "falling
    // back to": Ray's object store falls back to disk and the job still dies.
    sig("oom-fallback", "retrying without", Fallback),
    // TensorRT's builder skips a tactic whose workspace did not fit and tries the others.
    sig("oom-fallback", "Skipping tactic", Fallback),
    // LMCache's connector skips storing what did not fit: "The KV cache will not be stored."
    sig("oom-fallback", "will not be stored", Fallback),
    // YOLOX's label assignment: "OOM RuntimeError is raised due to the huge memory cost during
    // label assignment. CPU mode is applied in this batch."
    // Its own words only, as a terminal may cut the rest onto the next row ("applied in thi" / "s batch").
    sig("oom-fallback", "CPU mode is applied", Fallback),
    // AutoGluon goes on with the other models: "Not enough memory to train X... Skipping this model."
    sig("oom-fallback", "Skipping this model", Fallback),
    // A tool that says /dev/shm has no room: pandarallel's "you don't have enough available space in `dev/shm`".
    sig("shm-no-space", "enough available space in `dev/shm`", Oom(Shm)),
    // Spark's MemoryStore cannot cache a block in the executor's memory: a warning, the job goes on.
    sig("spark-memorystore", "Not enough space to cache", Suspect(Host)),
    // PyTorch's shared-memory tensors live in /dev/shm as /torch_<pid>_<n>: a full
    // /dev/shm reads "No space left on device" there, which is not the disk.
    sig("torch-shm-file", "unable to write to file </torch_", Suspect(Shm)),
    // Ray's warning at start-up: a small /dev/shm (a container's 64 MB) slows it, and runs out first.
    // Its second half too, for a terminal that wrapped the first ("... using /tmp instead\n  of /dev/shm
    // because /dev/shm has only 5368709120 bytes available").
    Signature {
        also: &["because /dev/shm has only"],
        ..sig("ray-shm-fallback", "/tmp instead of /dev/shm", Suspect(Shm))
    },
];
