//! The lab's own machine as Budget's starting point: the GPU, node RAM, ranks
//! per node and `--mem` the reader chose to remember (localStorage, via
//! gloo-storage). Only these settings, only when asked, and only for a fresh
//! Budget page: a shared link always means what its author saw.

use gloo_storage::{LocalStorage, Storage};
use headroom_core::budget::{fields, Plan};
use leptos::prelude::*;

const KEY: &str = "headroom.budget-defaults";
/// The settings that describe the lab's machine, not one job.
const MACHINE: [&str; 5] = ["gpu", "gpu_mem_gib", "node_gib", "ranks", "mem_gib"];

/// The plan a Budget page without a link starts from.
pub fn starting_plan() -> Plan {
    let mut plan = Plan::default();
    let stored: Vec<(String, String)> = LocalStorage::get(KEY).unwrap_or_default();
    // Values kept by an older version that no longer parse are ignored, as a link's would be.
    let _ = fields::apply(&mut plan, &stored);
    plan
}

fn remember(plan: &Plan) -> usize {
    let mine: Vec<(String, String)> = fields::diff_pairs(plan)
        .into_iter()
        .filter(|(k, _)| MACHINE.contains(k))
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let count = mine.len();
    let _ = LocalStorage::set(KEY, mine);
    count
}

#[component]
pub fn RememberMachine(plan: RwSignal<Plan>) -> impl IntoView {
    let said = RwSignal::new(String::new());
    view! {
        <div class="remember">
            <button type="button" on:click=move |_| {
                let count = remember(&plan.get_untracked());
                said.set(format!("Remembered {count} machine setting(s) in this browser for a new Budget page."));
            }>"Remember GPU, node RAM, ranks and --mem as my defaults"</button>
            " "
            <button type="button" on:click=move |_| {
                LocalStorage::delete(KEY);
                said.set("Forgotten: a new Budget page starts from the built-in defaults.".into());
            }>"Forget"</button>
            <p class="small" role="status">{move || said.get()}</p>
        </div>
    }
}
