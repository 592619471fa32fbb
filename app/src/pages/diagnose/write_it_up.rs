//! "Write it up": from the diagnosis on screen to a redacted draft in the
//! editor. The author picks the fixes that were applied; job ids are
//! redacted only when asked.

use crate::content;
use crate::pages::write::store;
use crate::route::Route;
use crate::shell::navigate;
use headroom_core::draft::{draft, Options};
use headroom_core::recommend::Report;
use headroom_core::redact;
use leptos::prelude::*;

#[component]
pub fn WriteItUp(report: Report) -> impl IntoView {
    let chosen: Vec<RwSignal<bool>> = report.fixes.iter().enumerate().map(|(i, _)| RwSignal::new(i == 0)).collect();
    let job_ids = RwSignal::new(false);
    let fixes: Vec<(&'static str, &'static str)> = report.fixes.iter().map(|f| (f.id, f.title)).collect();
    let ids = fixes.clone();
    let picks = chosen.clone();
    let write = move |_| {
        let options = Options {
            date: store::today(),
            fixes: ids
                .iter()
                .zip(&picks)
                .filter(|(_, on)| on.get_untracked())
                .map(|((id, _), _)| id.to_string())
                .collect(),
            redact: redact::Options { job_ids: job_ids.get_untracked() },
            ..Options::default()
        };
        let drafted = draft(&report, content::runbooks(), &options);
        let replacing = store::draft().is_some_and(|old| old != drafted.text);
        if replacing
            && !window().confirm_with_message("Replace the write-up you are drafting in this tab?").unwrap_or(false)
        {
            return;
        }
        store::save_draft(&drafted.text);
        store::save_redactions(&drafted.redactions);
        navigate(&Route::Write);
        // The button sits at the foot of a long result: open the editor at its top.
        window().scroll_to_with_x_and_y(0.0, 0.0);
    };
    view! {
        <section class="write-it-up" aria-labelledby="write-it-up-heading">
            <h3 id="write-it-up-heading">"Write it up"</h3>
            <p class="small">"Start the lab's write-up of this incident from the diagnosis. User names, hosts, addresses and tokens are redacted before the draft is shown; it stays in this tab."</p>
            {(!fixes.is_empty()).then(|| view! {
                <fieldset>
                    <legend>"Fixes you applied"</legend>
                    {fixes.iter().zip(chosen).map(|((id, title), on)| {
                        let input_id = format!("write-fix-{id}");
                        let label_for = input_id.clone();
                        view! {
                            <label for=label_for class="check">
                                <input type="checkbox" id=input_id prop:checked=move || on.get()
                                    on:change=move |ev| on.set(event_target_checked(&ev)) />
                                {*title}
                            </label>
                        }
                    }).collect_view()}
                </fieldset>
            })}
            <label for="write-job-ids" class="check">
                <input type="checkbox" id="write-job-ids" prop:checked=move || job_ids.get()
                    on:change=move |ev| job_ids.set(event_target_checked(&ev)) />
                "Also redact job ids"
            </label>
            <p><button type="button" class="primary" id="write-it-up" on:click=write>"Write it up"</button></p>
        </section>
    }
}
