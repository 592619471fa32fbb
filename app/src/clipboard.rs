//! Copy buttons. The Clipboard API only works in secure contexts (https or
//! localhost) and with permission, so the button reports what happened
//! instead of claiming success.

use leptos::prelude::*;
use leptos::task::spawn_local;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum CopyState {
    Idle,
    Copied,
    Failed,
}

/// Copies `text` and records the outcome in `state`.
pub fn copy(text: String, state: RwSignal<CopyState>) {
    let promise = window().navigator().clipboard().write_text(&text);
    spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        state.set(if ok { CopyState::Copied } else { CopyState::Failed });
    });
}

/// The button's label for a state: `idle` until something happened.
pub fn label(state: CopyState, idle: &'static str) -> &'static str {
    match state {
        CopyState::Idle => idle,
        CopyState::Copied => "Copied",
        CopyState::Failed => "Copy blocked: select and copy by hand",
    }
}
