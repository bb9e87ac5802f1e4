//! GNU Radio's QT GUI variable widgets (`variable_qtgui_range`, chooser, entry, check box,
//! push button, label) and plain GRC variables, as controls of the live page ([`Widget`]):
//! each with its current value and what it may be set to, and the check of a value a user
//! sets ([`Widget::accept`]) as the QT widget would constrain it.

use super::entries::Entry;
use super::expr::Variables;
use super::value::Value;
use radioflow_runtime::echo::{cut, cut_display};

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
}

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

fn widget(e: &Entry, vars: &mut Variables) -> Result<Option<Widget>, String> {
    let param = |key: &str| e.params.get(key).map_or("", String::as_str);
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
        _ => return Ok(None),
    };
    // The variable's value as the flowgraph sees it (set, or its expression's).
    let value = match vars.eval(&e.name) {
        Ok(v) => v,
        Err(err) => return Err(format!("value: {err}")),
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
    let label = param("label").trim();
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
