use leptos::prelude::*;

#[component]
pub fn About() -> impl IntoView {
    view! {
        <h1>"About Headroom"</h1>
        <p>
            "Headroom is a static site: Rust compiled to WebAssembly. After the page has loaded it makes no network "
            "requests, so it works offline and nothing you paste leaves your machine."
        </p>
        <p>
            "Every recommendation names the source of its rule: documentation, framework source code or a maintainer's "
            "statement, collected in the lab's remediation catalog."
        </p>
        <p>"The same engine runs on the command line: " <code>"sacct ... | headroom diagnose"</code></p>
    }
}
