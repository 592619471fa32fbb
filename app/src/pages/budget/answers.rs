//! The inverse questions, one line each, and vLLM's start-up as its log will
//! print it. The answers come from the core's searches; this only shows them.

use headroom_core::budget::{Budget, Plan};
use leptos::prelude::*;

#[component]
pub fn WhatFits(plan: RwSignal<Plan>, budget: Memo<Budget>) -> impl IntoView {
    view! {
        <h2>"What fits"</h2>
        <ul class="answers">
            {move || {
                let lines = budget.get().answers.lines(&plan.get().gpu);
                lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()
            }}
        </ul>
    }
}

#[component]
pub fn VllmStartup(budget: Memo<Budget>) -> impl IntoView {
    move || {
        budget.get().gpu.vllm.map(|v| {
            let peak = if v.overhead_measured { "its profile peak from your log" } else { "an estimated profile peak" };
            view! {
                <h2>"vLLM start-up"</h2>
                <p class="small">
                    {format!("With gpu_memory_utilization {} of {}, {} of weights and {peak} ({}), vLLM will log:",
                        v.utilization, v.requested, v.weights, v.overhead)}
                </p>
                <pre class="vllm-log"><code>{v.log_lines().join("\n")}</code></pre>
            }
        })
    }
}
