//! Real-browser testing and serving for the built site.
//!
//! - [`server`]: a small static file server (std only) that can mount `dist/` under
//!   any sub-path, so tests prove the site works at `/wiki/headroom/` too.
//! - [`webdriver`]: a minimal W3C WebDriver client for `chromedriver` driving
//!   Debian's headless Chromium.

pub mod server;
pub mod webdriver;

use std::path::PathBuf;

/// The mount point the tests serve the site under: a wiki sub-path, to prove
/// every asset URL is relative.
pub const TEST_MOUNT: &str = "/wiki/headroom/";

/// Serves the built site (`HEADROOM_DIST`, set by `cargo xtask test`) under
/// [`TEST_MOUNT`] and opens a browser. Fails loudly when the site was not built,
/// rather than skipping.
pub fn open_site() -> (server::StaticServer, webdriver::Browser) {
    let dist = std::env::var_os("HEADROOM_DIST")
        .map(PathBuf::from)
        .expect("HEADROOM_DIST is not set: run the end-to-end tests through `cargo xtask test`");
    assert!(dist.join("index.html").is_file(), "no built site at {}", dist.display());
    let site = server::serve(&dist, 0, TEST_MOUNT).expect("start the static server");
    let browser = webdriver::Browser::launch().expect("launch headless Chromium");
    (site, browser)
}

/// Puts `text` in the Diagnose page's log box as a paste would (typing megabytes
/// key by key would test nothing).
pub fn paste_log(browser: &webdriver::Browser, text: &str) {
    browser
        .execute(
            "const box = document.getElementById('log-input'); box.value = arguments[0]; box.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![serde_json::json!(text)],
        )
        .expect("paste into the log box");
}
