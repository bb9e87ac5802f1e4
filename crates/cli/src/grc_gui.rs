//! A .grc file's GUI on the live page (`radioflow run FILE.grc`): its QT GUI sinks become views
//! of probes on the outputs that feed them, and its QT GUI widgets become the page's controls,
//! each change re-evaluating the file and setting the running blocks' parameters it changes
//! ([`LiveGrc`]).

use radioflow_control::{
    add_message_tap, add_probe, MessageTap, Probe, ProbeConfig, VariableChange, Variables,
    ViewConfig,
};
use radioflow_graphfile::grc::{LiveGrc, Value, Widget, WidgetKind};
use radioflow_graphfile::{BuiltGraph, End, GuiView};
use radioflow_runtime::{Direction, Pmt, PortName};
use serde_json::{json, Value as Json};
use std::time::Duration;

/// Whether the file has anything the page shows in place of QT: a GUI sink or a widget.
pub(crate) fn has_gui(grc: &LiveGrc) -> bool {
    !grc.description().gui.is_empty()
        || grc.widgets().iter().any(|w| w.kind != WidgetKind::Variable)
}

/// What the page reads for a file's displays.
pub(crate) struct GuiTaps {
    /// The probes on the outputs feeding stream displays.
    pub(crate) probes: Vec<Probe>,
    /// The taps on the message outputs feeding message displays (LEDs, gauges).
    pub(crate) taps: Vec<MessageTap>,
    /// The page's views.
    pub(crate) views: Vec<ViewConfig>,
}

/// Adds to `fg` (before it starts) a probe on each output that feeds one of `views` and a tap
/// on each message output that feeds one, and returns them with the page's views; an input
/// the page cannot show (an item type probes do not read) is named in a note. An output that
/// feeds several views gets one probe, whose frames are as long as the longest of theirs.
///
/// A tap also goes on each message output connected to a widget's message input (a message
/// edit box, a digital number control: see [`GrcVariables::follows`]).
pub(crate) fn add_view_probes(
    graph: &mut BuiltGraph,
    widgets: &[Widget],
    notes: &mut Vec<String>,
) -> anyhow::Result<GuiTaps> {
    let views: Vec<GuiView> = graph.gui.clone();
    // Each view's inputs as `block.port`, in input order.
    let specs: Vec<Vec<(usize, String)>> = views
        .iter()
        .map(|view| {
            let mut inputs = view.inputs.clone();
            inputs.sort_by_key(|(i, _)| *i);
            inputs
                .iter()
                .filter_map(|(i, from)| Some((*i, output_spec(graph, from)?)))
                .collect()
        })
        .collect();
    // A triggered time or eye view needs room to find its trigger: twice its size and the
    // delay.
    let size_of = |view: &GuiView| {
        let size = view.size.unwrap_or(1024).clamp(16, 1 << 16);
        let option = |key: &str| view.options.iter().find(|(k, _)| k == key).map(|(_, x)| *x);
        match option("trigger") {
            Some(mode) if matches!(view.kind, "time" | "eye") && mode != 0.0 => {
                let delay = option("delay").unwrap_or(0.0) * view.rate.unwrap_or(0.0);
                (2 * size + delay.clamp(0.0, 1e6) as usize).min(1 << 16)
            }
            _ => size,
        }
    };
    let mut probes: Vec<Probe> = Vec::new();
    let mut taps: Vec<MessageTap> = Vec::new();
    let mut configs = Vec::new();
    for (view, inputs) in views.iter().zip(&specs) {
        let mut tap_ids = Vec::new();
        for from in &view.messages {
            let spec = from.to_string();
            if !taps.iter().any(|t| t.id == spec) {
                taps.push(add_message_tap(&mut graph.flowgraph, &spec)?);
            }
            tap_ids.push(spec);
        }
        let mut ids = Vec::new();
        for (i, spec) in inputs {
            if !probes.iter().any(|p| &p.id == spec) {
                let size = views
                    .iter()
                    .zip(&specs)
                    .filter(|(_, s)| s.iter().any(|(_, other)| other == spec))
                    .map(|(v, _)| size_of(v))
                    .max()
                    .unwrap_or_else(|| size_of(view));
                let config = ProbeConfig {
                    size,
                    interval: Duration::from_millis(50),
                    sample_rate: view.rate,
                };
                match add_probe(&mut graph.flowgraph, spec, config) {
                    Ok(p) => probes.push(p),
                    Err(radioflow_control::ProbeError::UnsupportedItem(_, item)) => {
                        notes.push(format!(
                            "'{}' input {i}: the page does not plot {item} items yet",
                            view.name
                        ));
                        continue;
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            ids.push(spec.clone());
        }
        let mut config = view_config(view, ids);
        config.messages = tap_ids;
        for from in &view.centre_from {
            let spec = from.to_string();
            if !taps.iter().any(|t| t.id == spec) {
                taps.push(add_message_tap(&mut graph.flowgraph, &spec)?);
            }
            config.centre_from.push(spec);
        }
        configs.push(config);
    }
    for from in widgets.iter().flat_map(|w| &w.follows) {
        let spec = from.to_string();
        if !taps.iter().any(|t| t.id == spec) {
            taps.push(add_message_tap(&mut graph.flowgraph, &spec)?);
        }
    }
    Ok(GuiTaps {
        probes,
        taps,
        views: configs,
    })
}

/// The output `from` names, as a probe's `block.port`; `None` for a block or output the
/// built graph does not have.
fn output_spec(graph: &BuiltGraph, from: &End) -> Option<String> {
    let block = graph
        .blocks
        .iter()
        .find(|(n, _)| *n == from.block)
        .map(|(_, id)| *id)?;
    let outputs = graph.flowgraph.port_names(block, Direction::StreamOutput);
    let port = match &from.port {
        PortName::Index(n) => (*outputs.get(*n)?).to_owned(),
        PortName::Name(p) => p.clone(),
    };
    Some(format!("{}.{port}", from.block))
}

/// `view` for the page, plotting `probes`.
fn view_config(view: &GuiView, probes: Vec<String>) -> ViewConfig {
    ViewConfig {
        name: view.name.clone(),
        title: view.title.clone(),
        kind: view.kind.to_owned(),
        probes,
        centre: view.centre,
        size: view.size,
        gui_hint: view.gui_hint.clone(),
        options: view.options.clone(),
        labels: view.labels.clone(),
        units: view.units.clone(),
        colours: view.colours.clone(),
        tag_key: view.tag_key.clone(),
        messages: Vec::new(),
        clicks: view.clicks.clone(),
        centre_from: Vec::new(),
    }
}

/// A .grc file's variables, for the control port.
pub(crate) struct GrcVariables(pub(crate) LiveGrc);

impl Variables for GrcVariables {
    fn widgets(&self) -> Json {
        Json::Array(self.0.widgets().iter().map(widget_json).collect())
    }

    fn set(&mut self, name: &str, value: &Json) -> Result<VariableChange, String> {
        let value = match value {
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Json::String(s) => Value::Str(s.clone()),
            other => {
                return Err(format!(
                    "variable '{name}': {other} is not a number, string or bool"
                ))
            }
        };
        let change = self.0.set(name, value).map_err(|e| e.to_string())?;
        Ok(VariableChange {
            value: change.value.as_ref().map_or(Json::Null, value_json),
            params: change.params,
            fixed: change.fixed,
            messages: change.messages,
            views: self.views(),
        })
    }

    fn follows(&self) -> Vec<(String, Vec<String>)> {
        self.0
            .widgets()
            .iter()
            .filter(|w| !w.follows.is_empty())
            .map(|w| {
                let taps = w.follows.iter().map(ToString::to_string).collect();
                (w.name.clone(), taps)
            })
            .collect()
    }

    fn receive(&mut self, name: &str, msg: &Pmt) -> Result<Option<VariableChange>, String> {
        let Some(change) = self.0.receive(name, msg).map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        Ok(Some(VariableChange {
            value: change.value.as_ref().map_or(Json::Null, value_json),
            params: change.params,
            fixed: change.fixed,
            messages: change.messages,
            views: self.views(),
        }))
    }

    fn views(&self) -> Vec<ViewConfig> {
        self.0
            .description()
            .gui
            .iter()
            .map(|v| view_config(v, Vec::new()))
            .collect()
    }
}

fn widget_json(w: &Widget) -> Json {
    let mut o = json!({"name": w.name, "label": w.label, "value": value_json(&w.value), "gui_hint": w.gui_hint});
    let extra = match &w.kind {
        WidgetKind::Range {
            start,
            stop,
            step,
            integer,
            style,
        } => {
            json!({"kind": "range", "start": start, "stop": stop, "step": step, "integer": integer, "style": style})
        }
        WidgetKind::Chooser {
            options,
            labels,
            radio,
        } => {
            json!({"kind": "chooser", "options": options.iter().map(value_json).collect::<Vec<_>>(), "labels": labels, "radio": radio})
        }
        WidgetKind::Entry { kind } => json!({"kind": "entry", "type": kind}),
        WidgetKind::CheckBox { on, off } => {
            json!({"kind": "check_box", "on": value_json(on), "off": value_json(off)})
        }
        WidgetKind::PushButton { pressed, released } => {
            json!({"kind": "push_button", "pressed": value_json(pressed), "released": value_json(released)})
        }
        WidgetKind::Label => json!({"kind": "label"}),
        WidgetKind::MessageButton { .. } => json!({"kind": "message_button"}),
        WidgetKind::MessageEntry { kind, .. } => {
            json!({"kind": "message_entry", "type": kind})
        }
        WidgetKind::Variable => json!({"kind": "variable"}),
    };
    if let (Some(o), Json::Object(extra)) = (o.as_object_mut(), extra) {
        o.extend(extra);
    }
    // A message widget's destinations, `block.port`.
    if let (Some(o), Some(m)) = (o.as_object_mut(), &w.message) {
        let sends: Vec<String> = m.sends.iter().map(ToString::to_string).collect();
        o.insert("sends".into(), json!(sends));
        o.insert("key".into(), json!(m.key));
    }
    // The outputs a widget with a message input follows, `block.port`.
    if let (Some(o), Some(input)) = (o.as_object_mut(), w.input()) {
        let follows: Vec<String> = w.follows.iter().map(ToString::to_string).collect();
        o.insert("input".into(), json!(input));
        o.insert("follows".into(), json!(follows));
    }
    o
}

/// A value as JSON: numbers, bools and strings as themselves, lists as arrays, anything else
/// (complex numbers, objects) as the text Python would print.
fn value_json(v: &Value) -> Json {
    match v {
        Value::Int(i) => json!(i),
        Value::Float(x) if x.is_finite() => json!(x),
        Value::Bool(b) => json!(b),
        Value::Str(s) => json!(s),
        Value::List(items) | Value::Array(items) => {
            Json::Array(items.iter().map(value_json).collect())
        }
        other => json!(other.to_string()),
    }
}
