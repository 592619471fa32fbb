//! From a pasted log to a write-up the lab can publish, in Chromium: Write it
//! up on the diagnosis, the redacted draft in the editor (undo one
//! redaction), lint beside the lines, the preview, a reload, the download,
//! and `headroom check` on the downloaded file before and after the
//! placeholders are filled in. Also: a 300-line write-up's recompile time
//! (printed), and the page at 390 px by keyboard.

use e2e::open_site;
use e2e::webdriver::Browser;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const LOG: &str = "python train.py --num_workers 8 --batch_size 32\nEpoch 0: 100%|##########| 242/242 [22:54<00:00]\nslurmstepd: error: Detected 4 oom_kill events in StepId=273202.0 on node042 (/home/alice/rl). Some of the step tasks have been OOM Killed.\n";

/// Sets a text box's value as a paste would, and tells the page.
fn set_value(browser: &Browser, id: &str, text: &str) {
    browser
        .execute(
            "const box = document.getElementById(arguments[0]); box.value = arguments[1]; box.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![json!(id), json!(text)],
        )
        .unwrap();
}

/// A text box's value, or "" while the box is not (yet) on the page, as
/// during a reload.
fn value(browser: &Browser, id: &str) -> String {
    let v = browser.execute("return document.getElementById(arguments[0])?.value ?? null", vec![json!(id)]).unwrap();
    v.as_str().unwrap_or_default().to_string()
}

/// Waits until the editor has checked the text as it is now.
fn problems_settle(browser: &Browser, expected: usize) {
    browser
        .wait_until(&format!("{expected} problem(s)"), || {
            let n = browser.execute("return document.getElementById('write-status').dataset.problems", vec![])?;
            Ok((n == json!(expected.to_string())).then_some(()))
        })
        .unwrap();
}

fn fill_placeholders(text: &str) -> String {
    let mut out = text.to_string();
    while let Some(start) = out.find("{{") {
        let end = out[start..].find("}}").expect("a closed placeholder") + start;
        out.replace_range(start..end + 2, "the author's words");
    }
    out
}

/// `headroom check FILE`, through cargo (the CLI is built by the native tests).
fn headroom_check(file: &Path) -> std::process::Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    Command::new(cargo)
        .args(["run", "--quiet", "-p", "headroom-cli", "--", "check"])
        .arg(file)
        .current_dir(root)
        .output()
        .expect("run headroom check")
}

#[test]
fn from_a_pasted_log_to_a_downloaded_file_that_headroom_check_accepts() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/diagnose", site.url)).unwrap();
    browser.wait_for("#log-input").unwrap();
    let fetched = browser.resources_fetched().unwrap();
    set_value(&browser, "log-input", LOG);
    browser.wait_for_text(".diagnosis .summary", "Job memory limit").unwrap();
    browser.click(&browser.wait_for("#write-it-up").unwrap()).unwrap();
    browser.wait_for_text("main h1", "Write up an incident").unwrap();
    assert!(browser.current_url().unwrap().ends_with("#/write"));
    // The heading can be drawn a moment before the editor holding the draft.
    browser.wait_for("#write-input").unwrap();

    // Redacted before it is shown; each redaction listed, and one undone.
    let draft = value(&browser, "write-input");
    assert!(!draft.contains("alice") && !draft.contains("node042"), "{draft}");
    assert!(draft.contains("/home/<user>/rl") && draft.contains("| `num_workers` | 8 | 4 |"), "{draft}");
    let listed = browser.wait_for_text(".redactions li", "user name replaced by <user>").unwrap();
    let line: usize = draft.lines().position(|l| l.contains("/home/<user>")).unwrap() + 1;
    assert!(browser.text(&listed).unwrap().starts_with(&format!("line {line}:")));
    assert_eq!(browser.find_all(".redactions li button").unwrap().len(), 2, "the user and the host");
    browser
        .execute(
            "[...document.querySelectorAll('.redactions li')].find(li => li.textContent.includes('host name')).querySelector('button').click()",
            vec![],
        )
        .unwrap();
    browser
        .wait_until("the host name back", || Ok(value(&browser, "write-input").contains("node042").then_some(())))
        .unwrap();
    assert_eq!(browser.find_all(".redactions li").unwrap().len(), 1);

    // Lint beside the lines, the same messages as headroom check, and the preview.
    let draft = value(&browser, "write-input");
    let placeholder_lines: Vec<usize> =
        draft.lines().enumerate().filter(|(_, l)| l.contains("{{")).map(|(i, _)| i + 1).collect();
    problems_settle(&browser, placeholder_lines.len());
    let marked = browser
        .execute("return [...document.querySelectorAll('.gutter .row.bad')].map(r => r.textContent)", vec![])
        .unwrap();
    let expected: Vec<Value> = placeholder_lines.iter().map(|n| json!(format!("! {n}"))).collect();
    assert_eq!(marked, json!(expected));
    // Beside the line (maybe scrolled out of view to the right, so read as text content).
    let lens =
        browser.execute("return document.querySelector('.lens .row.bad .lens-message').textContent", vec![]).unwrap();
    assert!(lens.as_str().unwrap_or_default().starts_with("placeholder to fill in"), "{lens}");
    let slug = "the-job-hits-its-memory-limit-slurm";
    let first = browser.wait_for(".problems li").unwrap();
    assert!(browser.text(&first).unwrap().starts_with(&format!("{slug}.md:{}: placeholder", placeholder_lines[0])));
    browser.wait_for_text(".preview h1", "The job hits its memory limit").unwrap();
    browser.wait_for_text(".preview .knob-diff", "num_workers").unwrap();

    // headroom check names the same lines in the file as it is.
    let dir = std::env::temp_dir().join(format!("headroom-write-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let unfilled = dir.join(format!("{slug}.md"));
    std::fs::write(&unfilled, &draft).unwrap();
    let out = headroom_check(&unfilled);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for n in &placeholder_lines {
        assert!(stderr.contains(&format!("{slug}.md:{n}: placeholder to fill in")), "line {n}: {stderr}");
    }

    // Filled in, it passes; it survives a reload in this tab's sessionStorage only.
    let filled = fill_placeholders(&draft);
    set_value(&browser, "write-input", &filled);
    problems_settle(&browser, 0);
    browser.wait_for_text("#write-status", "No problems").unwrap();
    assert_eq!(browser.resources_fetched().unwrap(), fetched, "nothing fetched while diagnosing and drafting");
    browser.execute("location.reload()", vec![]).unwrap();
    browser
        .wait_until("the draft after a reload", || Ok((value(&browser, "write-input") == filled).then_some(())))
        .unwrap();
    let stores = browser.execute("return [sessionStorage.length > 0, localStorage.length]", vec![]).unwrap();
    assert_eq!(stores, json!([true, 0]));

    // Downloaded under its slug, it is exactly the text, and headroom check accepts it.
    let fetched_after_reload = browser.resources_fetched().unwrap();
    browser.click(&browser.wait_for_text("#write-download", &format!("{slug}.md")).unwrap()).unwrap();
    let downloaded = browser.downloaded(&format!("{slug}.md")).unwrap();
    assert_eq!(downloaded, filled);
    let file = dir.join("downloaded").join(format!("{slug}.md"));
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, &downloaded).unwrap();
    let out = headroom_check(&file);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    assert_eq!(browser.resources_fetched().unwrap(), fetched_after_reload, "nothing fetched after the reload");
    let problems = browser.console_problems().unwrap();
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_300_line_write_up_is_checked_and_previewed_as_you_type() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/write", site.url)).unwrap();
    browser.click(&browser.wait_for("#write-blank").unwrap()).unwrap();
    browser.wait_for("#write-input").unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/benches/data/write-up-300-lines.md");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(text.lines().count(), 300);
    let mut times = Vec::new();
    for round in 0..7 {
        // Each edit adds a lesson, so each check is of new text.
        let edited = format!("{text}- lesson {round}\n");
        set_value(&browser, "write-input", &edited);
        browser
            .wait_until("the edit checked", || {
                let shown = browser.execute("return document.querySelectorAll('.lens .row').length", vec![])?;
                Ok((shown == json!(302)).then_some(()))
            })
            .unwrap();
        browser.wait_for_text(".preview .runbook ul li", &format!("lesson {round}")).unwrap();
        let ms = browser
            .execute("return Number(document.getElementById('write-status').dataset.compileMs)", vec![])
            .unwrap();
        times.push(ms.as_f64().expect("a time"));
        // Its slug is an existing runbook's: the one problem, beside line 3.
        let bad = browser
            .execute("return [...document.querySelectorAll('.gutter .row.bad')].map(r => r.textContent)", vec![])
            .unwrap();
        assert_eq!(bad, json!(["! 3"]));
    }
    assert!(browser.find_all(".preview .fix-card").unwrap().len() >= 10);
    println!("300-line write-up, compile + lint in Chromium, edit by edit: {times:.1?} ms");
}

#[test]
fn the_editor_fits_a_phone_and_works_by_keyboard() {
    let (site, browser) = open_site();
    browser.set_window_size(390, 844).unwrap();
    browser.goto(&format!("{}#/write", site.url)).unwrap();
    browser.click(&browser.wait_for("#write-blank").unwrap()).unwrap();
    browser.wait_for(".problems li button").unwrap();
    let widths = browser
        .execute("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]", vec![])
        .unwrap();
    assert!(widths[0].as_u64() <= widths[1].as_u64(), "no sideways scroll at 390 px: {widths}");
    // A problem's button takes the caret to its line.
    let button = browser.find_all(".problems li button").unwrap().remove(1);
    let target: usize = browser.text(&button).unwrap().rsplit(':').next().unwrap().parse().unwrap();
    browser.execute("document.querySelectorAll('.problems li button')[1].focus()", vec![]).unwrap();
    browser.press_keys("\u{E007}").unwrap();
    let caret = browser
        .execute(
            "const a = document.activeElement; return [a.id, a.value.slice(0, a.selectionStart).split('\\n').length]",
            vec![],
        )
        .unwrap();
    assert_eq!(caret, json!(["write-input", target]));
    browser.press_keys("x").unwrap();
    assert!(
        value(&browser, "write-input").lines().nth(target - 1).is_some_and(|l| l == "x"),
        "typing replaced the selected line"
    );
}
