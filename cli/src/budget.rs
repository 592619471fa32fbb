//! `headroom budget [--config FILE.toml] [--KEY VALUE]... [--json]`: the web
//! calculator's fields as flags or TOML keys (the same names as in a shared
//! link), the breakdown as markdown or JSON.

use headroom_core::budget::{evaluate, fields, markdown, Plan};
use std::process::ExitCode;

const HELP: &str = "\
headroom budget [--config FILE.toml] [--KEY VALUE]... [--json]

Fields (as flags --KEY VALUE, or KEY = VALUE in the TOML file):
";

pub fn run(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        for f in fields::all_fields() {
            println!("    --{:<18} {} ({})", f.key, f.label, f.help);
        }
        return ExitCode::SUCCESS;
    }
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut json = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--json" => json = true,
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
    let errors = fields::apply(&mut plan, &pairs);
    if !errors.is_empty() {
        for e in &errors {
            eprintln!("headroom budget: {}: {}", e.key, e.message);
        }
        return ExitCode::from(2);
    }
    let budget = evaluate(&plan);
    if json {
        match serde_json::to_string_pretty(&budget) {
            Ok(text) => println!("{text}"),
            Err(e) => return fail(&e.to_string()),
        }
    } else {
        print!("{}", markdown(&plan, &budget, ""));
    }
    ExitCode::SUCCESS
}

fn read_toml(path: &str) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| format!("{path}: {}", e.message()))?;
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
                        "{path}: `{key}` must be a string, number or boolean, not {}",
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
