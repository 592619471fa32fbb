use leptos::prelude::*;

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
    }
}
