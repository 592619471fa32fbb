//! Headroom's user interface. It only presents: every decision about write-ups,
//! logs and budgets is made in `headroom-core`.

mod clipboard;
mod content;
mod pages;
mod route;
mod shell;
mod theme;

fn main() {
    console_error_panic_hook::set_once();
    // For start-up measurements (e2e): the wasm is running from here on.
    let _ = leptos::prelude::window().performance().map(|p| p.mark("headroom-start"));
    // The reader's colour choice before anything is drawn.
    theme::apply(theme::stored());
    // The runbooks first (from the service worker's cache once visited), then the page.
    // Not leptos::task::spawn_local: Leptos's executor exists only once the app is mounted.
    wasm_bindgen_futures::spawn_local(async {
        content::load().await;
        leptos::mount::mount_to_body(shell::App);
        // For start-up measurements (e2e): the page is usable from here on.
        let _ = leptos::prelude::window().performance().map(|p| p.mark("headroom-ready"));
    });
}
