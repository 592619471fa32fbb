//! The memory-budget calculator: a form generated from the core's field list,
//! results recomputed on every change, the whole state in the URL, and the
//! result exportable as markdown for a write-up.

mod chart;
mod form;

use crate::clipboard::{self, CopyState};
use crate::route::Route;
use headroom_core::budget::{evaluate, fields, markdown, Plan, FORMULAS};
use headroom_core::query_string;
use leptos::prelude::*;

#[component]
pub fn Budget(state: String) -> impl IntoView {
    let mut initial = Plan::default();
    let url_errors = fields::apply(&mut initial, &query_string::parse(&state));
    let plan = RwSignal::new(initial);
    let budget = Memo::new(move |_| evaluate(&plan.get()));
    let link = Memo::new(move |_| {
        let pairs = fields::diff_pairs(&plan.get());
        Route::Budget { state: query_string::build(pairs) }.to_hash()
    });
    // The URL follows every change without a navigation, so a copied link reproduces the calculation.
    Effect::new(move |_| {
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&link.get()));
        }
    });
    let export = Memo::new(move |_| {
        let href = window().location().href().unwrap_or_default();
        markdown(&plan.get(), &budget.get(), &href)
    });
    let copy_state = RwSignal::new(CopyState::Idle);

    view! {
        <h1>"Memory budget"</h1>
        <p class="lede">"Does the job fit on its GPUs and in its node's RAM, what is the largest micro batch, and which knob to turn. Every formula names its source."</p>
        {(!url_errors.is_empty()).then(|| view! {
            <div class="notice bad" role="alert">
                <p>"Some values in this link were not used:"</p>
                <ul>{url_errors.iter().map(|e| view! { <li><code>{e.key.clone()}</code> ": " {e.message.clone()}</li> }).collect_view()}</ul>
            </div>
        })}
        <div class="budget-layout">
            <form::Form plan=plan />
            <section class="budget-results" aria-live="polite">
                <h2>"GPU per device"</h2>
                <chart::GpuChart budget=budget />
                <p class="verdict">{move || {
                    let g = budget.get().gpu;
                    let verdict = if g.fits() { "Fits" } else { "Does not fit" };
                    format!("{verdict}: {} of {}", g.total, g.capacity)
                }}</p>
                {move || {
                    let moved = budget.get().gpu.offloaded_to_host;
                    (moved.0 > 0).then(|| view! { <p>{format!("Offloaded to host RAM: {moved} per GPU process (count it in the node's budget below).")}</p> })
                }}
                {move || budget.get().gpu.rollout_kv_tokens.map(|tokens| view! {
                    <p>{format!("The vLLM rollout's KV cache holds about {tokens} tokens after its copy of the weights.")}</p>
                })}
                <p>{move || match budget.get().max_micro_batch {
                    Some(m) => format!("Largest micro batch that fits: {m} (now {}).", plan.get().gpu.micro_batch),
                    None => "Not even a micro batch of 1 fits: change the model states first.".to_string(),
                }}</p>

                <h2>"Host RAM per node"</h2>
                <chart::HostChart budget=budget />
                <p class="verdict">{move || {
                    let h = budget.get().host;
                    let verdict = if h.fits() { "Fits" } else { "Does not fit" };
                    let note = if h.request_exceeds_node { " (the --mem request is larger than the node)" } else { "" };
                    format!("{verdict}: peak {} at validation start (steady {}), limit {}{note}", h.peak, h.steady, h.limit)
                }}</p>
                <pre class="sbatch"><code>{move || budget.get().sbatch}</code></pre>

                <h2>"Which knob to turn"</h2>
                {move || {
                    let suggestions = budget.get().suggestions;
                    if suggestions.is_empty() {
                        view! { <p>"Everything fits; nothing to change."</p> }.into_any()
                    } else {
                        view! {
                            <ol class="suggestions">
                                {suggestions.into_iter().map(|s| view! {
                                    <li class=if s.fits { "suggestion fits" } else { "suggestion" }>
                                        <strong>{s.change}</strong>
                                        <span class="after">{format!(" -> {} ({})", s.after, if s.fits { "fits" } else { "still too much" })}</span>
                                        <div class="small">"Trade-off: " {s.tradeoff} ". Source: catalog " {s.source} "."</div>
                                    </li>
                                }).collect_view()}
                            </ol>
                        }.into_any()
                    }
                }}

                <details class="formulas">
                    <summary>"How this is computed"</summary>
                    <ul>{FORMULAS.iter().map(|(formula, source)| view! { <li>{*formula} <span class="small">" (" {*source} ")"</span></li> }).collect_view()}</ul>
                </details>

                <h2>"Share and export"</h2>
                <p class="small">"The link in the address bar reproduces this calculation. For a write-up:"</p>
                <button type="button" on:click=move |_| clipboard::copy(export.get(), copy_state)>
                    {move || clipboard::label(copy_state.get(), "Copy as markdown")}
                </button>
                <details>
                    <summary>"Show markdown"</summary>
                    <pre class="export"><code>{move || export.get()}</code></pre>
                </details>
            </section>
        </div>
    }
}
