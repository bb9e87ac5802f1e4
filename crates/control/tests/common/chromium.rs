//! Debian's chromium in headless mode, driven over its DevTools protocol (a WebSocket, JSON
//! commands): enough to load a page, evaluate JavaScript in it and take screenshots. Shared by
//! the live view's browser tests (this crate's `browser.rs`, the command line's
//! `fm_browser.rs`, which includes this file by path).
#![allow(dead_code, unreachable_pub)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

fn find_chromium() -> Option<PathBuf> {
    let which = |name: &str| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|p| p.join(name))
                .find(|p| p.is_file())
        })
    };
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|n| which(n))
}

/// The browser, installed with `apt-get install -y chromium` (as root) when missing; `None`
/// when there is none and it cannot be installed (the caller SKIPs, saying so).
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = find_chromium() {
        return Some(p);
    }
    eprintln!("chromium not found; trying `apt-get install -y chromium`");
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if apt(&["install", "-y", "chromium"])
        || (apt(&["update"]) && apt(&["install", "-y", "chromium"]))
    {
        find_chromium()
    } else {
        None
    }
}

/// The message a test prints when it skips for want of a browser.
pub const SKIP: &str =
    "SKIP: no chromium and it could not be installed (apt-get install -y chromium)";

/// A headless chromium, killed when dropped however the test ends.
pub struct Browser {
    child: Child,
    profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Browser {
    /// Starts `chromium` headless (a `width` x `height` window) with a fresh profile named
    /// after `tag`, and opens a DevTools session on its page.
    pub fn launch(chromium: &Path, tag: &str, width: u32, height: u32) -> (Self, Page) {
        let profile = std::env::temp_dir().join(format!("radioflow-{tag}-{}", std::process::id()));
        let mut child = Command::new(chromium)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                &format!("--window-size={width},{height}"),
                "--remote-debugging-port=0",
                &format!("--user-data-dir={}", profile.display()),
                "about:blank",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let stderr = child.stderr.take().unwrap();
        let browser = Browser { child, profile };
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID"
        let mut lines = BufReader::new(stderr).lines();
        let port = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|l| {
                let rest = l.split("DevTools listening on ws://").nth(1)?.to_owned();
                rest.split('/')
                    .next()?
                    .rsplit(':')
                    .next()?
                    .parse::<u16>()
                    .ok()
            })
            .expect("chromium prints its DevTools address");
        // Keep reading its stderr so that chromium never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        let list: Value = ureq::get(&format!("http://127.0.0.1:{port}/json/list"))
            .call()
            .unwrap()
            .into_json()
            .unwrap();
        let ws = list
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .expect("a page target")
            .to_owned();
        let (socket, _) = tungstenite::connect(ws).unwrap();
        let mut page = Page { socket, next: 0 };
        page.call("Page.enable", json!({}));
        (browser, page)
    }
}

/// A DevTools session on one page.
pub struct Page {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next: u64,
}

impl Page {
    /// Sends a DevTools command and returns its result.
    ///
    /// # Panics
    /// If the browser answers with an error.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let msg = json!({"id": id, "method": method, "params": params}).to_string();
        self.socket.send(Message::Text(msg.into())).unwrap();
        loop {
            let reply = self.socket.read().unwrap();
            let Ok(text) = reply.to_text() else { continue };
            let v: Value = serde_json::from_str(text).unwrap();
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// Opens `url`.
    pub fn navigate(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
    }

    /// The value of a JavaScript expression in the page.
    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        r["result"]["value"].clone()
    }

    /// Writes a PNG of the page to `path` (creating its directory).
    pub fn screenshot(&mut self, path: &Path) {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = decode_base64(r["data"].as_str().unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, png).unwrap();
        eprintln!("screenshot: {}", path.display());
    }
}

pub fn decode_base64(s: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = s
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &d)| acc | (u32::from(d) << (18 - 6 * i)));
        out.extend(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// `target/liveview/`, where the screenshots go (tests run in their crate's directory; the
/// workspace's target is two levels up).
pub fn target_dir(manifest_dir: &str) -> PathBuf {
    Path::new(manifest_dir).join("../../target/liveview")
}
