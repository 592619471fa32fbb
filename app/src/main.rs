//! Headroom's user interface. It only presents: every decision about write-ups,
//! logs and budgets is made in `headroom-core`.

mod clipboard;
mod content;
mod pages;
mod route;
mod shell;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(shell::App);
}
