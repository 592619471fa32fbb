//! How the message reached the paste: wrapped by a terminal or an email reply,
//! behind another layer's prefix, introduced by the row above, glued to a
//! progress bar, retyped in lower case, copied through a web page.

use super::{corpus, corpus_log, gib, read_as};
use headroom_core::memory::{MemoryKind, Stack};
use headroom_core::recommend::diagnose;

#[test]
fn a_message_wrapped_by_the_terminal_mid_phrase() {
    // "Resource exhausted: Out \nof memory while trying to allocate 5520758552 bytes."
    let r = corpus("jax788-xla-oom-wrapped-at-out");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Gpu));
    assert_eq!(r.numbers.requested, Some(5_520_758_552));
    assert!(
        r.evidence.iter().any(|e| e.text.contains("Out of memory")),
        "the evidence reads as one line: {:?}",
        r.evidence
    );
}

#[test]
fn a_message_behind_another_layers_prefix() {
    // run_docker.py's log prefix around XLA's "Execution of replica 0 failed".
    let r = corpus("alphafold149-docker-prefix-wrapped-replica-failed");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Gpu));
    assert!(r.stack.contains(&Stack::Jax) && !r.stack.contains(&Stack::Tensorflow), "{:?}", r.stack);
    assert_eq!(r.fixes[0].id, "other", "XLA's preallocation: {:?}", r.fixes[0]);
}

#[test]
fn a_message_named_by_the_row_that_introduces_it() {
    // "what():  …/mallocMC/…/SimpleCudaMalloc_impl.hpp(42):" over "error: out of memory".
    let r = corpus("picongpu3064-mallocmc-simplecudamalloc-error-out-of-memory-v100");
    assert_eq!((r.oom, r.memory), (true, MemoryKind::Gpu));
}

#[test]
fn old_wording_hard_wrapped_by_an_email_reply() {
    // "(GPU 0;\n14.76 GiB total capacity; 12.29 GiB already allocated; 945.75 MiB free;\n12.57 GiB reserved ..."
    let r = corpus("bnb65-wrapped-oom-quoted-by-maintainer-email");
    assert_eq!((r.numbers.capacity, r.numbers.allocated_by_pytorch), (Some(gib(14.76)), Some(gib(12.29))));
    assert_eq!(r.numbers.free, Some((945.75 * 1048576.0_f64).round() as u64));
}

#[test]
fn figures_retyped_in_lower_case_or_word_wrapped() {
    // "cuda out of memory. tried to allocate 30.00 mib (gpu 0; 8.00 gib total capacity; ..."
    let lower = corpus("kohyass3329-sdxl-lora-lowercased-message");
    assert_eq!((lower.numbers.requested, lower.numbers.capacity), (Some(30 << 20), Some(8 << 30)));
    // "(GPU 1; 31.75" | "GiB total capacity; ...": the unit pushed to the next row.
    let wrapped = corpus("alpacarlhf3-v100-sft-hard-wrapped-old-format");
    assert_eq!(wrapped.numbers.capacity, Some(gib(31.75)));
}

#[test]
fn the_shells_report_glued_to_a_progress_bar() {
    // mmcv's bar ends in a duration: "... ETA: 2621s已杀死".
    let mmcv = corpus("mmdet5263-chinese-yisisi-glued-to-progress-bar");
    assert_eq!((mmcv.oom, mmcv.memory), (true, MemoryKind::Host));
    // zsh's job report after tqdm's bracket: "?it/s][1]    26478 killed     python test.py".
    let zsh = corpus("baichuan2-138-zsh-killed-loading-checkpoint-shards");
    assert_eq!((zsh.oom, zsh.memory), (true, MemoryKind::Host));
    // Airflow's task runner: `signal=-9: signal_name="SIGKILL"`, a launcher's SIGKILL.
    let airflow = corpus("airflow55599-task-runner-signal-minus9-sigkill");
    assert_eq!((airflow.oom, airflow.memory), (true, MemoryKind::Host));
}

#[test]
fn rows_cut_at_a_terminals_width_and_what_they_say_whole() {
    // 163 columns, padded by tmux: "ran out of memory trying to alloca|te 18.44GiB" is one
    // message, TensorFlow's BFC allocator running out (rule 2.1), with its request read whole.
    let tmux = corpus("algoperf137-fastmri-jax-bfc-18gib-terminal-wrapped");
    assert_eq!((tmux.oom, tmux.memory, tmux.numbers.requested), (true, MemoryKind::Gpu, Some(gib(18.44))));
    // Word-wrapped, its next row calls it "not a failure": a suspect.
    let retried = corpus("tffrcnn68-bfc-not-a-failure-warnings-wrapped");
    assert_eq!((retried.oom, retried.memory), (false, MemoryKind::Gpu));
    // TensorRT skipping tactics for want of workspace, then failing for another reason.
    let trt = corpus("triton6064-tensorrt-tactic-skipped-insufficient-memory-then-no-implementation");
    assert_eq!((trt.oom, trt.memory), (false, MemoryKind::Gpu));
    // Julia's OutOfMemoryError() and gcc's "Killed (program cc1plus)": the host's.
    read_as(
        &[
            "imagedistances9-julia-loaderror-outofmemoryerror-hausdorff-pairwise",
            "p4c1262-ice-killed-cc1plus-unified-sources-vm",
        ],
        (true, MemoryKind::Host),
    );
    // ollama's question: "you may not have enough available memory to run this model?"
    let asked = corpus("ollama1019-llama-runner-exited-not-enough-available-memory");
    assert_eq!((asked.oom, asked.memory), (false, MemoryKind::Host));
}

#[test]
fn a_log_copied_through_a_web_page_reads_as_printed() {
    // Each needs its quotes, angle brackets or spaces: "context's memory pool",
    // `"OOMKilled": true`, "allocating <= available", "exited with 'signal 9 (SIGKILL)'".
    type Copy = fn(&str) -> String;
    let through_a_page: [(&str, Copy); 3] = [
        ("typographic quotes", |t| t.replace('\'', "\u{2019}").replace('"', "\u{201D}")),
        ("HTML entities", |t| {
            t.replace('"', "&quot;").replace('\'', "&#39;").replace('<', "&lt;").replace('>', "&gt;")
        }),
        ("non-breaking spaces", |t| t.replace(' ', "\u{a0}")),
    ];
    for id in [
        "llamacpp29-windows-ggml-context-pool-needed-458mb-not-ram",
        "k8s3044-kubelet-termination-reason-oom-killed",
        "paddle8992-enforce-allocating-le-available-10gb-gt-1-3gb",
        "koku1588-celery-forkpoolworker-exited-signal-9-sigkill",
    ] {
        let log = corpus_log(id);
        let printed = diagnose(&log, &[]);
        for (how, copy) in through_a_page {
            let copied = diagnose(&copy(&log), &[]);
            assert_eq!((copied.oom, copied.memory), (printed.oom, printed.memory), "{id} with {how}");
        }
    }
}

#[test]
fn every_line_coloured_by_the_terminal() {
    // "ERROR: Out of GPU memory", "(out of vram?)": the colour code that closes each line is
    // no part of the memory word before it.
    for id in [
        "cudajl2898-out-of-gpu-memory-custreamgetcaptureinfo-windows",
        "gpt4all1639-gpu-loading-failed-out-of-vram-hint",
    ] {
        let log = corpus_log(id);
        let printed = diagnose(&log, &[]);
        let coloured: String = log.lines().map(|l| format!("\u{1b}[31m{l}\u{1b}[0m\n")).collect();
        let copied = diagnose(&coloured, &[]);
        assert_eq!((copied.oom, copied.memory), (printed.oom, printed.memory), "{id}");
        assert_eq!(printed.memory, MemoryKind::Gpu, "{id}");
    }
}

#[test]
fn the_shells_word_over_a_progress_count_marked_as_output() {
    // "# Killed111/111": the reporter's "# " before each output line, and the tail of a count
    // redrawn in place after the shell's word.
    read_as(&["shannonca3-sca-reduce-killed-merged-with-progress"], (true, MemoryKind::Host));
}

#[test]
fn a_reply_quoting_the_log_again() {
    // "> Killed" and "@packages/net-stubbing: Killed", quoted once more by a reply ("> > Killed",
    // "> @packages/net-stubbing: Killed").
    for id in [
        "hunyuancustom18-wsl-gpu-poor-killed-at-build-model-cpu-offload",
        "cypress23623-circleci-lerna-net-stubbing-killed-137",
    ] {
        let quoted: String = corpus_log(id).lines().map(|l| format!("> {l}\n")).collect();
        let r = diagnose(&quoted, &[]);
        assert_eq!((r.oom, r.memory), (true, MemoryKind::Host), "{id}");
    }
}

#[test]
fn every_row_cut_at_eighty_columns() {
    // A terminal that cuts every row at 80 columns (a tmux or screen copy): the messages read as
    // whole, where the cut falls inside a wording no generic needle holds ("exited on signal " |
    // "9 (Killed)", vLLM's KV cache line) and where it falls between two words, leaving the
    // space at the row's edge (Ray's node memory, a cgroup named on the next row).
    let cut = |log: &str| -> String {
        let mut rows = String::new();
        for line in log.split('\n') {
            let chars: Vec<char> = line.chars().collect();
            let pieces: Vec<String> = chars.chunks(80).map(|c| c.iter().collect()).collect();
            rows.push_str(&if pieces.is_empty() { String::new() } else { pieces.join("\n") });
            rows.push('\n');
        }
        rows
    };
    for id in [
        "horovod469-mpirun-rank7-signal-9-killed-keras-epoch",
        "llava1085-wsl-pretrain-deepspeed-return-code-minus9",
        "lcr-modules94-samtools-sort-killed-srun",
        "gptfuzz27-vllm-max-seq-4096-kv-1792",
        "ray28776-chaos-shuffle-1tb-outofmemoryerror-node-95pct",
        "sarek79-uppmax-memory-overflow-email-cgroup-16384mb",
        "faiss2020-kmeans-cudamalloc-512mb-device1-outstanding-allocations",
    ] {
        let log = corpus_log(id);
        let printed = diagnose(&log, &[]);
        let rows = diagnose(&cut(&log), &[]);
        assert_eq!((rows.oom, rows.memory), (printed.oom, printed.memory), "{id}");
        assert!(printed.oom, "{id}");
    }
}
