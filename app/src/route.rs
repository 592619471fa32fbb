//! Hash routing (`index.html#/runbooks/slug`): the site is a folder of static
//! files that must work under any sub-path of any wiki host, where no server
//! rewrites deep links to `index.html`. The fragment never reaches a server.

use headroom_core::query_string;

/// One page of the site, with the state that lives in its URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Home,
    Runbooks { query: String },
    Runbook { slug: String },
    Diagnose,
    Budget,
    About,
    NotFound { path: String },
}

impl Route {
    /// Reads a `location.hash` such as `#/runbooks?q=validation%20workers`.
    pub fn from_hash(hash: &str) -> Route {
        let path_and_query = hash.trim_start_matches('#');
        let (path, query) = path_and_query.split_once('?').unwrap_or((path_and_query, ""));
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        match segments.as_slice() {
            [] => Route::Home,
            ["runbooks"] => Route::Runbooks {
                query: query_string::parse(query)
                    .into_iter()
                    .find(|(k, _)| k == "q")
                    .map(|(_, v)| v)
                    .unwrap_or_default(),
            },
            ["runbooks", slug] => Route::Runbook { slug: query_string::decode(slug) },
            ["diagnose"] => Route::Diagnose,
            ["budget"] => Route::Budget,
            ["about"] => Route::About,
            _ => Route::NotFound { path: query_string::decode(path) },
        }
    }

    /// The fragment that leads back here.
    pub fn to_hash(&self) -> String {
        match self {
            Route::Home => "#/".into(),
            Route::Runbooks { query } if query.is_empty() => "#/runbooks".into(),
            Route::Runbooks { query } => format!("#/runbooks?q={}", query_string::encode(query)),
            Route::Runbook { slug } => format!("#/runbooks/{}", query_string::encode(slug)),
            Route::Diagnose => "#/diagnose".into(),
            Route::Budget => "#/budget".into(),
            Route::About => "#/about".into(),
            Route::NotFound { path } => format!("#{path}"),
        }
    }

    /// The page's name, used for the document title and the active nav link.
    pub fn title(&self) -> &'static str {
        match self {
            Route::Home => "Home",
            Route::Runbooks { .. } | Route::Runbook { .. } => "Runbooks",
            Route::Diagnose => "Diagnose",
            Route::Budget => "Budget",
            Route::About => "About",
            Route::NotFound { .. } => "Not found",
        }
    }
}
