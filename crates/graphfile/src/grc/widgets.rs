//! GNU Radio's QT GUI variable widgets (`variable_qtgui_range`, chooser, entry, check box,
//! push button, label), its message widgets (dial control, toggle button and switch, message
//! check box, message push button, message edit box, digital number control) and plain GRC
//! variables, as controls of the live page ([`Widget`]): each with its current value, what it
//! may be set to and, for a message widget, the message it sends ([`WidgetMessage`]), and the
//! check of a value a user sets ([`Widget::accept`]) as the QT widget would constrain it.

use super::entries::Entry;
use super::expr::Variables;
use super::value::Value;
use crate::End;
use radioflow_runtime::echo::{cut, cut_display};
use radioflow_runtime::Pmt;

/// A variable of a .grc file that the live page shows (and, except labels, lets a user set).
#[derive(Clone, Debug, PartialEq)]
pub struct Widget {
    /// The variable's name (`freq`).
    pub name: String,
    /// Its label (GRC's `label`; the name when empty).
    pub label: String,
    /// Which widget, with its range or options.
    pub kind: WidgetKind,
    /// Its value now.
    pub value: Value,
    /// Where GRC's layout puts it (`gui_hint`), as written.
    pub gui_hint: String,
    /// The message a message widget sends when set, and where; `None` for the others.
    pub message: Option<WidgetMessage>,
    /// The message outputs the file connects to the widget's message input (a message edit
    /// box's `val`, a digital number control's `valuein`): blocks of the graph, or other
    /// widgets' relays. The page shows what they send as QT's widget does
    /// ([`LiveGrc::receive`](super::LiveGrc::receive)).
    pub follows: Vec<End>,
}

impl Widget {
    /// The widget's message input, if it has one: `val` (message edit box) or `valuein`
    /// (digital number control); GNU Radio's other QT widgets have none.
    pub fn input(&self) -> Option<&'static str> {
        match &self.kind {
            WidgetKind::MessageEntry { .. } => Some("val"),
            WidgetKind::Range { style, .. } if style == "digital" => Some("valuein"),
            _ => None,
        }
    }
}

/// The message a QT GUI message widget sends each time a user sets it, as GNU Radio's widget
/// publishes it on its message output: `(key . value)` (a pair of the key's symbol and the
/// value), or the value alone for a message edit box that is not a pair.
#[derive(Clone, Debug, PartialEq)]
pub struct WidgetMessage {
    /// The pair's key (GRC's `outputmsgname`, `msgName` or `key`); `None`: the value alone.
    pub key: Option<String>,
    /// GRC's `type` of the value: `int` (a long), `float`/`real`/`double` (a double),
    /// `bool`, `string` (a symbol).
    pub kind: String,
    /// The message inputs it goes to (the file's message connections from the widget).
    pub sends: Vec<End>,
    /// The graph's `message_relay` block that sends it on (named as the widget), when it
    /// goes anywhere: the page posts the message to its `in`.
    pub relay: Option<String>,
}

impl WidgetMessage {
    /// The message for `value`, as GNU Radio's widget makes it from its type.
    pub fn message(&self, value: &Value) -> Pmt {
        let v = match (self.kind.as_str(), value) {
            ("int", v) => v
                .as_f64()
                .map_or_else(|| v.to_pmt(), |x| Pmt::Int(x as i64)),
            ("float" | "real" | "double", v) => v.as_f64().map_or_else(|| v.to_pmt(), Pmt::Double),
            ("bool", v) => v
                .as_f64()
                .map_or_else(|| v.to_pmt(), |x| Pmt::Bool(x != 0.0)),
            ("string", Value::Str(s)) => Pmt::symbol(s.as_str()),
            ("string", v) => Pmt::symbol(v.to_string()),
            (_, v) => v.to_pmt(),
        };
        match &self.key {
            Some(key) => Pmt::pair(Pmt::symbol(key.as_str()), v),
            None => v,
        }
    }

    /// Where the page posts the message for `value`: `(relay block, "in", message)`, none
    /// when the widget is connected to nothing.
    pub fn deliveries(&self, value: &Value) -> Vec<(String, String, Pmt)> {
        self.relay
            .iter()
            .map(|relay| (relay.clone(), "in".to_owned(), self.message(value)))
            .collect()
    }
}

/// GNU Radio's QT GUI message widgets that are not variables: the page shows them and sends
/// their messages, but no expression depends on them.
pub(super) const MESSAGE_WIDGETS: &[&str] =
    &["variable_qtgui_msg_push_button", "qtgui_edit_box_msg"];

/// The kind of a [`Widget`] and what it offers.
#[derive(Clone, Debug, PartialEq)]
pub enum WidgetKind {
    /// `variable_qtgui_range`: a number from `start` to `stop` in steps of `step`.
    Range {
        /// The lowest value.
        start: f64,
        /// The highest value.
        stop: f64,
        /// The step.
        step: f64,
        /// Integers only (`rangeType: int`).
        integer: bool,
        /// GRC's `widget`: `counter_slider`, `counter`, `slider` or `dial`.
        style: String,
    },
    /// `variable_qtgui_chooser`: one of `options`, shown by `labels`.
    Chooser {
        /// The values it may take.
        options: Vec<Value>,
        /// Their labels (the option written when GRC has none).
        labels: Vec<String>,
        /// Radio buttons rather than a combo box.
        radio: bool,
    },
    /// `variable_qtgui_entry`: typed text of GRC's `type` (`real`, `int`, `string`, `bool`,
    /// or `raw`: a Python expression).
    Entry {
        /// GRC's `type`.
        kind: String,
    },
    /// `variable_qtgui_check_box`: `on` when checked, `off` otherwise.
    CheckBox {
        /// The value when checked (GRC's `true`).
        on: Value,
        /// The value when not (GRC's `false`).
        off: Value,
    },
    /// `variable_qtgui_push_button`: `pressed` while pressed, `released` otherwise.
    PushButton {
        /// The value while pressed.
        pressed: Value,
        /// The value otherwise.
        released: Value,
    },
    /// `variable_qtgui_label`: shows its value; not set by the user.
    Label,
    /// `variable_qtgui_msg_push_button`: sends its message (with `value`) when pressed; not a
    /// variable.
    MessageButton {
        /// The value it sends (GRC's `value`).
        value: Value,
    },
    /// `qtgui_edit_box_msg`: sends the text entered, as a value of GRC's `type`, when the
    /// user enters it; not a variable.
    MessageEntry {
        /// GRC's `type`: `string`, `int`, `float` or `double`.
        kind: String,
        /// GRC's `is_static`: a pair received on `val` must have the widget's key (else
        /// the key shown becomes the pair's).
        static_key: bool,
    },
    /// A plain `variable` holding a number, string or bool: settable through the API (as
    /// GNU Radio's generated `set_<name>`), shown without a control.
    Variable,
}

/// The widgets of `entries` (enabled variables), valued by `vars`, and a note for each GUI
/// widget left off because a parameter of it does not evaluate (the graph does not need it,
/// or describing the file would have failed before: GNU Radio's examples have labels showing
/// names no variable defines). A plain variable that does not evaluate is left off silently.
pub(super) fn widgets(entries: &[&Entry], vars: &mut Variables) -> (Vec<Widget>, Vec<String>) {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for e in entries.iter().filter(|e| e.state != "disabled") {
        match widget(e, vars) {
            Ok(Some(w)) => out.push(w),
            Ok(None) => {}
            Err(_) if e.id == "variable" => {}
            Err(m) => notes.push(format!(
                "{} '{}' is not on the page: {m}",
                e.id,
                cut(&e.name)
            )),
        }
    }
    (out, notes)
}

/// GRC's defaults of the message widgets' parameters (their .block.yml files), for files
/// written before a parameter existed.
const DEFAULTS: &[(&str, &str)] = &[
    ("minimum", "0"),
    ("maximum", "100"),
    ("scaleFactor", "1"),
    ("outputmsgname", "value"),
    ("pressed", "1"),
    ("released", "0"),
    ("msgName", "pressed"),
    ("minFreqHz", "30e6"),
    ("maxFreqHz", "1700e6"),
];

/// Parameter `key` of `e` as written, else GRC's default for a message widget's, else "".
fn param_of<'a>(e: &'a Entry, key: &str) -> &'a str {
    match e.params.get(key).map(String::as_str) {
        Some(text) if !text.trim().is_empty() => text,
        _ if e.id.starts_with("variable_qtgui_") && e.id != "variable_qtgui_range"
            || e.id.starts_with("qtgui_") =>
        {
            DEFAULTS
                .iter()
                .find(|(k, _)| *k == key)
                .map_or("", |(_, d)| d)
        }
        _ => e.params.get(key).map_or("", String::as_str),
    }
}

fn widget(e: &Entry, vars: &mut Variables) -> Result<Option<Widget>, String> {
    let param = |key: &str| param_of(e, key);
    let kind_of = param("type").to_owned();
    let kind = match e.id.as_str() {
        "variable_qtgui_range" => {
            let integer = param("rangeType") == "int";
            let mut number = |key: &str| -> Result<f64, String> {
                match vars.eval(param(key)) {
                    Ok(v) => v
                        .as_f64()
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| format!("{key} = {} is not a number", cut_display(&v))),
                    Err(err) => Err(format!("{key}: {err}")),
                }
            };
            let (start, stop, step) = (number("start")?, number("stop")?, number("step")?);
            WidgetKind::Range {
                start,
                stop,
                step,
                integer,
                style: param("widget").to_owned(),
            }
        }
        "variable_qtgui_chooser" => {
            let (options, labels) = chooser_options(e, &kind_of, vars)?;
            WidgetKind::Chooser {
                options,
                labels,
                radio: param("widget") == "radio_buttons",
            }
        }
        "variable_qtgui_entry" => WidgetKind::Entry {
            kind: kind_of.clone(),
        },
        "variable_qtgui_check_box" => WidgetKind::CheckBox {
            on: typed(&kind_of, param("true"), vars).map_err(|m| format!("true: {m}"))?,
            off: typed(&kind_of, param("false"), vars).map_err(|m| format!("false: {m}"))?,
        },
        "variable_qtgui_push_button" => WidgetKind::PushButton {
            pressed: typed(&kind_of, param("pressed"), vars)
                .map_err(|m| format!("pressed: {m}"))?,
            released: typed(&kind_of, param("released"), vars)
                .map_err(|m| format!("released: {m}"))?,
        },
        "variable_qtgui_label" => WidgetKind::Label,
        "variable" => WidgetKind::Variable,
        // A dial's positions are whole numbers from `minimum` to `maximum`; the variable is
        // the position times `scaleFactor`, which GNU Radio applies only when its integer
        // part is not 1 (`if int(self.scaleFactor) != 1` in gr-qtgui's dialcontrol.py).
        "variable_qtgui_dial_control" => {
            let scale = number(vars, "scaleFactor", param("scaleFactor"))?;
            let scale = if scale.trunc() != 1.0 { scale } else { 1.0 };
            let (lo, hi) = (
                number(vars, "minimum", param("minimum"))?,
                number(vars, "maximum", param("maximum"))?,
            );
            WidgetKind::Range {
                start: lo.min(hi) * scale,
                stop: lo.max(hi) * scale,
                step: scale.abs(),
                integer: kind_of == "int",
                style: "dial".to_owned(),
            }
        }
        "variable_qtgui_toggle_button_msg"
        | "variable_qtgui_toggle_switch"
        | "variable_qtgui_msgcheckbox" => WidgetKind::CheckBox {
            on: typed(&kind_of, param("pressed"), vars).map_err(|m| format!("pressed: {m}"))?,
            off: typed(&kind_of, param("released"), vars).map_err(|m| format!("released: {m}"))?,
        },
        "qtgui_msgdigitalnumbercontrol" => WidgetKind::Range {
            start: number(vars, "minFreqHz", param("minFreqHz"))?,
            stop: number(vars, "maxFreqHz", param("maxFreqHz"))?,
            step: 1.0,
            integer: false,
            // QT's digital number control: shown as a counter; it alone follows messages.
            style: "digital".to_owned(),
        },
        "variable_qtgui_msg_push_button" => WidgetKind::MessageButton {
            value: typed(&kind_of, param("value"), vars).map_err(|m| format!("value: {m}"))?,
        },
        "qtgui_edit_box_msg" => {
            if !["string", "int", "float", "double"].contains(&kind_of.as_str()) {
                return Err(format!(
                    "type {kind_of}: the page's message edit box sends strings, ints, floats \
                     and doubles (complex and vector types not yet)"
                ));
            }
            WidgetKind::MessageEntry {
                kind: kind_of.clone(),
                static_key: !matches!(vars.eval(param("is_static")), Ok(Value::Bool(false))),
            }
        }
        _ => return Ok(None),
    };
    let message = message_of(e, &kind_of, vars)?;
    // The variable's value as the flowgraph sees it (set, or its expression's); a message
    // widget that is not a variable shows what it sends.
    let value = match &kind {
        WidgetKind::MessageButton { value } => value.clone(),
        WidgetKind::MessageEntry { kind, .. } => match param("value").trim() {
            "" => Value::Str(String::new()),
            // GRC's `float` and `double` boxes hold a real.
            text => {
                let kind = if kind == "float" || kind == "double" {
                    "real"
                } else {
                    kind
                };
                typed(kind, text, vars).map_err(|m| format!("value: {m}"))?
            }
        },
        _ => match vars.eval(&e.name) {
            Ok(v) => v,
            Err(err) => return Err(format!("value: {err}")),
        },
    };
    if kind == WidgetKind::Variable
        && !matches!(
            value,
            Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Str(_)
        )
    {
        // Lists, taps, objects: not a control.
        return Ok(None);
    }
    // The digital number control's label is its `lbl`.
    let label = match e.id.as_str() {
        "qtgui_msgdigitalnumbercontrol" => param("lbl"),
        _ => param("label"),
    }
    .trim();
    let label = match vars.eval(label) {
        Ok(Value::Str(s)) => s,
        _ => label.to_owned(),
    };
    Ok(Some(Widget {
        name: e.name.clone(),
        label: if label.is_empty() {
            e.name.clone()
        } else {
            label
        },
        kind,
        value,
        gui_hint: param("gui_hint").to_owned(),
        message,
        follows: Vec::new(),
    }))
}

/// A number parameter `key` written `text`.
fn number(vars: &mut Variables, key: &str, text: &str) -> Result<f64, String> {
    match vars.eval(text) {
        Ok(v) => v
            .as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("{key} = {} is not a number", cut_display(&v))),
        Err(err) => Err(format!("{key}: {err}")),
    }
}

/// The message a message widget sends (its destinations filled in later, from the file's
/// message connections); `None` for a widget that sends none.
fn message_of(
    e: &Entry,
    kind: &str,
    vars: &mut Variables,
) -> Result<Option<WidgetMessage>, String> {
    let param = |key: &str| param_of(e, key);
    let key_param = match e.id.as_str() {
        "variable_qtgui_dial_control"
        | "variable_qtgui_toggle_button_msg"
        | "variable_qtgui_toggle_switch"
        | "variable_qtgui_msgcheckbox"
        | "qtgui_msgdigitalnumbercontrol" => "outputmsgname",
        "variable_qtgui_msg_push_button" => "msgName",
        "qtgui_edit_box_msg" => "key",
        _ => return Ok(None),
    };
    let pair = e.id != "qtgui_edit_box_msg"
        || matches!(vars.eval(param("is_pair")), Ok(Value::Bool(true)));
    let key = match typed("string", param(key_param), vars)? {
        Value::Str(s) => s,
        other => other.to_string(),
    };
    let kind = match e.id.as_str() {
        // The digital number control sends a double; the dial a double unless of ints.
        "qtgui_msgdigitalnumbercontrol" => "float",
        "variable_qtgui_dial_control" if kind != "int" => "float",
        _ => kind,
    };
    Ok(Some(WidgetMessage {
        key: pair.then_some(key),
        kind: kind.to_owned(),
        sends: Vec::new(),
        relay: None,
    }))
}

/// A chooser's options and labels: GRC's `option0`..`option4` and `label0`..`label4` for
/// `num_opts` 1 to 5, or the `options` and `labels` lists for 0.
fn chooser_options(
    e: &Entry,
    kind: &str,
    vars: &mut Variables,
) -> Result<(Vec<Value>, Vec<String>), String> {
    let param = |key: &str| e.params.get(key).map_or("", String::as_str);
    let count: usize = param("num_opts")
        .trim()
        .parse()
        .map_err(|_| format!("num_opts = {} is not 0 to 5", cut(param("num_opts"))))?;
    let (options, given_labels): (Vec<Value>, Vec<String>) = if count == 0 {
        let list = |key: &str, vars: &mut Variables| match vars.eval(param(key)) {
            Ok(Value::List(v) | Value::Array(v)) => Ok(v),
            Ok(other) => Err(format!("{key} = {} is not a list", cut_display(&other))),
            Err(err) => Err(format!("{key}: {err}")),
        };
        let options = list("options", vars)?;
        let labels = list("labels", vars)?
            .into_iter()
            .map(|l| match l {
                Value::Str(s) => s,
                other => other.to_string(),
            })
            .collect();
        (options, labels)
    } else if count <= 5 {
        let mut options = Vec::new();
        let mut labels = Vec::new();
        for i in 0..count {
            options.push(
                typed(kind, param(&format!("option{i}")), vars)
                    .map_err(|m| format!("option{i}: {m}"))?,
            );
            let label = param(&format!("label{i}")).trim().to_owned();
            labels.push(match vars.eval(&label) {
                Ok(Value::Str(s)) => s,
                _ => label,
            });
        }
        (options, labels)
    } else {
        return Err(format!("num_opts = {count} is not 0 to 5"));
    };
    // A missing or empty label shows the option, as QT's chooser does.
    let labels = options
        .iter()
        .enumerate()
        .map(|(i, o)| match given_labels.get(i) {
            Some(l) if !l.is_empty() => l.clone(),
            _ => match o {
                Value::Str(s) => s.clone(),
                other => other.to_string(),
            },
        })
        .collect();
    Ok((options, labels))
}

/// `text` evaluated as a value of GRC's `type` option `kind` (`real`, `int`, `string`, `bool`,
/// `raw`).
fn typed(kind: &str, text: &str, vars: &mut Variables) -> Result<Value, String> {
    if kind == "string" {
        // A string parameter: an expression if it evaluates to a string, else the text.
        return Ok(match vars.eval(text) {
            Ok(s @ Value::Str(_)) => s,
            _ => Value::Str(text.to_owned()),
        });
    }
    let v = vars.eval(text).map_err(|e| e.to_string())?;
    coerce(kind, v)
}

/// `v` as a value of GRC's `type` option `kind`.
fn coerce(kind: &str, v: Value) -> Result<Value, String> {
    match (kind, v) {
        ("real", Value::Int(n)) => Ok(Value::Float(n as f64)),
        ("real", v @ Value::Float(_)) => Ok(v),
        ("int", v @ Value::Int(_)) => Ok(v),
        ("int", Value::Float(x)) if x.fract() == 0.0 && x.abs() < 9.0e15 => {
            Ok(Value::Int(x as i64))
        }
        ("bool", v @ Value::Bool(_)) => Ok(v),
        ("bool", Value::Int(n)) => Ok(Value::Bool(n != 0)),
        ("string", Value::Str(s)) => Ok(Value::Str(s)),
        ("string", v) => Ok(Value::Str(v.to_string())),
        ("raw" | "", v) => Ok(v),
        (kind, v) => Err(format!("{} is not of type {kind}", cut_display(&v))),
    }
}

/// Whether `a` and `b` are the same value, numbers compared as numbers (a page's `1` is the
/// option `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) if !matches!(a, Value::Bool(_) | Value::Str(_)) => x == y,
        _ => a == b,
    }
}

impl Widget {
    /// The value the variable takes when a user sets the widget to `v`, or why not: a range
    /// takes a number between its ends (an integer if it is of integers), a chooser one of
    /// its options, an entry a value of its type (a `raw` entry's text is evaluated), a
    /// check box or push button `true`/`false` (checked/pressed) or one of its two values.
    /// (A `raw` entry's text is an expression: [`LiveGrc::set`](super::LiveGrc::set)
    /// evaluates it with the file's variables.)
    pub(super) fn accept(&self, v: Value) -> Result<Value, String> {
        match &self.kind {
            WidgetKind::Range {
                start,
                stop,
                integer,
                ..
            } => {
                let x = match v {
                    Value::Int(_) | Value::Float(_) => v.as_f64().unwrap_or(f64::NAN),
                    other => return Err(format!("{} is not a number", cut_display(&other))),
                };
                let (lo, hi) = if start <= stop {
                    (*start, *stop)
                } else {
                    (*stop, *start)
                };
                if !(lo..=hi).contains(&x) {
                    return Err(format!("{x} is outside the range {start} to {stop}"));
                }
                if *integer {
                    coerce("int", Value::Float(x)).map_err(|_| format!("{x} is not an integer"))
                } else {
                    Ok(Value::Float(x))
                }
            }
            WidgetKind::Chooser {
                options, labels, ..
            } => options
                .iter()
                .find(|o| same(o, &v))
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "{} is not one of the options ({})",
                        cut_display(&v),
                        labels.join(", ")
                    )
                }),
            WidgetKind::Entry { kind } => coerce(kind, v),
            WidgetKind::CheckBox { on: a, off: b }
            | WidgetKind::PushButton {
                pressed: a,
                released: b,
            } => match v {
                Value::Bool(true) => Ok(a.clone()),
                Value::Bool(false) => Ok(b.clone()),
                v if same(&v, a) => Ok(a.clone()),
                v if same(&v, b) => Ok(b.clone()),
                v => Err(format!(
                    "{} is neither true/false nor {} / {}",
                    cut_display(&v),
                    cut_display(a),
                    cut_display(b)
                )),
            },
            WidgetKind::Label => Err("a label shows a value; it is not set".into()),
            // Pressing the button (any value): it sends its own.
            WidgetKind::MessageButton { value } => Ok(value.clone()),
            WidgetKind::MessageEntry { kind, .. } => {
                let kind = if kind == "string" {
                    "string"
                } else if kind == "int" {
                    "int"
                } else {
                    "real"
                };
                let v = match v {
                    // Text entered for a number: read as one.
                    Value::Str(t) if kind != "string" => {
                        let t = t.trim();
                        t.parse::<i64>()
                            .map(Value::Int)
                            .or_else(|_| t.parse::<f64>().map(Value::Float))
                            .map_err(|_| format!("'{}' is not a number", cut(t)))?
                    }
                    v => v,
                };
                coerce(kind, v)
            }
            WidgetKind::Variable => match v {
                v @ (Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Str(_)) => Ok(v),
                other => Err(format!(
                    "{} is not a number, string or bool",
                    cut_display(&other)
                )),
            },
        }
    }
}
