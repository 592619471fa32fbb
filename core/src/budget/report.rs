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
    if let Some(v) = &g.vllm {
        let _ = writeln!(md, "\nvLLM at start-up (gpu_memory_utilization {}), as its log prints it:", v.utilization);
        let _ = writeln!(md, "\n```\n{}\n```", v.log_lines().join("\n"));
    }
    let _ = writeln!(md, "\nWhat fits:\n");
    for line in budget.answers.lines(&plan.gpu) {
        let _ = writeln!(md, "- {line}");
    }
    if let Some(ds) = &budget.deepspeed {
        let _ =
            writeln!(md, "\nDeepSpeed's estimators for these parameters and GPUs (model states; \"GB\" = 2^30 bytes):");
        let tables: Vec<String> = std::iter::once(&ds.zero2).chain(&ds.zero3).map(|t| t.text()).collect();
        let _ = writeln!(md, "\n```\n{}\n```", tables.join("\n\n"));
        let ours =
            |figures: &[crate::units::Bytes]| figures.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let zero3 =
            if ds.headroom_zero3.is_empty() { String::new() } else { format!("; ZeRO-3 {}", ours(&ds.headroom_zero3)) };
        let _ = writeln!(md, "\nHeadroom per GPU, same rows: ZeRO-2 {}{zero3}.", ours(&ds.headroom_zero2));
        let _ = writeln!(md, "\n{}", super::deepspeed::WHY_THEY_DIFFER);
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
