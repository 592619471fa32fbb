//! The frame around every page: header with navigation and the search box,
//! the routed page, the footer. Owns the one piece of global state, the route.

use crate::content;
use crate::pages;
use crate::route::{Route, RunbookFilter};
use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

fn current_route() -> Route {
    Route::from_hash(&window().location().hash().unwrap_or_default())
}

/// Focuses the page's main heading (made focusable for this, not tabbable).
fn focus_heading() {
    if let Ok(Some(heading)) = document().query_selector("main h1") {
        let _ = heading.set_attribute("tabindex", "-1");
        let _ = heading.unchecked_into::<web_sys::HtmlElement>().focus();
    }
}

/// Navigates by setting the fragment; the `hashchange` listener updates the route.
pub fn navigate(route: &Route) {
    let _ = window().location().set_hash(&route.to_hash());
}

#[component]
pub fn App() -> impl IntoView {
    let route = RwSignal::new(current_route());
    let _hash_listener = window_event_listener(ev::hashchange, move |_| route.set(current_route()));

    // Each page names itself (a runbook by its own title), and after a route
    // change focus moves to the new page's heading so a screen reader announces
    // it and the keyboard starts there (not on the first load: the page is new anyway).
    Effect::new(move |previous: Option<Route>| {
        let current = route.get();
        let name = match &current {
            Route::Runbook { slug } => {
                content::by_slug(slug).map_or("Runbook not found".to_string(), |r| r.title.clone())
            }
            other => other.title().to_string(),
        };
        document().set_title(&format!("{name} · Headroom"));
        if previous.is_some_and(|p| p != current) {
            request_animation_frame(focus_heading);
        }
        current
    });

    view! {
        <a class="skip-link" href="#main" on:click=move |ev| {
            ev.prevent_default();
            if let Some(main) = document().get_element_by_id("main") {
                let _ = main.unchecked_into::<web_sys::HtmlElement>().focus();
            }
        }>"Skip to content"</a>
        <Header route=route />
        {content::load_error().map(|e| view! {
            <p class="banner" role="alert">{e} " Diagnose and Budget still work."</p>
        })}
        <main id="main" tabindex="-1">
            {move || match route.get() {
                Route::Home => view! { <pages::home::Home /> }.into_any(),
                Route::Runbooks(filter) => view! { <pages::runbooks::RunbookList filter=filter /> }.into_any(),
                Route::Runbook { slug } => view! { <pages::runbooks::RunbookPage slug=slug /> }.into_any(),
                Route::Diagnose => view! { <pages::diagnose::Diagnose /> }.into_any(),
                Route::Write => view! { <pages::write::Write /> }.into_any(),
                Route::Budget { state } => view! { <pages::budget::Budget state=state /> }.into_any(),
                Route::About => view! { <pages::about::About /> }.into_any(),
                Route::NotFound { path } => view! { <pages::not_found::NotFound path=path /> }.into_any(),
            }}
        </main>
        <footer class="site-footer">
            <p>"Headroom runs entirely in your browser. Nothing you paste leaves this page."</p>
        </footer>
    }
}

#[component]
fn Header(route: RwSignal<Route>) -> impl IntoView {
    let search_box: NodeRef<html::Input> = NodeRef::new();

    // `/` focuses the search box from anywhere except while typing in a field.
    let _slash = window_event_listener(ev::keydown, move |ev: ev::KeyboardEvent| {
        let typing = document()
            .active_element()
            .map(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
            .unwrap_or(false);
        if ev.key() == "/" && !typing && !ev.ctrl_key() && !ev.meta_key() {
            if let Some(input) = search_box.get() {
                ev.prevent_default();
                let _ = input.focus();
            }
        }
    });

    let nav_link = move |target: Route, label: &'static str| {
        let href = target.to_hash();
        let title = target.title();
        view! {
            <a href=href
               aria-current=move || (route.get().title() == title).then_some("page")>
                {label}
            </a>
        }
    };

    let on_submit = move |ev: ev::SubmitEvent| {
        ev.prevent_default();
        let query = search_box.get().map(|input| input.value()).unwrap_or_default();
        navigate(&Route::Runbooks(RunbookFilter { query, ..RunbookFilter::default() }));
    };

    view! {
        <header class="site-header">
            <a class="brand" href="#/">"Headroom"</a>
            <nav aria-label="Main">
                {nav_link(Route::Runbooks(RunbookFilter::default()), "Runbooks")}
                {nav_link(Route::Diagnose, "Diagnose")}
                {nav_link(Route::Budget { state: String::new() }, "Budget")}
                {nav_link(Route::About, "About")}
            </nav>
            <crate::theme::ThemePicker />
            <form class="site-search" role="search" on:submit=on_submit>
                <label for="site-search-input" class="visually-hidden">"Search runbooks"</label>
                <input id="site-search-input" type="search" node_ref=search_box
                       placeholder="Search runbooks  ( / )" autocomplete="off"
                       prop:value=move || match route.get() {
                           Route::Runbooks(filter) => filter.query,
                           _ => String::new(),
                       } />
            </form>
        </header>
    }
}
