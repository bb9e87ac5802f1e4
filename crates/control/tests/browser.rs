//! The live view in a real browser: Debian's chromium in headless mode, driven over its
//! DevTools protocol (a WebSocket, JSON commands). It loads the page of a running graph, sees
//! the blocks and their counters change, sets a parameter from the page and sees its effect in
//! the page's probe plot; screenshots go to `target/liveview/`.
//!
//! Without chromium the test tries `apt-get install -y chromium` (as root), and otherwise
//! SKIPs with a message saying so.

mod common;

use common::{poll, start, DEADLINE};
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

fn chromium() -> Option<PathBuf> {
    if let Some(p) = find_chromium() {
        return Some(p);
    }
    eprintln!("chromium not found; trying `apt-get install -y chromium`");
    let installed = Command::new("apt-get")
        .args(["install", "-y", "chromium"])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if installed {
        find_chromium()
    } else {
        None
    }
}

/// Kills the browser when the test ends, however it ends.
struct Browser(Child);

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A DevTools session on one page.
struct Page {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next: u64,
}

impl Page {
    fn call(&mut self, method: &str, params: Value) -> Value {
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

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        r["result"]["value"].clone()
    }

    fn screenshot(&mut self, path: &Path) {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = decode_base64(r["data"].as_str().unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, png).unwrap();
        eprintln!("screenshot: {}", path.display());
    }
}

fn decode_base64(s: &str) -> Vec<u8> {
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

fn target_dir() -> PathBuf {
    // tests run in the crate's directory; the workspace's target is two levels up.
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/liveview")
}

#[test]
fn the_page_shows_live_counters_and_sets_a_parameter() {
    let Some(chromium) = chromium() else {
        eprintln!("SKIP: no chromium and it could not be installed (apt-get install -y chromium)");
        return;
    };
    let r = start(Some("browser-token"), "127.0.0.1:0");
    let profile = std::env::temp_dir().join(format!("radioflow-liveview-{}", std::process::id()));
    let mut child = Command::new(&chromium)
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--window-size=1400,1100",
            "--remote-debugging-port=0",
            &format!("--user-data-dir={}", profile.display()),
            "about:blank",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let stderr = child.stderr.take().unwrap();
    let _browser = Browser(child);
    // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID"
    let port = BufReader::new(stderr)
        .lines()
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
    page.call("Page.navigate", json!({"url": r.control.url()}));

    // The blocks are drawn.
    poll("the graph drawn with every block", DEADLINE, || {
        let n = page.eval("['src','throttle','ticker','debug'].filter(n => document.getElementById('block-' + n)).length");
        (n == 4).then_some(())
    });
    // The counters change.
    let calls = |page: &mut Page| -> Option<u64> {
        page.eval("(document.querySelector('#row-throttle td:nth-child(6)') || {}).textContent")
            .as_str()?
            .parse()
            .ok()
    };
    let first = poll("the throttle's work calls in the table", DEADLINE, || {
        calls(&mut page)
    });
    poll("the throttle's work calls to change", DEADLINE, || {
        calls(&mut page).filter(|&c| c != first)
    });
    page.eval("document.getElementById('view-throttle.out').value = 'spectrum'; true");
    poll("the spectrum plot", DEADLINE, || {
        let n = page.eval("(Chart.getChart(document.querySelector('.probe canvas')) || {data: {datasets: []}}).data.datasets.length");
        (n.as_u64() == Some(1)).then_some(())
    });
    page.screenshot(&target_dir().join("page.png"));

    // Set src.amplitude to 3 from the page; the probe's time plot shows |x| = 3.
    page.eval("document.getElementById('view-throttle.out').value = 'time'; true");
    page.eval("document.getElementById('param-src-amplitude').value = '3'; document.getElementById('set-src-amplitude').click(); true");
    poll("the page to report the value set", DEADLINE, || {
        let v = page.eval("document.getElementById('value-src-amplitude').textContent");
        v.as_str().is_some_and(|t| t.contains('3')).then_some(())
    });
    poll("the time plot to show amplitude 3", DEADLINE, || {
        let ok = page.eval(
            "(() => { const c = Chart.getChart(document.querySelector('.probe canvas'));
               if (!c || c.data.datasets.length !== 2) return false;
               const [re, im] = c.data.datasets.map(d => d.data);
               return re.length > 0 && re.every((p, i) => Math.abs(Math.hypot(p.y, im[i].y) - 3) < 1e-3); })()",
        );
        (ok == Value::Bool(true)).then_some(())
    });
    page.screenshot(&target_dir().join("page-amplitude-3.png"));
}

#[test]
fn base64_decodes() {
    assert_eq!(decode_base64("aGVsbG8="), b"hello");
    assert_eq!(decode_base64("aGk="), b"hi");
    assert_eq!(decode_base64("YWJj"), b"abc");
}
