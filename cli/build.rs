//! Compiles `content/` with headroom-core at build time: the CLI embeds the
//! runbooks (fixes link to them), and a malformed write-up fails the build.

use std::path::{Path, PathBuf};

fn main() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("cli/ sits in the workspace");
    println!("cargo:rerun-if-changed={}", workspace.join("content").display());
    for sub in ["incidents", "guides"] {
        if let Ok(entries) = std::fs::read_dir(workspace.join("content").join(sub)) {
            for entry in entries.flatten() {
                println!("cargo:rerun-if-changed={}", entry.path().display());
            }
        }
    }
    // Errors then read `content/incidents/x.md:12: ...`, as `headroom check` prints them.
    std::env::set_current_dir(workspace).expect("enter the workspace");
    let runbooks = match headroom_core::writeup::compile_dir(Path::new("content")) {
        Ok(runbooks) => runbooks,
        Err(errors) => {
            for error in &errors {
                eprintln!("error: {error}");
            }
            eprintln!(
                "content/ has {} problem(s); `cargo run -p headroom-cli -- check content` shows the same",
                errors.len()
            );
            std::process::exit(1);
        }
    };
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("runbooks.json");
    let json = serde_json::to_string(&runbooks).expect("runbooks serialise");
    std::fs::write(&out, json).expect("write runbooks.json");
}
