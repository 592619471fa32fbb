//! Kills and who sent them: shells, launchers and parents reporting a child's
//! SIGKILL, schedulers, the kernel, userspace killers, containers.

use super::{corpus, read_as};
use headroom_core::memory::MemoryKind;

#[test]
fn the_shells_killed_in_chinese() {
    let r = corpus("edngtm2-chinese-shell-killed-after-counter");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
}

#[test]
fn a_launchers_sigkill_is_an_oom_a_bare_exit_code_a_suspect() {
    // LABELLING.md rule 2.4, an OOM: DeepSpeed's "exits with return code = -9", torchrun's
    // aligned summary "exitcode  : -9", srun's "task 0: Killed". Rule 3, a suspect: exit
    // status 137 in Kubernetes' and Flyte's words, slurmctld's WTERMSIG 9.
    let cases = [
        ("anomalygpt43-deepspeed-minus9-wrapped-chinese-thread-host-ram", true),
        ("cppo6-accelerate-deepspeed-launcher-grpo-sigkill-root-cause", true),
        ("arjuna48-srun-task-killed-force-terminated-no-oom-text", true),
        ("gpt4all1522-accelerate-calledprocesserror-died-with-sigkill", true),
        // DIGITS reporting its Caffe child's status: "ERROR: error code -9".
        ("digits1362-detectnet-cpu-caffe-error-code-minus9", true),
        // A pipeline's job report under Nextflow: "19 Killed    | samtools sort -o ...".
        ("ncov2019articnf30-readmapping-137-samtools-sort-killed", true),
        ("bigdata118-k8s-exec-hook-exited-137-not-oom-chinese", false),
        ("flyte2376-demo-cluster-exit-137-reason-error-oomkilled-false", false),
        ("arjuna137-slurmctld-wtermsig9-kill-bot", false),
    ];
    for (id, oom) in cases {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (oom, MemoryKind::Host), "{id}");
    }
    // Ray's closing advice on its own: a suspicion, not the kill it usually closes.
    let r = corpus("searchr1-45-ray-oom-advice-paragraph-asked-if-gpu");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::Host));
}

#[test]
fn zshs_job_report_is_the_shells_killed() {
    // "[1]    9301 killed     python3 scripts/dream.py"
    let r = corpus("invokeai342-wsl-zsh-lowercase-killed-model-load");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Host));
}

#[test]
fn schedulers_that_hold_or_abort_for_memory() {
    // HTCondor: "put on hold by SYSTEM_PERIODIC_HOLD due to memory usage 3000000."
    let condor = corpus("ogc2-htcondor-periodic-hold-due-to-memory-usage");
    assert_eq!((condor.oom, condor.memory), (true, MemoryKind::JobLimit));
    // Torque: "Job exceeded a memory resource limit (vmem, pvmem, etc.)" and its resources_used fields in kb.
    let torque = corpus("sarek541-torque-vmem-aborted-exit-minus10-kb-fields");
    assert_eq!((torque.oom, torque.memory), (true, MemoryKind::JobLimit));
    assert_eq!(torque.numbers.total_vm, Some(286_793_240 * 1024));
    assert_eq!(torque.numbers.job_limit, Some(209_715_200 * 1024));
    // Kubernetes quantities: "Container egg was using 5053216Ki".
    let k8s = corpus("kubefate64-events-evicted-node-low-memory-egg-5053216ki");
    assert_eq!(k8s.numbers.rss, Some(5_053_216 * 1024));
}

#[test]
fn schedulers_memory_kills_in_their_own_words() {
    // Torque: "PBS: job killed: vmem 3372163072 exceeded limit 2147483648", in bytes.
    let r = corpus("hyphy500-pbs-vmem-exceeded-torque-2gib-default");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::JobLimit));
    assert_eq!((r.numbers.total_vm, r.numbers.job_limit), (Some(3_372_163_072), Some(2_147_483_648)));
    assert_eq!(r.fixes[0].id, "more_host_mem_request");
    // Moab: "job 3132467 exceeded MEM usage hard limit (2528 > 1126)".
    let r = corpus("cbio251-pbs-exceeded-mem-usage-hard-limit-wrong-queue");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::JobLimit));
    // Grid Engine's abort mail: "failed execd enforced h_vmem limit because:".
    let r = corpus("mgatk36-sge-failed-execd-enforced-h-vmem-749g");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::JobLimit));
}

#[test]
fn the_kernels_report_names_a_memory_cgroup() {
    // "supervisord invoked oom-killer" with mem_cgroup_oom_synchronize in its call trace.
    let trace = corpus("k8s1962-guestbook-frontend-memcg-oom-kernel-brackets");
    assert_eq!((trace.oom, trace.memory), (true, MemoryKind::JobLimit));
    // A bare "Killed", then dmesg inside the container with mem_cgroup_out_of_memory.
    let killed = corpus("kata1310-docker-m512m-mem-test-killed-then-dmesg-memcg");
    assert_eq!(killed.memory, MemoryKind::JobLimit);
    // "memory: usage 1048576kB, limit 1048576kB, failcnt 141": the cgroup at its limit.
    let at_limit = corpus("dpservice74-journal-memcg-usage-equals-limit-1gib-registers");
    assert_eq!((at_limit.oom, at_limit.memory), (true, MemoryKind::JobLimit));
    assert_eq!(at_limit.numbers.job_limit, Some(1 << 30));
    // Older kernels: "... killed as a result of limit of /docker/<id>".
    let old = corpus("sundial32-varlogmessages-docker-killed-as-result-of-limit-100m");
    assert_eq!((old.oom, old.memory), (true, MemoryKind::JobLimit));
    assert_eq!(old.fixes[0].id, "more_host_mem_request");
}

#[test]
fn userspace_killers_act_before_the_kernel() {
    for id in [
        "omarchy9799-systemd-oomd-swap-kill-2104-processes-scope",
        "earlyoom261-sigterm-code-then-python3-32gb-journal",
        "jetstream336-dask-nanny-95pct-budget-then-killedworker-wrapped",
        "ray32730-stress-test-memory-monitor-kills-50mb-task",
    ] {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (true, MemoryKind::Host), "{id}: {:?}", r.evidence);
    }
}

#[test]
fn supervisors_report_their_workers_deaths() {
    // A parent's report of its child's SIGKILL (rule 2.4): celery's pool, systemd on a unit
    // that systemd-oomd killed for memory pressure.
    read_as(
        &[
            "billiard380-celery-forkpoolworker-signal9-workerlosterror-job10",
            "systemd22032-oomd-memory-pressure-kills-testbloat-status-9",
            // lerna's per-package prefix before a shell's Killed.
            "cypress23623-circleci-lerna-net-stubbing-killed-137",
            // Kaggle's notice, the host's RAM.
            "ddcap39-kaggle-notebook-tried-to-allocate-more-memory-restarted",
        ],
        (true, MemoryKind::Host),
    );
    // PM2 at its --max-memory-restart budget, a centre's notice of more RAM than asked for.
    for id in
        ["pm2-1188-max-memory-restart-exceeded-stopping-app", "sarek79-uppmax-memory-overflow-email-cgroup-16384mb"]
    {
        let r = corpus(id);
        assert_eq!((r.oom, r.memory), (true, MemoryKind::JobLimit), "{id}");
    }
    // uvicorn's "Child process [72] died" and the kubelet's "OutOfmemory" admission: suspects.
    read_as(
        &[
            "airflow52270-api-server-uvicorn-child-process-died-loop",
            "datasetviewer388-k8s-pod-evicted-outofmemory-status-interleaved",
        ],
        (false, MemoryKind::Host),
    );
    // gunicorn's WORKER TIMEOUT names who sent the SIGKILL.
    let timeout = corpus("dockpeek30-gunicorn-worker-timeout-sigkill-memory-fine");
    assert_eq!((timeout.oom, timeout.memory), (false, MemoryKind::None));
}

#[test]
fn parents_reporting_a_childs_sigkill_in_their_own_words() {
    // LABELLING.md rule 2.4: gcc's driver with SIGKILL's word in the user's locale ("Morto
    // signal terminated program lto1"), cargo's "(signal: 9, SIGKILL: kill)", celery's
    // MainProcess "exited with 'signal 9 (SIGKILL)'".
    read_as(
        &[
            "forgottenserver3317-lto1-morto-signal-portuguese",
            "metruefx227-docker-cargo-build-rustc-sigkill",
            "koku1588-celery-forkpoolworker-exited-signal-9-sigkill",
        ],
        (true, MemoryKind::Host),
    );
}

#[test]
fn a_containers_oom_in_dockers_event_stream() {
    // `docker events`: "2019-05-04T18:05:45.011072877-05:00 container oom 29d72966e0be…".
    // The same stream formatted by the user: "Type=container  Status=oom  ID=2dc13c49a713…".
    read_as(
        &[
            "docker-for-linux670-docker-events-container-oom-k8s-notebook",
            "openpai1658-docker-events-status-oom-die-datanode",
        ],
        (true, MemoryKind::JobLimit),
    );
}

#[test]
fn more_parents_reporting_a_childs_sigkill() {
    // SPAdes on its step: "finished abnormally, OS return value: -9"; gunicorn's arbiter
    // without a WORKER TIMEOUT of its own: "Worker (pid:25134) was sent SIGKILL! Perhaps out of memory?".
    read_as(
        &["spades721-spades-core-os-return-minus9", "exllamav2-556-gunicorn-worker-sent-sigkill-perhaps-oom-a10"],
        (true, MemoryKind::Host),
    );
    // After its WORKER TIMEOUT, gunicorn sent the SIGKILL itself.
    let r = corpus("konveyorkai109-gunicorn-worker-timeout-then-sigkill-perhaps-oom");
    assert_eq!((r.oom, r.memory), (false, MemoryKind::None));
}

#[test]
fn supervisors_and_test_runners_reporting_a_childs_sigkill() {
    // PM2's "via signal [SIGKILL]", uWSGI's "died, killed by signal 9", a test runner's
    // "CRASHED (Signal: 9)" and "Test process crashed with signal 9" (LABELLING.md rule 2.4);
    // conda's "Solving environment: ...working... Killed" in a docker build.
    read_as(
        &[
            "pm2-4154-app-exited-code-0-via-signal-sigkill",
            "uwsgi1779-worker-died-killed-by-signal-9-respawn-django",
            "nodejs18525-jenkins-container-test-crashed-signal-9",
            "ttxla4339-nightly-training-tests-crashed-signal-9-and-6",
            "mlflowbook1-docker-build-conda-solve-killed-exit-137",
        ],
        (true, MemoryKind::Host),
    );
}

#[test]
fn a_worker_that_exited_with_sigkills_status() {
    // "Transcription worker exited unexpectedly (code -9)": the parent names its child's
    // SIGKILL (LABELLING.md rule 2.4), not only that it exited.
    read_as(&["noscribe335-transcription-worker-exited-code-minus9"], (true, MemoryKind::Host));
}

#[test]
fn a_package_managers_report_of_its_childs_sigkill() {
    // yarn: 'error Command failed with signal "SIGKILL".' (LABELLING.md rule 2.4).
    read_as(
        &["umami2180-next-build-yarn-sigkill-exited-1", "reactadmin11-yarn-start-sigkill-machine-low-memory"],
        (true, MemoryKind::Host),
    );
}

#[test]
fn a_death_with_no_cause_given_is_a_host_suspect() {
    // Gradle: "daemon disappeared unexpectedly (it may have been killed or may have crashed)".
    read_as(&["gorpipe5-gradle-daemon-disappeared-make-error-1"], (false, MemoryKind::Host));
}

#[test]
fn gunicorns_newer_report_of_its_workers_sigkill() {
    // "[WARNING] Worker with pid 55 was terminated due to signal 9" (LABELLING.md rule 2.4).
    read_as(
        &["entsbackend82-gunicorn-worker-terminated-signal-9", "courtlistener2640-gunicorn-workers-signal-9-k8s"],
        (true, MemoryKind::Host),
    );
}

#[test]
fn a_watchdogs_kill_for_unresponsiveness_is_not_the_oom_killers() {
    // Databricks: "Hard killed Driver (pid=498) after unresponsive for 302 seconds", then `Killed`.
    read_as(&["ucx1364-databricks-hard-killed-driver-unresponsive"], (false, MemoryKind::None));
    // Ray's own teardown: "The actor is dead because it was killed by `ray.kill`".
    read_as(&["ray24419-serve-replica-actor-killed-by-ray-kill"], (false, MemoryKind::None));
}

#[test]
fn kills_reported_by_a_compiler_driver_and_after_a_keras_bar() {
    // "clang++: error: unable to execute command: Killed"; Keras's bar with the shell's word
    // glued to its last metric: "[====>....] - ETA: 365s - loss: 2.1371Killed".
    read_as(
        &["inspircd1547-clang-unable-to-execute-command-killed-freebsd", "keras3476-fit-progress-bar-then-killed"],
        (true, MemoryKind::Host),
    );
}

#[test]
fn torchelastics_summary_and_a_quoted_killed_are_launchers_reports() {
    // The title alone: "Signal 9 (SIGKILL) received by PID 394968" (rule 2.4); the shell's word
    // retold in markdown: "fails on `Loading checkpoint shards: 52%` with message `killed`".
    read_as(
        &[
            "msswift7357-grpo-signal-9-sigkill-received-by-pid-title",
            "alpacalora546-generate-load-8bit-shards-52-killed",
        ],
        (true, MemoryKind::Host),
    );
    // Ray's memory monitor by its documented name, beside "8×GPU per node".
    read_as(&["roll234-ray-oom-prevention-kills-vllm-actors-at-engine-init"], (true, MemoryKind::Host));
}

#[test]
fn an_emptydir_eviction_explains_the_137_after_it() {
    // "Usage of EmptyDir volume \"models-dir\" exceeds the limit", then a pre-stop hook "exited with 137".
    read_as(&["kserve3792-modelmesh-evicted-emptydir-limit-prestop-137"], (false, MemoryKind::None));
}

#[test]
fn torchruns_own_shutdown_kill_and_a_chinese_was_killed() {
    // "Unable to shutdown process 264 via Signals.SIGTERM, forcefully exiting via Signals.SIGKILL".
    read_as(&["awseks93-neuronx-llama2-checkpoint-torchrun-sigterm-escalated-sigkill"], (false, MemoryKind::None));
    // "在训练过程中，内存会占用越来越多，从而进程被Killed".
    read_as(&["loftr267-zh-memory-grows-process-killed-training"], (true, MemoryKind::Host));
}

#[test]
fn parents_and_killers_in_other_runtimes_words() {
    read_as(
        &[
            // MPICH's hydra: "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES ... KILLED BY SIGNAL: 9 (Killed)".
            "abacus3714-mpich-bad-termination-killed-by-signal-9-srAl-scf",
            "dpgen1308-vasp-hydra-killed-by-signal-9-short-md",
            // A wrapper script on its program: "(ERR): hisat2-align died with signal 9 (KILL)".
            "hisat2-455-hisat2-align-died-with-signal-9-kill-3gb-host",
            // Android's lmkd: "Kill 'com.google.android.carrier' ... reason: low watermark is breached".
            "executorch5582-pixel8-llama-demo-lmkd-kills-low-watermark-swap-low",
            // The kernel's OOM notifier chain, as a GPU driver hooked on it prints it:
            // "mali fb000000.gpu: OOM notifier: tsk Xorg:Xorg ..." is the host's OOM, not the GPU's.
            "rknnllm229-rk3588-deepseek14b-page-allocation-failure-rknpu-gem",
        ],
        (true, MemoryKind::Host),
    );
    // cryoSPARC's supervisor: "This job was killed because a heartbeat was not received for 30 seconds."
    read_as(&["cryosparc86-no-heartbeat-job-killed-multiple-jobs"], (false, MemoryKind::None));
}

#[test]
fn a_compiler_driver_on_its_child_and_the_shells_word_over_a_progress_line() {
    // nvcc's driver: "nvcc error   : 'cicc' died due to signal 9 (Kill signal)".
    // The shell's word written over a redrawn progress line: "Killedg in train batch: 127687 / 263115".
    read_as(
        &[
            "cudf8018-source-build-cicc-died-signal-9-make-error-9",
            "dlrm4-killedg-glued-to-train-batch-progress-kaggle",
        ],
        (true, MemoryKind::Host),
    );
}

#[test]
fn killed_after_a_bar_cut_mid_draw_or_quoted_in_prose() {
    // "…model.layers.25:  77%|█████Killed" (the bar's blocks, no bracket yet) and
    // "…29/30 [00:35<00:01,  1.39s/it]Killed." quoted in the reporter's sentence.
    read_as(
        &["deepcompressor16-gptq-calibration-killed-mid-progress-bar", "autoawq543-70b-load-killed-at-shard-29-of-30"],
        (true, MemoryKind::Host),
    );
}

#[test]
fn a_message_retyped_with_full_width_punctuation_and_a_killer_is_never_a_device() {
    // "worker（pid 27631）is killed by signal：killed"; "the kernel OOM-kills glomap at ~42 GB RSS"
    // on a line that also names use_gpu.
    read_as(
        &[
            "pointr26-kitti-test-worker-killed-by-signal-killed",
            "glomap234-global-positioning-kernel-oom-killed-42g-rss",
        ],
        (true, MemoryKind::Host),
    );
}

#[test]
fn killed_retyped_in_lowercase_alone_on_its_line() {
    // "Error\n```\nkilled\n```" after torchvision's read_video of a whole file.
    read_as(&["torchvision5131-read-video-whole-file-killed"], (true, MemoryKind::Host));
}

#[test]
fn killed_after_a_bar_in_an_inline_code_span() {
    // "`Separating track ben.mp3\n  0%| … | 0.0/198.0 [00:00<?, ?seconds/s]Killed` on my terminal."
    read_as(&["demucs252-cpu-separate-killed-after-progress-bar"], (true, MemoryKind::Host));
}

#[test]
fn a_parent_naming_its_childs_sigkill_and_one_exit_status_of_several() {
    // Dagster: "child process for step X was terminated by signal 9 (SIGKILL)" (rule 2.4).
    read_as(&["fakestardetector5-dagster-multiprocess-child-sigkill-oom-tip"], (true, MemoryKind::Host));
    // SkyPilot: "Job 1 failed with return code list: [1, 137, 137]": a bare 137, a suspicion.
    read_as(&["skypilot4232-job-failed-return-code-list-1-137-137"], (false, MemoryKind::Host));
}
