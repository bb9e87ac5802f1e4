//! GNU Radio's QT GUI sinks as views of the live page ([`GuiView`]): which kind of plot each
//! sink is, and its title, rate, centre frequency and size from its GRC parameters. The inputs
//! are filled in when the file's connections are resolved.

use super::expr::Variables;
use super::value::Value;
use crate::GuiView;
use radioflow_runtime::echo::cut_display;
use std::collections::HashMap;

/// The view GUI sink `id` named `name` becomes, with its parameters `params`; `None` for a
/// GUI block the page does not show yet (number, histogram, eye, raster, vector sinks and
/// the message-only widgets: they stay headless). An error names a parameter that does not
/// evaluate to what it must be.
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
        "qtgui_tab_widget" => return Some(tabs(name, params, vars)),
        _ => return None,
    };
    // Time, constellation and frequency sinks of message type take PDUs, not streams.
    if params.get("type").is_some_and(|t| t.starts_with("msg_")) {
        return None;
    }
    Some(describe(kind, name, params, vars, rate_key, size_key))
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
        name: name.to_owned(),
        kind: "tabs",
        title: name.to_owned(),
        inputs: Vec::new(),
        rate: None,
        centre: 0.0,
        size: None,
        gui_hint: params.get("gui_hint").cloned().unwrap_or_default(),
        options: vec![("tabs".to_owned(), count)],
        labels,
    })
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
    if let Some(mode) = params.get("tr_mode") {
        options.push(("trigger".to_owned(), trigger_mode(mode)));
        let negative = params.get("tr_slope").is_some_and(|s| s.ends_with("NEG"));
        options.push(("slope".to_owned(), if negative { -1.0 } else { 1.0 }));
    }
    let labels = (1..=10)
        .map(|i| text(params, vars, &format!("label{i}")))
        .collect();
    Ok(GuiView {
        name: name.to_owned(),
        kind,
        title,
        inputs: Vec::new(),
        rate,
        centre,
        size,
        gui_hint: params.get("gui_hint").cloned().unwrap_or_default(),
        options,
        labels,
    })
}
