//! Variables a front end lets the page set while the graph runs ([`Variables`]): a GRC file's
//! QT GUI widgets (`radioflow run FILE.grc`), each change turned into the settable parameters
//! it changes on the running blocks, which the port posts as it posts any parameter. The
//! front end owns what a variable means; the port only shows the widgets and carries the
//! changes.

use radioflow_runtime::Pmt;
use std::sync::{Arc, Mutex};

/// What a front end's variables offer the page.
pub trait Variables: Send + 'static {
    /// The variables as a JSON array of objects, each with at least `name`, `label`, `kind`
    /// (`range`, `chooser`, `entry`, `check_box`, `push_button`, `label`, `variable`,
    /// `message_button`, `message_entry`) and
    /// `value`, and what its kind needs to be drawn (`start`, `stop`, `step`, `options`,
    /// `labels`...).
    fn widgets(&self) -> serde_json::Value;

    /// The front end's views as they are now (their centre, rate, limits or shown value may
    /// depend on the variables); their probes are as at the start. None by default.
    fn views(&self) -> Vec<ViewConfig> {
        Vec::new()
    }

    /// Sets variable `name` to `value`, or says why it cannot (the message names the
    /// variable); on success, the parameters to set on the running blocks and the messages
    /// to post to them.
    ///
    /// # Errors
    /// An unknown variable or a value it does not take; nothing changed.
    fn set(&mut self, name: &str, value: &serde_json::Value) -> Result<VariableChange, String>;

    /// The widgets that follow messages, each with the message taps (ids as
    /// [`MessageTap::id`](crate::MessageTap)) on the outputs connected to its input: the port
    /// hands each new message to [`receive`](Self::receive). None by default.
    fn follows(&self) -> Vec<(String, Vec<String>)> {
        Vec::new()
    }

    /// Widget `name` receives `msg` (from one of the taps it [`follows`](Self::follows)):
    /// what it changes, `None` when the widget ignores it without a word.
    ///
    /// # Errors
    /// Why the widget does not take it (a sentence naming the widget); nothing changed.
    fn receive(&mut self, name: &str, msg: &Pmt) -> Result<Option<VariableChange>, String> {
        let _ = msg;
        Err(format!("variable '{name}' follows no messages"))
    }
}

/// What setting a variable changes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VariableChange {
    /// The value the variable took (as the front end shows it).
    pub value: serde_json::Value,
    /// The settable parameters to set: `(block, parameter, value)`.
    pub params: Vec<(String, String, Pmt)>,
    /// Changes the running graph cannot take, each a sentence naming block and parameter.
    pub fixed: Vec<String>,
    /// Messages to post (a message widget's): `(block, message input, message)`.
    pub messages: Vec<(String, String, Pmt)>,
    /// The front end's views as they are after the change (a display's centre frequency, rate
    /// or limits may depend on the variable); their probes are as before.
    pub views: Vec<ViewConfig>,
}

/// A front end's [`Variables`], shared with the control port's thread.
#[derive(Clone)]
pub struct SharedVariables(pub(crate) Arc<Mutex<dyn Variables>>);

impl SharedVariables {
    /// Shares `variables` with the port.
    pub fn new(variables: impl Variables) -> Self {
        Self(Arc::new(Mutex::new(variables)))
    }
}

impl std::fmt::Debug for SharedVariables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedVariables")
    }
}

/// A view of the page that stands for a front end's display (a GRC file's QT GUI sink): a
/// plot of one or more probes, overlaid.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ViewConfig {
    /// The display's name in its file (`qtgui_freq_sink_x_0`).
    pub name: String,
    /// Its title.
    pub title: String,
    /// `spectrum`, `time`, `constellation`, `waterfall`, `number`, `histogram`, `eye`,
    /// `raster`, `vector`, `led` or `gauge`; or `tabs`, a tab widget the others name in their `gui_hint` (no
    /// probes).
    pub kind: String,
    /// The probes it plots (ids as [`Probe::id`](crate::Probe)), in its inputs' order.
    pub probes: Vec<String>,
    /// The message taps it shows (ids as [`MessageTap::id`](crate::MessageTap)): an LED's or
    /// gauge's.
    pub messages: Vec<String>,
    /// The centre frequency of a spectrum's or waterfall's axis, in Hz.
    pub centre: f64,
    /// Points a time plot or constellation shows (the latest of its probes' frames), if
    /// fewer than a frame.
    pub size: Option<usize>,
    /// The front end's layout hint, as written (GRC's `gui_hint`).
    pub gui_hint: String,
    /// How the page draws it, by name (limits, averaging, trigger...: see
    /// `radioflow_graphfile::GuiView::options`).
    pub options: Vec<(String, f64)>,
    /// Legend labels per trace (for `tabs`: the tabs' labels).
    pub labels: Vec<String>,
    /// Per input, the unit after a number's value; a vector plot's axis titles.
    pub units: Vec<String>,
    /// Per trace, its colour (a CSS colour name, or GRC's `dark red` style), empty for the
    /// page's own.
    pub colours: Vec<String>,
    /// The tag key a time plot's tag trigger fires on, empty for none.
    pub tag_key: String,
    /// The block whose message input `in` a pick on a spectrum or waterfall is posted to,
    /// as `(freq . hz)` (a GRC sink's `freq` output, sent by QT on a double click); `None`
    /// when the view sends nothing.
    pub clicks: Option<String>,
    /// The message taps whose pairs set a spectrum's or waterfall's centre (a GRC sink's `freq`
    /// input: QT takes a pair whose second is a double).
    pub centre_from: Vec<String>,
}
