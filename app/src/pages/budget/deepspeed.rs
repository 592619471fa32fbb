//! DeepSpeed's estimator tables for the plan, each row beside Headroom's own
//! model states for the same ZeRO stage and offload options.

use headroom_core::budget::deepspeed::{gigabytes, Table, WHY_THEY_DIFFER};
use headroom_core::budget::Budget;
use headroom_core::units::Bytes;
use leptos::prelude::*;

fn table(t: Table, ours: Vec<Bytes>) -> impl IntoView {
    let s = t.setup;
    let largest =
        if t.stage == 3 { format!(", largest layer {}M", s.largest_layer_params / 1_000_000) } else { String::new() };
    let caption = format!(
        "ZeRO-{}: {} node(s) x {} GPU(s), {}M parameters{largest}",
        t.stage,
        s.nodes,
        s.gpus_per_node,
        s.total_params / 1_000_000
    );
    let rows = t
        .rows
        .iter()
        .zip(ours)
        .map(|(r, ours)| {
            view! {
                <tr>
                    <td><code>{r.options()}</code></td>
                    <td class="num">{gigabytes(r.per_cpu)}</td>
                    <td class="num">{gigabytes(r.per_gpu)}</td>
                    <td class="num">{ours.to_string()}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table class="estimator">
                <caption>{caption}</caption>
                <thead>
                    <tr><th scope="col">"DeepSpeed options"</th><th scope="col">"per CPU"</th><th scope="col">"per GPU"</th><th scope="col">"Headroom per GPU"</th></tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[component]
pub fn DeepSpeedTables(budget: Memo<Budget>) -> impl IntoView {
    move || {
        budget.get().deepspeed.map(|v| {
            let documented = gigabytes(v.zero2_documented);
            view! {
                <h2>"DeepSpeed's estimator"</h2>
                <p class="small">"What estimate_zero2_model_states_mem_needs_all_live and estimate_zero3_model_states_mem_needs_all_live print for these parameters and GPUs (model states only; DeepSpeed's \"GB\" are 2^30 bytes), beside Headroom's model states per GPU:"</p>
                {table(v.zero2, v.headroom_zero2)}
                {v.zero3.map(|t| table(t, v.headroom_zero3))}
                <p class="small">{WHY_THEY_DIFFER}</p>
                <p class="small">{format!("DeepSpeed before pull request #5099 (April 2024), whose numbers its documentation's example tables show, printed {documented} per GPU for ZeRO-2 without offload (4Ψ + 16Ψ/N).")}</p>
            }
        })
    }
}
