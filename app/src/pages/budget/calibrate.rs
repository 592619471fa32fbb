//! Paste measurements (memory_summary, max_memory_allocated at two batch
//! sizes, nvidia-smi) to see measured against predicted, and take the fitted
//! per-sample activation figure into the form.

use headroom_core::budget::calibrate::{calibrate, Calibration, Fit};
use headroom_core::budget::{fields, Plan};
use headroom_core::units::Bytes;
use leptos::prelude::*;

fn ratio(measured: Bytes, predicted: Bytes) -> String {
    if predicted.0 == 0 {
        "—".into()
    } else {
        format!("{:.2}x", measured.as_f64() / predicted.as_f64())
    }
}

fn fit_rows(fit: Fit) -> impl IntoView {
    view! {
        <tr><th scope="row">"Fixed (weights, gradients, optimizer states)"</th><td class="num">{fit.fixed.to_string()}</td><td class="num">{fit.predicted_fixed.to_string()}</td><td class="num">{ratio(fit.fixed, fit.predicted_fixed)}</td></tr>
        <tr><th scope="row">"Per sample (activations)"</th><td class="num">{fit.per_sample.to_string()}</td><td class="num">{fit.predicted_per_sample.to_string()}</td><td class="num">{ratio(fit.per_sample, fit.predicted_per_sample)}</td></tr>
    }
}

fn result(c: Calibration, plan: RwSignal<Plan>) -> impl IntoView {
    let points = c
        .points
        .iter()
        .map(|p| {
            view! {
                <tr><th scope="row">{format!("batch {}, {}", p.batch, p.kind.label())}</th><td class="num">{p.measured.to_string()}</td><td class="num">{p.predicted.to_string()}</td><td class="num">{ratio(p.measured, p.predicted)}</td></tr>
            }
        })
        .collect_view();
    let apply = c.fit.map(|fit| {
        let mib = format!("{:.1}", fit.act_mib());
        let label = format!("Use {mib} MiB per sample (Activations per sample)");
        view! {
            <button type="button" on:click=move |_| plan.update(|p| { let _ = fields::set(p, "act_mib", &mib); })>{label}</button>
        }
    });
    view! {
        <div class="table-scroll">
            <table class="calibration">
                <thead><tr><th scope="col">"Figure"</th><th scope="col">"Measured"</th><th scope="col">"Predicted"</th><th scope="col">"Ratio"</th></tr></thead>
                <tbody>{points}{c.fit.map(fit_rows)}</tbody>
            </table>
        </div>
        {apply}
        {c.notes.into_iter().map(|n| view! { <p class="small">{n}</p> }).collect_view()}
    }
}

#[component]
pub fn Calibrate(plan: RwSignal<Plan>) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let outcome = Memo::new(move |_| {
        let text = text.get();
        (!text.trim().is_empty()).then(|| calibrate(&plan.get(), &text))
    });
    view! {
        <h2>"Calibrate from a measurement"</h2>
        <details class="calibrate">
            <summary>"Paste torch.cuda.memory_summary(), max_memory_allocated() at two batch sizes, or nvidia-smi"</summary>
            <label for="calibrate-text" class="visually-hidden">"Measurements"</label>
            <textarea id="calibrate-text" rows="6" placeholder="batch 8: 12.3 GiB\nbatch 16: 20.1 GiB"
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            {move || outcome.get().map(|r| match r {
                Ok(c) => result(c, plan).into_any(),
                Err(e) => view! { <p class="error">{e}</p> }.into_any(),
            })}
        </details>
    }
}
