//! Hash routing (`index.html#/runbooks/slug`): the site is a folder of static
//! files that must work under any sub-path of any wiki host, where no server
//! rewrites deep links to `index.html`. The fragment never reaches a server.

use headroom_core::memory::{MemoryKind, Stack};
use headroom_core::query_string;

/// A search of the runbooks, as it lives in the URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunbookFilter {
    pub query: String,
    pub memory: Option<MemoryKind>,
    pub stack: Option<Stack>,
}

/// One page of the site, with the state that lives in its URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Home,
    Runbooks(RunbookFilter),
    Runbook {
        slug: String,
    },
    Diagnose,
    /// The write-up editor (its draft lives in the tab's sessionStorage, not the URL).
    Write,
    /// The calculator's fields that differ from the defaults, as a query string.
    Budget {
        state: String,
    },
    About,
    NotFound {
        path: String,
    },
}

impl Route {
    /// Reads a `location.hash` such as `#/runbooks?q=validation%20workers`.
    pub fn from_hash(hash: &str) -> Route {
        let path_and_query = hash.trim_start_matches('#');
        let (path, query) = path_and_query.split_once('?').unwrap_or((path_and_query, ""));
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        match segments.as_slice() {
            [] => Route::Home,
            ["runbooks"] => {
                let pairs = query_string::parse(query);
                let value = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
                Route::Runbooks(RunbookFilter {
                    query: value("q").unwrap_or_default().to_string(),
                    memory: value("memory").and_then(MemoryKind::parse),
                    stack: value("stack").and_then(Stack::parse),
                })
            }
            ["runbooks", slug] => Route::Runbook { slug: query_string::decode(slug) },
            ["diagnose"] => Route::Diagnose,
            ["write"] => Route::Write,
            ["budget"] => Route::Budget { state: query.to_string() },
            ["about"] => Route::About,
            _ => Route::NotFound { path: query_string::decode(path) },
        }
    }

    /// The fragment that leads back here.
    pub fn to_hash(&self) -> String {
        match self {
            Route::Home => "#/".into(),
            Route::Runbooks(filter) => {
                let pairs = [
                    ("q", Some(filter.query.clone()).filter(|q| !q.is_empty())),
                    ("memory", filter.memory.map(|m| m.as_str().to_string())),
                    ("stack", filter.stack.map(|s| s.as_str().to_string())),
                ];
                let query = query_string::build(pairs.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))));
                if query.is_empty() {
                    "#/runbooks".into()
                } else {
                    format!("#/runbooks?{query}")
                }
            }
            Route::Runbook { slug } => format!("#/runbooks/{}", query_string::encode(slug)),
            Route::Diagnose => "#/diagnose".into(),
            Route::Write => "#/write".into(),
            Route::Budget { state } if state.is_empty() => "#/budget".into(),
            Route::Budget { state } => format!("#/budget?{state}"),
            Route::About => "#/about".into(),
            Route::NotFound { path } => format!("#{path}"),
        }
    }

    /// The page's name, used for the document title and the active nav link.
    pub fn title(&self) -> &'static str {
        match self {
            Route::Home => "Home",
            Route::Runbooks(_) | Route::Runbook { .. } => "Runbooks",
            Route::Diagnose => "Diagnose",
            Route::Write => "Write up",
            Route::Budget { .. } => "Budget",
            Route::About => "About",
            Route::NotFound { .. } => "Not found",
        }
    }
}
