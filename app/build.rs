//! Compiles `content/` with headroom-core at build time and embeds the
//! runbooks; a malformed write-up fails the build naming file and line.

fn main() {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = manifest.parent().unwrap_or(manifest);
    let out_dir = std::env::var_os("OUT_DIR").map(std::path::PathBuf::from).unwrap_or_default();
    headroom_core::writeup::embed_for_build(workspace, &out_dir.join("runbooks.json"));
}
