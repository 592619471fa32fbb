use super::ComingSoon;
use leptos::prelude::*;

#[component]
pub fn RunbookList(query: String) -> impl IntoView {
    view! {
        <h1>"Runbooks"</h1>
        <ComingSoon issue=3 what="the compiled write-ups and their search" />
        {(!query.is_empty()).then(|| view! { <p class="query">"Search: " <q>{query}</q></p> })}
    }
}

#[component]
pub fn RunbookPage(slug: String) -> impl IntoView {
    view! {
        <h1>"Runbook"</h1>
        <ComingSoon issue=3 what="the runbook pages" />
        <p><code>{slug}</code></p>
    }
}
