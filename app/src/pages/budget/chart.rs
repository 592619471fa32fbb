//! Stacked bars drawn as SVG: each component's share of the total, with the
//! capacity (or memory limit) marked. Colours come from the stylesheet.

use headroom_core::budget::Budget;
use headroom_core::units::Bytes;
use leptos::prelude::*;

const WIDTH: f64 = 600.0;

struct Segment {
    label: &'static str,
    bytes: Bytes,
}

fn bar(segments: Vec<Segment>, limit: Bytes, limit_label: &'static str) -> impl IntoView {
    // Saturating: a part too large to hold makes the total "more than", never a wrapped figure.
    let total: Bytes = segments.iter().map(|s| s.bytes).sum();
    let drawn: f64 = segments.iter().map(|s| s.bytes.as_f64()).sum();
    let scale_max = drawn.max(limit.as_f64()).max(1.0);
    let mut x = 0.0;
    let rects = segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.bytes.0 > 0)
        .map(|(i, s)| {
            let w = s.bytes.as_f64() / scale_max * WIDTH;
            let rect = view! {
                <rect x=format!("{x:.2}") y="4" width=format!("{w:.2}") height="28" class=format!("seg seg-{i}")>
                    <title>{format!("{}: {}", s.label, s.bytes)}</title>
                </rect>
            };
            x += w;
            rect
        })
        .collect_view();
    let limit_x = limit.as_f64() / scale_max * WIDTH;
    let legend = segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.bytes.0 > 0)
        .map(|(i, s)| view! { <li><span class=format!("swatch seg-{i}")></span>{s.label} " " <strong>{s.bytes.to_string()}</strong></li> })
        .collect_view();
    view! {
        <svg class="stacked-bar" viewBox=format!("0 0 {WIDTH} 36") role="img"
             aria-label=format!("total {total} against {limit_label} {limit}")>
            {rects}
            <line x1=format!("{limit_x:.2}") x2=format!("{limit_x:.2}") y1="0" y2="36" class="limit" />
        </svg>
        <ul class="legend">{legend}<li><span class="swatch limit"></span>{limit_label} " " <strong>{limit.to_string()}</strong></li></ul>
    }
}

#[component]
pub fn GpuChart(budget: Memo<Budget>) -> impl IntoView {
    move || {
        let g = budget.get().gpu;
        let segments = g.parts.iter().map(|(c, b)| Segment { label: c.label(), bytes: *b }).collect();
        bar(segments, g.capacity, "capacity")
    }
}

#[component]
pub fn HostChart(budget: Memo<Budget>) -> impl IntoView {
    move || {
        let h = budget.get().host;
        let segments = h.parts.iter().map(|(c, b)| Segment { label: c.label(), bytes: *b }).collect();
        bar(segments, h.limit, "limit")
    }
}
