//! The size a visitor downloads: each wasm, JS, CSS and JSON file of the built site,
//! raw and gzipped (`gzip -9`, as a web server would send it), as a markdown
//! table for README's Performance section (`cargo xtask size --write` puts it
//! there, between the `size:start` and `size:end` markers).

use crate::root;
use std::path::Path;
use std::process::Command;

/// Prints the table; with `write_readme`, also replaces README's copy of it.
pub fn report(dist: &Path, write_readme: bool) -> Result<(), String> {
    let table = table(dist)?;
    print!("{table}");
    if write_readme {
        let path = root().join("README.md");
        let readme = std::fs::read_to_string(&path).map_err(|e| format!("README.md: {e}"))?;
        let (before, rest) = readme.split_once(START).ok_or("README.md has no size:start marker")?;
        let (_, after) = rest.split_once(END).ok_or("README.md has no size:end marker")?;
        std::fs::write(&path, format!("{before}{START}\n{table}{END}{after}")).map_err(|e| e.to_string())?;
        eprintln!("xtask: README.md Performance table updated");
    }
    Ok(())
}

const START: &str = "<!-- size:start -->";
const END: &str = "<!-- size:end -->";

fn table(dist: &Path) -> Result<String, String> {
    let mut rows = Vec::new();
    let entries = std::fs::read_dir(dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if !matches!(path.extension().and_then(|e| e.to_str()), Some("wasm" | "js" | "css" | "json")) {
            continue;
        }
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let kind = describe(name);
        let raw = std::fs::metadata(&path).map_err(|e| e.to_string())?.len();
        rows.push((kind, raw, gzipped_len(&path)?));
    }
    rows.sort();
    let (raw_total, gz_total) = rows.iter().fold((0, 0), |(r, g), row| (r + row.1, g + row.2));
    let mut out = String::from("| asset | raw | gzipped |\n|---|---:|---:|\n");
    for (kind, raw, gz) in &rows {
        out.push_str(&format!("| {kind} | {} | {} |\n", kib(*raw), kib(*gz)));
    }
    out.push_str(&format!("| **total** | **{}** | **{}** |\n", kib(raw_total), kib(gz_total)));
    Ok(out)
}

fn describe(file_name: &str) -> &'static str {
    if file_name.ends_with(".wasm") {
        "app (wasm)"
    } else if file_name == "boot.js" {
        "loader (boot.js)"
    } else if file_name == "sw.js" {
        "service worker (sw.js)"
    } else if file_name.ends_with(".json") {
        "runbooks (content.json)"
    } else if file_name.ends_with(".js") {
        "wasm-bindgen glue (JS)"
    } else {
        "stylesheet (CSS)"
    }
}

fn gzipped_len(path: &Path) -> Result<u64, String> {
    let out = Command::new("gzip").args(["-9", "-c"]).arg(path).output().map_err(|e| format!("gzip: {e}"))?;
    if !out.status.success() {
        return Err(format!("gzip failed on {}", path.display()));
    }
    Ok(out.stdout.len() as u64)
}

fn kib(bytes: u64) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}
