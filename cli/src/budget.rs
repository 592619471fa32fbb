//! `headroom budget [--config FILE.toml] [--KEY VALUE]... [--solve KEY]... [--json]`:
//! the web calculator's fields as flags or TOML keys (the same names as in a
//! shared link), the breakdown as markdown or JSON, or one inverse question's
//! answer.

use headroom_core::budget::solve::SolveKey;
use headroom_core::budget::{evaluate, fields, markdown, Plan};
use std::process::ExitCode;

const HELP: &str = "\
headroom budget [--config FILE.toml] [--KEY VALUE]... [--solve KEY]... [--json]

--solve KEY answers an inverse question instead of printing the breakdown:
    params       the largest model (parameters) that fits with this setup
    seq_len      the longest sequence
    micro_batch  the largest micro batch
    gpus         the fewest GPUs sharing the state, for ZeRO-1, -2 and -3
    vllm_util    the gpu_memory_utilization whose KV cache holds --vllm_target_tokens

Fields (as flags --KEY VALUE, or KEY = VALUE in the TOML file):
";

pub fn run(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        out!("{HELP}");
        for f in fields::all_fields() {
            outln!("    --{:<18} {} ({})", f.key, f.label, f.help);
        }
        return ExitCode::SUCCESS;
    }
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut json = false;
    let mut solve: Vec<SolveKey> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--json" => json = true,
            "--solve" => match args.get(i + 1).map(|k| SolveKey::parse(k).ok_or(k)) {
                Some(Ok(key)) => {
                    solve.push(key);
                    i += 1;
                }
                Some(Err(other)) => {
                    let known: Vec<&str> = SolveKey::ALL.iter().map(|k| k.name()).collect();
                    return fail(&format!("--solve {other}: not one of {}", known.join(", ")));
                }
                None => return fail("--solve needs a question (see --help)"),
            },
            "--config" => match args.get(i + 1).map(|p| read_toml(p)) {
                Some(Ok(from_file)) => {
                    pairs.extend(from_file);
                    i += 1;
                }
                Some(Err(message)) => return fail(&message),
                None => return fail("--config needs a file"),
            },
            flag if flag.starts_with("--") => {
                let key = flag.trim_start_matches("--");
                match (key.split_once('='), args.get(i + 1)) {
                    (Some((k, v)), _) => pairs.push((k.to_string(), v.to_string())),
                    (None, Some(value)) => {
                        pairs.push((key.to_string(), value.clone()));
                        i += 1;
                    }
                    (None, None) => return fail(&format!("--{key} needs a value")),
                }
            }
            other => return fail(&format!("unexpected argument `{other}`")),
        }
        i += 1;
    }
    let mut plan = Plan::default();
    let rejected = fields::apply(&mut plan, &pairs);
    if !rejected.is_empty() {
        for e in &rejected.shown {
            eprintln!("headroom budget: {}: {}", e.key, e.message);
        }
        if rejected.more > 0 {
            eprintln!("headroom budget: and {} more values were refused", rejected.more);
        }
        return ExitCode::from(2);
    }
    let budget = evaluate(&plan);
    if !solve.is_empty() {
        return answer(&plan, &budget, &solve, json);
    }
    if json {
        match serde_json::to_string_pretty(&budget) {
            Ok(text) => outln!("{text}"),
            Err(e) => return fail(&e.to_string()),
        }
    } else {
        out!("{}", markdown(&plan, &budget, ""));
    }
    ExitCode::SUCCESS
}

/// Prints the answers asked for, as sentences or as the JSON of each.
fn answer(plan: &Plan, budget: &headroom_core::budget::Budget, keys: &[SolveKey], json: bool) -> ExitCode {
    let answers = &budget.answers;
    for key in keys {
        if json {
            let value = match key {
                SolveKey::Params => serde_json::to_value(answers.max_params),
                SolveKey::SeqLen => serde_json::to_value(answers.max_seq_len),
                SolveKey::MicroBatch => serde_json::to_value(answers.max_micro_batch),
                SolveKey::Gpus => serde_json::to_value(&answers.min_gpus),
                SolveKey::VllmUtil => serde_json::to_value(answers.vllm_utilization),
            };
            match value {
                Ok(value) => outln!("{}", serde_json::json!({ key.name(): value })),
                Err(e) => return fail(&e.to_string()),
            }
            continue;
        }
        match answers.line(*key, &plan.gpu) {
            Some(line) => outln!("{line}"),
            None => {
                let why = match key {
                    SolveKey::VllmUtil => "give --vllm_target_tokens (and --vllm_util > 0 for the engine)",
                    _ => "it applies to training only",
                };
                return fail(&format!("--solve {}: {why}", key.name()));
            }
        }
    }
    ExitCode::SUCCESS
}

fn read_toml(path: &str) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    // `path:line: message`, like `headroom check`.
    let line_at = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        format!("{path}:{}: {}", e.span().map_or(1, |s| line_at(s.start)), e.message().trim_end())
    })?;
    let line_of_key = |key: &str| {
        text.lines().position(|l| l.split('=').next().is_some_and(|k| k.trim() == key)).map_or(1, |i| i + 1)
    };
    table
        .into_iter()
        .map(|(key, value)| {
            let text = match value {
                toml::Value::String(s) => s,
                toml::Value::Integer(n) => n.to_string(),
                toml::Value::Float(x) => x.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    return Err(format!(
                        "{path}:{}: `{key}` must be a string, number or boolean, not {}",
                        line_of_key(&key),
                        other.type_str()
                    ))
                }
            };
            Ok((key, text))
        })
        .collect()
}

fn fail(message: &str) -> ExitCode {
    eprintln!("headroom budget: {message}");
    ExitCode::from(2)
}
