//! Any bytes as a write-up: compiling must return a runbook or an error with
//! a line inside the text, never panic.
#![no_main]

use headroom_core::runbook::DocKind;
use headroom_core::writeup::{compile, Mode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for mode in [Mode::Raw, Mode::Content] {
        if let Err(e) = compile("fuzz.md", &text, DocKind::Incident, mode) {
            assert!(e.line >= 1 && e.line <= text.lines().count() + 2, "line {} of {}", e.line, text.lines().count());
        }
    }
});
