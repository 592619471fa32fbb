use super::ComingSoon;
use leptos::prelude::*;

#[component]
pub fn Budget() -> impl IntoView {
    view! {
        <h1>"Memory budget"</h1>
        <ComingSoon issue=5 what="the GPU and host memory calculator" />
    }
}
