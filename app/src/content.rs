//! The runbooks, read at start-up from `content.json` beside the page (written
//! by `cargo xtask dist` or `headroom compile`, so new write-ups need no
//! rebuild of the app), and their search index, built once on first use.

use headroom_core::publish::CONTENT_FILE;
use headroom_core::runbook::Runbook;
use headroom_core::search::SearchIndex;
use std::sync::{LazyLock, OnceLock};

static RUNBOOKS: OnceLock<Vec<Runbook>> = OnceLock::new();
static LOAD_ERROR: OnceLock<String> = OnceLock::new();
static INDEX: LazyLock<SearchIndex> = LazyLock::new(|| SearchIndex::build(runbooks()));

/// Reads `content.json`; called once before the app mounts. A failure leaves
/// no runbooks and a message for the page (Diagnose and Budget still work).
pub async fn load() {
    match fetch_text(CONTENT_FILE).await.and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string())) {
        Ok(runbooks) => {
            let _ = RUNBOOKS.set(runbooks);
        }
        Err(e) => {
            let _ = LOAD_ERROR.set(format!("The runbooks could not be loaded ({CONTENT_FILE}: {e})."));
        }
    }
}

async fn fetch_text(url: &str) -> Result<String, String> {
    let response = gloo_net::http::Request::get(url).send().await.map_err(|e| e.to_string())?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    response.text().await.map_err(|e| e.to_string())
}

pub fn runbooks() -> &'static [Runbook] {
    RUNBOOKS.get().map_or(&[], Vec::as_slice)
}

pub fn load_error() -> Option<&'static str> {
    LOAD_ERROR.get().map(String::as_str)
}

pub fn index() -> &'static SearchIndex {
    &INDEX
}

pub fn by_slug(slug: &str) -> Option<&'static Runbook> {
    runbooks().iter().find(|r| r.slug == slug)
}
