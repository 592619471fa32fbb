//! The runbooks, compiled from `content/` at build time (see build.rs), and
//! their search index, built once on first use.

use headroom_core::runbook::Runbook;
use headroom_core::search::SearchIndex;
use std::sync::LazyLock;

static RUNBOOKS: LazyLock<Vec<Runbook>> = LazyLock::new(|| {
    // build.rs wrote this with serde_json from headroom-core's own types, so it always parses.
    serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/runbooks.json"))).unwrap_or_default()
});

static INDEX: LazyLock<SearchIndex> = LazyLock::new(|| SearchIndex::build(runbooks()));

pub fn runbooks() -> &'static [Runbook] {
    &RUNBOOKS
}

pub fn index() -> &'static SearchIndex {
    &INDEX
}

pub fn by_slug(slug: &str) -> Option<&'static Runbook> {
    runbooks().iter().find(|r| r.slug == slug)
}
