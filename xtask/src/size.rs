//! The size a visitor downloads: each wasm, JS and CSS file of the built site,
//! raw and gzipped (`gzip -9`, as a web server would send it), as a markdown
//! table for README's Performance section.

use std::path::Path;
use std::process::Command;

pub fn report(dist: &Path) -> Result<(), String> {
    let mut rows = Vec::new();
    let entries = std::fs::read_dir(dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let kind = match path.extension().and_then(|e| e.to_str()) {
            Some("wasm") => "wasm",
            Some("js") => "JS",
            Some("css") => "CSS",
            _ => continue,
        };
        let raw = std::fs::metadata(&path).map_err(|e| e.to_string())?.len();
        rows.push((kind, raw, gzipped_len(&path)?));
    }
    rows.sort();
    let (raw_total, gz_total) = rows.iter().fold((0, 0), |(r, g), row| (r + row.1, g + row.2));
    println!("| asset | raw | gzipped |\n|---|---:|---:|");
    for (kind, raw, gz) in &rows {
        println!("| {kind} | {} | {} |", kib(*raw), kib(*gz));
    }
    println!("| **total** | **{}** | **{}** |", kib(raw_total), kib(gz_total));
    Ok(())
}

fn gzipped_len(path: &Path) -> Result<u64, String> {
    let out = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(path)
        .output()
        .map_err(|e| format!("gzip: {e}"))?;
    if !out.status.success() {
        return Err(format!("gzip failed on {}", path.display()));
    }
    Ok(out.stdout.len() as u64)
}

fn kib(bytes: u64) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}
