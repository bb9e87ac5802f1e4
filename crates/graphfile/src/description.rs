//! A graph as data: blocks by library id and parameters (each optionally assigned to a host),
//! stream and message connections by block name. What a graph file reads into, what
//! `radioflow run --hosts` cuts into one part per host, and what a program builds when it
//! wants either.

use crate::GraphError;
use radioflow_runtime::echo::cut;
// Naming the crate also links the library's blocks, which register themselves.
use radioflow_library::RunFiles;
use radioflow_runtime::registry::{self, Dtype, ParamKind};
use radioflow_runtime::{BlockId, Flowgraph, Pmt, PortName, PortRef};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

// The library's blocks register themselves when linked; naming the crate links it.
use radioflow_library as _;

/// A graph described, not yet built: [`build`](Self::build) makes its blocks from the
/// library's descriptions and connects them.
///
/// ```
/// use radioflow_graphfile::GraphDescription;
///
/// let mut g = GraphDescription::new("example");
/// g.add("src", "null_source").dtype("float32").host("a");
/// g.add("head", "head").dtype("float32").param("n", 1000i64).host("a");
/// g.add("sink", "null_sink").dtype("float32").host("b");
/// g.connect("src", "head")?;
/// g.connect("head", "sink")?;
/// assert_eq!(g.hosts(), ["a", "b"].into_iter().collect());
/// let mut graph = g.build()?;
/// graph.flowgraph.run()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphDescription {
    /// Where it came from (a file's path, or a name): errors name it.
    pub origin: PathBuf,
    /// The blocks, in order.
    pub blocks: Vec<BlockSpec>,
    /// Stream connections.
    pub streams: Vec<Connection>,
    /// Message connections.
    pub messages: Vec<Connection>,
    /// What the front end should tell the user before running it (GNU Radio GUI blocks run
    /// headless).
    pub notes: Vec<String>,
    /// The GNU Radio GUI sinks of a .grc file, as views the live page can show in their place
    /// (empty for radioflow's own graph files).
    pub gui: Vec<GuiView>,
}

/// What a GNU Radio GUI sink (`qtgui_freq_sink_x`, ...) of a .grc file shows, for the live
/// page to show it: its kind, title, the outputs feeding it, their rate and centre frequency.
/// The sink itself runs headless (its inputs are discarded); the page probes its sources.
#[derive(Clone, Debug, PartialEq)]
pub struct GuiView {
    /// The GRC block's name (`qtgui_freq_sink_x_0`).
    pub name: String,
    /// What it shows: `spectrum`, `time`, `constellation`, `waterfall`, `number` (the latest
    /// value of each input, averaged), `histogram`, `eye` (traces of two symbols overlaid),
    /// `raster` (rows of samples as intensities), `vector` (each item, a vector, against its
    /// index), `led` (on or off, from the messages it receives) or `gauge` (a number from its
    /// messages, between a minimum and a maximum); or `tabs`, a QT tab widget (`qtgui_tab_widget`) that the page lays views and
    /// widgets out in.
    pub kind: &'static str,
    /// Its title (GRC's `name` parameter; the block's name when empty).
    pub title: String,
    /// For each connected input, its index and the output that feeds it.
    pub inputs: Vec<(usize, End)>,
    /// The message outputs that feed a message display (an LED's, a gauge's).
    pub messages: Vec<End>,
    /// The inputs' sample rate (GRC's `srate` or `bw`), if given.
    pub rate: Option<f64>,
    /// The centre frequency the frequency axis is drawn around (GRC's `fc`), in Hz.
    pub centre: f64,
    /// Points per frame: the time sink's `size`, the FFT size, the constellation's `size`,
    /// the histogram's and eye's `size`, the raster's rows times columns, the vector's length.
    pub size: Option<usize>,
    /// Where GRC's layout puts it (`gui_hint`: `tab@0: 1, 0, 1, 2`), as written.
    pub gui_hint: String,
    /// How it draws, from the sink's GRC parameters, by name: `ymin`/`ymax` (`xmin`/`xmax`)
    /// fixed limits when it does not autoscale, `average` (the spectrum's averaging factor,
    /// 1 for none), `int_min`/`int_max` (the waterfall's intensity range), `update` (seconds
    /// between redraws), the trigger (`trigger`, `level`, `slope` +1/-1,
    /// `delay` in seconds, `channel`), `half` (1: a real input's
    /// positive half only), `rate` (as [`rate`](Self::rate)); the tab widget's `tabs` (its
    /// number of tabs). The trigger mode is a number: 0 free, 1 auto, 2 normal, 3 tag.
    /// Number sink: `avg` (its averaging factor, 0 for none), `min`/`max` (the bar's range),
    /// `autoscale` (1: the range follows the values), `bar` (0 horizontal, 1 vertical, 2
    /// none), `factor0`... (each input's multiplier). Histogram: `bins`, `accumulate` (1:
    /// counts add up over frames). Eye: `sps` (samples per symbol). Raster: `rows`, `cols`,
    /// `zmin`/`zmax` (intensity range), `mult0`/`offset0`... (each input's scaling),
    /// `x_start`/`x_end`/`y_start`/`y_end` (the axes' ranges when given). Vector: `x_start`,
    /// `x_step`, `ref_level`. Gauge: `min`, `max`, `scale` (GNU Radio's level gauge's
    /// `scaleFactor`: the bar shows the value times it), `vertical`. Frequency and waterfall:
    /// `window` (GNU Radio's window number, `wintype`), `norm` (1: `norm_window`). Time: `tags`
    /// (1: the stream tags drawn, `entags`). A sink of PDUs: `pdu` (1 complex, 2 float, 3 byte
    /// samples).
    pub options: Vec<(String, f64)>,
    /// Per input, the legend's label (GRC's `label1`...), empty where none is given; for a tab
    /// widget, its tabs' labels.
    pub labels: Vec<String>,
    /// Per input, the unit written after a number sink's value (GRC's `unit1`...); for a
    /// vector sink, its x and y axis titles (label and unit); for an LED, its on and off
    /// colours; empty for the others.
    pub units: Vec<String>,
    /// Per line, its colour as GRC names it (`color1`...: `blue`, `dark red`), empty where
    /// the sink has none; the lines' width, style, marker and alpha are in
    /// [`options`](Self::options) (`width0`, `style0`, `marker0`, `alpha0`... with GNU
    /// Radio's numbers for styles and markers).
    pub colours: Vec<String>,
    /// The tag key a time sink's tag trigger fires on (GRC's `tr_tag`), empty otherwise.
    pub tag_key: String,
    /// For a frequency or waterfall sink whose `freq` output the file connects: the
    /// `message_relay` block (named as the sink) the page posts `(freq . hz)` to (its `in`)
    /// when the user picks a frequency on the plot, as QT's sink sends it on a double click.
    pub clicks: Option<String>,
    /// For a frequency or waterfall sink: the message outputs the file connects to its `freq`
    /// input (QT: a pair whose second is a double sets the axis' centre).
    pub centre_from: Vec<End>,
}

/// One block instance: its name, library id, item type, parameters and host.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockSpec {
    /// The instance name (unique in the graph).
    pub name: String,
    /// The library id (`radioflow blocks` lists them).
    pub block: String,
    /// The item type (`None`: the block's default).
    pub dtype: Option<String>,
    /// Parameters by name, as given.
    pub params: Vec<(String, Pmt)>,
    /// The host it runs on (`radioflow run --hosts`); `None` in a graph that runs in one
    /// process.
    pub host: Option<String>,
}

/// One end of a connection: a block by name and one of its ports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// The block's instance name.
    pub block: String,
    /// The port (by index or name).
    pub port: PortName,
}

impl std::fmt::Display for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.port {
            PortName::Index(i) => write!(f, "{}.{i}", self.block),
            PortName::Name(n) => write!(f, "{}.{n}", self.block),
        }
    }
}

impl End {
    /// `block` (port 0) or `block.port` (by name or index).
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let (block, port) = match text.split_once('.') {
            Some((b, p)) => (b, Some(p)),
            None => (text, None),
        };
        if block.is_empty() || port.is_some_and(str::is_empty) {
            return Err(format!("'{}' is not a block or block.port", cut(text)));
        }
        let port = match port {
            None => PortName::Index(0),
            Some(p) => match p.parse::<usize>() {
                Ok(i) => PortName::Index(i),
                Err(_) => PortName::Name(p.to_owned()),
            },
        };
        Ok(End {
            block: block.to_owned(),
            port,
        })
    }
}

/// A connection from an output to an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connection {
    /// The output.
    pub from: End,
    /// The input.
    pub to: End,
    /// The connection as written (a graph file's line, `a -> b -> c`), for errors.
    pub written: String,
}

impl std::fmt::Display for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} -> {}", self.from, self.to)
    }
}

impl BlockSpec {
    /// The item type, by name (`float32`, `complex64`, ...).
    pub fn dtype(&mut self, dtype: &str) -> &mut Self {
        self.dtype = Some(dtype.to_owned());
        self
    }

    /// A parameter.
    pub fn param(&mut self, name: &str, value: impl Into<Pmt>) -> &mut Self {
        self.params.push((name.to_owned(), value.into()));
        self
    }

    /// The host the block runs on.
    pub fn host(&mut self, host: &str) -> &mut Self {
        self.host = Some(host.to_owned());
        self
    }

    /// Makes the block from the library.
    ///
    /// # Errors
    /// An unknown id or item type, or a parameter the block refuses (the message names it).
    pub fn make(&self) -> Result<Box<dyn radioflow_runtime::Block>, String> {
        let (description, dtype) = self.resolve()?;
        registry::make(description, dtype, self.params.iter().cloned()).map_err(|e| e.to_string())
    }

    /// The library's description of the block and the item type asked for.
    fn resolve(&self) -> Result<(&'static registry::BlockDescription, Option<Dtype>), String> {
        let description = registry::find(&self.block).ok_or_else(|| {
            format!(
                "no block '{}' in the library (`radioflow blocks` lists them)",
                cut(&self.block)
            )
        })?;
        let dtype = self.dtype.as_deref().map(parse_dtype).transpose()?;
        Ok((description, dtype))
    }

    /// Checks the id, item type and parameters against the library without making the block
    /// (which may open files that exist only where it runs).
    ///
    /// # Errors
    /// As [`make`](Self::make).
    pub fn check(&self) -> Result<(), String> {
        let (description, dtype) = self.resolve()?;
        registry::Arguments::check(description, dtype, self.params.iter().cloned())
            .map(drop)
            .map_err(|e| e.to_string())
    }
}

fn parse_dtype(d: &str) -> Result<Dtype, String> {
    Dtype::parse(d).ok_or_else(|| {
        format!(
            "unknown dtype '{}' (use one of {})",
            cut(d),
            Dtype::list(Dtype::ALL)
        )
    })
}

/// A flowgraph built from a description, with its blocks by the names the description gives
/// them.
#[derive(Debug)]
pub struct BuiltGraph {
    /// The flowgraph, ready to run.
    pub flowgraph: Flowgraph,
    /// Each block's name and its id, in the description's order.
    pub blocks: Vec<(String, BlockId)>,
    /// The description's notes for the user (GUI blocks run headless).
    pub notes: Vec<String>,
    /// The description's GUI views ([`GraphDescription::gui`]).
    pub gui: Vec<GuiView>,
}

impl BuiltGraph {
    /// The id of the block named `name`.
    pub fn id(&self, name: &str) -> Option<BlockId> {
        self.blocks
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
    }
}

impl GraphDescription {
    /// An empty graph; `origin` names it in errors.
    pub fn new(origin: impl Into<PathBuf>) -> Self {
        Self {
            origin: origin.into(),
            ..Self::default()
        }
    }

    /// Adds block `name`, an instance of library block `block`; set its item type,
    /// parameters and host on what this returns.
    pub fn add(&mut self, name: &str, block: &str) -> &mut BlockSpec {
        self.blocks.push(BlockSpec {
            name: name.to_owned(),
            block: block.to_owned(),
            dtype: None,
            params: Vec::new(),
            host: None,
        });
        self.blocks.last_mut().expect("just pushed")
    }

    /// Connects stream output `from` (`block` or `block.port`) to input `to`.
    ///
    /// # Errors
    /// An end that is not `block` or `block.port` (names are checked by [`build`](Self::build)).
    pub fn connect(&mut self, from: &str, to: &str) -> Result<(), GraphError> {
        let c = self.connection(from, to, None)?;
        self.streams.push(c);
        Ok(())
    }

    /// Connects message output `from` (`block.port`) to message input `to`.
    ///
    /// # Errors
    /// An end that is not `block.port`.
    pub fn connect_message(&mut self, from: &str, to: &str) -> Result<(), GraphError> {
        let c = self.message_connection(from, to, None)?;
        self.messages.push(c);
        Ok(())
    }

    /// A message link `from -> to`, part of the line `written` if given.
    pub(crate) fn message_connection(
        &self,
        from: &str,
        to: &str,
        written: Option<&str>,
    ) -> Result<Connection, GraphError> {
        if !from.contains('.') || !to.contains('.') {
            return Err(self.connection_error(
                written.map_or_else(|| format!("{from} -> {to}"), str::to_owned),
                "message links name both ports: \"a.out -> b.in\"".into(),
            ));
        }
        self.connection(from, to, written)
    }

    /// `from -> to`, part of the line `written` (errors name it) if given.
    pub(crate) fn connection(
        &self,
        from: &str,
        to: &str,
        written: Option<&str>,
    ) -> Result<Connection, GraphError> {
        let written = written.map_or_else(|| format!("{from} -> {to}"), str::to_owned);
        let fail = |m| self.connection_error(written.clone(), m);
        Ok(Connection {
            from: End::parse(from).map_err(fail)?,
            to: End::parse(to).map_err(fail)?,
            written,
        })
    }

    fn connection_error(&self, connection: String, message: String) -> GraphError {
        GraphError::Connection {
            file: self.origin.clone(),
            connection,
            message,
        }
    }

    /// The block named `name`.
    pub fn block(&self, name: &str) -> Option<&BlockSpec> {
        self.blocks.iter().find(|b| b.name == name)
    }

    /// The hosts the blocks are assigned to (empty when none is).
    pub fn hosts(&self) -> BTreeSet<&str> {
        self.blocks
            .iter()
            .filter_map(|b| b.host.as_deref())
            .collect()
    }

    /// Refuses a graph in which a block writes a file that another block reads or writes
    /// (the library's descriptions say which path parameters are read and which written).
    fn check_files(&self) -> Result<(), GraphError> {
        let mut files = RunFiles::new();
        for spec in &self.blocks {
            // An unknown block is reported when it is made.
            let Ok((description, _)) = spec.resolve() else {
                continue;
            };
            for (name, value) in &spec.params {
                let kind = description.param(name).map(|p| p.kind);
                if let (Some(ParamKind::Path(how)), Pmt::Symbol(path)) = (kind, value) {
                    let what = format!("block '{}' {name}", spec.name);
                    files.add(what, Path::new(&**path), how);
                }
            }
        }
        files.check().map_err(|source| GraphError::SameFile {
            file: self.origin.clone(),
            source,
        })
    }

    /// Makes every block and connects them.
    ///
    /// # Errors
    /// A [`GraphError`] naming the block or connection at fault, or the two blocks that
    /// would read and write one file.
    pub fn build(&self) -> Result<BuiltGraph, GraphError> {
        // Before any block is made: a sink truncates its file when it is made.
        self.check_files()?;
        let mut flowgraph = Flowgraph::new();
        let mut ids = Vec::new();
        let mut by_name: BTreeMap<&str, BlockId> = BTreeMap::new();
        for spec in &self.blocks {
            let fail = |message: String| GraphError::Block {
                file: self.origin.clone(),
                name: spec.name.clone(),
                message,
            };
            if by_name.contains_key(spec.name.as_str()) {
                return Err(fail("is named twice".into()));
            }
            let block = spec.make().map_err(fail)?;
            let id = flowgraph.add_boxed(Some(&spec.name), block);
            by_name.insert(&spec.name, id);
            ids.push((spec.name.clone(), id));
        }
        let port = |end: &End| -> Result<PortRef, String> {
            let block = *by_name
                .get(end.block.as_str())
                .ok_or_else(|| format!("no block named '{}' in [blocks]", cut(&end.block)))?;
            Ok(PortRef {
                block,
                port: end.port.clone(),
            })
        };
        for (list, message) in [(&self.streams, false), (&self.messages, true)] {
            for c in list {
                let made = port(&c.from).and_then(|from| {
                    let to = port(&c.to)?;
                    if message {
                        flowgraph
                            .connect_message(from, to)
                            .map_err(|e| e.to_string())
                    } else {
                        flowgraph
                            .connect(from, to)
                            .map(drop)
                            .map_err(|e| e.to_string())
                    }
                });
                made.map_err(|m| self.connection_error(c.written.clone(), m))?;
            }
        }
        Ok(BuiltGraph {
            flowgraph,
            blocks: ids,
            notes: self.notes.clone(),
            gui: self.gui.clone(),
        })
    }
}
