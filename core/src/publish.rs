//! Publishing the site's data: the runbooks compiled into `content.json` and
//! the service worker's list of the files of one build (with a hash of
//! each), so a deployed folder works offline and a new deploy, content
//! included, is a new version. Used by `headroom compile` (no wasm toolchain
//! needed) and by `cargo xtask dist`.

use crate::writeup::{compile_dir, FileError};
use std::path::{Path, PathBuf};

/// The data file the site reads its runbooks from.
pub const CONTENT_FILE: &str = "content.json";
/// The service worker; its `const BUILD = …;` line lists the build's files.
pub const SERVICE_WORKER: &str = "sw.js";
const BUILD_LINE: &str = "const BUILD = ";

#[derive(Debug)]
pub enum PublishError {
    /// Write-ups that do not compile, each with file and line.
    Content(Vec<FileError>),
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for PublishError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PublishError::Content(errors) => {
                for e in errors {
                    writeln!(f, "{e}")?;
                }
                write!(f, "{} problem(s); nothing was written", errors.len())
            }
            PublishError::Io(path, e) => write!(f, "{}: {e}", path.display()),
        }
    }
}

/// Compiles `content_dir` into `out/content.json` and, when `out` holds the
/// service worker, rewrites its list of files. A write-up that does not
/// compile leaves `out` untouched.
pub fn publish(content_dir: &Path, out: &Path) -> Result<usize, PublishError> {
    let runbooks = compile_dir(content_dir).map_err(PublishError::Content)?;
    let json = serde_json::to_string(&runbooks).map_err(|e| PublishError::Io(out.join(CONTENT_FILE), e.into()))?;
    write_atomically(&out.join(CONTENT_FILE), json.as_bytes())?;
    if out.join(SERVICE_WORKER).is_file() {
        write_precache_list(out)?;
    }
    Ok(runbooks.len())
}

/// Rewrites the `const BUILD = …;` line of `out/sw.js` with every other file
/// of `out` and a version made of their hashes.
pub fn write_precache_list(out: &Path) -> Result<(), PublishError> {
    let sw_path = out.join(SERVICE_WORKER);
    let io = |path: &Path, e: std::io::Error| PublishError::Io(path.to_path_buf(), e);
    let worker = std::fs::read_to_string(&sw_path).map_err(|e| io(&sw_path, e))?;
    let mut files = Vec::new();
    collect(out, out, &mut files).map_err(|e| io(out, e))?;
    files.retain(|(name, _)| name != SERVICE_WORKER);
    files.sort();
    let mut version = Fnv::default();
    for (name, hash) in &files {
        version.write(name.as_bytes());
        version.write(&hash.to_le_bytes());
    }
    // "./" is the folder itself: a bookmark of the site's root is served from the cache too.
    let list: Vec<String> =
        std::iter::once("\"./\"".to_string()).chain(files.iter().map(|(name, _)| format!("{name:?}"))).collect();
    let line = format!("{BUILD_LINE}{{ version: \"{:016x}\", files: [{}] }};", version.0, list.join(", "));
    let mut replaced = false;
    let rewritten: Vec<String> = worker
        .lines()
        .map(|l| {
            if l.starts_with(BUILD_LINE) {
                replaced = true;
                line.clone()
            } else {
                l.to_string()
            }
        })
        .collect();
    if !replaced {
        let missing = std::io::Error::new(std::io::ErrorKind::InvalidData, format!("no line starting `{BUILD_LINE}`"));
        return Err(io(&sw_path, missing));
    }
    write_atomically(&sw_path, (rewritten.join("\n") + "\n").as_bytes())
}

/// Every file below `dir` as (path relative to `root` with `/`, FNV-1a hash of its bytes).
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, u64)>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(root, &path, out)?;
        } else {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            let name = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            let mut hash = Fnv::default();
            hash.write(&std::fs::read(&path)?);
            out.push((name, hash.0));
        }
    }
    Ok(())
}

/// Written beside the target, then renamed over it: a reader never sees half a file.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), PublishError> {
    let temporary = path.with_extension("partial");
    std::fs::write(&temporary, bytes)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| PublishError::Io(path.to_path_buf(), e))
}

/// FNV-1a, 64 bits: enough to tell one build's files from another's.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("headroom-publish-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_content_change_is_a_new_version() {
        let out = temp("version");
        std::fs::write(out.join("index.html"), "<html>").unwrap();
        std::fs::write(
            out.join(SERVICE_WORKER),
            "// the worker\nconst BUILD = { version: \"dev\", files: [] };\nself.x = 1;\n",
        )
        .unwrap();
        let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        assert_eq!(publish(&content, &out).unwrap(), 10);
        let first = std::fs::read_to_string(out.join(SERVICE_WORKER)).unwrap();
        assert!(first.contains(r#"files: ["./", "content.json", "index.html"]"#), "{first}");
        assert!(first.starts_with("// the worker\n") && first.ends_with("self.x = 1;\n"));
        std::fs::write(out.join("index.html"), "<html><body>").unwrap();
        write_precache_list(&out).unwrap();
        let second = std::fs::read_to_string(out.join(SERVICE_WORKER)).unwrap();
        assert_ne!(first, second, "a changed file changes the version");
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn a_broken_write_up_writes_nothing() {
        let out = temp("broken");
        let content = temp("broken-content");
        std::fs::create_dir_all(content.join("incidents")).unwrap();
        std::fs::create_dir_all(content.join("guides")).unwrap();
        std::fs::write(content.join("incidents").join("bad.md"), "---\ntitle: Bad\nmemory: ram\n---\n").unwrap();
        let error = publish(&content, &out).unwrap_err().to_string();
        assert!(error.contains("bad.md:3:") && error.contains("nothing was written"), "{error}");
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
        std::fs::remove_dir_all(&out).unwrap();
        std::fs::remove_dir_all(&content).unwrap();
    }
}
