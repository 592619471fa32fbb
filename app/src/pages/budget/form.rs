//! The calculator's form, generated from `headroom_core::budget::fields`:
//! each field validates as it is typed and explains a bad value beside it,
//! keeping the last good value in the calculation.

use headroom_core::budget::fields::{self, Field, Kind, Section, FIELDS};
use headroom_core::budget::hf_config;
use headroom_core::budget::Plan;
use headroom_core::units::grouped;
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
            {group(Section::Vllm, "vLLM (serving, or an RL rollout beside training)")}
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
            // Read with its field (aria-describedby), not as one of dozens of live regions.
            <span class="error" id=error_id>{move || error.get().unwrap_or_default()}</span>
        </div>
    }
}

/// Paste a Hugging Face config.json to set the model's shape and size. The
/// values are checked like typed ones; keys it could not use are named.
#[component]
fn HfConfig(plan: RwSignal<Plan>) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let message: RwSignal<Option<Result<Vec<String>, Vec<String>>>> = RwSignal::new(None);
    let use_it = move |_| {
        let outcome = hf_config::read(&text.get()).map_err(|e| vec![e]).and_then(|import| {
            let mut next = plan.get_untracked();
            hf_config::apply(&mut next, &import)?;
            plan.set(next);
            let mut lines =
                vec![format!("{} ({}): {} parameters.", import.name, import.family, grouped(import.params))];
            lines.extend(import.notes.iter().map(|n| format!("Assumed: {n}.")));
            if !import.unused.is_empty() {
                lines.push(format!("Not used: {}.", import.unused.join(", ")));
            }
            Ok(lines)
        });
        message.set(Some(outcome));
    };
    view! {
        <details class="hf-config">
            <summary>"Use a Hugging Face config.json"</summary>
            <label for="hf-config-text" class="visually-hidden">"config.json"</label>
            <textarea id="hf-config-text" rows="5" placeholder="{ \"hidden_size\": 4096, \"num_hidden_layers\": 32, ... }"
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <button type="button" on:click=use_it>"Use it"</button>
            {move || message.get().map(|m| match m {
                Ok(lines) => view! { <div class="ok">{lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view()}</div> }.into_any(),
                Err(errors) => view! { <div class="error">{errors.into_iter().map(|l| view! { <p>{l}</p> }).collect_view()}</div> }.into_any(),
            })}
        </details>
    }
}
