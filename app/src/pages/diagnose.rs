use super::ComingSoon;
use leptos::prelude::*;

#[component]
pub fn Diagnose() -> impl IntoView {
    view! {
        <h1>"Diagnose a log"</h1>
        <ComingSoon issue=4 what="the log diagnosis" />
    }
}
