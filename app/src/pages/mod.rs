//! One module per page of the site.

pub mod about;
pub mod budget;
pub mod diagnose;
pub mod home;
pub mod not_found;
pub mod runbooks;

use leptos::prelude::*;

/// Marks a page whose real content a later piece of work brings, so nobody
/// mistakes a placeholder for the feature.
#[component]
pub fn ComingSoon(issue: u32, what: &'static str) -> impl IntoView {
    view! {
        <p class="placeholder" role="note">
            {format!("Placeholder: {what} arrives with issue #{issue}.")}
        </p>
    }
}
