//! Any bytes as a log: the diagnoser, recommender and excerpt must not panic, and
//! feeding the same text in two pieces must give the same diagnosis.
#![no_main]

use headroom_core::diagnose::{excerpt, Diagnoser};
use headroom_core::recommend::diagnose;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let whole = diagnose(&text, &[]);
    let lines: Vec<usize> = whole.evidence.iter().map(|e| e.line).collect();
    let _ = excerpt(&text, &lines, 2, 120);
    let mut cut = data.first().map_or(0, |b| *b as usize) % (text.len() + 1);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut pieces = Diagnoser::new();
    pieces.feed(&text[..cut]);
    pieces.feed(&text[cut..]);
    assert_eq!(pieces.finish(), whole.diagnosis);
});
