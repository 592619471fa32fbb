use crate::content;
use crate::route::Route;
use leptos::prelude::*;

/// The onboarding path, in reading order.
const ONBOARDING: [&str; 4] = [
    "gpu-memory-in-training",
    "reading-pytorch-oom-message",
    "host-ram-dataloaders-ranks",
    "slurm-memory-flags-sacct-seff",
];

#[component]
pub fn Home() -> impl IntoView {
    view! {
        <section class="hero">
            <h1>"Beat out-of-memory failures"</h1>
            <p class="lede">
                "Headroom turns the lab's OOM write-ups into runbooks, reads a pasted log to say which memory ran out, "
                "and budgets GPU and host memory before you submit the job. It works offline; nothing you paste leaves your browser."
            </p>
        </section>
        <section class="cards" aria-label="Tools">
            <a class="card" href="#/diagnose">
                <h2>"Diagnose a log"</h2>
                <p>"Paste a SLURM .err, dmesg or a traceback: is it an OOM, which memory, and what to change."</p>
            </a>
            <a class="card" href="#/budget">
                <h2>"Budget memory"</h2>
                <p>"Weights, gradients, optimizer, activations, KV cache, DataLoader workers: does it fit?"</p>
            </a>
            <a class="card" href="#/runbooks">
                <h2>"Read the runbooks"</h2>
                <p>"The lab's past incidents and onboarding guides, searchable."</p>
            </a>
        </section>
        <section class="onboarding">
            <h2>"New to the lab? Read these in order"</h2>
            <ol>
                {ONBOARDING.iter().filter_map(|slug| content::by_slug(slug)).map(|r| view! {
                    <li><a href=Route::Runbook { slug: r.slug.clone() }.to_hash()>{r.title.clone()}</a> " — " {r.summary.clone()}</li>
                }).collect_view()}
            </ol>
        </section>
    }
}
