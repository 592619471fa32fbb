//! Where the draft lives: this tab's sessionStorage only (never localStorage,
//! never the network), so it survives a reload and goes with the tab. What
//! redaction replaced is kept in memory only: a reload forgets the secrets,
//! and with them the undo.

use gloo_storage::{SessionStorage, Storage};
use headroom_core::redact::Redaction;
use std::cell::RefCell;

const DRAFT: &str = "headroom.write.draft";
const REDACTIONS: &str = "headroom.write.redactions";

thread_local! {
    /// The redactions with their originals, for undo, while the page lives.
    static ORIGINALS: RefCell<Vec<Redaction>> = const { RefCell::new(Vec::new()) };
}

pub fn draft() -> Option<String> {
    SessionStorage::get::<String>(DRAFT).ok().filter(|t| !t.is_empty())
}

/// False when the browser refused (storage full or disabled).
pub fn save_draft(text: &str) -> bool {
    SessionStorage::set(DRAFT, text).is_ok()
}

/// The redactions of the draft: with originals when this page made them,
/// else as stored (originals blanked).
pub fn redactions() -> Vec<Redaction> {
    let kept = ORIGINALS.with(|o| o.borrow().clone());
    if !kept.is_empty() {
        return kept;
    }
    SessionStorage::get(REDACTIONS).unwrap_or_default()
}

pub fn save_redactions(list: &[Redaction]) {
    ORIGINALS.with(|o| *o.borrow_mut() = list.to_vec());
    let blanked: Vec<Redaction> = list.iter().map(|r| Redaction { original: String::new(), ..r.clone() }).collect();
    let _ = SessionStorage::set(REDACTIONS, blanked);
}

/// Today in the visitor's time zone, `YYYY-MM-DD`.
pub fn today() -> String {
    let now = js_sys::Date::new_0();
    format!("{:04}-{:02}-{:02}", now.get_full_year(), now.get_month() + 1, now.get_date())
}
