//! `radioflow fm --control` in a real browser: headless chromium (driven over its DevTools
//! protocol, `crates/control/tests/common/chromium.rs`) loads the live view of the running
//! FM receiver, sees its blocks and changing counters and the station's spectrum, retunes the
//! station's offset from the page's parameter field and sees the multiplex lose its 19 kHz
//! pilot and get it back while the audio keeps flowing, then stops the receiver from the page.
//! Screenshots go to `target/liveview/fm*.png`.
//!
//! Without chromium the test tries `apt-get install -y chromium` (as root), and otherwise
//! SKIPs with a message saying so.

#[path = "../../control/tests/common/chromium.rs"]
mod chromium;
mod common;

use chromium::{chromium, target_dir, Browser, Page, SKIP};
use common::{poll, Fm, DEADLINE};
use serde_json::Value;

/// How far (dB) the 19 kHz pilot stands above the median of the page's plot of the
/// multiplex's spectrum (1024 bins of 469 Hz at 480 kHz, its axis in Hz).
fn pilot_db(page: &mut Page) -> Option<f64> {
    page.eval(
        "(() => { const c = Chart.getChart(document.getElementById('probe-fm_demod.out').querySelector('canvas'));
           if (!c || !c.data.datasets.length) return null;
           const d = c.data.datasets[0].data;
           if (d.length < 1024) return null;
           const ys = d.map(p => p.y).sort((a, b) => a - b);
           const pilot = Math.max(...d.filter(p => p.x >= 18500 && p.x <= 19500).map(p => p.y));
           return pilot - ys[ys.length >> 1]; })()",
    )
    .as_f64()
}

/// A block's work calls in the page's table.
fn calls(page: &mut Page, block: &str) -> Option<u64> {
    page.eval(&format!(
        "(document.querySelector('#row-{block} td:nth-child(6)') || {{}}).textContent"
    ))
    .as_str()?
    .parse()
    .ok()
}

fn set_centre(page: &mut Page, hz: &str) {
    page.eval(&format!(
        "document.getElementById('param-channel-centre').value = '{hz}'; \
         document.getElementById('set-channel-centre').click(); true"
    ));
    poll("the page to report the offset set", DEADLINE, || {
        let v = page.eval("document.getElementById('value-channel-centre').textContent");
        v.as_str()
            .is_some_and(|t| t.trim() == format!("= {hz}"))
            .then_some(())
    });
}

#[test]
fn the_fm_receivers_page_retunes_the_station() {
    let Some(chromium) = chromium() else {
        eprintln!("{SKIP}");
        return;
    };
    let fm = Fm::start("fm-browser", &[]);
    let (_browser, mut page) = Browser::launch(&chromium, "fm-liveview", 1400, 1500);
    page.navigate(&fm.url);
    let shots = target_dir(env!("CARGO_MANIFEST_DIR"));

    poll("the receiver's graph drawn", DEADLINE, || {
        let n = page.eval(
            "['source','throttle','channel','fm_demod','stereo','rds','wav']
               .filter(n => document.getElementById('block-' + n)).length",
        );
        (n == 7).then_some(())
    });
    let first = poll("the channel filter's work calls", DEADLINE, || {
        calls(&mut page, "channel")
    });
    poll(
        "the channel filter's work calls to change",
        DEADLINE,
        || calls(&mut page, "channel").filter(|&c| c != first),
    );
    poll(
        "the station's spectrum and the pilot in the multiplex",
        DEADLINE,
        || pilot_db(&mut page).filter(|&db| db > 20.0),
    );
    let initial = page.eval("document.getElementById('value-channel-centre').textContent");
    assert_eq!(initial, Value::from(" = 200000"), "the offset given");
    page.screenshot(&shots.join("fm.png"));

    // Off the station: the pilot goes, the audio keeps flowing.
    set_centre(&mut page, "-600000");
    poll("the pilot to go from the page's plot", DEADLINE, || {
        pilot_db(&mut page).filter(|&db| db < 10.0)
    });
    let wav = poll("the WAV sink's work calls", DEADLINE, || {
        calls(&mut page, "wav")
    });
    poll("the audio to keep flowing", DEADLINE, || {
        calls(&mut page, "wav").filter(|&c| c > wav)
    });
    page.screenshot(&shots.join("fm-off-station.png"));

    // Back on it.
    set_centre(&mut page, "200000");
    poll("the pilot back in the page's plot", DEADLINE, || {
        pilot_db(&mut page).filter(|&db| db > 20.0)
    });

    // The page's Stop button ends the receiver with its summary.
    page.eval("document.getElementById('stop').click(); true");
    let (ok, out, err) = fm.wait();
    assert!(ok, "{err}");
    assert!(
        out.contains("x real time") && out.contains("wrote "),
        "{out}"
    );
}
