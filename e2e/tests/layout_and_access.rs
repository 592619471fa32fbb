//! Every route at phone width and under an accessibility audit, in real
//! Chromium, with results shown and every disclosure open: nothing scrolls
//! sideways at 390 px (tables scroll in their own box), and axe-core finds no
//! violation in light or dark.

use e2e::open_site;
use e2e::webdriver::Browser;
use serde_json::{json, Value};

/// Each route, and what to do there so its results are on screen.
fn show_everything(browser: &Browser, base: &str, route: &str) {
    browser.goto(&format!("{base}{route}")).unwrap();
    browser.wait_for("main h1").unwrap();
    if route == "#/diagnose" {
        browser.wait_for("#log-input").unwrap();
        e2e::paste_log(browser, "[rank0]:     loss.backward()\n[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB. GPU 0 has a total capacity of 79.18 GiB of which 4.97 GiB is free. Including non-PyTorch memory, this process has 74.20 GiB memory in use. Of the allocated memory 72.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\n/home/some-user-with-a-very-long-name/projects/an-unbroken-path-that-is-much-wider-than-a-phone/train.py\nppo_micro_batch_size_per_gpu=32\n");
        browser.wait_for(".fix-card").unwrap();
    }
    if route.starts_with("#/runbooks?") {
        browser.wait_for(".results .result").unwrap();
    }
    // Every disclosure open (details, "Show markdown"...).
    browser
        .execute("document.querySelectorAll('details').forEach((d) => d.open = true); return null;", vec![])
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
}

const ROUTES: [&str; 9] = [
    "#/",
    "#/runbooks?q=workers",
    "#/runbooks/grpo-fsdp-vllm-gpu-oom",
    "#/runbooks/slurm-validation-dataloaders-job-limit",
    "#/diagnose",
    "#/budget?micro_batch=64&seq_len=8192",
    "#/about",
    "#/write",
    "#/no/such/page/with-a-very-long-unbroken-segment-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

#[test]
fn nothing_scrolls_sideways_at_phone_width() {
    let (site, browser) = open_site();
    browser.set_window_size(390, 844).unwrap();
    let mut wide = Vec::new();
    for route in ROUTES {
        show_everything(&browser, &site.url, route);
        let widths = browser
            .execute("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]", vec![])
            .unwrap();
        let (scroll, client) = (widths[0].as_u64().unwrap_or(0), widths[1].as_u64().unwrap_or(0));
        if scroll > client {
            let culprits = browser
                .execute(
                    "const w = document.documentElement.clientWidth;
                     return [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > w + 1)
                       .slice(0, 5).map((e) => e.tagName + '.' + e.className);",
                    vec![],
                )
                .unwrap();
            wide.push(format!("{route}: {scroll} px wide in {client} px ({culprits})"));
        }
    }
    assert!(wide.is_empty(), "{}", wide.join("\n"));
}

#[test]
fn no_accessibility_violations_in_light_or_dark() {
    let axe = std::fs::read_to_string(std::env::var("AXE_SCRIPT").expect("AXE_SCRIPT: run through cargo xtask test"))
        .expect("axe-core is installed by cargo xtask");
    let (site, browser) = open_site();
    let mut found = Vec::new();
    for theme in ["light", "dark"] {
        for route in ROUTES {
            show_everything(&browser, &site.url, route);
            browser
                .execute(
                    "document.documentElement.setAttribute('data-theme', arguments[0]); return null;",
                    vec![json!(theme)],
                )
                .unwrap();
            browser.execute(&axe, vec![]).unwrap();
            let violations = browser
                .execute_async(
                    "const done = arguments[arguments.length - 1];
                     axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations.map((v) =>
                       ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '')) }))),
                       (e) => done([{ id: 'axe failed', impact: String(e), nodes: [] }]));",
                    vec![],
                )
                .unwrap();
            for v in violations.as_array().cloned().unwrap_or_default() {
                found.push(format!("{theme} {route}: {}", describe(&v)));
            }
        }
    }
    assert!(found.is_empty(), "{} violation(s):\n{}", found.len(), found.join("\n"));
}

fn describe(v: &Value) -> String {
    format!("{} ({}) {}", v["id"].as_str().unwrap_or("?"), v["impact"].as_str().unwrap_or("?"), v["nodes"])
}
