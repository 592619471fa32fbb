//! The memory-budget calculator: a form generated from the core's field list,
//! results recomputed on every change, the whole state in the URL, and the
//! result exportable as markdown for a write-up.

mod answers;
mod calibrate;
mod chart;
mod deepspeed;
mod defaults;
mod form;

use crate::clipboard::{self, CopyState};
use crate::route::Route;
use headroom_core::budget::{evaluate, fields, markdown, Plan, FORMULAS};
use headroom_core::query_string;
use headroom_core::units::grouped;
use leptos::prelude::*;

#[component]
pub fn Budget(state: String) -> impl IntoView {
    // A link is the author's calculation; only a fresh page starts from the reader's machine.
    let mut initial = if state.is_empty() { defaults::starting_plan() } else { Plan::default() };
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

    let verdicts = Memo::new(move |_| {
        let b = budget.get();
        let word = |fits: bool| if fits { "fits" } else { "does not fit" };
        format!("GPU memory {}; host RAM per node {}.", word(b.gpu.fits()), word(b.host.fits()))
    });
    view! {
        <h1>"Memory budget"</h1>
        <p class="lede">"Does the job fit on its GPUs and in its node's RAM, what is the largest model, sequence and micro batch that would, what vLLM and DeepSpeed will say, and which knob to turn. Every formula names its source."</p>
        {(!url_errors.is_empty()).then(|| view! {
            <div class="notice bad" role="alert">
                <p>"Some values in this link were not used:"</p>
                <ul>{url_errors.shown.iter().map(|e| view! { <li><code>{e.key.clone()}</code> ": " {e.message.clone()}</li> }).collect_view()}</ul>
                {(url_errors.more > 0).then(|| view! { <p class="small">{format!("…and {} more.", grouped(url_errors.more as u64))}</p> })}
            </div>
        })}
        <div class="budget-layout">
            <div class="budget-inputs">
                <form::Form plan=plan />
                <defaults::RememberMachine plan=plan />
            </div>
            // One status, spoken when a verdict changes, not the whole section on every keystroke.
            <p class="visually-hidden" role="status">{move || verdicts.get()}</p>
            <section class="budget-results">
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

                <answers::WhatFits plan=plan budget=budget />
                <answers::VllmStartup budget=budget />

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

                <deepspeed::DeepSpeedTables budget=budget />
                <calibrate::Calibrate plan=plan />

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
                    <pre class="export" tabindex="0" aria-label="Budget as markdown"><code>{move || export.get()}</code></pre>
                </details>
            </section>
        </div>
    }
}
