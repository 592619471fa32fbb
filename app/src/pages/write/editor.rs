//! The write-up's text box with lint messages beside the offending lines.
//!
//! The box does not wrap lines, so line N is always at the same height; a
//! layer over it (`.lens`, which clicks go through) repeats the lines
//! invisibly and puts each message after its line (held at the right edge
//! when the line runs past it), and the gutter marks it. Both follow the
//! box's scrolling. Everything there is text: nothing pasted becomes markup.

use headroom_core::writeup::CompileError;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What the layers show: the text as last linted, and its problems.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    pub text: String,
    pub problems: Vec<CompileError>,
}

#[component]
pub fn Editor(
    /// The text to start with (set once; the box owns its text after that).
    initial: String,
    marks: RwSignal<Marks>,
    on_input: impl Fn(String) + 'static,
    area: NodeRef<html::Textarea>,
) -> impl IntoView {
    let lens: NodeRef<html::Div> = NodeRef::new();
    let gutter: NodeRef<html::Div> = NodeRef::new();
    let follow = move || {
        if let (Some(a), Some(l), Some(g)) = (area.get(), lens.get(), gutter.get()) {
            l.set_scroll_top(a.scroll_top());
            l.set_scroll_left(a.scroll_left());
            g.set_scroll_top(a.scroll_top());
        }
    };
    // New rows may change the layers' height: keep them where the box is.
    Effect::new(move |_| {
        marks.track();
        follow();
    });
    // The messages of each line (1-based), from the last lint.
    let messages = move || {
        let m = marks.get();
        let mut by_line: Vec<Option<String>> = vec![None; m.text.split('\n').count()];
        for p in &m.problems {
            if let Some(slot) = by_line.get_mut(p.line.saturating_sub(1)) {
                *slot = Some(slot.take().map_or(p.message.clone(), |s| format!("{s}; {}", p.message)));
            }
        }
        (m.text, by_line)
    };
    let lens_rows = move || {
        let (text, by_line) = messages();
        text.split('\n')
            .zip(by_line)
            .map(|(line, message)| match message {
                Some(msg) => view! {
                    <div class="row bad"><span class="ghost">{line.to_string()}</span><span class="lens-message">{msg}</span></div>
                }
                .into_any(),
                // Every line's text (unseen) keeps the layer as wide as the box, so both scroll alike.
                None => view! { <div class="row"><span class="ghost">{line.to_string()}</span></div> }.into_any(),
            })
            .collect_view()
    };
    let gutter_rows = move || {
        let (_, by_line) = messages();
        by_line
            .iter()
            .enumerate()
            .map(|(i, message)| match message {
                Some(m) => view! { <div class="row bad" title=m.clone()>{format!("! {}", i + 1)}</div> }.into_any(),
                None => view! { <div class="row">{(i + 1).to_string()}</div> }.into_any(),
            })
            .collect_view()
    };
    view! {
        <div class="editor">
            <div class="gutter" aria-hidden="true" node_ref=gutter>{gutter_rows}</div>
            <div class="editor-field">
                <div class="lens" aria-hidden="true" node_ref=lens>{lens_rows}</div>
                <label for="write-input" class="visually-hidden">"Write-up (markdown)"</label>
                <textarea id="write-input" node_ref=area wrap="off" spellcheck="false" autocomplete="off"
                    aria-describedby="write-status"
                    prop:value=initial
                    on:input=move |ev| on_input(event_target_value(&ev))
                    on:scroll=move |_| follow()></textarea>
            </div>
        </div>
    }
}

/// Puts the caret on line `line` (1-based) and brings it into view.
pub fn go_to_line(area: &web_sys::HtmlTextAreaElement, line: usize) {
    let text = area.value();
    let start: usize = text.split('\n').take(line.saturating_sub(1)).map(|l| l.encode_utf16().count() + 1).sum();
    let length = text.split('\n').nth(line.saturating_sub(1)).map_or(0, |l| l.encode_utf16().count());
    let _ = area.focus();
    let _ = area.set_selection_range(start as u32, (start + length) as u32);
    let row = area
        .parent_element()
        .and_then(|field| field.query_selector(&format!(".lens .row:nth-child({line})")).ok().flatten())
        .and_then(|r| r.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(row) = row {
        area.set_scroll_top(row.offset_top() - area.client_height() / 3);
    }
}
