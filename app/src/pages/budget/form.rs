//! The calculator's form, generated from `headroom_core::budget::fields`:
//! each field validates as it is typed and explains a bad value beside it,
//! keeping the last good value in the calculation.

use headroom_core::budget::fields::{self, Field, Kind, Section, FIELDS};
use headroom_core::budget::model::from_hf_config;
use headroom_core::budget::Plan;
use leptos::prelude::*;

#[component]
pub fn Form(plan: RwSignal<Plan>) -> impl IntoView {
    let group = move |section: Section, title: &'static str| {
        view! {
            <fieldset>
                <legend>{title}</legend>
                {FIELDS.iter().filter(|f| f.section == section).map(|f| view! { <FieldInput field=f plan=plan /> }).collect_view()}
            </fieldset>
        }
    };
    view! {
        <form class="budget-form" on:submit=|ev| ev.prevent_default()>
            {group(Section::Model, "Model")}
            <HfConfig plan=plan />
            {group(Section::Training, "Training / inference")}
            {group(Section::Gpu, "GPU")}
            {group(Section::Host, "Host RAM per node (DataLoaders, SLURM)")}
        </form>
    }
}

#[component]
fn FieldInput(field: &'static Field, plan: RwSignal<Plan>) -> impl IntoView {
    let id = format!("field-{}", field.key);
    let error_id = format!("{id}-error");
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let draft = RwSignal::new(String::new());
    let shown = move || if error.get().is_some() { draft.get() } else { fields::get(&plan.get(), field.key) };
    let commit = move |text: String| {
        draft.set(text.clone());
        let mut next = plan.get_untracked();
        match fields::set(&mut next, field.key, &text) {
            Ok(()) => {
                error.set(None);
                plan.set(next);
            }
            Err(message) => error.set(Some(message)),
        }
    };
    let control = match field.kind {
        Kind::Choice(options) => view! {
            <select id=id.clone() on:change=move |ev| commit(event_target_value(&ev))>
                {options().into_iter().map(|o| {
                    let selected = { let o = o.clone(); move || shown() == o };
                    view! { <option value=o.clone() selected=selected>{o.clone()}</option> }
                }).collect_view()}
            </select>
        }
        .into_any(),
        Kind::Bool => view! {
            <input id=id.clone() type="checkbox" prop:checked=move || shown() == "true"
                on:change=move |ev| commit(event_target_checked(&ev).to_string()) />
        }
        .into_any(),
        Kind::Number { .. } => view! {
            <input id=id.clone() type="text" inputmode="decimal" autocomplete="off"
                aria-invalid=move || error.get().is_some().to_string()
                aria-describedby=error_id.clone()
                prop:value=shown
                on:input=move |ev| commit(event_target_value(&ev)) />
        }
        .into_any(),
    };
    view! {
        <div class="field" class:invalid=move || error.get().is_some()>
            <label for=id>{field.label}</label>
            {control}
            <span class="help">{field.help}</span>
            <span class="error" id=error_id role="status">{move || error.get().unwrap_or_default()}</span>
        </div>
    }
}

/// Paste a Hugging Face config.json to set the model's shape and size.
#[component]
fn HfConfig(plan: RwSignal<Plan>) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let message: RwSignal<Option<Result<String, String>>> = RwSignal::new(None);
    view! {
        <details class="hf-config">
            <summary>"Use a Hugging Face config.json"</summary>
            <label for="hf-config-text" class="visually-hidden">"config.json"</label>
            <textarea id="hf-config-text" rows="5" placeholder="{ \"hidden_size\": 4096, \"num_hidden_layers\": 32, ... }"
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <button type="button" on:click=move |_| match from_hf_config(&text.get()) {
                Ok(model) => {
                    let summary = format!("{}: {:.2} B parameters", model.name, model.params as f64 / 1e9);
                    plan.update(|p| p.gpu.model = model);
                    message.set(Some(Ok(summary)));
                }
                Err(e) => message.set(Some(Err(e))),
            }>"Use it"</button>
            {move || message.get().map(|m| match m {
                Ok(ok) => view! { <p class="ok">{ok}</p> }.into_any(),
                Err(e) => view! { <p class="error">{e}</p> }.into_any(),
            })}
        </details>
    }
}
