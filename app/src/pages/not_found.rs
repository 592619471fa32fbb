use leptos::prelude::*;

#[component]
pub fn NotFound(path: String) -> impl IntoView {
    view! {
        <h1>"Page not found"</h1>
        <p>"There is no page at " <code>{path}</code> ". "
           <a href="#/">"Go to the home page"</a> "."</p>
    }
}
