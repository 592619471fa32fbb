//! Installs the build and test tools when, and only when, they are missing.
//! Versions are pinned: trunk 0.21 (0.22 needs a newer Rust), wasm-bindgen-cli
//! exactly as `Cargo.lock`'s wasm-bindgen, Debian's binaryen for wasm-opt,
//! Debian's chromium and chromium-driver for the browser tests.

use crate::{root, step};
use std::process::Command;

const TRUNK_SERIES: &str = "0.21";

pub fn ensure_site_tools() -> Result<(), String> {
    ensure_wasm_target()?;
    ensure_trunk()?;
    ensure_wasm_bindgen()?;
    ensure_wasm_opt()
}

fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn ensure_wasm_target() -> Result<(), String> {
    let installed = output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed.lines().any(|l| l.trim() == "wasm32-unknown-unknown") {
        return Ok(());
    }
    let mut add = Command::new("rustup");
    add.args(["target", "add", "wasm32-unknown-unknown"]);
    step("installing the wasm32-unknown-unknown target", add)
}

fn ensure_trunk() -> Result<(), String> {
    let version = output("trunk", &["--version"]).unwrap_or_default();
    if version.starts_with(&format!("trunk {TRUNK_SERIES}.")) {
        return Ok(());
    }
    let mut install = Command::new("cargo");
    install.args(["install", "trunk", "--version", &format!("~{TRUNK_SERIES}"), "--locked"]);
    step("installing trunk (about 12 minutes, once)", install)
}

/// The wasm-bindgen version the app links against, from Cargo.lock.
fn locked_wasm_bindgen() -> Result<String, String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            if let Some(version) = lines.next().and_then(|l| l.strip_prefix("version = \"")) {
                return Ok(version.trim_end_matches('"').to_string());
            }
        }
    }
    Err("Cargo.lock has no wasm-bindgen package".into())
}

fn ensure_wasm_bindgen() -> Result<(), String> {
    let locked = locked_wasm_bindgen()?;
    let trunk_toml = std::fs::read_to_string(root().join("Trunk.toml")).map_err(|e| format!("Trunk.toml: {e}"))?;
    if !trunk_toml.contains(&format!("wasm_bindgen = \"{locked}\"")) {
        return Err(format!("Trunk.toml [tools] wasm_bindgen must be \"{locked}\", the version in Cargo.lock"));
    }
    let installed = output("wasm-bindgen", &["--version"]).unwrap_or_default();
    if installed.split_whitespace().nth(1) == Some(locked.as_str()) {
        return Ok(());
    }
    // Not --locked: one of wasm-bindgen-cli's locked dependencies is gone from the registry.
    let mut install = Command::new("cargo");
    install.args(["install", "wasm-bindgen-cli", "--version", &format!("={locked}"), "--force"]);
    step(&format!("installing wasm-bindgen-cli {locked}"), install)
}

fn ensure_wasm_opt() -> Result<(), String> {
    if output("wasm-opt", &["--version"]).is_some() {
        return Ok(());
    }
    apt_install(&["binaryen"])
}

/// cargo-fuzz, and the nightly toolchain its sanitizer builds need.
pub fn ensure_cargo_fuzz() -> Result<(), String> {
    let toolchains = output("rustup", &["toolchain", "list"]).unwrap_or_default();
    if !toolchains.lines().any(|l| l.starts_with("nightly")) {
        let mut add = Command::new("rustup");
        add.args(["toolchain", "install", "nightly", "--profile", "minimal"]);
        step("installing the nightly toolchain", add)?;
    }
    if output("cargo", &["fuzz", "--version"]).is_some() {
        return Ok(());
    }
    let mut install = Command::new("cargo");
    install.args(["install", "cargo-fuzz", "--locked"]);
    step("installing cargo-fuzz (a few minutes, once)", install)
}

/// Chromium and its WebDriver, from Debian; axe-core (from npm) for the accessibility audit.
pub fn ensure_browser() -> Result<(), String> {
    let have = |p: &str| std::path::Path::new(p).exists();
    if !(have("/usr/bin/chromium") && have("/usr/bin/chromedriver")) {
        apt_install(&["chromium", "chromium-driver"])?;
    }
    ensure_axe()
}

/// The version of axe-core the e2e audit injects; `AXE_SCRIPT` is where it lands.
const AXE_VERSION: &str = "4.14.1";

pub fn axe_script() -> std::path::PathBuf {
    root().join(".tools/node_modules/axe-core/axe.min.js")
}

fn ensure_axe() -> Result<(), String> {
    let installed = root().join(".tools/node_modules/axe-core/package.json");
    let version = std::fs::read_to_string(&installed).unwrap_or_default();
    if version.contains(&format!("\"version\": \"{AXE_VERSION}\"")) {
        return Ok(());
    }
    if output("npm", &["--version"]).is_none() {
        apt_install(&["nodejs", "npm"])?;
    }
    let mut install = Command::new("npm");
    install
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(root().join(".tools"))
        .arg(format!("axe-core@{AXE_VERSION}"));
    step(&format!("installing axe-core {AXE_VERSION} (npm)"), install)
}

fn apt_install(packages: &[&str]) -> Result<(), String> {
    let mut update = Command::new("apt-get");
    update.arg("update").arg("-qq");
    step("apt-get update", update)?;
    let mut install = Command::new("apt-get");
    install.args(["install", "-y", "-qq"]).args(packages);
    install.env("DEBIAN_FRONTEND", "noninteractive");
    step(&format!("installing {}", packages.join(" ")), install)
}
