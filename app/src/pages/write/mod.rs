//! `#/write`: a write-up in the content format on the left, the runbook it
//! compiles to on the right, rendered by the same compiler and the same
//! runbook view as the site, with `headroom check`'s `file:line` messages
//! beside the offending lines as you type (debounced). The draft stays in
//! this tab (see `store`); download it as `<slug>.md`, or copy it.

mod editor;
pub mod store;

use crate::clipboard::{self, CopyState};
use crate::content;
use crate::pages::runbooks::Article;
use editor::{go_to_line, Editor, Marks};
use headroom_core::draft::{blank, file_name};
use headroom_core::redact::{self, Redaction};
use headroom_core::runbook::{DocKind, Runbook};
use headroom_core::writeup::lint::lint;
use leptos::html;
use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::JsCast;

/// Typing pauses this long before the write-up is compiled again.
const DEBOUNCE: Duration = Duration::from_millis(150);
const GUIDE: &str = "writing-up-an-incident";

fn now_ms() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or_default()
}

#[component]
pub fn Write() -> impl IntoView {
    let has_draft = RwSignal::new(store::draft().is_some());
    let start_blank = move |_| {
        store::save_draft(&blank(&store::today()));
        store::save_redactions(&[]);
        has_draft.set(true);
    };
    view! {
        <h1>"Write up an incident"</h1>
        <p class="lede">
            "Fill in each " <code>"{{…}}"</code> " placeholder; the runbook preview and the checks follow as you type. "
            <a href=format!("#/runbooks/{GUIDE}")>"How to write up an incident well"</a> "."
        </p>
        {move || if has_draft.get() {
            view! { <Workspace initial=store::draft().unwrap_or_default() /> }.into_any()
        } else {
            view! {
                <div class="write-empty">
                    <p>"No write-up in this tab yet. Diagnose a log and press " <strong>"Write it up"</strong>
                       " to start from what the log shows, or start from the empty template."</p>
                    <p>
                        <a class="button-link" href="#/diagnose">"Diagnose a log"</a> " "
                        <button type="button" id="write-blank" on:click=start_blank>"Start from the template"</button>
                    </p>
                </div>
            }.into_any()
        }}
    }
}

#[component]
fn Workspace(initial: String) -> impl IntoView {
    let area: NodeRef<html::Textarea> = NodeRef::new();
    let marks = RwSignal::new(Marks::default());
    // The last version that compiled, and whether the text has moved on since.
    let preview: RwSignal<Option<Runbook>> = RwSignal::new(None);
    let stale = RwSignal::new(false);
    let slug = RwSignal::new(String::new());
    let compile_ms = RwSignal::new(0.0);
    let saved = RwSignal::new(true);
    let redactions = RwSignal::new(store::redactions());
    let note: RwSignal<Option<String>> = RwSignal::new(None);
    let copied = RwSignal::new(CopyState::Idle);
    let pending = StoredValue::new(None::<TimeoutHandle>);

    let source = move || file_name(&slug.get_untracked());
    let recompile = move |text: String| {
        let started = now_ms();
        let linted = lint(&source(), &text, DocKind::Incident, content::runbooks());
        compile_ms.set(now_ms() - started);
        match linted.runbook {
            Some(mut runbook) => {
                // The file it will be saved as, now that its slug is known.
                runbook.source = file_name(&runbook.slug);
                slug.set(runbook.slug.clone());
                preview.set(Some(runbook));
                stale.set(false);
            }
            None => stale.set(true),
        }
        saved.set(store::save_draft(&text));
        marks.set(Marks { text, problems: linted.problems });
    };
    recompile(initial.clone());
    let on_input = move |text: String| {
        if let Some(handle) = pending.get_value() {
            handle.clear();
        }
        copied.set(CopyState::Idle);
        // Saved at once, so leaving the page mid-word loses nothing; checked after a pause.
        saved.set(store::save_draft(&text));
        pending.set_value(set_timeout_with_handle(move || recompile(text), DEBOUNCE).ok());
    };
    on_cleanup(move || {
        if let Some(handle) = pending.try_get_value().flatten() {
            handle.clear();
        }
    });
    let text_now = move || area.get().map(|a| a.value()).unwrap_or_else(|| marks.get_untracked().text);

    let download = move |_| {
        let name = file_name(&slug.get_untracked());
        note.set(
            save_file(&name, &text_now())
                .err()
                .map(|_| "The browser refused the download: copy the text instead.".into()),
        );
    };
    let undo = move |index: usize| {
        let mut list = redactions.get_untracked();
        let Some(redaction) = list.get(index).cloned() else { return };
        match redact::undo(&text_now(), &redaction) {
            Some(text) => {
                if let Some(a) = area.get() {
                    a.set_value(&text);
                }
                recompile(text);
                list.remove(index);
                store::save_redactions(&list);
                redactions.set(list);
                note.set(None);
            }
            None => note.set(Some(format!("{} is no longer in the text.", redaction.replacement))),
        }
    };
    let start_over = move |_| {
        if window().confirm_with_message("Replace this write-up with the empty template?").unwrap_or(false) {
            let text = blank(&store::today());
            if let Some(a) = area.get() {
                a.set_value(&text);
            }
            store::save_redactions(&[]);
            redactions.set(Vec::new());
            recompile(text);
        }
    };

    view! {
        <div class="write-toolbar">
            <button type="button" class="primary" id="write-download" on:click=download>
                {move || format!("Download {}", file_name(&slug.get()))}
            </button>
            <button type="button" id="write-copy" on:click=move |_| clipboard::copy(text_now(), copied)>
                {move || clipboard::label(copied.get(), "Copy")}
            </button>
            <button type="button" id="write-start-over" on:click=start_over>"Start over"</button>
        </div>
        {move || note.get().map(|n| view! { <p class="notice" role="alert">{n}</p> })}
        {move || (!redactions.get().is_empty()).then(|| view! { <Redactions list=redactions.get() undo=undo /> })}
        <p class="write-status">
            <span id="write-status" role="status"
                data-compile-ms=move || format!("{:.2}", compile_ms.get())
                data-problems=move || marks.get().problems.len().to_string()>
                {move || match marks.get().problems.len() {
                    0 => "No problems: headroom check will accept it".to_string(),
                    1 => "1 problem".to_string(),
                    n => format!("{n} problems"),
                }}
            </span>
            {move || {
                let kept = if saved.get() { "kept in this tab" } else { "not saved: this browser refuses session storage" };
                format!(" · checked in {:.1} ms · {kept}", compile_ms.get())
            }}
        </p>
        <div class="write-layout">
            <div class="write-source">
                <Editor initial=initial marks=marks on_input=on_input area=area />
                <Problems marks=marks source=Signal::derive(move || file_name(&slug.get())) area=area />
            </div>
            <section class="preview" aria-label="Preview">
                {move || stale.get().then(|| view! {
                    <p class="notice">"The preview shows the last version that compiled; fix the problem marked in the text."</p>
                })}
                {move || preview.get().map(|runbook| view! { <Article runbook=runbook /> })}
            </section>
        </div>
    }
}

#[component]
fn Problems(marks: RwSignal<Marks>, source: Signal<String>, area: NodeRef<html::Textarea>) -> impl IntoView {
    view! {
        <ol class="problems" id="write-problems" aria-label="Problems">
            {move || marks.get().problems.into_iter().map(|p| {
                let line = p.line;
                view! {
                    <li>
                        <button type="button" class="link" on:click=move |_| {
                            if let Some(a) = area.get() {
                                go_to_line(&a, line);
                            }
                        }>{format!("{}:{}", source.get(), line)}</button>
                        ": " {p.message}
                    </li>
                }
            }).collect_view()}
        </ol>
    }
}

#[component]
fn Redactions(list: Vec<Redaction>, undo: impl Fn(usize) + Copy + 'static) -> impl IntoView {
    let count = list.len();
    view! {
        <details class="redactions" open>
            <summary>{format!("{count} value(s) redacted from the log")}</summary>
            <ul>
                {list.into_iter().enumerate().map(|(i, r)| {
                    let what = format!("line {}: {} replaced by ", r.line, r.kind.label());
                    let can_undo = !r.original.is_empty();
                    let label = format!("Undo the redaction of the {} on line {}", r.kind.label(), r.line);
                    view! {
                        <li>
                            {what} <code>{r.replacement.clone()}</code> " "
                            {if can_undo {
                                view! { <button type="button" class="small-button" aria-label=label on:click=move |_| undo(i)>"Undo"</button> }.into_any()
                            } else {
                                view! { <span class="small">"(the original is not kept across a reload)"</span> }.into_any()
                            }}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </details>
    }
}

/// Saves `text` as a file named `name` through the browser's download.
fn save_file(name: &str, text: &str) -> Result<(), wasm_bindgen::JsValue> {
    let url = gloo_file::ObjectUrl::from(gloo_file::Blob::new_with_options(text, Some("text/markdown")));
    let link: web_sys::HtmlAnchorElement = document().create_element("a")?.unchecked_into();
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The download has started reading the blob by the next turn; dropping
    // the URL revokes it.
    set_timeout(move || drop(url), Duration::from_secs(5));
    Ok(())
}
