//! Search as you type over the runbooks, with facets; the query lives in the
//! URL (`#/runbooks?q=...&memory=...&stack=...`) so a search can be shared.

use crate::content;
use crate::route::{Route, RunbookFilter};
use headroom_core::runbook::DocKind;
use headroom_core::search::{Query, MAX_QUERY_CHARS};
use leptos::prelude::*;

const RESULTS_SHOWN: usize = 50;

#[component]
pub fn RunbookList(filter: RunbookFilter) -> impl IntoView {
    let text = RwSignal::new(filter.query);
    let memory = RwSignal::new(filter.memory);
    let stack = RwSignal::new(filter.stack);

    // Keep the URL in step without a navigation (which would re-create the page and drop focus).
    Effect::new(move |_| {
        let route = Route::Runbooks(RunbookFilter { query: text.get(), memory: memory.get(), stack: stack.get() });
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&route.to_hash()));
        }
    });

    let results = Memo::new(move |_| {
        let query = Query { text: text.get(), memory: memory.get(), stack: stack.get() };
        content::index().search(&query, RESULTS_SHOWN)
    });

    view! {
        <h1>"Runbooks"</h1>
        <p class="lede">"The lab's OOM incidents and onboarding guides. Search matches titles, log signatures, causes and fixes."</p>
        <div class="search-panel">
            <label for="runbook-search" class="visually-hidden">"Search runbooks"</label>
            <input id="runbook-search" type="search" autocomplete="off" autofocus
                placeholder="e.g. validation workers, Tried to allocate, --mem"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev)) />
            <div class="facets" role="group" aria-label="Memory">
                {move || results.get().memory_facets.into_iter().map(|(kind, n)| facet_chip(kind.label(), n, kind, memory)).collect_view()}
            </div>
            <div class="facets" role="group" aria-label="Stack">
                {move || results.get().stack_facets.into_iter().map(|(s, n)| facet_chip(s.as_str(), n, s, stack)).collect_view()}
            </div>
        </div>
        {move || results.get().shortened.then(|| view! {
            <p class="note" role="note">{format!(
                "Only the first {MAX_QUERY_CHARS} characters of your search were used."
            )}</p>
        })}
        <p class="result-count" aria-live="polite">{move || match results.get().total {
            0 => "No runbook matches. Try fewer words, or clear the filters.".to_string(),
            1 => "1 runbook".to_string(),
            n => format!("{n} runbooks"),
        }}</p>
        <ol class="results">
            {move || results.get().hits.into_iter().map(|hit| {
                let runbook = &content::runbooks()[hit.doc];
                let href = Route::Runbook { slug: runbook.slug.clone() }.to_hash();
                let kind = match runbook.kind { DocKind::Incident => "Incident", DocKind::Guide => "Guide" };
                let snippet = if hit.snippet.is_empty() {
                    view! { <span>{runbook.summary.clone()}</span> }.into_any()
                } else {
                    hit.snippet.into_iter().map(|seg| if seg.highlight {
                        view! { <mark>{seg.text}</mark> }.into_any()
                    } else {
                        view! { <span>{seg.text}</span> }.into_any()
                    }).collect_view().into_any()
                };
                view! {
                    <li class="result">
                        <a class="result-title" href=href>{runbook.title.clone()}</a>
                        <div class="meta">
                            <span class="badge">{kind}</span>
                            {runbook.memory.map(|m| view! { <span class=format!("badge memory-{}", m.as_str())>{m.label()}</span> })}
                            {runbook.date.clone().map(|d| view! { <span class="date">{d}</span> })}
                        </div>
                        <p class="snippet">{snippet}</p>
                    </li>
                }
            }).collect_view()}
        </ol>
    }
}

/// A toggle for one facet value: pressed when it is the active filter.
fn facet_chip<T: Copy + PartialEq + Send + Sync + 'static>(
    label: &'static str,
    count: usize,
    value: T,
    filter: RwSignal<Option<T>>,
) -> impl IntoView {
    view! {
        <button class="chip" aria-pressed=move || (filter.get() == Some(value)).to_string()
            on:click=move |_| filter.update(|f| *f = if *f == Some(value) { None } else { Some(value) })>
            {label} " " <span class="count">{count}</span>
        </button>
    }
}
