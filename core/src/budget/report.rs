//! The result as a markdown block, ready to paste into a write-up.

use super::{Budget, Plan};
use std::fmt::Write;

pub fn markdown(plan: &Plan, budget: &Budget, link: &str) -> String {
    let mut md = String::new();
    let g = &budget.gpu;
    let verdict = |fits: bool| if fits { "fits" } else { "does NOT fit" };
    let _ = writeln!(md, "### Memory budget: {} on {}", plan.gpu.model.name, plan.gpu_name);
    let _ = writeln!(md);
    let _ = writeln!(md, "GPU per device: **{}** of {} ({}).", g.total, g.capacity, verdict(g.fits()));
    let _ = writeln!(md);
    let _ = writeln!(md, "| GPU component | memory |\n|---|---:|");
    for (component, bytes) in g.parts.iter().filter(|(_, b)| b.0 > 0) {
        let _ = writeln!(md, "| {} | {} |", component.label(), bytes);
    }
    if g.offloaded_to_host.0 > 0 {
        let _ = writeln!(md, "\nOffloaded to host RAM: {} per GPU process.", g.offloaded_to_host);
    }
    if let Some(tokens) = g.rollout_kv_tokens {
        let _ = writeln!(md, "\nvLLM rollout KV cache: about {tokens} tokens after its copy of the weights.");
    }
    if let Some(m) = budget.max_micro_batch {
        let _ = writeln!(md, "\nLargest micro batch that fits: **{m}** (now {}).", plan.gpu.micro_batch);
    }
    let h = &budget.host;
    let _ = writeln!(
        md,
        "\nHost RAM per node: steady **{}**, peak at validation start **{}**, limit {} ({}).",
        h.steady,
        h.peak,
        h.limit,
        verdict(h.fits())
    );
    let _ = writeln!(md, "\n```bash\n{}\n```", budget.sbatch);
    if !budget.suggestions.is_empty() {
        let _ = writeln!(md, "\n| suggestion | memory after | fits | source |\n|---|---:|---|---|");
        for s in &budget.suggestions {
            let _ =
                writeln!(md, "| {} | {} | {} | {} |", s.change, s.after, if s.fits { "yes" } else { "no" }, s.source);
        }
    }
    let _ = writeln!(
        md,
        "\nFormulas: {}.",
        super::FORMULAS.iter().map(|(_, source)| *source).collect::<Vec<_>>().join("; ")
    );
    if !link.is_empty() {
        let _ = writeln!(md, "\n[Open this calculation in Headroom]({link})");
    }
    md
}
