use super::*;
use crate::diagnose::diagnose;
use MemoryKind::{Gpu, Host, JobLimit, Shm};

/// The first weak reading of a line, whatever the table says of it.
fn reading(line: &str) -> Option<(&'static str, Meaning)> {
    PHRASES.iter().find_map(|s| {
        let needles = std::iter::once(s.needle).chain(s.also.iter().copied());
        let found = needles.filter_map(|n| crate::scan::find_all_ci(line, n).map(move |at| (at, at + n.len())).next());
        found
            .into_iter()
            .find(|&(start, end)| super::super::matcher::matches_here(s, line, start, end))
            .map(|(_, end)| (s.id, meaning(s.id, line, end, s.meaning)))
    })
}

fn oom(kind: MemoryKind) -> Meaning {
    Meaning::Oom(kind)
}

fn suspect(kind: MemoryKind) -> Meaning {
    Meaning::Suspect(kind)
}

// Lines of real logs (the corpus entry each comes from is named). Most are
// in the table by now; these readings would have caught them before.
#[test]
fn a_memory_word_beside_running_out() {
    for (line, id, want) in [
        ("Memory limit of 2048M exceeded with 2126M used.", "memory-phrase", oom(JobLimit)), // gpt2cloudrun22
        ("RuntimeError: Executor creation failed due to insufficient GPU memory.", "memory-phrase", oom(Gpu)), // trtllm5950
        ("RuntimeError: Insufficient VRAM for model and cache", "memory-phrase", oom(Gpu)), // exllamav2-383
        (
            "Error from slot1_8@worker: Job has gone over memory limit of 16384 megabytes. Peak usage: 16328 megabytes.",
            "memory-phrase",
            oom(JobLimit),
        ), // galaxy-tpv30
        ("2022-07-06T08:33:31.645496+00:00 heroku[web.1]: Error R15 (Memory quota vastly exceeded)", "memory-phrase", oom(JobLimit)), // nagisa28
        (
            "17/04/12 20:38:18 WARN MemoryStore: Not enough space to cache rdd_6_7 in memory! (computed 17.1 MB so far)",
            "memory-phrase",
            suspect(Host),
        ), // nel8: a warning
        (
            "> The generation of the video has encountered an error: it is likely that you have unsufficient VRAM and you should therefore reduce the video resolution or its number of frames.",
            "memory-phrase",
            suspect(Gpu),
        ), // wan2gp39: misspelt, and only likely
    ] {
        assert_eq!(reading(line), Some((id, want)), "{line}");
    }
}

#[test]
fn an_allocation_that_failed() {
    for (line, id, want) in [
        ("ggml_vulkan: Device memory allocation of size 118497280 failed.", "allocation-phrase", oom(Gpu)), // llamacpp15256
        ("WARN src/core.cu:225 failed to allocate 2101248 byte device buffer", "allocation-phrase", suspect(Gpu)), // nccl33
        ("*** error: can't allocate region", "allocation-phrase", oom(Host)), // joblib415
        (
            "Uncaught (in promise) abort(\"Cannot enlarge memory arrays. Either (1) compile with -s TOTAL_MEMORY=X\")",
            "allocation-phrase",
            oom(Host),
        ), // webmlpolyfill139
        (
            "Error retrieving SQL data: \"Exception of type 'System.OutOfMemoryException' was thrown.\"",
            "oom-identifier",
            oom(Host),
        ), // mlnetmodelbuilder647
    ] {
        assert_eq!(reading(line), Some((id, want)), "{line}");
    }
}

#[test]
fn a_kill_or_shared_memory_in_other_words() {
    for (line, id) in [
        (
            "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGKILL",
            "sigkill-phrase",
        ), // prompt4nr3
        ("Command terminated by signal 9", "sigkill-phrase"), // ogb17
        (
            "  Process `QUANTMS:DIA:INSILICO_LIBRARY_GENERATION` terminated with an error exit status (137)",
            "exit-137-phrase",
        ), // quantmsdiann96
        ("67e7a97f08aa   dmtf/redfish-mockup-server   Exited (137) 7 seconds ago", "exit-137-phrase"), // redfishmockup89
    ] {
        assert_eq!(reading(line), Some((id, suspect(Host))), "{line}");
    }
    for line in [
        "Failed to increase the shared memory pool size for key 'triton_python_backend_shm_region_7' to 1073741824 bytes.", // tritonserver5701
        "RuntimeError: unable to open shared memory object </torch_16550_876314950> in read-write mode", // mmaction2-218
    ] {
        assert_eq!(reading(line), Some(("shm-phrase", suspect(Shm))), "{line}");
    }
}

#[test]
fn running_out_of_a_memory_that_is_named() {
    for (line, want) in [
        ("ERROR: Out of GPU memory trying to allocate 2.000 GiB", oom(Gpu)), // CUDA.jl
        ("System is out of GPU memory", oom(Gpu)),                           // Blender Cycles
        ("fatal: out of host memory", oom(Host)),
    ] {
        let got = reading(line).map(|(_, meaning)| meaning);
        assert_eq!(got, Some(want), "{line}");
    }
    assert_eq!(
        reading("ERROR: Out of GPU memory trying to allocate 2.000 GiB").map(|r| r.0),
        Some("out-of-named-memory-phrase")
    );
    for line in [
        "using 3 out of 16 GB memory",           // a share, not its end
        "moved 2 out of 8 layers to GPU memory", // the memory word too far
        "out of bounds memory access",           // another cause
    ] {
        assert_eq!(reading(line), None, "{line}");
    }
}

#[test]
fn a_death_with_no_cause_given_is_a_suspicion_one_explained_otherwise_is_not() {
    assert_eq!(reading("Error: the worker crashed unexpectedly"), Some(("death-phrase", suspect(Host))));
    assert_eq!(reading("the job was killed due to timeout"), None);
    assert_eq!(reading("worker 3 was killed by SIGTERM"), None);
}

#[test]
fn a_negative_status_is_a_launchers_kill_and_a_launchers_cleanup_is_not() {
    // Python's subprocess: "returned non-zero exit status -9".
    let line = "subprocess.CalledProcessError: Command '['python', 'train.py']' returned non-zero exit status -9.";
    assert_eq!(reading(line), Some(("exit-minus-9-phrase", oom(Host))), "{line}");
    assert_eq!(reading("lr -9e-4 step 3"), None);
    // DeepSpeed's launcher killing its ranks after one exited says nothing of why it
    // exited (LABELLING.md rule 4; wizardlm93, deepspeed1581), with or without a failure before it.
    let silent = "[INFO] [launch.py:178:sigkill_handler] Killing subprocess 97277\n";
    assert_eq!(diagnose(silent).memory, MemoryKind::None);
}

#[test]
fn memory_errors_in_the_plural_and_earlyooms_kill_report() {
    let d = diagnose(
        "Fatal Python error: Cannot recover from MemoryErrors while normalizing exceptions.
",
    );
    assert_eq!((d.oom, d.memory), (true, Host));
    let d =
        diagnose("earlyoom[812]: sending SIGTERM to process 4120 uid 1000 \"python\": badness 900, VmRSS 14000 MiB\n");
    assert_eq!((d.oom, d.memory), (true, Host));
}

#[test]
fn memory_words_beside_another_cause() {
    for line in [
        "RuntimeError: CUDA error: an illegal memory access was encountered (allocation failed later)",
        "qsub: submit error (Job exceeds queue resource limits MSG=cannot satisfy queue max mem requirement)", // cbio93
        "User specified GPU index 1 has been occupied with a vLLM model, therefore cannot allocate GPU memory", // xinference1266
        "[mem-watch] KILLED WITH HEADROOM: 13149 MB of 15990 MB stayed available, so memory exhaustion does not explain this kill", // pilens2230
        "Failed to allocate port 8080: address already in use",
        "Device memory allocation of size 1024 bytes",
        "step 12 exit 0, 137 samples",
        "Triton Error [CUDA]: out of resource: shared memory, Required: 327768, Hardware limit: 232448",
    ] {
        assert_eq!(reading(line), None, "{line}");
    }
}

/// In a whole log, a reading by shape speaks only where the table said nothing.
#[test]
fn readings_by_shape_yield_to_the_table() {
    let decided = |log: &str| {
        let d = diagnose(log);
        (d.oom, d.memory, d.evidence.iter().find(|e| e.rank.0 != 3).map(|e| e.signature))
    };
    // A wording no table lists is read by its shape, and is the evidence shown.
    let log = "ggml_vulkan: Allocating 8 layers\nggml_vulkan: Device memory allocation of size 118497280 failed.\n";
    assert_eq!(decided(log), (true, Gpu, Some("allocation-phrase")));
    // A look-alike anywhere in the log outweighs it (redfishmockup89: docker stop sends SIGKILL).
    assert_eq!(decided("$ docker stop 67e7a97f08aa\n67e7a97f08aa   Exited (137) 7 seconds ago").1, MemoryKind::None);
    // So does the table's own suspicion, and the table's proof.
    let log = "WARN NCCL failed to allocate 2101248 byte device buffer\nDataLoader worker (pid 7) exited unexpectedly";
    assert_eq!(decided(log), (false, Shm, Some("dataloader-worker-exited")));
    let log =
        "Host memory allocation of size 4096 failed\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB";
    assert_eq!(decided(log), (true, Gpu, Some("pytorch-cuda-oom")));
}

#[test]
fn exit_status_words() {
    assert!(exit_status_before("Process `X` terminated with an error exit status ("));
    assert!(exit_status_before("Exited ("));
    assert!(exit_status_before("exitCode: "));
    assert!(exit_status_before("make: *** [all] Error "));
    assert!(!exit_status_before("step "));
    assert!(!exit_status_before("src="));
    assert!(!exit_status_before("2024-08-06 15:07:29,"));
}
