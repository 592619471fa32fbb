//! The colour scheme: the system's, unless the reader picks light or dark in
//! the header. Only that choice is remembered (localStorage, via
//! gloo-storage); nothing else about the reader or what they pasted is.

use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;

const KEY: &str = "headroom.theme";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    System,
    Light,
    Dark,
}

impl Theme {
    const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    fn name(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Theme::System => "System colours",
            Theme::Light => "Light",
            Theme::Dark => "Dark",
        }
    }
}

/// The remembered choice (the system's when none).
pub fn stored() -> Theme {
    let name: Option<String> = LocalStorage::get(KEY).ok();
    Theme::ALL.into_iter().find(|t| Some(t.name()) == name.as_deref()).unwrap_or(Theme::System)
}

/// Sets `data-theme` on `<html>`, which the stylesheet's `color-scheme` follows.
pub fn apply(theme: Theme) {
    if let Some(root) = document().document_element() {
        let _ = match theme {
            Theme::System => root.remove_attribute("data-theme"),
            other => root.set_attribute("data-theme", other.name()),
        };
    }
}

fn choose(theme: Theme) {
    apply(theme);
    let _ = match theme {
        Theme::System => {
            LocalStorage::delete(KEY);
            Ok(())
        }
        other => LocalStorage::set(KEY, other.name()),
    };
}

#[component]
pub fn ThemePicker() -> impl IntoView {
    let current = RwSignal::new(stored());
    view! {
        <label class="theme-picker">
            <span class="visually-hidden">"Colours"</span>
            <select on:change=move |ev| {
                let chosen = Theme::ALL.into_iter().find(|t| t.name() == event_target_value(&ev)).unwrap_or(Theme::System);
                current.set(chosen);
                choose(chosen);
            }>
                {Theme::ALL.into_iter().map(|t| view! {
                    <option value=t.name() selected=move || current.get() == t>{t.label()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
