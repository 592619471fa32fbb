//! Paste (or drop) a log, get what ran out and what to change. Large logs are
//! read in 1 MB chunks between frames, with progress, so the page never
//! freezes. Pasted text is only ever shown as text.

mod result;
mod write_it_up;

use crate::content;
use gloo_file::Blob;
use headroom_core::decode::Decoder;
use headroom_core::diagnose::{excerpt, Diagnoser, ExcerptLine};
use headroom_core::recommend::{report, Report};
use headroom_core::units::Bytes;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

const CHUNK: usize = 1 << 20;
/// Above this, a paste is taken out of the text box once read: laying out tens
/// of megabytes of text costs the browser seconds and shows nothing useful.
const SHOWN_LIMIT: usize = 2 << 20;

const EXAMPLE_SLURM: &str = "Epoch 0: 100%|██████████| 242/242 [22:54<00:00,  0.18it/s, loss=5.19]\nslurmstepd: error: Detected 4 oom_kill events in StepId=273202.0. Some of the step tasks have been OOM Killed.\n";
const EXAMPLE_CUDA: &str = "[rank0]:   File \"verl/workers/actor/dp_actor.py\", line 312, in update_policy\n[rank0]:     loss.backward()\n[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 17.66 GiB. GPU 0 has a total capacity of 79.18 GiB of which 4.97 GiB is free. Including non-PyTorch memory, this process has 74.20 GiB memory in use. Of the allocated memory 72.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\nactor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=32\n";

/// Lets the browser paint and handle input before the next chunk. A message
/// to ourselves, not setTimeout: timers are clamped, and throttled to one a
/// second in background tabs, which would make a 50 MB log take minutes.
async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| match web_sys::MessageChannel::new() {
        Ok(channel) => {
            channel.port2().set_onmessage(Some(&resolve));
            let _ = channel.port1().post_message(&wasm_bindgen::JsValue::NULL);
        }
        Err(_) => {
            let _ = window().set_timeout_with_callback(&resolve);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

fn now_ms() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or_default()
}

#[component]
pub fn Diagnose() -> impl IntoView {
    // The box is written only when the text comes from elsewhere (an example,
    // a file): echoing a 10 MB paste back into it would cost seconds of layout.
    let log_box: NodeRef<leptos::html::Textarea> = NodeRef::new();
    let show = move |contents: &str| {
        if let Some(area) = log_box.get() {
            area.set_value(contents);
        }
    };
    let result: RwSignal<Option<(Report, Vec<Option<ExcerptLine>>)>> = RwSignal::new(None);
    let progress: RwSignal<Option<f64>> = RwSignal::new(None);
    // Wall-clock time from input to result, and the part spent diagnosing
    // (the rest is the browser laying out a huge text box between chunks).
    let elapsed_ms = RwSignal::new(0.0);
    let compute_ms = RwSignal::new(0.0);
    let read_error: RwSignal<Option<String>> = RwSignal::new(None);
    let big_log: RwSignal<Option<String>> = RwSignal::new(None);
    // Each new input starts a new run; an older run notices and stops.
    let generation = StoredValue::new(0u64);

    // The fixes and, when the whole text is at hand, the evidence in context.
    let finish = move |diagnoser: Diagnoser, text: Option<&str>, started: f64, busy: f64| {
        let finish_started = now_ms();
        let report = report(diagnoser.finish(), content::runbooks());
        let evidence_lines: Vec<usize> = report.evidence.iter().map(|e| e.line).collect();
        let context = text.map(|t| excerpt(t, &evidence_lines, 2, 120)).unwrap_or_default();
        compute_ms.set(busy + now_ms() - finish_started);
        elapsed_ms.set(now_ms() - started);
        progress.set(None);
        result.set(Some((report, context)));
    };

    let run = move |log: String| {
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        if log.trim().is_empty() {
            result.set(None);
            progress.set(None);
            return;
        }
        spawn_local(async move {
            let started = now_ms();
            let mut busy = 0.0;
            let mut diagnoser = Diagnoser::new();
            let mut rest = log.as_str();
            let total = log.len().max(1) as f64;
            while !rest.is_empty() {
                let mut cut = CHUNK.min(rest.len());
                while !rest.is_char_boundary(cut) {
                    cut += 1;
                }
                let chunk_started = now_ms();
                diagnoser.feed(&rest[..cut]);
                busy += now_ms() - chunk_started;
                rest = &rest[cut..];
                if log.len() > CHUNK {
                    progress.set(Some(1.0 - rest.len() as f64 / total));
                    next_frame().await;
                    if generation.get_value() != mine {
                        return;
                    }
                }
            }
            finish(diagnoser, Some(&log), started, busy);
        });
    };

    // A file is read in 1 MB slices (Blob.slice), decoded and fed as it comes:
    // a 1 GB log never exists as one string, in JS or here. Small files are also
    // kept whole, for the evidence in context.
    let load_file = move |file: web_sys::File| {
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        read_error.set(None);
        result.set(None);
        let name = file.name();
        let size = file.size() as u64;
        let blob = Blob::from(file);
        let keep = size <= SHOWN_LIMIT as u64;
        show("");
        big_log.set(Some(format!("{name} ({}) read in full below.", Bytes(size))));
        spawn_local(async move {
            let started = now_ms();
            let mut busy = 0.0;
            let (mut diagnoser, mut decoder) = (Diagnoser::new(), Decoder::new());
            let mut kept = String::new();
            let mut offset = 0;
            while offset < size {
                let end = (offset + CHUNK as u64).min(size);
                let bytes = match gloo_file::futures::read_as_bytes(&blob.slice(offset, end)).await {
                    Ok(bytes) => bytes,
                    Err(e) => {
                        read_error.set(Some(format!("Could not read {name}: {e}")));
                        progress.set(None);
                        return;
                    }
                };
                if generation.get_value() != mine {
                    return;
                }
                let chunk_started = now_ms();
                let text = decoder.decode(&bytes);
                diagnoser.feed(&text);
                busy += now_ms() - chunk_started;
                if keep {
                    kept.push_str(&text);
                }
                offset = end;
                progress.set(Some(offset as f64 / size.max(1) as f64));
            }
            diagnoser.feed(&decoder.finish());
            if keep {
                show(&kept);
            }
            finish(diagnoser, keep.then_some(kept.as_str()), started, busy);
        });
    };

    view! {
        <h1>"Diagnose a log"</h1>
        <p class="lede">"Paste a SLURM .err, dmesg output or a traceback, or drop a log file. Everything stays in this browser tab."</p>
        <div class="examples">
            "Try: "
            <button type="button" on:click=move |_| { show(EXAMPLE_CUDA); run(EXAMPLE_CUDA.into()); }>"a CUDA OOM"</button>
            " "
            <button type="button" on:click=move |_| { show(EXAMPLE_SLURM); run(EXAMPLE_SLURM.into()); }>"a SLURM OOM kill"</button>
        </div>
        <label for="log-input" class="visually-hidden">"Log"</label>
        <textarea id="log-input" class="log-input" rows="12" spellcheck="false" node_ref=log_box
            placeholder="Paste a log here (any size), or drop a file on this box"
            on:input=move |ev| {
                let value = event_target_value(&ev);
                if value.len() > SHOWN_LIMIT {
                    show("");
                    big_log.set(Some(format!("A {:.1} MB log was pasted: too large to show here, read in full below.", value.len() as f64 / 1e6)));
                } else {
                    big_log.set(None);
                }
                run(value)
            }
            on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
            on:drop=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                if let Some(file) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
                    load_file(file);
                }
            }></textarea>
        <div class="file-row">
            <label for="log-file">"Or choose a file: "</label>
            <input id="log-file" type="file" on:change=move |ev| {
                let input = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
                if let Some(file) = input.and_then(|i| i.files()).and_then(|f| f.get(0)) {
                    load_file(file);
                }
            } />
        </div>
        {move || read_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        {move || big_log.get().map(|note| view! { <p class="notice">{note}</p> })}
        {move || progress.get().map(|p| view! {
            <div class="progress">
                <progress max="100" value=format!("{:.0}", p * 100.0) aria-label="Reading the log"></progress>
                {format!(" reading… {:.0}%", p * 100.0)}
            </div>
        })}
        {move || result.get().map(|(d, context)| view! {
            <result::DiagnosisView diagnosis=d context=context elapsed_ms=elapsed_ms.get() compute_ms=compute_ms.get() />
        })}
    }
}
