//! GRC variables that change while the graph runs ([`LiveGrc`]), as GNU Radio's generated
//! `set_<variable>` callbacks do: a user sets a widget's variable, every expression that
//! depends on it is evaluated again (other variables, block parameters), and each block
//! parameter whose value changed is set on the running block through its run-time setter (a
//! settable parameter: the block's message input of that name). A changed parameter the
//! block cannot change while running is reported, never dropped in silence; GNU Radio
//! itself only calls the setters its block definitions declare (`callbacks:`).
//!
//! A message widget (a dial control, toggle button...) also sends its message to the message
//! inputs the file connects it to; a message button or edit box only sends.
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
            return Ok(LiveChange {
                value: Some(accepted),
                messages,
                ..LiveChange::default()
            });
        }
        let message = widget.message.clone();
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
        let (description, widgets) = describe_grc_with(&self.text, &self.file, &overrides, true)?;
        let mut change = diff(&self.description, &description);
        change.value = widgets
            .iter()
            .find(|w| w.name == name)
            .map(|w| w.value.clone());
        // A message widget that is also a variable sends its new value too.
        if let (Some(message), Some(value)) = (&message, &change.value) {
            change.messages = message.deliveries(value);
        }
        self.overrides = overrides;
        self.description = description;
        self.widgets = widgets;
        Ok(change)
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
