//! GNU Radio's QT GUI sinks as views of the live page ([`GuiView`]): which kind of plot each
//! sink is, and its title, rate, centre frequency and size from its GRC parameters. The inputs
//! are filled in when the file's connections are resolved.

use super::expr::Variables;
use super::value::Value;
use crate::GuiView;
use radioflow_runtime::echo::cut_display;
use std::collections::HashMap;

/// The view GUI sink `id` named `name` becomes, with its parameters `params`; `None` for a
/// GUI block the page does not show yet (the auto-correlator and graphic items, and the
/// message-only widgets: they stay headless). An error names a parameter that does
/// not evaluate to what it must be.
pub(super) fn view(
    id: &str,
    name: &str,
    params: &HashMap<String, String>,
    vars: &mut Variables,
) -> Option<Result<GuiView, String>> {
    // GRC's keys for each sink's rate and size (qtgui_*_sink_x.block.yml).
    let (kind, rate_key, size_key) = match id {
        "qtgui_time_sink_x" => ("time", "srate", "size"),
        "qtgui_freq_sink_x" => ("spectrum", "bw", "fftsize"),
        "qtgui_waterfall_sink_x" => ("waterfall", "bw", "fftsize"),
        "qtgui_const_sink_x" => ("constellation", "", "size"),
        // The combined sink shows a spectrum first, as QT's does.
        "qtgui_sink_x" => ("spectrum", "bw", "fftsize"),
        "qtgui_number_sink" => ("number", "", ""),
        "qtgui_histogram_sink_x" => ("histogram", "", "size"),
        "qtgui_eye_sink_x" => ("eye", "srate", "size"),
        "qtgui_time_raster_sink_x" => ("raster", "samp_rate", ""),
        "qtgui_vector_sink_f" => ("vector", "", "vlen"),
        "qtgui_tab_widget" => return Some(tabs(name, params, vars)),
        "qtgui_ledindicator" | "qtgui_dialgauge" | "qtgui_levelgauge" => {
            return Some(message_display(id, name, params, vars));
        }
        "qtgui_compass" => return Some(compass(name, params, vars)),
        _ => return None,
    };
    // Sinks of message type take PDUs, not streams: shown from the messages sent to them, the
    // `pdu` option saying of what (1 complex, 2 float, 3 byte samples).
    let pdu = match params.get("type").map(String::as_str) {
        Some("msg_complex") => Some(1.0),
        Some("msg_float") => Some(2.0),
        Some("msg_byte") => Some(3.0),
        Some(other) if other.starts_with("msg_") => {
            return Some(Err(format!(
                "type = {other} is not a message type the page shows"
            )))
        }
        _ => None,
    };
    Some(
        describe(kind, name, params, vars, rate_key, size_key).map(|mut view| {
            if let Some(pdu) = pdu {
                view.options.push(("pdu".to_owned(), pdu));
            }
            view
        }),
    )
}

/// A number parameter `key` of `params`, if given.
fn number(
    params: &HashMap<String, String>,
    vars: &mut Variables,
    key: &str,
) -> Result<Option<f64>, String> {
    let Some(text) = params.get(key).filter(|t| !t.trim().is_empty()) else {
        return Ok(None);
    };
    match vars.eval(text) {
        Ok(Value::Int(n)) => Ok(Some(n as f64)),
        Ok(Value::Float(x)) => Ok(Some(x)),
        Ok(Value::Bool(b)) => Ok(Some(f64::from(u8::from(b)))),
        Ok(other) => Err(format!("{key} = {} is not a number", cut_display(&other))),
        Err(err) => Err(format!("{key}: {err}")),
    }
}

/// A string parameter: an expression if it evaluates to one, else the text as written.
fn text(params: &HashMap<String, String>, vars: &mut Variables, key: &str) -> String {
    params
        .get(key)
        .map(|text| match vars.eval(text) {
            Ok(Value::Str(s)) => s,
            _ => text.clone(),
        })
        .map(|t| t.trim().to_owned())
        .unwrap_or_default()
}

/// A QT tab widget: its number of tabs and their labels, where the page lays out what names
/// it in its `gui_hint` (`name@2: 0,0,1,1`).
fn tabs(
    name: &str,
    params: &HashMap<String, String>,
    vars: &mut Variables,
) -> Result<GuiView, String> {
    let count = number(params, vars, "num_tabs")?.unwrap_or(1.0);
    if !(1.0..=20.0).contains(&count) || count.fract() != 0.0 {
        return Err(format!("num_tabs = {count} is not 1 to 20"));
    }
    let labels = (0..count as usize)
        .map(|i| {
            let l = text(params, vars, &format!("label{i}"));
            if l.is_empty() {
                format!("Tab {i}")
            } else {
                l
            }
        })
        .collect();
    Ok(GuiView {
        options: vec![("tabs".to_owned(), count)],
        labels,
        ..bare(name, "tabs", name.to_owned(), params)
    })
}

/// View `name` of `kind` with `title` and the block's layout hint, nothing else yet (its
/// inputs are filled in when the file's connections are resolved).
fn bare(
    name: &str,
    kind: &'static str,
    title: String,
    params: &HashMap<String, String>,
) -> GuiView {
    GuiView {
        name: name.to_owned(),
        kind,
        title,
        inputs: Vec::new(),
        messages: Vec::new(),
        rate: None,
        centre: 0.0,
        size: None,
        gui_hint: params.get("gui_hint").cloned().unwrap_or_default(),
        options: Vec::new(),
        labels: Vec::new(),
        units: Vec::new(),
        colours: Vec::new(),
        tag_key: String::new(),
        clicks: None,
        centre_from: Vec::new(),
    }
}

/// GNU Radio's LED indicator, dial gauge and level gauge: a display of the messages sent to it
/// (their sources filled in with the file's message connections).
fn message_display(
    id: &str,
    name: &str,
    params: &HashMap<String, String>,
    vars: &mut Variables,
) -> Result<GuiView, String> {
    let label = text(params, vars, "label");
    let kind = if id == "qtgui_ledindicator" {
        "led"
    } else {
        "gauge"
    };
    let title = if label.is_empty() {
        name.to_owned()
    } else {
        label
    };
    let mut view = bare(name, kind, title, params);
    if id == "qtgui_ledindicator" {
        let on = number(params, vars, "state")? == Some(1.0);
        view.options
            .push(("state".to_owned(), f64::from(u8::from(on))));
        view.units = ["onColor", "offColor"]
            .iter()
            .map(|k| text(params, vars, k))
            .collect();
        return Ok(view);
    }
    for (key, as_key, default) in [
        ("minimum", "min", 0.0),
        ("maximum", "max", 100.0),
        ("value", "value", 0.0),
    ] {
        let x = number(params, vars, key)?.unwrap_or(default);
        view.options.push((as_key.to_owned(), x));
    }
    // The level gauge shows the value times its scale factor when that is not 1
    // (`if int(self.scaleFactor) != 1` in gr-qtgui's levelgauge.py).
    let scale = number(params, vars, "scaleFactor")?.unwrap_or(1.0);
    view.options.push((
        "scale".to_owned(),
        if scale.trunc() != 1.0 { scale } else { 1.0 },
    ));
    let vertical = id == "qtgui_levelgauge" && number(params, vars, "isVertical")? != Some(0.0);
    view.options
        .push(("vertical".to_owned(), f64::from(u8::from(vertical))));
    Ok(view)
}

/// GNU Radio's compass: an angle in degrees, from its stream input (the mean of what comes)
/// or, with `usemsg`, from the messages sent to `angle` (`msg` option 1); its needle
/// (`fullNeedle`: 1 full, 0 indicator, 2 mirrored for the -π..π ambiguity) and colours
/// (background, needle tip, needle body, scale).
fn compass(
    name: &str,
    params: &HashMap<String, String>,
    vars: &mut Variables,
) -> Result<GuiView, String> {
    let label = text(params, vars, "name");
    let title = if label.is_empty() {
        name.to_owned()
    } else {
        label
    };
    let mut view = bare(name, "compass", title, params);
    let needle = number(params, vars, "fullNeedle")?.unwrap_or(1.0);
    if ![0.0, 1.0, 2.0].contains(&needle) {
        return Err(format!("fullNeedle = {needle} is not 0, 1 or 2"));
    }
    view.options.push(("needle".to_owned(), needle));
    let from_messages = number(params, vars, "usemsg")? == Some(1.0);
    if from_messages {
        view.options.push(("msg".to_owned(), 1.0));
    }
    view.colours = [
        ("backgroundColor", "default"),
        ("needleTipColor", "red"),
        ("needleBodyColor", "black"),
        ("scaleColor", "black"),
    ]
    .iter()
    .map(|(key, default)| {
        let c = text(params, vars, key);
        if c.is_empty() {
            (*default).to_owned()
        } else {
            c
        }
    })
    .collect();
    Ok(view)
}

/// GRC's trigger mode (`qtgui.TRIG_MODE_NORM`) as the number [`GuiView::options`] gives it.
fn trigger_mode(text: &str) -> f64 {
    match text.rsplit('_').next().unwrap_or_default() {
        "AUTO" => 1.0,
        "NORM" => 2.0,
        "TAG" => 3.0,
        _ => 0.0,
    }
}

fn describe(
    kind: &'static str,
    name: &str,
    params: &HashMap<String, String>,
    vars: &mut Variables,
    rate_key: &str,
    size_key: &str,
) -> Result<GuiView, String> {
    let rate = number(params, vars, rate_key)?.filter(|r| *r > 0.0);
    let centre = number(params, vars, "fc")?.unwrap_or(0.0);
    let size = match number(params, vars, size_key)? {
        Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= (1u64 << 24) as f64 => Some(n as usize),
        Some(n) => return Err(format!("{size_key} = {n} is not a number of points")),
        None => None,
    };
    let title = Some(text(params, vars, "name"))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| name.to_owned());
    let mut options = Vec::new();
    let mut option = |key: &str, as_key: &str, vars: &mut Variables| -> Result<(), String> {
        if let Some(x) = number(params, vars, key)? {
            options.push((as_key.to_owned(), x));
        }
        Ok(())
    };
    // Fixed limits unless the sink autoscales (the waterfall has intensity limits instead).
    if number(params, vars, "autoscale")? != Some(1.0) {
        for key in ["ymin", "ymax", "xmin", "xmax"] {
            option(key, key, vars)?;
        }
    }
    for (key, as_key) in [
        ("average", "average"),
        ("int_min", "int_min"),
        ("int_max", "int_max"),
        ("update_time", "update"),
        ("tr_level", "level"),
        ("tr_delay", "delay"),
        ("tr_chan", "channel"),
        ("freqhalf", "half"),
    ] {
        option(key, as_key, vars)?;
    }
    if let Some(rate) = rate {
        options.push(("rate".to_owned(), rate));
    }
    if matches!(kind, "spectrum" | "waterfall") {
        // The window as GNU Radio numbers it, the page's spectra on the sink's scale.
        let window = match params.get("wintype").map(|t| vars.eval(t)) {
            None => 5, // GRC's default, window.WIN_BLACKMAN_hARRIS
            Some(Ok(Value::Constant(word))) => super::constants::number(word)
                .ok_or_else(|| format!("wintype = {word} is not a window"))?,
            Some(Ok(Value::Int(n))) => n,
            Some(Ok(other)) => {
                return Err(format!("wintype = {} is not a window", cut_display(&other)))
            }
            Some(Err(err)) => return Err(format!("wintype: {err}")),
        };
        // The seven GRC offers (a window beyond them, by expression, is refused).
        if ![0, 1, 2, 3, 4, 5, 7].contains(&window) {
            return Err(format!(
                "wintype = {window} is not one of the windows GRC offers for this sink"
            ));
        }
        options.push(("window".to_owned(), window as f64));
        let normalize = number(params, vars, "norm_window")? == Some(1.0);
        options.push(("norm".to_owned(), f64::from(u8::from(normalize))));
    }
    if kind == "time" {
        // GRC's default for `entags` is on.
        let tags = number(params, vars, "entags")? != Some(0.0);
        options.push(("tags".to_owned(), f64::from(u8::from(tags))));
    }
    if let Some(mode) = params.get("tr_mode") {
        options.push(("trigger".to_owned(), trigger_mode(mode)));
        let negative = params.get("tr_slope").is_some_and(|s| s.ends_with("NEG"));
        options.push(("slope".to_owned(), if negative { -1.0 } else { 1.0 }));
    }
    let labels = (1..=10)
        .map(|i| text(params, vars, &format!("label{i}")))
        .collect();
    // Each line's look as GRC sets it (`color1`, `width1`, `style1`, `marker1`, `alpha1`...),
    // where the sink has them; the options count lines from 0.
    let colours = (1..=10)
        .map(|i| text(params, vars, &format!("color{i}")))
        .collect();
    for i in 1..=10 {
        for key in ["width", "style", "marker", "alpha"] {
            if let Some(x) = number(params, vars, &format!("{key}{i}"))? {
                options.push((format!("{key}{}", i - 1), x));
            }
        }
    }
    let tag_key = if params.contains_key("tr_tag") {
        text(params, vars, "tr_tag")
    } else {
        String::new()
    };
    let mut view = GuiView {
        rate,
        centre,
        size,
        options,
        labels,
        colours,
        tag_key,
        ..bare(name, kind, title, params)
    };
    match kind {
        "number" => number_sink(&mut view, params, vars)?,
        "histogram" => {
            let bins = count(params, vars, "bins")?.unwrap_or(100);
            view.options.push(("bins".to_owned(), bins as f64));
            let accumulate = number(params, vars, "accum")? == Some(1.0);
            view.options
                .push(("accumulate".to_owned(), f64::from(u8::from(accumulate))));
        }
        "eye" => {
            let sps = number(params, vars, "samp_per_symbol")?
                .filter(|s| *s >= 1.0)
                .ok_or("samp_per_symbol is not a number of samples of at least 1")?;
            view.options.push(("sps".to_owned(), sps.round()));
        }
        "raster" => raster_sink(&mut view, params, vars)?,
        "vector" => {
            for (key, as_key) in [
                ("x_start", "x_start"),
                ("x_step", "x_step"),
                ("ref_level", "ref_level"),
            ] {
                if let Some(x) = number(params, vars, key)? {
                    view.options.push((as_key.to_owned(), x));
                }
            }
            view.units = ["x", "y"]
                .iter()
                .map(|axis| {
                    let label = text(params, vars, &format!("{axis}_axis_label"));
                    let unit = text(params, vars, &format!("{axis}_units"));
                    if unit.is_empty() {
                        label
                    } else {
                        format!("{label} ({unit})")
                    }
                })
                .collect();
        }
        _ => {}
    }
    Ok(view)
}

/// A positive whole-number parameter `key`, if given.
fn count(
    params: &HashMap<String, String>,
    vars: &mut Variables,
    key: &str,
) -> Result<Option<usize>, String> {
    match number(params, vars, key)? {
        Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= (1u64 << 32) as f64 => Ok(Some(n as usize)),
        Some(n) => Err(format!("{key} = {n} is not a positive whole number")),
        None => Ok(None),
    }
}

/// The number sink's averaging, bar and per-input factors and units.
fn number_sink(
    view: &mut GuiView,
    params: &HashMap<String, String>,
    vars: &mut Variables,
) -> Result<(), String> {
    let avg = number(params, vars, "avg")?.unwrap_or(0.0);
    if !(0.0..=1.0).contains(&avg) {
        return Err(format!("avg = {avg} is not between 0 and 1"));
    }
    view.options.push(("avg".to_owned(), avg));
    for key in ["min", "max"] {
        let x = number(params, vars, key)?.unwrap_or(if key == "min" { -1.0 } else { 1.0 });
        view.options.push((key.to_owned(), x));
    }
    let autoscale = number(params, vars, "autoscale")? == Some(1.0);
    view.options
        .push(("autoscale".to_owned(), f64::from(u8::from(autoscale))));
    let bar = match params
        .get("graph_type")
        .map(|t| t.rsplit('_').next().unwrap_or_default())
    {
        Some("VERT") => 1.0,
        Some("NONE") => 2.0,
        _ => 0.0,
    };
    view.options.push(("bar".to_owned(), bar));
    for i in 0..10 {
        let factor = number(params, vars, &format!("factor{}", i + 1))?.unwrap_or(1.0);
        view.options.push((format!("factor{i}"), factor));
    }
    view.units = (1..=10)
        .map(|i| text(params, vars, &format!("unit{i}")))
        .collect();
    Ok(())
}

/// Most samples a frame of the page's probes holds (the raster's rows are cut to fit).
const MOST_POINTS: usize = 1 << 16;

/// The raster's shape, intensity range, per-input scaling and axes.
fn raster_sink(
    view: &mut GuiView,
    params: &HashMap<String, String>,
    vars: &mut Variables,
) -> Result<(), String> {
    let rows = count(params, vars, "nrows")?.unwrap_or(256);
    let cols = count(params, vars, "ncols")?.unwrap_or(256);
    if cols > MOST_POINTS {
        return Err(format!(
            "ncols = {cols}: the page draws rows of at most {MOST_POINTS} samples"
        ));
    }
    // The latest rows that fit in one frame (QT scrolls through all `nrows`).
    let shown = rows.min(MOST_POINTS / cols);
    view.size = Some(shown * cols);
    view.options.push(("rows".to_owned(), shown as f64));
    view.options.push(("all_rows".to_owned(), rows as f64));
    view.options.push(("cols".to_owned(), cols as f64));
    for key in ["zmin", "zmax"] {
        let x = number(params, vars, key)?.unwrap_or(if key == "zmin" { -1.0 } else { 1.0 });
        view.options.push((key.to_owned(), x));
    }
    for key in ["mult", "offset"] {
        let Some(text) = params.get(key).filter(|t| !t.trim().is_empty()) else {
            continue;
        };
        let values = match vars.eval(text) {
            Ok(Value::List(v) | Value::Array(v)) => v,
            Ok(other) => return Err(format!("{key} = {} is not a list", cut_display(&other))),
            Err(err) => return Err(format!("{key}: {err}")),
        };
        for (i, v) in values.iter().enumerate() {
            let x = match v {
                Value::Int(n) => *n as f64,
                Value::Float(x) => *x,
                other => {
                    return Err(format!(
                        "{key}[{i}] = {} is not a number",
                        cut_display(other)
                    ))
                }
            };
            view.options.push((format!("{key}{i}"), x));
        }
    }
    for axis in ["x", "y"] {
        let start = number(params, vars, &format!("{axis}_start_value"))?.unwrap_or(0.0);
        let end = number(params, vars, &format!("{axis}_end_value"))?.unwrap_or(0.0);
        // QT's default axes (sample and row numbers) when the range is left at 0 to 0.
        if start != end {
            view.options.push((format!("{axis}_start"), start));
            view.options.push((format!("{axis}_end"), end));
        }
    }
    Ok(())
}
