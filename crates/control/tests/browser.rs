//! The live view in a real browser: Debian's chromium in headless mode, driven over its
//! DevTools protocol (a WebSocket, JSON commands). It loads the page of a running graph, sees
//! the blocks and their counters change, sets a parameter from the page and sees its effect in
//! the page's probe plot; screenshots go to `target/liveview/`.
//!
//! Without chromium the test tries `apt-get install -y chromium` (as root), and otherwise
//! SKIPs with a message saying so. The driver is `common/chromium.rs`.

mod common;

use common::chromium::{chromium, decode_base64, target_dir, Browser, Page, SKIP};
use common::{poll, start, DEADLINE};
use serde_json::Value;

#[test]
fn the_page_shows_live_counters_and_sets_a_parameter() {
    let Some(chromium) = chromium() else {
        eprintln!("{SKIP}");
        return;
    };
    let r = start(Some("browser-token"), "127.0.0.1:0");
    let (_browser, mut page) = Browser::launch(&chromium, "liveview", 1400, 1100);
    page.navigate(&r.control.url());

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
    page.screenshot(&target_dir(env!("CARGO_MANIFEST_DIR")).join("page.png"));

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
    page.screenshot(&target_dir(env!("CARGO_MANIFEST_DIR")).join("page-amplitude-3.png"));
}

#[test]
fn base64_decodes() {
    assert_eq!(decode_base64("aGVsbG8="), b"hello");
    assert_eq!(decode_base64("aGk="), b"hi");
    assert_eq!(decode_base64("YWJj"), b"abc");
}
