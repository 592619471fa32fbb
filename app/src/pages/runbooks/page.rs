//! One runbook: symptoms and log signatures, cause, fix cards with knob
//! diffs and copyable commands, how to verify, lessons, related runbooks.
//! Deep-linkable as `#/runbooks/<slug>`.

use crate::clipboard::{self, CopyState};
use crate::content;
use crate::route::Route;
use headroom_core::runbook::{DocKind, Fix, Runbook};
use leptos::prelude::*;

#[component]
pub fn RunbookPage(slug: String) -> impl IntoView {
    match content::by_slug(&slug) {
        Some(runbook) => view! { <Article runbook=runbook.clone() /> }.into_any(),
        None => view! {
            <h1>"Runbook not found"</h1>
            <p>"No runbook is called " <code>{slug}</code> ". " <a href="#/runbooks">"See all runbooks"</a> "."</p>
        }
        .into_any(),
    }
}

/// A compiled runbook: the page of `content/` write-ups, and the editor's preview.
#[component]
pub fn Article(runbook: Runbook) -> impl IntoView {
    let kind = match runbook.kind {
        DocKind::Incident => "Incident",
        DocKind::Guide => "Guide",
    };
    let has_symptoms = !runbook.symptoms.html.is_empty() || !runbook.symptoms.signatures.is_empty();
    view! {
        <article class="runbook">
            <p class="breadcrumb"><a href="#/runbooks">"Runbooks"</a> " / " {kind}</p>
            <h1>{runbook.title.clone()}</h1>
            <div class="meta">
                {runbook.memory.map(|m| view! { <span class=format!("badge memory-{}", m.as_str())>{m.label()}</span> })}
                {runbook.stack.iter().map(|s| view! { <span class="chip static">{s.as_str()}</span> }).collect_view()}
                {runbook.date.clone().map(|d| view! { <span class="date">{d}</span> })}
            </div>
            <p class="lede">{runbook.summary.clone()}</p>

            {has_symptoms.then(|| view! {
                <section>
                    <h2>"Symptoms"</h2>
                    <div class="prose" inner_html=runbook.symptoms.html.clone()></div>
                </section>
            })}
            {(!runbook.root_cause.is_empty()).then(|| view! {
                <section>
                    <h2>"Root cause"</h2>
                    <div class="prose" inner_html=runbook.root_cause.clone()></div>
                </section>
            })}
            {(!runbook.fixes.is_empty()).then(|| view! {
                <section>
                    <h2>"Fixes"</h2>
                    <div class="fix-cards">
                        {runbook.fixes.iter().map(|fix| view! { <FixCard fix=fix.clone() /> }).collect_view()}
                    </div>
                </section>
            })}
            {runbook.other_sections.iter().map(|section| view! {
                <section>
                    <h2>{section.heading.clone()}</h2>
                    <div class="prose" inner_html=section.html.clone()></div>
                </section>
            }).collect_view()}
            {(!runbook.verification.is_empty()).then(|| view! {
                <section>
                    <h2>"Verify"</h2>
                    <ol class="steps">
                        {runbook.verification.iter().map(|step| view! {
                            <li>
                                <span>{step.text.clone()}</span>
                                {step.commands.iter().map(|c| view! { <Command text=c.clone() /> }).collect_view()}
                            </li>
                        }).collect_view()}
                    </ol>
                </section>
            })}
            {(!runbook.lessons.is_empty()).then(|| view! {
                <section>
                    <h2>"Lessons"</h2>
                    <ul>{runbook.lessons.iter().map(|l| view! { <li>{l.clone()}</li> }).collect_view()}</ul>
                </section>
            })}
            {(!runbook.related.is_empty()).then(|| view! {
                <section>
                    <h2>"Related"</h2>
                    <ul class="related">
                        {runbook.related.iter().filter_map(|slug| content::by_slug(slug)).map(|r| view! {
                            <li><a href=Route::Runbook { slug: r.slug.clone() }.to_hash()>{r.title.clone()}</a></li>
                        }).collect_view()}
                    </ul>
                </section>
            })}
            <p class="source">"Source: " <code>{runbook.source.clone()}</code></p>
        </article>
    }
}

#[component]
fn FixCard(fix: Fix) -> impl IntoView {
    view! {
        <div class="fix-card">
            <h3>{fix.title.clone()}</h3>
            {(!fix.knobs.is_empty()).then(|| view! {
                <table class="knob-diff">
                    <thead><tr><th scope="col">"Knob"</th><th scope="col">"Old"</th><th scope="col">"New"</th></tr></thead>
                    <tbody>
                        {fix.knobs.iter().map(|k| view! {
                            <tr>
                                <td><code>{k.knob.clone()}</code></td>
                                <td class="old">{k.old.clone().unwrap_or_else(|| "—".into())}</td>
                                <td class="new">{k.new.clone()}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            })}
            {fix.effect.clone().map(|e| view! { <p><strong>"Effect: "</strong>{e}</p> })}
            {fix.tradeoff.clone().map(|t| view! { <p><strong>"Trade-off: "</strong>{t}</p> })}
            {fix.commands.iter().map(|c| view! { <Command text=c.clone() /> }).collect_view()}
        </div>
    }
}

/// A command or snippet with a copy button.
#[component]
fn Command(text: String) -> impl IntoView {
    let state = RwSignal::new(CopyState::Idle);
    let to_copy = text.clone();
    view! {
        <div class="command">
            <pre><code>{text}</code></pre>
            <button class="copy" on:click=move |_| clipboard::copy(to_copy.clone(), state)>
                {move || clipboard::label(state.get(), "Copy")}
            </button>
        </div>
    }
}
