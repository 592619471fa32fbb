//! Building the site with trunk (always offline) and serving it locally.

use crate::{root, step, tools};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Release build of the deployable site into `out`. Always release: without
/// reference types (see .cargo/config.toml) only the LTO build links, and
/// serving what ships is the point anyway.
pub fn dist(out: &Path) -> Result<PathBuf, String> {
    tools::ensure_site_tools()?;
    let mut build = Command::new("trunk");
    build.args(["build", "--release", "--offline", "--dist"]).arg(out).current_dir(root());
    step("trunk build --release --offline", build)?;
    // The runbooks as data beside the app, and the service worker's list of this build's files.
    let count = headroom_core::publish::publish(&root().join("content"), out).map_err(|e| e.to_string())?;
    eprintln!("xtask: {count} write-ups in {}", out.join(headroom_core::publish::CONTENT_FILE).display());
    check(out)?;
    eprintln!("xtask: the site is in {} (copy it anywhere; every URL is relative)", out.display());
    Ok(out.to_path_buf())
}

/// Builds the site, then serves it on loopback until interrupted.
pub fn serve(port: u16) -> Result<(), String> {
    let out = dist(&root().join("target").join("serve-dist"))?;
    let server = e2e::server::serve(&out, port, "/").map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    eprintln!("xtask: serving Headroom at {} (Ctrl-C to stop)", server.url);
    loop {
        std::thread::park();
    }
}

/// The built page keeps the promises the site makes: relative URLs only (so it
/// works under any sub-path), no inline script, a CSP without unsafe-inline/eval.
fn check(out: &Path) -> Result<(), String> {
    let index = std::fs::read_to_string(out.join("index.html")).map_err(|e| format!("{}: {e}", out.display()))?;
    let problems = index_problems(&index);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}/index.html: {}", out.display(), problems.join("; ")))
    }
}

fn index_problems(index: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for attribute in ["src=\"/", "href=\"/", "src='/", "href='/"] {
        if index.contains(attribute) {
            problems.push(format!("absolute URL ({attribute}...) breaks sub-path hosting"));
        }
    }
    let inline_scripts = index.split("<script").skip(1).filter(|tag| {
        let open = tag.split('>').next().unwrap_or("");
        !open.contains("src=")
    });
    if inline_scripts.count() > 0 {
        problems.push("inline <script> (the CSP forbids them)".into());
    }
    match index.split("Content-Security-Policy\" content=\"").nth(1).and_then(|rest| rest.split('"').next()) {
        None => problems.push("no Content-Security-Policy".into()),
        Some(csp) if csp.contains("unsafe-inline") || csp.contains("'unsafe-eval'") => {
            problems.push(format!("CSP allows unsafe code: {csp}"))
        }
        Some(_) => {}
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::index_problems;

    const CSP: &str = r#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval'">"#;

    #[test]
    fn accepts_a_relative_page_with_a_strict_csp() {
        let page =
            format!(r#"{CSP}<script type="module" src="./boot.js" data-js="./a.js"></script><link href="./x.css">"#);
        assert!(index_problems(&page).is_empty(), "{:?}", index_problems(&page));
    }

    #[test]
    fn rejects_inline_script_absolute_urls_and_weak_csp() {
        let page = r#"<meta http-equiv="Content-Security-Policy" content="script-src 'unsafe-inline'"><script>alert(1)</script><link href="/x.css">"#;
        let problems = index_problems(page);
        assert_eq!(problems.len(), 3, "{problems:?}");
    }
}
