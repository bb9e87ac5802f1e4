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
        _ => return None,
    };
    // Time, constellation and frequency sinks of message type take PDUs, not streams.
    if params.get("type").is_some_and(|t| t.starts_with("msg_")) {
        return None;
    }
    Some(describe(kind, name, params, vars, rate_key, size_key))
}

fn describe(
    kind: &'static str,
    name: &str,
    params: &HashMap<String, String>,
    vars: &mut Variables,
    rate_key: &str,
    size_key: &str,
) -> Result<GuiView, String> {
    let mut number = |key: &str| -> Result<Option<f64>, String> {
        let Some(text) = params.get(key).filter(|t| !t.trim().is_empty()) else {
            return Ok(None);
        };
        match vars.eval(text) {
            Ok(Value::Int(n)) => Ok(Some(n as f64)),
            Ok(Value::Float(x)) => Ok(Some(x)),
            Ok(other) => Err(format!("{key} = {} is not a number", cut_display(&other))),
            Err(err) => Err(format!("{key}: {err}")),
        }
    };
    let rate = number(rate_key)?.filter(|r| *r > 0.0);
    let centre = number("fc")?.unwrap_or(0.0);
    let size = match number(size_key)? {
        Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= (1u64 << 24) as f64 => Some(n as usize),
        Some(n) => return Err(format!("{size_key} = {n} is not a number of points")),
        None => None,
    };
    // GRC's `name` is a string parameter: an expression if it evaluates to one, else the text.
    let title = params
        .get("name")
        .map(|text| match vars.eval(text) {
            Ok(Value::Str(s)) => s,
            _ => text.clone(),
        })
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| name.to_owned());
    Ok(GuiView {
        name: name.to_owned(),
        kind,
        title,
        inputs: Vec::new(),
        rate,
        centre,
        size,
        gui_hint: params.get("gui_hint").cloned().unwrap_or_default(),
    })
}
