//! Offline from a bookmark, updates without mixing builds, and runbooks read
//! as data: in real Chromium against a copy of the built site.

use e2e::webdriver::Browser;
use e2e::TEST_MOUNT;
use serde_json::json;
use std::path::{Path, PathBuf};

/// A copy of the built site in a temp folder: tests deploy into it.
fn site_copy(name: &str) -> PathBuf {
    let dist = PathBuf::from(std::env::var_os("HEADROOM_DIST").expect("run through cargo xtask test"));
    let copy = std::env::temp_dir().join(format!("headroom-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    copy_dir(&dist, &copy);
    copy
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The project's write-ups plus `extra` incidents, in a temp folder.
fn content_with(name: &str, extra: &[(String, String)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("headroom-content-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../content"), &dir);
    for (file, text) in extra {
        std::fs::write(dir.join("incidents").join(file), text).unwrap();
    }
    dir
}

/// Waits until the service worker is active and its cache holds the build.
fn wait_offline_ready(browser: &Browser) -> Vec<String> {
    let keys = browser
        .execute_async(
            "const done = arguments[arguments.length - 1];
             navigator.serviceWorker.ready.then(() => caches.keys()).then(done, (e) => done(String(e)));",
            vec![],
        )
        .unwrap();
    keys.as_array().map(|k| k.iter().filter_map(|v| v.as_str().map(String::from)).collect()).unwrap_or_default()
}

#[test]
fn every_route_opens_from_a_bookmark_with_the_server_gone() {
    let dist = site_copy("offline");
    let site = e2e::server::serve(&dist, 0, TEST_MOUNT).unwrap();
    let browser = Browser::launch().unwrap();
    browser.goto(&site.url).unwrap();
    browser.wait_for_text("main h1", "Beat out-of-memory failures").unwrap();
    assert_eq!(wait_offline_ready(&browser).len(), 1, "one cache: this build");
    site.stop();
    assert!(std::net::TcpStream::connect(site.addr).is_err(), "the server is really gone");

    for (route, heading) in [
        ("#/", "Beat out-of-memory failures"),
        ("#/runbooks?q=validation%20workers", "Runbooks"),
        ("#/runbooks/grpo-fsdp-vllm-gpu-oom", "GRPO"),
        ("#/diagnose", "Diagnose a log"),
        ("#/budget?micro_batch=8", "Memory budget"),
        ("#/about", "About Headroom"),
    ] {
        browser.open_in_new_tab(&format!("{}{route}", site.url)).unwrap();
        browser.wait_for_text("main h1", heading).unwrap_or_else(|e| panic!("{route} offline: {e}"));
    }
    // The last tabs still work: search, a Budget link's state, a diagnosis.
    browser.open_in_new_tab(&format!("{}#/runbooks?q=validation%20workers", site.url)).unwrap();
    browser.wait_for_text(".results .result:first-child .result-title", "Validation DataLoader workers").unwrap();
    browser.open_in_new_tab(&format!("{}#/budget?micro_batch=8", site.url)).unwrap();
    browser.wait_for("#field-micro_batch").unwrap();
    assert_eq!(browser.execute("return document.getElementById('field-micro_batch').value", vec![]).unwrap(), "8");
    browser.open_in_new_tab(&format!("{}#/diagnose", site.url)).unwrap();
    browser.wait_for("#log-input").unwrap();
    e2e::paste_log(&browser, "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n");
    browser.wait_for_text(".diagnosis .summary", "Out of memory: GPU memory").unwrap();
    let _ = std::fs::remove_dir_all(&dist);
}

#[test]
fn a_new_deploy_is_offered_and_served_whole_after_reload() {
    let dist = site_copy("update");
    let site = e2e::server::serve(&dist, 0, TEST_MOUNT).unwrap();
    let browser = Browser::launch().unwrap();
    browser.goto(&format!("{}#/runbooks", site.url)).unwrap();
    browser.wait_for_text(".result-count", "10 runbooks").unwrap();
    let first = wait_offline_ready(&browser);
    assert_eq!(first.len(), 1);
    // A real reload: from now on the page is served by this build's worker.
    browser.execute("location.reload(); return null;", vec![]).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    browser.wait_for_text(".result-count", "10 runbooks").unwrap();
    let controlled = browser.execute("return Boolean(navigator.serviceWorker.controller)", vec![]).unwrap();
    assert_eq!(controlled, json!(true));

    // A second build into the same folder: one more write-up, published by the same compiler.
    let incident = "---\ntitle: Pinned memory exhausts a small node\nslug: pinned-memory-small-node\ndate: 2026-11-20\nmemory: host\nstack: [pytorch]\ntags: [pin_memory]\nsummary: pin_memory on 8 workers filled a 16 GB node.\n---\n## Symptoms\n\n```\nKilled\n```\n\n## Root cause\n\nPinned buffers per worker.\n\n## Fix: no pinned memory\n\n| Knob | Old | New |\n|---|---|---|\n| pin_memory | True | False |\n\n## Verify\n\n1. `free -g` stays flat.\n";
    let content = content_with("update", &[("pinned-memory-small-node.md".into(), incident.into())]);
    headroom_core::publish::publish(&content, &dist).unwrap();

    // The open page looks for a new version (as it does hourly and when shown again).
    browser.execute("navigator.serviceWorker.getRegistration().then((r) => r.update()); return null;", vec![]).unwrap();
    let reload = browser.wait_for_text("#update-banner button", "Reload to update").unwrap();
    assert_eq!(
        browser.text(&browser.wait_for(".result-count").unwrap()).unwrap(),
        "10 runbooks",
        "no mixing before the reload"
    );
    browser.click(&reload).unwrap();
    browser.wait_for_text(".result-count", "11 runbooks").unwrap();
    let after = browser
        .execute_async("const done = arguments[arguments.length - 1]; caches.keys().then(done);", vec![])
        .unwrap();
    let version = std::fs::read_to_string(dist.join("sw.js"))
        .unwrap()
        .lines()
        .find_map(|l| l.split("version: \"").nth(1).map(|v| v.split('"').next().unwrap_or("").to_string()))
        .unwrap();
    assert_eq!(after, json!([format!("headroom-{version}")]), "only the new build's cache is left");
    assert!(browser.find_all("#update-banner").unwrap().is_empty());
    let _ = std::fs::remove_dir_all(&dist);
    let _ = std::fs::remove_dir_all(&content);
}

/// 1,000 runbooks read from content.json at start-up: printed for the README
/// (a measurement, not a timed assertion).
#[test]
fn start_up_with_a_thousand_runbooks() {
    let dist = site_copy("thousand");
    let originals: Vec<(String, String)> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../content/incidents"))
            .unwrap()
            .flatten()
            .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read_to_string(e.path()).unwrap()))
            .collect();
    let mut extra = Vec::new();
    for i in 0..1000 - 10 {
        let (name, text) = &originals[i % originals.len()];
        let slug = name.trim_end_matches(".md");
        let copy = text.replacen("title: ", &format!("title: ({i}) "), 1).replacen(
            &format!("slug: {slug}"),
            &format!("slug: {slug}-{i}"),
            1,
        );
        extra.push((format!("{slug}-{i}.md"), copy));
    }
    let content = content_with("thousand", &extra);
    assert_eq!(headroom_core::publish::publish(&content, &dist).unwrap(), 1000);
    let site = e2e::server::serve(&dist, 0, TEST_MOUNT).unwrap();
    let browser = Browser::launch().unwrap();
    let mut ready = Vec::new();
    browser.goto(&format!("{}#/about", site.url)).unwrap();
    for load in 0..3 {
        if load > 0 {
            // A real page load each time (a new hash alone would keep the same document).
            browser.execute("location.reload(); return null;", vec![]).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(300));
        }
        let mark = browser
            .wait_until("the page to be ready", || {
                Ok(browser
                    .execute(
                        "const [s, r] = ['headroom-start', 'headroom-ready'].map((n) => performance.getEntriesByName(n)[0]);
                         return r ? [s.startTime, r.startTime - s.startTime] : null",
                        vec![],
                    )?
                    .as_array()
                    .map(|m| (m[0].as_f64().unwrap_or(f64::NAN), m[1].as_f64().unwrap_or(f64::NAN))))
            })
            .unwrap();
        ready.push(mark);
    }
    let search = browser
        .execute_async(
            "const done = arguments[arguments.length - 1]; const t0 = performance.now();
             location.hash = '#/runbooks?q=validation%20workers';
             const poll = () => document.querySelector('.results .result') ? done(performance.now() - t0) : requestAnimationFrame(poll);
             poll();",
            vec![],
        )
        .unwrap();
    let loads: Vec<String> = ready
        .iter()
        .map(|(start, content)| {
            format!("wasm running at {start:.0} ms, then {content:.0} ms to read content.json and draw")
        })
        .collect();
    println!(
        "start-up with 1,000 runbooks (load 1 from the network, 2-3 from the service worker): {}; first search, index built in the browser: {:.0} ms",
        loads.join("; "),
        search.as_f64().unwrap_or(f64::NAN)
    );
    let _ = std::fs::remove_dir_all(&dist);
    let _ = std::fs::remove_dir_all(&content);
}
