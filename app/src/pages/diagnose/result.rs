//! A diagnosis on screen: verdict, figures, the evidence lines, fix cards.

use crate::content;
use crate::route::Route;
use headroom_core::diagnose::ExcerptLine;
use headroom_core::query_string;
use headroom_core::recommend::{budget_fields, Fix, Report};
use headroom_core::units::Bytes;
use leptos::prelude::*;

#[component]
pub fn DiagnosisView(
    diagnosis: Report,
    context: Vec<Option<ExcerptLine>>,
    elapsed_ms: f64,
    compute_ms: f64,
) -> impl IntoView {
    let verdict_class = if diagnosis.oom { "verdict-box oom" } else { "verdict-box" };
    let numbers = serde_json::to_value(&diagnosis.numbers).unwrap_or_default();
    let figures: Vec<(String, String)> = numbers
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    let n = v.as_u64().unwrap_or(0);
                    let shown = if k.ends_with("_tokens") || k == "oom_kill_events" {
                        n.to_string()
                    } else {
                        Bytes(n).to_string()
                    };
                    (k.replace('_', " "), shown)
                })
                .collect()
        })
        .unwrap_or_default();
    let budget = budget_fields(&diagnosis);
    let budget_link = (!budget.is_empty()).then(|| Route::Budget { state: query_string::build(budget) }.to_hash());
    view! {
        // Screen readers hear the verdict once per result, not the whole section.
        <p class="visually-hidden" role="status">{diagnosis.summary.clone()}</p>
        <section class="diagnosis" data-elapsed-ms=format!("{elapsed_ms:.0}") data-compute-ms=format!("{compute_ms:.0}")>
            <div class=verdict_class>
                <h2 class="summary">{diagnosis.summary.clone()}</h2>
                <div class="meta">
                    <span class=format!("badge memory-{}", diagnosis.memory.as_str())>{diagnosis.memory.label()}</span>
                    {diagnosis.phase.map(|p| view! { <span class="chip static">{p.label()}</span> })}
                    {diagnosis.stack.iter().map(|s| view! { <span class="chip static">{s.as_str()}</span> }).collect_view()}
                    <span class="small">{format!("{} lines read in {:.0} ms", diagnosis.lines, compute_ms)}</span>
                </div>
            </div>
            {(!figures.is_empty()).then(|| view! {
                <h3>"Figures in the log"</h3>
                <table class="figures">
                    <tbody>{figures.into_iter().map(|(k, v)| view! { <tr><th scope="row">{k}</th><td>{v}</td></tr> }).collect_view()}</tbody>
                </table>
            })}
            {budget_link.map(|href| view! { <p><a class="button-link" href=href>"Open in Budget with these figures"</a></p> })}
            {(!diagnosis.evidence.is_empty()).then(|| view! {
                <h3>"Evidence"</h3>
                <ol class="evidence">
                    {diagnosis.evidence.iter().map(|e| view! {
                        <li>
                            <span class="line-no">{format!("line {}", e.line)}</span>
                            <code class="evidence-line">{e.text.clone()}</code>
                            <span class="badge">{e.signature}</span>
                        </li>
                    }).collect_view()}
                </ol>
            })}
            {(!context.is_empty()).then(|| view! {
                <details class="context">
                    <summary>"The evidence in context"</summary>
                    <div class="log-excerpt" role="region" aria-label="Log excerpt" tabindex="0">
                        {context.into_iter().map(|line| match line {
                            Some(l) => view! {
                                <div class=if l.evidence { "log-line hit" } else { "log-line" }>
                                    <span class="line-no">{l.line}</span><code>{l.text}</code>
                                </div>
                            }.into_any(),
                            None => view! { <div class="log-gap">"…"</div> }.into_any(),
                        }).collect_view()}
                    </div>
                </details>
            })}
            {(!diagnosis.fixes.is_empty()).then(|| view! {
                <h3>"Fixes, best first"</h3>
                <div class="fix-cards">
                    {diagnosis.fixes.iter().cloned().map(|fix| view! { <FixCard fix=fix /> }).collect_view()}
                </div>
            })}
            <super::write_it_up::WriteItUp report=diagnosis.clone() />
        </section>
    }
}

#[component]
fn FixCard(fix: Fix) -> impl IntoView {
    view! {
        <div class="fix-card" data-fix=fix.id>
            <h4>{fix.title} " " <span class="badge">{fix.id}</span></h4>
            <p class="because">"Because " {fix.because}</p>
            <p class="detail">{fix.detail}</p>
            <p><strong>"Trade-off: "</strong>{fix.tradeoff}</p>
            <p><strong>"Verify: "</strong><code>{fix.verify}</code></p>
            <p class="small">"Source: " {fix.source}</p>
            {(!fix.runbooks.is_empty()).then(|| view! {
                <p class="small">"Runbooks: "
                    {fix.runbooks.iter().filter_map(|slug| content::by_slug(slug)).map(|r| view! {
                        <a href=Route::Runbook { slug: r.slug.clone() }.to_hash()>{r.title.clone()}</a>" "
                    }).collect_view()}
                </p>
            })}
        </div>
    }
}
