//! Hostile input in real Chromium: links and pastes built to hurt the page
//! leave it answering, and if the app ever stops, the page says so.

use e2e::open_site;
use serde_json::json;

#[test]
fn a_70000_letter_search_link_is_cut_and_the_app_keeps_answering() {
    let (site, browser) = open_site();
    // Once a blank page ("RuntimeError: unreachable"); 20,000 letters froze the tab for 6 s.
    browser.goto(&format!("{}#/runbooks?q={}", site.url, "A".repeat(70_000))).unwrap();
    browser.wait_for_text(".note", "Only the first 200 characters of your search were used.").unwrap();
    browser.wait_for_text(".result-count", "No runbook matches").unwrap();
    assert!(browser.find_all("#crash-banner").unwrap().is_empty());
    // Everything after it still works.
    browser.goto(&format!("{}#/diagnose", site.url)).unwrap();
    browser.wait_for("#log-input").unwrap();
    e2e::paste_log(&browser, "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n");
    browser.wait_for_text(".diagnosis .summary", "Out of memory: GPU memory").unwrap();
    assert!(browser.console_problems().unwrap().is_empty());
}

#[test]
fn a_trap_in_the_app_shows_a_reload_banner() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/about", site.url)).unwrap();
    browser.wait_for_text("main h1", "About Headroom").unwrap();
    assert!(browser.find_all("#crash-banner").unwrap().is_empty());
    // What the browser reports when wasm aborts (a panic, an allocation failure) inside an
    // event handler: an error event carrying the trap. The trap here is genuine (a module
    // whose function executes `unreachable`); the event is dispatched because errors thrown
    // by WebDriver's own scripts reach the page muted.
    browser
        .execute(
            "let trap;
             try {
               const bytes = Uint8Array.of(0,97,115,109,1,0,0,0, 1,4,1,96,0,0, 3,2,1,0, 7,5,1,1,102,0,0, 10,5,1,3,0,0,11);
               new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f();
             } catch (e) { trap = e; }
             window.dispatchEvent(new ErrorEvent('error', { error: trap, message: String(trap) }));
             return trap instanceof WebAssembly.RuntimeError;",
            vec![],
        )
        .map(|is_trap| assert_eq!(is_trap, json!(true), "a real trap"))
        .unwrap();
    let banner = browser.wait_for_text("#crash-banner[role='alert']", "Headroom stopped").unwrap();
    assert!(browser.text(&banner).unwrap().contains("Reload the page"));
    let focused = browser.execute("return document.activeElement.textContent", vec![]).unwrap();
    assert_eq!(focused, json!("Reload"), "the reload button takes focus");
    browser.click(&browser.wait_for("#crash-banner button").unwrap()).unwrap();
    browser.wait_for_text("main h1", "About Headroom").unwrap();
    assert!(browser.find_all("#crash-banner").unwrap().is_empty(), "a reload starts afresh");
}
