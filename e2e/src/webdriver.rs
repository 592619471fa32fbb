//! A minimal W3C WebDriver client: just the commands the end-to-end tests use,
//! over blocking HTTP to a `chromedriver` this module starts and stops.

use serde_json::{json, Value};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

pub type Result<T> = std::result::Result<T, String>;

/// A `chromedriver` process and one headless Chromium session on it.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    _profile: TempDir,
}

/// A page element, by WebDriver reference.
#[derive(Clone, Debug)]
pub struct Element(String);

/// A console message the page logged.
#[derive(Debug, Clone)]
pub struct ConsoleEntry {
    pub level: String,
    pub message: String,
}

impl Browser {
    /// Starts chromedriver on a free port and opens a headless Chromium with a
    /// fresh profile and every background-network feature off.
    pub fn launch() -> Result<Browser> {
        let chromedriver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
        let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let port = free_port()?;
        let driver = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {chromedriver}: {e} (install chromium-driver)"))?;
        let base = format!("http://127.0.0.1:{port}");
        let profile = TempDir::new("headroom-chromium")?;
        let downloads = format!("{}/downloads", profile.path);
        let mut browser = Browser { driver, base, session: String::new(), _profile: profile };
        browser.wait_ready()?;
        let capabilities = json!({
            "capabilities": { "alwaysMatch": {
                "browserName": "chrome",
                "goog:loggingPrefs": { "browser": "ALL" },
                "goog:chromeOptions": {
                    "binary": chromium,
                    "args": [
                        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--no-first-run", "--disable-quic", "--window-size=1280,900",
                        format!("--user-data-dir={}", browser._profile.path),
                    ],
                    "prefs": {
                        "download.default_directory": downloads,
                        "download.prompt_for_download": false
                    }
                }
            }}
        });
        let answer = browser.call("POST", "/session", Some(capabilities))?;
        browser.session = answer["sessionId"].as_str().ok_or_else(|| format!("no session id in {answer}"))?.to_string();
        Ok(browser)
    }

    fn wait_ready(&self) -> Result<()> {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(status) = self.call("GET", "/status", None) {
                if status["ready"].as_bool() == Some(true) {
                    return Ok(());
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err("chromedriver did not become ready in 20 s".into())
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value> {
        let url = format!("{}{}", self.base, path);
        let request = ureq::request(method, &url).timeout(Duration::from_secs(60));
        let response = match body {
            Some(body) => request.send_json(body),
            None => request.call(),
        };
        let value: Value = match response {
            Ok(r) => r.into_json().map_err(|e| format!("{method} {path}: bad JSON: {e}"))?,
            Err(ureq::Error::Status(code, r)) => {
                let text = r.into_string().unwrap_or_default();
                return Err(format!("{method} {path}: HTTP {code}: {text}"));
            }
            Err(e) => return Err(format!("{method} {path}: {e}")),
        };
        Ok(value.get("value").cloned().unwrap_or(value))
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value> {
        self.call(method, &format!("/session/{}{}", self.session, path), body)
    }

    pub fn goto(&self, url: &str) -> Result<()> {
        self.session_call("POST", "/url", Some(json!({ "url": url }))).map(drop)
    }

    /// Opens a new tab, switches to it and loads `url`: a bookmark opened afresh.
    pub fn open_in_new_tab(&self, url: &str) -> Result<()> {
        let tab = self.session_call("POST", "/window/new", Some(json!({ "type": "tab" })))?;
        let handle = tab["handle"].as_str().ok_or("no handle for the new tab")?.to_string();
        self.session_call("POST", "/window", Some(json!({ "handle": handle })))?;
        self.goto(url)
    }

    /// Runs an async script (its last argument is the callback) and returns what it passed back.
    pub fn execute_async(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        self.session_call("POST", "/execute/async", Some(json!({ "script": script, "args": args })))
    }

    pub fn current_url(&self) -> Result<String> {
        Ok(self.session_call("GET", "/url", None)?.as_str().unwrap_or_default().to_string())
    }

    pub fn title(&self) -> Result<String> {
        Ok(self.session_call("GET", "/title", None)?.as_str().unwrap_or_default().to_string())
    }

    /// The text of a file the page downloaded, once the download has finished (up to 10 s).
    pub fn downloaded(&self, name: &str) -> Result<String> {
        let path = std::path::Path::new(&self._profile.path).join("downloads").join(name);
        self.wait_until(&format!("the download {name}"), || Ok(std::fs::read_to_string(&path).ok()))
    }

    /// Runs a script in the page and returns its JSON result.
    pub fn execute(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        self.session_call("POST", "/execute/sync", Some(json!({ "script": script, "args": args })))
    }

    pub fn find_all(&self, css: &str) -> Result<Vec<Element>> {
        let found = self.session_call("POST", "/elements", Some(json!({ "using": "css selector", "value": css })))?;
        Ok(found
            .as_array()
            .map(|items| {
                items.iter().filter_map(|e| e[ELEMENT_KEY].as_str()).map(|id| Element(id.to_string())).collect()
            })
            .unwrap_or_default())
    }

    /// Waits up to 10 s for an element matching `css` to exist.
    pub fn wait_for(&self, css: &str) -> Result<Element> {
        self.wait_until(&format!("an element matching `{css}`"), || Ok(self.find_all(css)?.into_iter().next()))
    }

    /// Waits up to 10 s for the first element matching `css` to have text containing `needle`.
    pub fn wait_for_text(&self, css: &str, needle: &str) -> Result<Element> {
        self.wait_until(&format!("`{css}` containing {needle:?}"), || {
            for element in self.find_all(css)? {
                if self.text(&element)?.contains(needle) {
                    return Ok(Some(element));
                }
            }
            Ok(None)
        })
    }

    /// Polls `probe` every 50 ms until it yields a value or 10 s pass.
    pub fn wait_until<T>(&self, what: &str, probe: impl FnMut() -> Result<Option<T>>) -> Result<T> {
        self.wait_until_within(what, Duration::from_secs(10), probe)
    }

    /// [`Browser::wait_until`] with a longer patience, for work that takes long by design.
    pub fn wait_until_within<T>(
        &self,
        what: &str,
        patience: Duration,
        mut probe: impl FnMut() -> Result<Option<T>>,
    ) -> Result<T> {
        let deadline = Instant::now() + patience;
        loop {
            // A stale element between find and read is normal while the page re-renders.
            if let Ok(Some(value)) = probe() {
                return Ok(value);
            }
            if Instant::now() > deadline {
                let url = self.current_url().unwrap_or_default();
                return Err(format!("timed out after {} s waiting for {what} at {url}", patience.as_secs()));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn text(&self, element: &Element) -> Result<String> {
        Ok(self
            .session_call("GET", &format!("/element/{}/text", element.0), None)?
            .as_str()
            .unwrap_or_default()
            .to_string())
    }

    pub fn attribute(&self, element: &Element, name: &str) -> Result<Option<String>> {
        let value = self.session_call("GET", &format!("/element/{}/attribute/{name}", element.0), None)?;
        Ok(value.as_str().map(str::to_string))
    }

    pub fn click(&self, element: &Element) -> Result<()> {
        self.session_call("POST", &format!("/element/{}/click", element.0), Some(json!({}))).map(drop)
    }

    /// Types text into a field, as key presses.
    pub fn type_text(&self, element: &Element, text: &str) -> Result<()> {
        self.session_call("POST", &format!("/element/{}/value", element.0), Some(json!({ "text": text }))).map(drop)
    }

    pub fn clear(&self, element: &Element) -> Result<()> {
        self.session_call("POST", &format!("/element/{}/clear", element.0), Some(json!({}))).map(drop)
    }

    /// Presses keys on whatever has focus (e.g. "/" to focus the search box).
    pub fn press_keys(&self, keys: &str) -> Result<()> {
        let actions: Vec<Value> = keys
            .chars()
            .flat_map(|c| {
                [json!({"type": "keyDown", "value": c.to_string()}), json!({"type": "keyUp", "value": c.to_string()})]
            })
            .collect();
        let body = json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] });
        self.session_call("POST", "/actions", Some(body)).map(drop)
    }

    /// Resizes the browser window (CSS pixels), e.g. to a phone's 390 x 844.
    pub fn set_window_size(&self, width: u32, height: u32) -> Result<()> {
        self.session_call("POST", "/window/rect", Some(json!({ "width": width, "height": height }))).map(drop)
    }

    /// How many resources the page has fetched so far (the Resource Timing
    /// buffer): unchanged after load means nothing left the page.
    pub fn resources_fetched(&self) -> Result<u64> {
        let n = self.execute("return performance.getEntriesByType('resource').length", vec![])?;
        n.as_u64().ok_or_else(|| format!("not a count: {n}"))
    }

    /// A PNG of the viewport, base64-encoded as WebDriver returns it (for
    /// looking at a page while writing a test).
    pub fn screenshot_base64(&self) -> Result<String> {
        Ok(self.session_call("GET", "/screenshot", None)?.as_str().unwrap_or_default().to_string())
    }

    /// The console messages logged since the last call (chromedriver's browser log).
    pub fn console(&self) -> Result<Vec<ConsoleEntry>> {
        let entries = self.session_call("POST", "/se/log", Some(json!({ "type": "browser" })))?;
        Ok(entries
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .map(|e| ConsoleEntry {
                        level: e["level"].as_str().unwrap_or_default().to_string(),
                        message: e["message"].as_str().unwrap_or_default().to_string(),
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    /// Console errors and warnings raised since the last call; CSP violations,
    /// failed requests and panics all surface here.
    pub fn console_problems(&self) -> Result<Vec<ConsoleEntry>> {
        Ok(self.console()?.into_iter().filter(|e| e.level == "SEVERE" || e.level == "WARNING").collect())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.call("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}

/// A directory removed on drop (a fresh Chromium profile for every run).
struct TempDir {
    path: String,
}

impl TempDir {
    fn new(prefix: &str) -> Result<TempDir> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let path = std::env::temp_dir().join(format!("{prefix}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(TempDir { path: path.display().to_string() })
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
