//! A static file server for `dist/`: enough HTTP/1.1 for a browser to load the
//! site, with correct MIME types (WebAssembly streaming compilation needs
//! `application/wasm`). Only ever bound to loopback.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

/// A running server; it lives as long as the process (tests and `xtask serve`)
/// unless stopped, after which connections are refused as if the site were gone.
pub struct StaticServer {
    pub addr: SocketAddr,
    /// The URL of the site's index, with a trailing slash.
    pub url: String,
    stopped: Arc<AtomicBool>,
    accepting: Mutex<Option<thread::JoinHandle<()>>>,
}

impl StaticServer {
    /// Closes the listening socket: later requests fail like a network outage.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        // Wake the blocking accept so it sees the flag and drops the listener, and wait for that.
        let _ = TcpStream::connect(self.addr);
        if let Some(accepting) = self.accepting.lock().ok().and_then(|mut a| a.take()) {
            let _ = accepting.join();
        }
    }
}

/// Serves `root` at `http://127.0.0.1:<port><mount>` where `mount` is `/` or a
/// sub-path such as `/wiki/headroom/`. Port 0 picks a free one.
pub fn serve(root: &Path, port: u16, mount: &str) -> std::io::Result<StaticServer> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let addr = listener.local_addr()?;
    let mount = format!("/{}/", mount.trim_matches('/')).replace("//", "/");
    let url = format!("http://{addr}{mount}");
    let root = root.to_path_buf();
    let stopped = Arc::new(AtomicBool::new(false));
    let stop = stopped.clone();
    let accepting = thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let root = root.clone();
            let mount = mount.clone();
            thread::spawn(move || {
                let _ = handle(stream, &root, &mount);
            });
        }
    });
    Ok(StaticServer { addr, url, stopped, accepting: Mutex::new(Some(accepting)) })
}

fn handle(mut stream: TcpStream, root: &Path, mount: &str) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Drain the headers; nothing in them changes the answer.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let file = if method == "GET" || method == "HEAD" { resolve(root, mount, path) } else { None };
    match file.and_then(|f| std::fs::read(&f).ok().map(|body| (f, body))) {
        Some((file, body)) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
                mime(&file),
                body.len()
            );
            stream.write_all(head.as_bytes())?;
            if method == "GET" {
                stream.write_all(&body)?;
            }
        }
        None => {
            let body = b"not found";
            let head = format!(
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            stream.write_all(head.as_bytes())?;
            stream.write_all(body)?;
        }
    }
    stream.flush()
}

/// Maps a URL path under `mount` to a file under `root`; refuses `..`.
fn resolve(root: &Path, mount: &str, url_path: &str) -> Option<PathBuf> {
    let rest = if url_path == mount.trim_end_matches('/') { "" } else { url_path.strip_prefix(mount)? };
    let relative = Path::new(rest);
    if relative.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let candidate = root.join(relative);
    if candidate.is_dir() {
        Some(candidate.join("index.html"))
    } else {
        Some(candidate)
    }
}

fn mime(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_under_a_sub_path_only() {
        let root = Path::new("/srv/dist");
        let mount = "/wiki/headroom/";
        assert_eq!(resolve(root, mount, "/wiki/headroom/app.js"), Some(root.join("app.js")));
        assert_eq!(resolve(root, mount, "/app.js"), None);
        assert_eq!(resolve(root, mount, "/wiki/headroom/../secret"), None);
    }
}
