//! GRC variables that change while the graph runs ([`LiveGrc`]), as GNU Radio's generated
//! `set_<variable>` callbacks do: a user sets a widget's variable, every expression that
//! depends on it is evaluated again (other variables, block parameters), and each block
//! parameter whose value changed is set on the running block through its run-time setter (a
//! settable parameter: the block's message input of that name). A changed parameter the
//! block cannot change while running is reported, never dropped in silence; GNU Radio
//! itself only calls the setters its block definitions declare (`callbacks:`).
//!
//! A message widget (a dial control, toggle button...) also sends its message to the message
//! inputs the file connects it to; a message button or edit box only sends. A message edit
//! box and a digital number control also follow the messages sent to their input
//! ([`LiveGrc::receive`]), as QT's do.
//!
//! The whole file is described again with the new value (its expressions are cheap next to a
//! user's click), and the new description is compared with the running one block by block.

use super::describe::describe_grc_with;
use super::overrides::Overrides;
use super::value::Value;
use super::widgets::{Widget, WidgetKind};
use crate::{GraphDescription, GraphError};
use radioflow_runtime::echo::cut_display;
use radioflow_runtime::Pmt;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A .grc flowgraph whose variables can be set while it runs (see the module docs).
#[derive(Debug)]
pub struct LiveGrc {
    text: String,
    file: PathBuf,
    overrides: Overrides,
    description: GraphDescription,
    widgets: Vec<Widget>,
    /// What each message edit box shows and the key it sends with, when not its own (set by
    /// the user or by a message it received): kept across evaluations of the file.
    entries: HashMap<String, (Value, Option<String>)>,
    /// The last message each edit box received or sent (QT's `d_msg`): the same message
    /// again is ignored, which ends loops.
    last: HashMap<String, Pmt>,
}

/// What setting a variable changes in the running graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveChange {
    /// The value the variable took.
    pub value: Option<Value>,
    /// Each running block's settable parameter to set: `(block, parameter, value)`.
    pub params: Vec<(String, String, Pmt)>,
    /// Changes the running graph cannot take (a parameter without a run-time setter, a block
    /// whose item type or kind would change), each naming the block and parameter; they take
    /// effect when the graph is built again.
    pub fixed: Vec<String>,
    /// The messages a message widget sends: `(block, message input, message)`.
    pub messages: Vec<(String, String, Pmt)>,
}

impl LiveGrc {
    /// Reads the .grc file at `path` (see [`parse`](Self::parse)).
    ///
    /// # Errors
    /// As [`describe_grc`](super::describe_grc) (a widget whose parameters do not evaluate is
    /// left out, with a note in the description).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, GraphError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| GraphError::Read {
            file: path.to_owned(),
            source,
        })?;
        Self::parse(text, path)
    }

    /// The flowgraph written in `text` (`file` names it in errors), its variables at the
    /// values of their expressions.
    ///
    /// # Errors
    /// As [`open`](Self::open).
    pub fn parse(text: String, file: impl AsRef<Path>) -> Result<Self, GraphError> {
        let file = file.as_ref().to_owned();
        let (description, widgets) = describe_grc_with(&text, &file, &Overrides::default(), true)?;
        Ok(Self {
            text,
            file,
            overrides: Overrides::default(),
            description,
            widgets,
            entries: HashMap::new(),
            last: HashMap::new(),
        })
    }

    /// The graph as its variables are now.
    pub fn description(&self) -> &GraphDescription {
        &self.description
    }

    /// The variables a user can see and set: GUI widgets and plain variables of one number,
    /// string or bool, at their values now.
    pub fn widgets(&self) -> &[Widget] {
        &self.widgets
    }

    /// Sets variable `name` to what its widget makes of `value` ([`Widget`]'s rules: a range's
    /// bounds, a chooser's options, an entry's type), evaluates the file again and says which
    /// running blocks' parameters change. Nothing changes when this fails.
    ///
    /// # Errors
    /// An unknown variable, a label, a value the widget refuses, or a value with which the
    /// graph would not build (naming the block and parameter, as for the file itself).
    pub fn set(&mut self, name: &str, value: Value) -> Result<LiveChange, GraphError> {
        let refuse = |message: String| GraphError::Variable {
            file: self.file.clone(),
            name: name.to_owned(),
            message,
        };
        let widget = self
            .widgets
            .iter()
            .find(|w| w.name == name)
            .ok_or_else(|| {
                refuse(format!(
                    "no variable of this name can be set (those that can: {})",
                    self.widgets
                        .iter()
                        .filter(|w| w.kind != WidgetKind::Label)
                        .map(|w| w.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
        // A message button or edit box is no variable: it only sends.
        if let WidgetKind::MessageButton { .. } | WidgetKind::MessageEntry { .. } = widget.kind {
            let accepted = widget.accept(value).map_err(refuse)?;
            let messages = widget
                .message
                .as_ref()
                .map(|m| m.deliveries(&accepted))
                .unwrap_or_default();
            if let WidgetKind::MessageEntry { .. } = widget.kind {
                let key = widget.message.as_ref().and_then(|m| m.key.clone());
                if let Some((_, _, sent)) = messages.first() {
                    self.last.insert(name.to_owned(), sent.clone());
                }
                self.entries
                    .insert(name.to_owned(), (accepted.clone(), key));
                self.show_entries();
            }
            return Ok(LiveChange {
                value: Some(accepted),
                messages,
                ..LiveChange::default()
            });
        }
        let mut overrides = self.overrides.clone();
        overrides.values.remove(name);
        overrides.expressions.remove(name);
        match (&widget.kind, value) {
            // A raw entry's text is an expression of the file's variables.
            (WidgetKind::Entry { kind }, Value::Str(text)) if kind == "raw" => {
                overrides.expressions.insert(name.to_owned(), text);
            }
            (_, value) => {
                let accepted = widget.accept(value).map_err(refuse)?;
                overrides.values.insert(name.to_owned(), accepted);
            }
        }
        self.evaluate(name, overrides)
    }

    /// Widget `name` receives `msg` on its message input, as GNU Radio's QT widget takes it:
    ///
    /// - a message edit box (`val`) ignores the message it last received or sent (pairs are
    ///   the same when they are the same message, as `pmt::eqv` compares them); in pair mode
    ///   it takes a pair whose key is a symbol (its own key when static; otherwise the key
    ///   shown becomes the pair's) and reads its second; the value must be of its type (an
    ///   `int` box a long, a `float`/`double` box a double, a `string` box a symbol). It shows
    ///   the value and sends the message received on, unchanged (`edit_box_msg_impl::
    ///   set_value`).
    /// - a digital number control (`valuein`) takes the second of a pair, a long or a double,
    ///   sets its variable to it (as a double; GNU Radio does not check its range there) and
    ///   sends `(outputmsgname . value)` (`MsgDigitalNumberControl.msgHandler`).
    ///
    /// `Ok(None)`: ignored without a word (a repeat). Nothing changes when this fails.
    ///
    /// # Errors
    /// What QT's widget would log: no such widget with an input, a message not of the form
    /// or type it takes, a static key that differs; or the graph refusing the value (as
    /// [`set`](Self::set)).
    pub fn receive(&mut self, name: &str, msg: &Pmt) -> Result<Option<LiveChange>, GraphError> {
        let refuse = |message: String| GraphError::Variable {
            file: self.file.clone(),
            name: name.to_owned(),
            message,
        };
        let widget = self
            .widgets
            .iter()
            .find(|w| w.name == name && w.input().is_some())
            .ok_or_else(|| refuse("no widget of this name has a message input".into()))?;
        match &widget.kind {
            WidgetKind::MessageEntry { kind, static_key } => {
                if self.last.get(name).is_some_and(|last| eqv(last, msg)) {
                    return Ok(None);
                }
                self.last.insert(name.to_owned(), msg.clone());
                let message = widget.message.as_ref();
                let pair_mode = message.is_some_and(|m| m.key.is_some());
                let (key, value) = if pair_mode {
                    let Some((car, cdr)) = msg.as_pair() else {
                        return Err(refuse(format!(
                            "{}: did not find a PMT pair",
                            cut_display(msg)
                        )));
                    };
                    let Some(key) = car.as_symbol() else {
                        return Err(refuse(format!(
                            "{}: the pair's key is not a symbol",
                            cut_display(msg)
                        )));
                    };
                    let own = message.and_then(|m| m.key.as_deref()).unwrap_or("");
                    let own = self
                        .entries
                        .get(name)
                        .and_then(|(_, k)| k.as_deref())
                        .unwrap_or(own);
                    if *static_key && key != own {
                        return Err(refuse(format!("got key '{key}' but expected '{own}'")));
                    }
                    (Some(key.to_owned()), cdr)
                } else {
                    (None, msg)
                };
                let shown = match (kind.as_str(), value) {
                    ("int", Pmt::Int(i)) => Value::Int(*i),
                    ("float" | "double", Pmt::Double(x)) => Value::Float(*x),
                    ("string", Pmt::Symbol(s)) => Value::Str(s.to_string()),
                    (kind, v) => {
                        return Err(refuse(format!("{} is not of type {kind}", cut_display(v))))
                    }
                };
                let messages = message
                    .and_then(|m| m.relay.clone())
                    .map(|relay| vec![(relay, "in".to_owned(), msg.clone())])
                    .unwrap_or_default();
                let key = key.or_else(|| message.and_then(|m| m.key.clone()));
                self.entries.insert(name.to_owned(), (shown.clone(), key));
                self.show_entries();
                Ok(Some(LiveChange {
                    value: Some(shown),
                    messages,
                    ..LiveChange::default()
                }))
            }
            _ => {
                let Some((_, cdr)) = msg.as_pair() else {
                    return Err(refuse(format!(
                        "{}: the digital number control takes a pair",
                        cut_display(msg)
                    )));
                };
                let x = match cdr {
                    Pmt::Int(i) => *i as f64,
                    Pmt::Double(x) => *x,
                    other => {
                        return Err(refuse(format!(
                            "{} is not an int or a float",
                            cut_display(other)
                        )))
                    }
                };
                self.set_value(name, Value::Float(x)).map(Some)
            }
        }
    }

    /// Sets variable `name` to `value` as it is (no widget's check) and says what changes,
    /// with the message its widget sends.
    fn set_value(&mut self, name: &str, value: Value) -> Result<LiveChange, GraphError> {
        let mut overrides = self.overrides.clone();
        overrides.expressions.remove(name);
        overrides.values.insert(name.to_owned(), value);
        self.evaluate(name, overrides)
    }

    /// Evaluates the file with `overrides` (variable `name` changed) and says what changes in
    /// the running graph, with the message `name`'s widget sends if it is a message widget.
    fn evaluate(&mut self, name: &str, overrides: Overrides) -> Result<LiveChange, GraphError> {
        let message = self
            .widgets
            .iter()
            .find(|w| w.name == name)
            .and_then(|w| w.message.clone());
        let (description, widgets) = describe_grc_with(&self.text, &self.file, &overrides, true)?;
        let mut change = diff(&self.description, &description);
        change.value = widgets
            .iter()
            .find(|w| w.name == name)
            .map(|w| w.value.clone());
        if let (Some(message), Some(value)) = (&message, &change.value) {
            change.messages = message.deliveries(value);
        }
        self.overrides = overrides;
        self.description = description;
        self.widgets = widgets;
        self.show_entries();
        Ok(change)
    }

    /// Puts what each message edit box shows, and its key, back on the widgets (the file's
    /// evaluation makes them afresh).
    fn show_entries(&mut self) {
        for w in &mut self.widgets {
            if let Some((value, key)) = self.entries.get(&w.name) {
                w.value = value.clone();
                if let Some(m) = &mut w.message
                    && m.key.is_some()
                {
                    m.key.clone_from(key);
                }
            }
        }
    }
}

/// Whether `a` and `b` are the same message as GNU Radio's `pmt::eqv` says: the same
/// container (pairs, vectors, dicts: one made once and sent on), or equal atoms.
fn eqv(a: &Pmt, b: &Pmt) -> bool {
    match (a, b) {
        (Pmt::Pair(x), Pmt::Pair(y)) => std::sync::Arc::ptr_eq(x, y),
        (Pmt::Dict(x), Pmt::Dict(y)) => std::sync::Arc::ptr_eq(x, y),
        (Pmt::Vector(x), Pmt::Vector(y)) | (Pmt::Tuple(x), Pmt::Tuple(y)) => {
            std::sync::Arc::ptr_eq(x, y)
        }
        (
            Pmt::Null
            | Pmt::Bool(_)
            | Pmt::Symbol(_)
            | Pmt::Int(_)
            | Pmt::Uint64(_)
            | Pmt::Double(_)
            | Pmt::Complex(_),
            _,
        ) => a == b,
        _ => false,
    }
}

/// The parameters that differ between `old` and `new`, as settable changes or fixed ones.
fn diff(old: &GraphDescription, new: &GraphDescription) -> LiveChange {
    let mut change = LiveChange::default();
    for b in &new.blocks {
        let Some(before) = old.blocks.iter().find(|o| o.name == b.name) else {
            change
                .fixed
                .push(format!("block '{}' would be new", b.name));
            continue;
        };
        if before.block != b.block || before.dtype != b.dtype {
            change.fixed.push(format!(
                "block '{}' would become {}{} (is {}{})",
                b.name,
                b.block,
                b.dtype
                    .as_deref()
                    .map(|d| format!(" of {d}"))
                    .unwrap_or_default(),
                before.block,
                before
                    .dtype
                    .as_deref()
                    .map(|d| format!(" of {d}"))
                    .unwrap_or_default(),
            ));
            continue;
        }
        let description = radioflow_runtime::registry::find(&b.block);
        let was: HashMap<&str, &Pmt> = before.params.iter().map(|(k, v)| (k.as_str(), v)).collect();
        for (param, value) in &b.params {
            if was.get(param.as_str()) == Some(&value) {
                continue;
            }
            let settable = description
                .and_then(|d| d.param(param))
                .is_some_and(|p| p.settable);
            if settable {
                change
                    .params
                    .push((b.name.clone(), param.clone(), value.clone()));
            } else {
                change.fixed.push(format!(
                    "block '{}': parameter '{param}' would be {} but radioflow's '{}' cannot \
                     change it while running",
                    b.name,
                    cut_display(value),
                    b.block
                ));
            }
        }
        for (param, _) in &before.params {
            if !b.params.iter().any(|(k, _)| k == param) {
                change.fixed.push(format!(
                    "block '{}': parameter '{param}' would be left to its default, which \
                     cannot be done while running",
                    b.name
                ));
            }
        }
    }
    change
}
