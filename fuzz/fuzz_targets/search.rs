//! Any bytes as a search query over the real content: no panic, results within
//! the limit, and a query longer than the cap says it was shortened.
#![no_main]

use headroom_core::runbook::Runbook;
use headroom_core::search::{Query, SearchIndex, MAX_QUERY_CHARS};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn index() -> &'static (Vec<Runbook>, SearchIndex) {
    static INDEX: OnceLock<(Vec<Runbook>, SearchIndex)> = OnceLock::new();
    INDEX.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        let runbooks = headroom_core::writeup::compile_dir(&dir).expect("content compiles");
        let index = SearchIndex::build(&runbooks);
        (runbooks, index)
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let (runbooks, index) = index();
    let results = index.search(&Query { text: text.clone(), ..Query::default() }, 20);
    assert!(results.hits.len() <= 20 && results.total <= runbooks.len());
    assert_eq!(results.shortened, text.chars().count() > MAX_QUERY_CHARS);
});
