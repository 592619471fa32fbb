//! Any `key=value&...` as a shared calculator link: applying it and
//! evaluating the plan must never panic; nor reading the same bytes as a
//! pasted config.json or as pasted memory measurements.
#![no_main]

use headroom_core::budget::{calibrate, evaluate, fields, hf_config, markdown, Plan};
use headroom_core::query_string;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut plan = Plan::default();
    let _ = fields::apply(&mut plan, &query_string::parse(&text));
    let budget = evaluate(&plan);
    let _ = markdown(&plan, &budget, "");
    if let Ok(import) = hf_config::read(&text) {
        let _ = hf_config::apply(&mut plan, &import);
    }
    let _ = calibrate::calibrate(&plan, &text);
});
