//! The Diagnose page in Chromium: a pasted log gives the verdict, highlighted
//! evidence and fix cards; garbage gives "no OOM found"; pasted markup stays
//! text; a 10 MB log is read in chunks with progress (its time is printed).

use e2e::open_site;
use serde_json::json;

#[test]
fn a_cuda_oom_gives_evidence_fixes_and_a_budget_link() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/diagnose", site.url)).unwrap();
    browser.wait_for("#log-input").unwrap();
    let fetched = browser.resources_fetched().unwrap();
    e2e::paste_log(&browser, "step 1\n[rank0]:     loss.backward()\n[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB. GPU 0 has a total capacity of 79.18 GiB of which 4.97 GiB is free. Of the allocated memory 72.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\nppo_micro_batch_size_per_gpu=32\n");
    browser.wait_for_text(".diagnosis .summary", "Out of memory: GPU memory during backward pass").unwrap();
    let evidence = browser.wait_for_text(".evidence li", "line 3").unwrap();
    assert!(browser.text(&evidence).unwrap().contains("Tried to allocate 17.66 GiB"));
    let first_fix = browser.wait_for(".fix-card").unwrap();
    assert_eq!(browser.attribute(&first_fix, "data-fix").unwrap().as_deref(), Some("reduce_batch"));
    assert!(browser.text(&first_fix).unwrap().contains("halve the micro batch 32 -> 16 and accumulate 2 steps"));
    assert!(browser.text(&browser.wait_for(".figures").unwrap()).unwrap().contains("79.18 GiB"));
    // In context: the evidence line is highlighted among its neighbours.
    let hits = browser
        .execute(
            "return [...document.querySelectorAll('.log-excerpt .log-line.hit .line-no')].map(e => e.textContent)",
            vec![],
        )
        .unwrap();
    assert_eq!(hits, json!(["3"]));
    let lines = browser.execute("return document.querySelectorAll('.log-excerpt .log-line').length", vec![]).unwrap();
    assert_eq!(lines, json!(4), "line 3 with lines 1-2 and 4 around it");

    assert_eq!(browser.resources_fetched().unwrap(), fetched, "a pasted log never leaves the page");
    let link = browser.wait_for_text(".button-link", "Open in Budget").unwrap();
    browser.click(&link).unwrap();
    browser.wait_for_text("main h1", "Memory budget").unwrap();
    let value = browser.execute("return document.getElementById('field-gpu_mem_gib').value", vec![]).unwrap();
    assert_eq!(value, "79.18");
    assert!(browser.console_problems().unwrap().is_empty());
}

#[test]
fn garbage_and_markup_are_reported_as_text() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/diagnose", site.url)).unwrap();
    browser.wait_for("#log-input").unwrap();
    e2e::paste_log(&browser, "hello\nthis is not a log at all\n");
    browser.wait_for_text(".diagnosis .summary", "No OOM found in 2 line(s)").unwrap();

    e2e::paste_log(&browser, "<img src=x onerror=\"document.title='pwned'\"> CUDA error: out of memory <script>document.title='pwned'</script>\n");
    let line = browser.wait_for_text(".evidence-line", "<img src=x").unwrap();
    assert!(browser.text(&line).unwrap().contains("<script>"));
    assert!(browser.find_all(".diagnosis img, .diagnosis script").unwrap().is_empty());
    assert_ne!(browser.title().unwrap(), "pwned");

    e2e::paste_log(&browser, "RuntimeError: CUDA error: an illegal memory access was encountered\n");
    browser.wait_for_text(".diagnosis .summary", "Not an out-of-memory failure").unwrap();
    let fix = browser.wait_for(".fix-card").unwrap();
    assert_eq!(browser.attribute(&fix, "data-fix").unwrap().as_deref(), Some("not_oom_fix"));
}

#[test]
fn a_10_mb_log_is_read_in_chunks_without_freezing() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/diagnose", site.url)).unwrap();
    browser.wait_for("#log-input").unwrap();
    // Watch for the progress bar and for other tasks running while the log is
    // read: both prove the work yields to the page instead of freezing it.
    browser
        .execute(
            "window.__sawProgress = false; window.__ticks = 0;
             const tick = new MessageChannel(); tick.port1.onmessage = () => { window.__ticks++; if (window.__ticks < 20) tick.port2.postMessage(0); }; tick.port2.postMessage(0);
             new MutationObserver(() => { if (document.querySelector('.progress progress')) window.__sawProgress = true; })
               .observe(document.body, {childList: true, subtree: true});",
            vec![],
        )
        .unwrap();
    // 10 MB of tqdm bars and INFO lines, then a SLURM OOM kill, built in the page.
    browser
        .execute(
            "let parts = []; let size = 0; let i = 0;
             while (size < 10 * 1024 * 1024) {
               const line = i % 3 == 0
                 ? `Epoch 0:  ${i % 100}%|████      | ${i}/242 [01:12<01:28,  1.50it/s, loss=2.31]\\r`.repeat(4) + '\\n'
                 : `2025-10-16 14:34:04,112 - INFO - [rank${i % 16}]: step ${i} loss=2.3412 lr=1.0e-04\\n`;
               parts.push(line); size += line.length; i++;
             }
             parts.push('slurmstepd: error: Detected 4 oom_kill events in StepId=273202.0. Some of the step tasks have been OOM Killed.\\n');
             const box = document.getElementById('log-input');
             box.value = parts.join('');
             box.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![],
        )
        .unwrap();
    let summary = browser
        .wait_until("the 10 MB diagnosis", || {
            let found = browser.find_all(".diagnosis .summary")?;
            Ok(found.first().map(|s| browser.text(s)).transpose()?.filter(|t| t.contains("Job memory limit")))
        })
        .unwrap();
    assert!(summary.starts_with("Out of memory"));
    browser.wait_for_text(".notice", "MB log was pasted").unwrap();
    let timing = browser
        .execute("const d = document.querySelector('.diagnosis').dataset; return [d.computeMs, d.elapsedMs]", vec![])
        .unwrap();
    println!("10 MB log in the browser: {} ms diagnosing, {} ms from input to result", timing[0], timing[1]);
    assert!(browser.find_all(".progress").unwrap().is_empty(), "progress is gone when done");
    assert_eq!(browser.execute("return window.__sawProgress", vec![]).unwrap(), true, "progress was shown");
    let ticks = browser.execute("return window.__ticks", vec![]).unwrap().as_u64().unwrap();
    assert!(ticks >= 2, "other tasks ran while the log was read ({ticks} ticks)");
}

/// A 1 GB log chosen in the file picker is read in 1 MB slices, with progress,
/// while the page keeps answering; its time is printed for the README.
#[test]
fn a_one_gigabyte_file_is_diagnosed_in_slices() {
    let path = std::env::temp_dir().join(format!("headroom-1gb-{}.log", std::process::id()));
    {
        use std::io::Write;
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let line = "2025-10-16 14:34:04,112 - INFO - [rank3]: step 4242 loss=0.4213 lr=1.0e-04 grad_norm=0.91 throughput=812 samples/s\n";
        for _ in 0..(1usize << 30) / line.len() {
            file.write_all(line.as_bytes()).unwrap();
        }
        file.write_all(b"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.18 GiB of which 1.02 GiB is free.\n").unwrap();
    }
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/diagnose", site.url)).unwrap();
    let input = browser.wait_for("#log-file").unwrap();
    browser.type_text(&input, path.to_str().unwrap()).unwrap();
    // While it reads, the page answers: progress moves and a script runs at once.
    browser.wait_for(".progress progress").unwrap();
    let started = std::time::Instant::now();
    browser.execute("return document.title", vec![]).unwrap();
    assert!(started.elapsed().as_millis() < 1000, "the page stayed responsive while reading");
    let summary = browser
        .wait_until_within("the 1 GB diagnosis", std::time::Duration::from_secs(180), || {
            browser.find_all(".diagnosis .summary")?.first().map(|s| browser.text(s)).transpose()
        })
        .unwrap();
    assert_eq!(summary, "Out of memory: GPU memory.");
    let note = browser.text(&browser.wait_for(".notice").unwrap()).unwrap();
    assert!(note.contains("(1.00 GiB)"), "the file's own size is shown: {note}");
    let elapsed = browser.execute("return document.querySelector('.diagnosis').dataset.elapsedMs", vec![]).unwrap();
    println!("a 1 GB file diagnosed in the browser in {} ms", elapsed.as_str().unwrap_or("?"));
    std::fs::remove_file(&path).unwrap();
}
