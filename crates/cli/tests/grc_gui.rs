//! `radioflow run FILE.grc` with GNU Radio QT GUI blocks (`examples/graphs/gui_tone.grc`: a
//! tone, a range slider on its frequency, a chooser on its level, an entry on its DC offset, a
//! label, a frequency and a time sink): the live page is served on loopback, the sinks are its
//! views (probes on the outputs feeding them), and setting a widget retunes the running
//! source, seen in the probe's spectrum, through the API and in headless chromium by moving
//! the slider. `--no-gui` runs the same file headless. Screenshots go to
//! `target/liveview/grc-gui*.png`.
//!
//! Without chromium the browser test tries `apt-get install -y chromium` (as root), and
//! otherwise SKIPs with a message saying so.

#[path = "../../control/tests/common/chromium.rs"]
mod chromium;
mod common;

use chromium::{chromium, target_dir, Browser, Page, SKIP};
use common::{poll, request, Fm, DEADLINE};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The path of `examples/graphs/NAME`.
fn example_graph(name: &str) -> String {
    format!(
        "{}/../../examples/graphs/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Stops the run with the page's stop button; it must end cleanly.
fn stop_from_the_page(page: &mut Page, run: Fm) {
    page.eval("document.getElementById('stop').click(); true");
    let (ok, _, err) = run.wait();
    assert!(ok, "{err}");
}

const PROBE: &str = "blocks_throttle_0.out";

fn example() -> String {
    example_graph("gui_tone.grc")
}

fn run_with_page() -> Fm {
    Fm::spawn(&["run".to_owned(), example()], "live view: ")
}

/// The frequency (Hz) of the strongest bin of the probe's latest spectrum, with a frame whose
/// peak stands 30 dB above its median (a tone, not noise or an empty frame).
fn peak_hz(base: &str, probe: &str) -> Option<f64> {
    let (status, d) = request(
        "GET",
        &format!("{base}/api/probes/{probe}?view=spectrum"),
        None,
    );
    assert_eq!(status, 200, "{d}");
    let (x, y) = (d["x"].as_array()?, d["y"].as_array()?);
    if x.is_empty() {
        return None; // no frame yet
    }
    assert_eq!(
        d["x_unit"], "Hz",
        "the sink's bandwidth is the probe's rate"
    );
    let db: Vec<(f64, f64)> = x
        .iter()
        .zip(y)
        .filter_map(|(x, y)| Some((x.as_f64()?, y.as_f64()?)))
        .collect();
    let mut sorted: Vec<f64> = db.iter().map(|p| p.1).collect();
    sorted.sort_by(f64::total_cmp);
    let median = *sorted.get(sorted.len() / 2)?;
    let peak = db.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1))?;
    (peak.1 > median + 30.0).then_some(peak.0)
}

/// Polls until the probe's peak is within one bin (48 kHz / 1024) of `hz`.
fn wait_for_peak(base: &str, hz: f64) {
    wait_for_peak_in(base, PROBE, hz, 48000.0 / 1024.0);
}

/// Waits for probe `probe`'s spectrum to peak at `hz`, within `bin` Hz.
fn wait_for_peak_in(base: &str, probe: &str, hz: f64, bin: f64) {
    poll(
        &format!("the tone at {hz} Hz in probe {probe}"),
        DEADLINE,
        || peak_hz(base, probe).filter(|f| (f - hz).abs() <= bin),
    );
}

fn put(base: &str, name: &str, value: Value) -> (u16, Value) {
    request(
        "PUT",
        &format!("{base}/api/variables/{name}"),
        Some(&json!({ "value": value }).to_string()),
    )
}

#[test]
fn a_grc_files_widgets_retune_the_running_graph_through_the_api() {
    let run = run_with_page();
    let base = run.base.clone();
    let (status, g) = request("GET", &format!("{base}/api/graph"), None);
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["variables"], true);
    let views = g["views"].as_array().unwrap();
    assert_eq!(views.len(), 4, "{g}");
    assert_eq!(views[0]["kind"], "tabs");
    let views = &views[1..];
    assert_eq!(views[0]["title"], "Tone");
    assert_eq!(views[0]["kind"], "spectrum");
    assert_eq!(views[0]["probes"], json!([PROBE]));
    assert_eq!(views[1]["kind"], "time");
    assert_eq!(views[1]["size"], 256);
    assert_eq!(views[0]["options"]["ymin"], -140.0);

    let (status, v) = request("GET", &format!("{base}/api/variables"), None);
    assert_eq!(status, 200, "{v}");
    let freq = v["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["name"] == "freq")
        .unwrap();
    assert_eq!(
        (&freq["kind"], &freq["start"], &freq["stop"], &freq["value"]),
        (&json!("range"), &json!(0.0), &json!(23000.0), &json!(3000))
    );

    wait_for_peak(&base, 3000.0);
    let (status, r) = put(&base, "freq", json!(9000));
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        r["set"],
        json!([{"block": "analog_sig_source_x_0", "param": "frequency", "value": "9000"}])
    );
    assert_eq!(r["errors"], json!([]));
    wait_for_peak(&base, 9000.0);
    let twice = r["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["name"] == "twice")
        .unwrap();
    assert_eq!(twice["value"], 18000.0, "the label follows");

    // Refused values name the variable and change nothing.
    let (status, r) = put(&base, "freq", json!(1e9));
    assert_eq!(status, 400, "{r}");
    assert!(
        r["error"].as_str().unwrap().contains("variable 'freq'"),
        "{r}"
    );
    let (status, r) = put(&base, "twice", json!(1));
    assert_eq!(status, 400, "{r}");
    // The DC offset is set on the running source as GNU Radio's set_offset does: seen in the
    // probe's time view as the mean of the samples' real part.
    let (status, r) = put(&base, "dc", json!(0.5));
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        r["set"],
        json!([{"block": "analog_sig_source_x_0", "param": "offset", "value": "0.5"}])
    );
    assert_eq!(r["fixed"], json!([]));
    poll("the offset in the probe's samples", DEADLINE, || {
        let (_, d) = request("GET", &format!("{base}/api/probes/{PROBE}?view=time"), None);
        let re: Vec<f64> = d["y"]
            .as_array()?
            .iter()
            .filter_map(Value::as_f64)
            .collect();
        let mean = re.iter().sum::<f64>() / re.len().max(1) as f64;
        (re.len() == 1024 && (mean - 0.5).abs() < 0.05).then_some(())
    });
    wait_for_peak(&base, 9000.0);

    // The frequency sink's bandwidth is `samp_rate`: the answer gives the page its new rate,
    // and the source's and throttle's rates are set (GNU Radio's set_sampling_freq and
    // set_sample_rate).
    let (status, r) = put(&base, "samp_rate", json!(96000));
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["views"][1]["name"], "qtgui_freq_sink_x_0");
    assert_eq!(r["views"][1]["options"]["rate"], 96000.0);
    let set: Vec<String> = r["set"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}.{}",
                s["block"].as_str().unwrap(),
                s["param"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        set,
        [
            "analog_sig_source_x_0.sample_rate",
            "blocks_throttle_0.sample_rate"
        ],
        "{r}"
    );

    let (ok, out, err) = run.stop();
    assert!(ok, "{err}");
    assert!(out.contains("gui_tone.grc: ran in"), "{out}");
}

#[test]
fn no_gui_runs_the_file_headless() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args(["run", &example(), "--no-gui"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    // The notes come before the graph starts; the headless sinks are named.
    while !seen.contains("qtgui_time_sink_x_0' runs headless") {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen.push_str(&line);
    }
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid with a valid signal number.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let output = child.wait_with_output().unwrap();
    let rest = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{seen}{rest}");
    assert!(
        seen.contains("qtgui_freq_sink_x_0' runs headless"),
        "{seen}"
    );
    assert!(
        !seen.contains("live view") && !rest.contains("live view"),
        "{seen}{rest}"
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.contains("stopped by a signal"), "{out}");
}

/// The brightest column of row `row` of waterfall view `view`'s canvas (`None` if all dark).
fn brightest_column(page: &mut Page, view: &str, row: u32) -> Option<f64> {
    page.eval(&format!(
        "(() => {{ const c = document.getElementById('view-{view}').querySelector('canvas');
           const d = c.getContext('2d').getImageData(0, {row}, c.width, 1).data;
           let best = 0, at = 0;
           for (let x = 0; x < c.width; x++) {{ const v = d[4 * x] + d[4 * x + 1]; if (v > best) {{ best = v; at = x; }} }}
           return best > 0 ? at : null; }})()"
    ))
    .as_f64()
}

/// The page's plotted peak frequency in view `name` (its first dataset).
fn plotted_peak(page: &mut Page, name: &str) -> Option<f64> {
    page.eval(&format!(
        "(() => {{ const v = document.getElementById('view-{name}');
           const c = v && Chart.getChart(v.querySelector('canvas'));
           if (!c || !c.data.datasets.length) return null;
           const d = c.data.datasets[0].data;
           if (d.length < 1024) return null;
           return d.reduce((a, b) => (b.y > a.y ? b : a)).x; }})()"
    ))
    .as_f64()
}

#[test]
fn the_page_shows_the_sinks_and_its_slider_retunes_the_source() {
    let Some(chromium) = chromium() else {
        eprintln!("{SKIP}");
        return;
    };
    let run = run_with_page();
    let (_browser, mut page) = Browser::launch(&chromium, "grc-gui", 1400, 1400);
    page.navigate(&run.url);
    let shots = target_dir(env!("CARGO_MANIFEST_DIR"));
    let bin = 48000.0 / 1024.0;

    poll("the tone at 3 kHz in the page's spectrum", DEADLINE, || {
        plotted_peak(&mut page, "qtgui_freq_sink_x_0").filter(|f| (f - 3000.0).abs() <= bin)
    });
    // GRC's layout: the sinks in the tabs of the tab widget, the spectrum's shown first.
    let hidden = |page: &mut Page, view: &str| {
        page.eval(&format!(
            "document.getElementById('view-{view}').parentElement.hidden"
        ))
    };
    assert_eq!(hidden(&mut page, "qtgui_freq_sink_x_0"), Value::Bool(false));
    assert_eq!(hidden(&mut page, "qtgui_time_sink_x_0"), Value::Bool(true));
    page.eval("document.getElementById('tab-displays-1').click(); true");
    assert_eq!(hidden(&mut page, "qtgui_time_sink_x_0"), Value::Bool(false));
    poll("the time view's 256 points", DEADLINE, || {
        let n = page.eval(
            "(() => { const c = Chart.getChart(document.getElementById('view-qtgui_time_sink_x_0').querySelector('canvas'));
               return c && c.data.datasets.length ? c.data.datasets[0].data.length : null; })()",
        );
        (n == 256).then_some(())
    });
    let label = page.eval("document.getElementById('widget-value-twice').textContent");
    assert_eq!(label, Value::from("6000"));
    page.screenshot(&shots.join("grc-gui-time.png"));
    page.eval("document.getElementById('tab-displays-0').click(); true");
    page.screenshot(&shots.join("grc-gui.png"));
    // The readout names the peak; max hold is on before the retune below, so its trace keeps
    // the tone at 3 kHz after the tone has moved.
    poll("the peak's readout", DEADLINE, || {
        let t = page.eval("document.getElementById('peak-qtgui_freq_sink_x_0').textContent");
        t.as_str()
            .is_some_and(|t| t.starts_with("peak 3.000 kHz: "))
            .then_some(())
    });
    page.eval("document.getElementById('maxhold-qtgui_freq_sink_x_0').click(); true");

    // Move the slider as a user would (a change event at its new place).
    page.eval(
        "(() => { const s = document.getElementById('slider-freq'); s.value = 12000;
           s.dispatchEvent(new Event('change')); return true; })()",
    );
    poll(
        "the tone at 12 kHz in the page's spectrum",
        DEADLINE,
        || plotted_peak(&mut page, "qtgui_freq_sink_x_0").filter(|f| (f - 12000.0).abs() <= bin),
    );
    // The held trace has both tones; the live one only the new.
    let level_at = |page: &mut Page, dataset: &str, hz: f64| {
        page.eval(&format!(
            "(() => {{ const c = Chart.getChart(document.getElementById('view-qtgui_freq_sink_x_0').querySelector('canvas'));
               const d = c.data.datasets.find((d) => d.label.startsWith('{dataset}'));
               if (!d) return null;
               const p = d.data.reduce((a, b) => (Math.abs(b.x - {hz}) < Math.abs(a.x - {hz}) ? b : a));
               return p.y; }})()"
        ))
        .as_f64()
    };
    poll("max hold to keep the tone at 3 kHz", DEADLINE, || {
        let held = level_at(&mut page, "max hold", 3000.0)?;
        // The first dataset is the live trace.
        let live_new = level_at(&mut page, "", 12000.0)?;
        let live_old = level_at(&mut page, "", 3000.0)?;
        ((held - live_new).abs() < 1.0 && live_old < live_new - 40.0).then_some(())
    });
    // A click on the plot at 12 kHz puts a marker there, read in the readout.
    page.eval(
        "(() => { const c = Chart.getChart(document.getElementById('view-qtgui_freq_sink_x_0').querySelector('canvas'));
           const r = c.canvas.getBoundingClientRect();
           const x = r.left + c.scales.x.getPixelForValue(12000), y = r.top + c.chartArea.top + 10;
           c.canvas.dispatchEvent(new MouseEvent('click', { clientX: x, clientY: y, bubbles: true }));
           return true; })()",
    );
    poll("a marker at 12 kHz", DEADLINE, || {
        let m = page.eval(
            "JSON.parse(document.getElementById('peak-qtgui_freq_sink_x_0').dataset.markers || '[]')",
        );
        let x = m.get(0)?.get(0)?.as_f64()?;
        ((x - 12000.0).abs() <= bin).then_some(())
    });
    // A smaller FFT from the page: 256 points.
    page.eval(
        "(() => { const s = document.getElementById('fft-qtgui_freq_sink_x_0'); s.value = 256;
           s.dispatchEvent(new Event('change')); return true; })()",
    );
    poll("the spectrum in 256 points", DEADLINE, || {
        let n = page.eval(
            "Chart.getChart(document.getElementById('view-qtgui_freq_sink_x_0').querySelector('canvas')).data.datasets[0].data.length",
        );
        (n == 256).then_some(())
    });
    page.screenshot(&shots.join("grc-gui-markers.png"));
    poll("the label to follow the slider", DEADLINE, || {
        let t = page.eval("document.getElementById('widget-value-twice').textContent");
        (t == "24000").then_some(())
    });
    // The chooser's radio buttons: Loud.
    page.eval("document.getElementById('chooser-level-2').click(); true");
    poll("the page to report the level set", DEADLINE, || {
        let t = page.eval("document.getElementById('variable-result').textContent");
        t.as_str()
            .is_some_and(|t| t.contains("analog_sig_source_x_0.amplitude = 1"))
            .then_some(())
    });
    page.screenshot(&shots.join("grc-gui-retuned.png"));

    // The waterfall scrolls: its newest row (the top) has the tone at 12 kHz while a row
    // further down, drawn before the slider moved, still has it at 3 kHz.
    page.eval("document.getElementById('tab-displays-2').click(); true");
    let column = |hz: f64| ((hz + 24000.0) / 48000.0 * 512.0).round();
    let brightest = |page: &mut Page, row| brightest_column(page, "qtgui_waterfall_sink_x_0", row);
    poll("the waterfall's top row at 12 kHz", DEADLINE, || {
        brightest(&mut page, 0).filter(|x| (x - column(12000.0)).abs() <= 2.0)
    });
    let old_row = (0..200).find_map(|row| {
        brightest(&mut page, row)
            .filter(|x| (x - column(3000.0)).abs() <= 2.0)
            .map(|_| row)
    });
    assert!(
        old_row.is_some(),
        "no row of the waterfall still shows the tone at 3 kHz"
    );
    page.screenshot(&shots.join("grc-gui-waterfall.png"));

    stop_from_the_page(&mut page, run);
}

/// `examples/graphs/gui_sinks.grc`: a filtered square wave (1 kHz at 32 kHz, so exactly 32
/// samples a period) with a little noise, in GNU Radio's number, histogram, eye, raster and
/// vector sinks. Each is drawn from its probe's frame as QT would draw it.
#[test]
fn the_number_histogram_eye_raster_and_vector_sinks_draw_their_inputs() {
    let Some(chromium) = chromium() else {
        eprintln!("{SKIP}");
        return;
    };
    let file = example_graph("gui_sinks.grc");
    let run = Fm::spawn(&["run".to_owned(), file], "live view: ");
    let (_browser, mut page) = Browser::launch(&chromium, "grc-gui-sinks", 1400, 1600);
    page.navigate(&run.url);
    let datasets = |page: &mut Page, view: &str| {
        page.eval(&format!(
            "(() => {{ const v = document.getElementById('view-{view}');
               const c = v && Chart.getChart(v.querySelector('canvas'));
               return c && c.data.datasets.length ? c.data.datasets.map((d) => d.data.map((p) => p.y)) : null; }})()"
        ))
        .as_array()
        .cloned()
    };
    // The number: the filtered value with its unit, inside the square wave's range.
    let number = poll("the number sink's value", DEADLINE, || {
        let t = page.eval("document.getElementById('number-level-0').textContent");
        let t = t.as_str()?.strip_suffix(" V")?.to_owned();
        t.parse::<f64>().ok()
    });
    assert!(number.abs() <= 1.5, "{number}");
    // The histogram: 64 bins over -2..2 counting every sample of a frame (the probe's frame
    // is the raster's 64 x 32 samples, the longest of the views on that output).
    let counts = poll("the histogram's counts", DEADLINE, || {
        datasets(&mut page, "histogram").filter(|d| d[0].as_array().is_some_and(|c| c.len() == 64))
    });
    let total: f64 = counts[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_f64().unwrap())
        .sum();
    assert_eq!(total, 2048.0);
    // Drawn in the colour the file gives it (`color1: "blue"`).
    let colour = page.eval(
        "Chart.getChart(document.getElementById('view-histogram').querySelector('canvas')).data.datasets[0].borderColor",
    );
    assert_eq!(colour, "rgba(0, 0, 255, 1)");
    // The eye: traces of two symbols (33 samples at 16 a symbol), each ended by a break.
    let eye = poll("the eye's traces", DEADLINE, || datasets(&mut page, "eye"));
    let points = eye[0].as_array().unwrap();
    let breaks: Vec<usize> = points
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_null())
        .map(|(i, _)| i)
        .collect();
    assert!(breaks.len() > 10, "{} traces", breaks.len());
    assert!(
        breaks
            .iter()
            .enumerate()
            .all(|(k, &i)| i == 33 * (k + 1) + k),
        "{breaks:?}"
    );
    // Triggered (auto, level 0, rising): the traces start where the wave crosses 0 upwards,
    // then every symbol (half a period) on: the even ones spend their first symbol high, the
    // odd ones low (without the trigger they start anywhere).
    for (k, trace) in points.chunks(34).take(breaks.len()).enumerate() {
        let y: Vec<f64> = trace[..33].iter().map(|p| p.as_f64().unwrap()).collect();
        assert!(y[0].abs() < 0.8, "trace {k} starts at {}", y[0]);
        let first = y[4..12].iter().sum::<f64>() / 8.0;
        let want = if k % 2 == 0 { 1.0 } else { -1.0 };
        assert!(first * want > 0.5, "trace {k}: {y:?}");
    }
    // The raster: 64 rows of 32 samples, one period a row, so each column keeps its colour
    // down the rows while the columns go from the wave's low to its high.
    let columns = poll("the raster's pixels", DEADLINE, || {
        let v = page.eval(
            "(() => { const c = document.querySelector('#view-raster canvas.raster');
               if (!c || c.width !== 32 || c.height !== 64) return null;
               const d = c.getContext('2d').getImageData(0, 0, 32, 64).data;
               const cols = [];
               for (let x = 0; x < 32; x++) { let lo = 255, hi = 0, sum = 0;
                 for (let y = 0; y < 64; y++) { const r = d[4 * (y * 32 + x)]; lo = Math.min(lo, r); hi = Math.max(hi, r); sum += r; }
                 cols.push([lo, hi, sum / 64]); }
               return cols.some((c) => c[1] > 0) ? cols : null; })()",
        );
        v.as_array().cloned()
    });
    let col = |c: &Value, k: usize| c[k].as_f64().unwrap();
    let means: Vec<f64> = columns.iter().map(|c| col(c, 2)).collect();
    let spread = means.iter().cloned().fold(f64::MIN, f64::max)
        - means.iter().cloned().fold(f64::MAX, f64::min);
    assert!(spread > 100.0, "columns {means:?}");
    assert!(
        columns.iter().all(|c| col(c, 1) - col(c, 0) < 80.0),
        "{columns:?}"
    );
    // The vector sink: the 128 samples of a vector, and its reference level at 1.
    let vector = poll("the vector plot", DEADLINE, || {
        datasets(&mut page, "vector")
    });
    assert_eq!(vector[0].as_array().unwrap().len(), 128);
    assert_eq!(vector[1], json!([1, 1]));
    page.screenshot(&target_dir(env!("CARGO_MANIFEST_DIR")).join("grc-gui-sinks.png"));
    stop_from_the_page(&mut page, run);
}

/// `examples/graphs/gui_messages.grc`: GNU Radio's message widgets on the page send the
/// messages GNU Radio's would (`(key . value)` pairs) to the message debug the file connects
/// them to, through relays in the graph; the dial is also a variable the tone follows.
#[test]
fn message_widgets_send_their_messages_to_the_running_graph() {
    let file = example_graph("gui_messages.grc");
    let run = Fm::spawn(&["run".to_owned(), file], "live view: ");
    let base = run.base.clone();
    let (status, v) = request("GET", &format!("{base}/api/variables"), None);
    assert_eq!(status, 200, "{v}");
    let widget = |name: &str| {
        v["variables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["name"] == name)
            .unwrap_or_else(|| panic!("no widget {name}: {v}"))
            .clone()
    };
    let level = widget("level");
    assert_eq!(
        (
            &level["kind"],
            &level["style"],
            &level["start"],
            &level["stop"]
        ),
        (
            &json!("range"),
            &json!("dial"),
            &json!(100.0),
            &json!(4000.0)
        )
    );
    assert_eq!(level["sends"], json!(["debug.print"]));
    assert_eq!(widget("kick")["kind"], "message_button");
    assert_eq!(widget("note")["kind"], "message_entry");

    let (status, r) = put(&base, "level", json!(2500));
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["set"][0]["param"], "frequency", "{r}");
    assert_eq!(r["sent"][0]["message"], "(level . 2500)", "{r}");
    wait_for_peak_in(&base, "throttle.out", 2500.0, 32000.0 / 1024.0);
    for (name, value) in [
        ("power", json!(true)),
        ("kick", json!(true)),
        ("note", json!("on air")),
    ] {
        let (status, r) = put(&base, name, value);
        assert_eq!(status, 200, "{r}");
        assert!(r["errors"].as_array().unwrap().is_empty(), "{r}");
    }
    let (status, r) = put(&base, "level", json!(5000));
    assert_eq!(status, 400, "{r}");
    // The LED shows the toggle's messages (a tap on its relay's output), the gauge the dial's
    // variable.
    let (_, g) = request("GET", &format!("{base}/api/graph"), None);
    let view = |name: &str| {
        g["views"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == name)
            .unwrap_or_else(|| panic!("no view {name}: {g}"))
            .clone()
    };
    assert_eq!(
        (
            view("lamp")["kind"].clone(),
            view("lamp")["messages"].clone()
        ),
        (json!("led"), json!(["power.out"]))
    );
    assert_eq!(view("meter")["kind"], "gauge");
    let (status, m) = request("GET", &format!("{base}/api/messages/power.out"), None);
    assert_eq!(status, 200, "{m}");
    assert_eq!(
        (&m["count"], &m["value"], &m["text"]),
        (&json!(1), &json!(1), &json!("(power . 1)"))
    );
    let (_, r) = put(&base, "level", json!(1200));
    let meter = r["views"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "meter")
        .unwrap();
    assert_eq!(meter["options"]["value"], 1200.0, "{r}");
    // Every message handled before the stop (a stop drops what is still queued).
    poll(
        "the message debug to take the five messages",
        DEADLINE,
        || {
            let (_, c) = request("GET", &format!("{base}/api/counters"), None);
            let debug = c["blocks"]
                .as_array()?
                .iter()
                .find(|b| b["name"] == "debug")?
                .clone();
            (debug["messages"] == 5).then_some(())
        },
    );
    let (status, _) = request("POST", &format!("{base}/api/stop"), Some("{}"));
    assert_eq!(status, 200);
    let (ok, out, err) = run.wait();
    assert!(ok, "{err}");
    // What the message debug printed, in the order sent.
    let printed: Vec<&str> = out.lines().filter(|l| l.starts_with('(')).collect();
    assert_eq!(
        printed,
        [
            "(level . 2500)",
            "(power . 1)",
            "(kick . 7)",
            "(note . on air)",
            "(level . 1200)"
        ],
        "{out}"
    );
}

/// `examples/graphs/gui_pdus.grc`: a chirp from 0 to 8 kHz every 4000 samples, cut into PDUs
/// of 4000 samples, in time, frequency and waterfall sinks of type `msg_complex`: each PDU is
/// drawn whole (the time view), its spectrum averaged over the PDU (the frequency view) and
/// its spectrogram as the waterfall's picture, first row at the bottom.
#[test]
fn sinks_of_pdus_draw_each_pdu_as_qt_does() {
    let Some(chromium) = chromium() else {
        eprintln!("{SKIP}");
        return;
    };
    let file = example_graph("gui_pdus.grc");
    let run = Fm::spawn(&["run".to_owned(), file], "live view: ");
    // The API: the latest PDU, whole, through the tap on the PDU block's output.
    let base = run.url.trim_end_matches('/').to_owned();
    let pdu = poll("a PDU at the tap", DEADLINE, || {
        let (status, d) = request(
            "GET",
            &format!("{base}/api/messages/pdus.pdus?view=time&takes=complex"),
            None,
        );
        (status == 200 && d["x"].as_array().is_some_and(|x| !x.is_empty())).then_some(d)
    });
    assert_eq!(pdu["x"].as_array().unwrap().len(), 4000);
    // The largest FFTs the page may ask are computed (a spectrogram's answer is some 9 MB,
    // over `request`'s 10 MB limit on a text: read as a stream).
    for (query, len) in [
        ("view=spectrum&fft=32768", 32768),
        ("view=waterfall&fft=4096", 4096 * 200),
    ] {
        let url = format!("{base}/api/messages/pdus.pdus?{query}&takes=complex");
        let d: serde_json::Value = serde_json::from_reader(
            ureq::get(&url)
                .timeout(Duration::from_secs(30))
                .call()
                .unwrap_or_else(|e| panic!("{url}: {e}"))
                .into_reader(),
        )
        .unwrap_or_else(|e| panic!("{url}: {e}"));
        assert_eq!(d["y"].as_array().map_or(0, Vec::len), len, "{query}");
    }
    // Asked as a sink of floats would ask, the PDU is refused with a note.
    let (_, d) = request(
        "GET",
        &format!("{base}/api/messages/pdus.pdus?view=time&takes=float"),
        None,
    );
    assert_eq!(
        d["note"], "a PDU of complex samples: this sink takes float ones",
        "{d}"
    );
    for (query, names) in [
        (
            "view=time&takes=bits",
            "takes = 'bits' is not complex, float or byte",
        ),
        ("view=eye&takes=complex", "unknown view 'eye'"),
        (
            "view=waterfall&window=6",
            "message tap 'pdus.pdus': window = '6'",
        ),
        // One request's work and answer are bounded whatever it asks: a spectrogram is 200
        // rows of `fft` numbers.
        (
            "view=waterfall&fft=8192",
            "fft = '8192' is not 1 to 4096 (the most this view computes for a PDU)",
        ),
        (
            "view=spectrum&fft=1048576",
            "fft = '1048576' is not 1 to 32768",
        ),
    ] {
        let (status, d) = request(
            "GET",
            &format!("{base}/api/messages/pdus.pdus?{query}"),
            None,
        );
        assert_eq!(status, 400, "{query}: {d}");
        assert!(
            d["error"].as_str().is_some_and(|e| e.contains(names)),
            "{query}: {d}"
        );
    }

    let (_browser, mut page) = Browser::launch(&chromium, "grc-gui-pdus", 1400, 1000);
    page.navigate(&run.url);
    poll("the time view's 4000 points", DEADLINE, || {
        let n = page.eval(
            "(() => { const c = Chart.getChart(document.getElementById('view-time').querySelector('canvas'));
               return c && c.data.datasets.length ? c.data.datasets[0].data.length : null; })()",
        );
        (n == 4000).then_some(())
    });
    // The averaged spectrum: the sweep's band (0 to 8 kHz) far above the other half. (GNU
    // Radio averages the windows' levels in dB, so a bin the chirp crosses in a sixteenth of
    // the windows reads some 80 dB below the chirp's power, but still 20-30 dB above the
    // window's leakage elsewhere.)
    poll("the chirp's band in the spectrum", DEADLINE, || {
        let v = page.eval(
            "(() => { const c = Chart.getChart(document.getElementById('view-freq').querySelector('canvas'));
               if (!c || !c.data.datasets.length) return null;
               const d = c.data.datasets[0].data;
               const at = (f) => d.reduce((a, b) => (Math.abs(b.x - f) < Math.abs(a.x - f) ? b : a)).y;
               return [at(4000), at(-8000)]; })()",
        );
        let (inside, outside) = (v.get(0)?.as_f64()?, v.get(1)?.as_f64()?);
        (inside > outside + 15.0).then_some(())
    });
    // The waterfall: the bottom row (the PDU's start) is bright near 0 Hz, the top row (its
    // end) near 8 kHz. 512 columns over -16..16 kHz.
    let brightest = |page: &mut Page, row| brightest_column(page, "waterfall", row);
    let column = |hz: f64| (hz + 16000.0) / 32000.0 * 512.0;
    poll(
        "the waterfall's rows rising with the chirp",
        DEADLINE,
        || {
            let (bottom, top) = (brightest(&mut page, 199)?, brightest(&mut page, 0)?);
            ((bottom - column(0.0)).abs() < 20.0 && (top - column(8000.0)).abs() < 20.0)
                .then_some(())
        },
    );
    page.screenshot(&target_dir(env!("CARGO_MANIFEST_DIR")).join("grc-gui-pdus.png"));
    stop_from_the_page(&mut page, run);
}

/// `examples/graphs/gui_tags.grc`: a sine with a `strobe` tag every 1000 samples in a time
/// sink triggered on that tag 1 ms (32 samples) before it, with `entags`: the probe's frames
/// carry the tags, and the page starts each trace 32 samples before a tag, marked with its
/// key and value.
#[test]
fn a_time_sink_triggers_on_a_tag_and_draws_it() {
    let Some(chromium) = chromium() else {
        eprintln!("{SKIP}");
        return;
    };
    let file = example_graph("gui_tags.grc");
    let run = Fm::spawn(&["run".to_owned(), file], "live view: ");
    let base = run.url.trim_end_matches('/').to_owned();
    let tags = poll("tags in the probe's frame", DEADLINE, || {
        let (status, d) = request(
            "GET",
            &format!("{base}/api/probes/throttle.out?view=time"),
            None,
        );
        let tags = d["tags"]
            .as_array()
            .filter(|t| status == 200 && !t.is_empty())?;
        Some(tags.clone())
    });
    assert!(
        tags.iter()
            .all(|t| t["key"] == "strobe" && t["value"] == "burst"),
        "{tags:?}"
    );
    let (_browser, mut page) = Browser::launch(&chromium, "grc-gui-tags", 1200, 900);
    page.navigate(&run.url);
    let marks = poll("the trace triggered on a tag", DEADLINE, || {
        let m = page.eval(
            "(() => { const c = Chart.getChart(document.getElementById('view-scope').querySelector('canvas'));
               if (!c) return null;
               const t = c.data.datasets.find((d) => d.label.startsWith('tags '));
               const trace = c.data.datasets[0];
               return t && trace.data.length === 256 ? [t.data.map((p) => p.x), t.tagTexts] : null; })()",
        );
        m.as_array().cloned()
    });
    // The tag 32 samples into the 256 shown (the next one is 1000 samples on: not shown).
    assert_eq!(marks[0], json!([32]), "{marks:?}");
    assert_eq!(marks[1], json!(["strobe: burst"]), "{marks:?}");
    let subtitle = page.eval("document.querySelector('#view-scope span.muted').textContent");
    assert!(
        subtitle
            .as_str()
            .is_some_and(|s| s.contains("tag trigger on 'strobe'")),
        "{subtitle}"
    );
    page.screenshot(&target_dir(env!("CARGO_MANIFEST_DIR")).join("grc-gui-tags.png"));
    stop_from_the_page(&mut page, run);
}

/// `examples/graphs/gui_compass.grc`: GNU Radio's compass of a stream (a constant 135°) and
/// of messages (a strobe sending -45°, drawn at 315° as GrCompass does).
#[test]
fn compasses_point_at_their_streams_and_messages_angles() {
    let Some(chromium) = chromium() else {
        eprintln!("{SKIP}");
        return;
    };
    let file = example_graph("gui_compass.grc");
    let run = Fm::spawn(&["run".to_owned(), file], "live view: ");
    let (_browser, mut page) = Browser::launch(&chromium, "grc-gui-compass", 900, 700);
    page.navigate(&run.url);
    for (name, angle) in [("of_stream", 135.0), ("of_messages", 315.0)] {
        poll(&format!("compass {name} at {angle}"), DEADLINE, || {
            let a = page.eval(&format!(
                "document.getElementById('compass-{name}').dataset.angle"
            ));
            a.as_str()
                .and_then(|a| a.parse::<f64>().ok())
                .filter(|a| (a - angle).abs() < 1e-3)
        });
    }
    let text = page.eval("document.getElementById('compass-value-of_messages').textContent");
    assert_eq!(text, "315.0°");
    page.screenshot(&target_dir(env!("CARGO_MANIFEST_DIR")).join("grc-gui-compass.png"));
    stop_from_the_page(&mut page, run);
}

/// `examples/graphs/gui_follow.grc` (GNU Radio's `test_qtgui_msg.grc` in small): a tone at
/// 5 kHz; a shift-click at 5 kHz on the spectrum sends `(freq . 5000)` from the sink's `freq`
/// output to the message edit box, which shows 5000 and sends the pair on to the filter (the
/// tone moves to 0 Hz), to the sink (its axis centred on 5 kHz) and to the digital number
/// control (its variable 5000, its own `(freq . 5000)` printed by the message debug).
#[test]
fn a_click_on_the_spectrum_retunes_through_widgets_that_follow_messages() {
    let Some(chromium) = chromium() else {
        eprintln!("{SKIP}");
        return;
    };
    let file = example_graph("gui_follow.grc");
    let run = Fm::spawn(&["run".to_owned(), file], "live view: ");
    let base = run.base.clone();
    let bin = 32000.0 / 1024.0;
    wait_for_peak_in(&base, "xlate.out", 5000.0, bin);
    let (_browser, mut page) = Browser::launch(&chromium, "grc-gui-follow", 1000, 800);
    page.navigate(&run.url);
    poll("the spectrum drawn", DEADLINE, || {
        let n = page.eval(
            "(() => { const c = Chart.getChart(document.getElementById('view-spectrum').querySelector('canvas'));
               return c ? c.data.datasets.length : 0; })()",
        );
        (n.as_u64()? > 0).then_some(())
    });
    // A plain click puts a marker and sends nothing; a shift-click sends the frequency.
    for shift in [false, true] {
        page.eval(&format!(
            "(() => {{ const c = Chart.getChart(document.getElementById('view-spectrum').querySelector('canvas'));
               const r = c.canvas.getBoundingClientRect();
               const x = r.left + c.scales.x.getPixelForValue(5000), y = r.top + c.chartArea.top + 10;
               c.canvas.dispatchEvent(new MouseEvent('click', {{ clientX: x, clientY: y, shiftKey: {shift}, bubbles: true }}));
               return true; }})()"
        ));
        if !shift {
            poll("a marker near 5 kHz", DEADLINE, || {
                let m = page.eval(
                    "JSON.parse(document.getElementById('peak-spectrum').dataset.markers || '[]')",
                );
                let x = m.get(0)?.get(0)?.as_f64()?;
                ((x - 5000.0).abs() <= bin).then_some(())
            });
            let (_, v) = request("GET", &format!("{base}/api/variables"), None);
            assert_eq!(v["received"], 0, "{v}");
        }
    }
    let sent = poll("the page to send the frequency", DEADLINE, || {
        page.eval("document.getElementById('sent-spectrum').dataset.hz")
            .as_str()
            .and_then(|s| s.parse::<f64>().ok())
    });
    assert!((sent - 5000.0).abs() <= bin, "{sent}");
    // The edit box shows it, the number control follows the edit box, the filter moved it to
    // 0 Hz.
    // As QT shows them: a float box's six digits (`QString::number`), the control's whole
    // hertz.
    let six = format!("{:.*}", 5 - (sent.abs().log10().floor() as usize), sent);
    poll(
        "the edit box and the number control to show it",
        DEADLINE,
        || {
            let edit = page.eval("document.getElementById('entry-edit').value");
            let tune = page.eval("document.getElementById('number-tune').value");
            let (edit, tune) = (
                edit.as_str()?.to_owned(),
                tune.as_str()?.parse::<f64>().ok()?,
            );
            (edit.parse::<f64>().ok()? == six.parse::<f64>().ok()? && tune == sent.trunc())
                .then_some(())
        },
    );
    wait_for_peak_in(&base, "xlate.out", 0.0, bin);
    // The sink's axis is centred on the frequency the edit box sent it (QT's `freq` input), so
    // the tone, now at 0 Hz in the samples, is drawn where it was clicked.
    poll(
        "the page to plot the tone at the new centre",
        DEADLINE,
        || {
            let lowest = page
            .eval(
                "Chart.getChart(document.getElementById('view-spectrum').querySelector('canvas')).options.scales.x.min",
            )
            .as_f64()?;
            let peak = plotted_peak(&mut page, "spectrum")?;
            ((lowest - (sent - 16000.0)).abs() <= bin && (peak - sent).abs() <= bin).then_some(())
        },
    );
    let shot = target_dir(env!("CARGO_MANIFEST_DIR")).join("grc-gui-follow.png");
    page.screenshot(&shot);
    // A pair of another key: the static edit box refuses it and says why.
    let (status, r) = request(
        "POST",
        &format!("{base}/api/blocks/spectrum/messages/in"),
        Some(r#"{"pair": ["gain", {"double": 3}]}"#),
    );
    assert_eq!(status, 200, "{r}");
    poll("the edit box's warning", DEADLINE, || {
        let (_, v) = request("GET", &format!("{base}/api/variables"), None);
        let w = v["warnings"]["edit"].as_str()?.to_owned();
        w.contains("got key 'gain' but expected 'freq'")
            .then_some(())
    });
    poll(
        "the message debug to take the control's message",
        DEADLINE,
        || {
            let (_, c) = request("GET", &format!("{base}/api/counters"), None);
            let debug = c["blocks"]
                .as_array()?
                .iter()
                .find(|b| b["name"] == "debug")?
                .clone();
            (debug["messages"] == 1).then_some(())
        },
    );
    page.eval("document.getElementById('stop').click(); true");
    let (ok, out, err) = run.wait();
    assert!(ok, "{err}");
    // The control's pair, printed once: `(freq . 5000)` (the text of a double as the
    // message debug writes it).
    let printed: Vec<f64> = out
        .lines()
        .filter_map(|l| l.strip_prefix("(freq . ")?.strip_suffix(')')?.parse().ok())
        .collect();
    assert_eq!(printed.len(), 1, "{out}");
    assert!(
        (printed[0] - sent).abs() < 0.01 * sent.abs().max(1.0),
        "{out}"
    );
}
