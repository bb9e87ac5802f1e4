//! A `.grc` file described ([`describe_grc_with`]): its variables evaluated (some held at
//! values set while running), every enabled block mapped through the GNU Radio table and its
//! parameters checked, GUI blocks run headless (their sinks as views), the connections
//! resolved through virtual sinks/sources and bypassed blocks.

use super::entries::{entries, scalar, Entry};
use super::expr::Variables;
use super::hier_inline::{self, Pads, PAD_IDS};
use super::hier_search::HierSearch;
use super::overrides::Overrides;
use super::python_entry::{Collect, PYTHON_IDS};
use super::value::Value;
use super::widgets::{self, Widget};
use super::{
    adaptive_algorithm, blocks, digital, fec, filter_taps, gui_views, header_format, modulate,
    tags, yaml,
};
use crate::{BlockSpec, Connection, End, GraphDescription, GraphError};
use radioflow_library::gnuradio;
use radioflow_runtime::echo::{cut, cut_display};
use radioflow_runtime::PortName;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use yaml_rust2::Yaml;

/// Block ids that only hold values (variables, GUI controls used as variables, parameters).
const VARIABLES: &[&str] = &[
    "variable",
    "parameter",
    "variable_qtgui_range",
    "variable_qtgui_entry",
    "variable_qtgui_chooser",
    "variable_qtgui_label",
    "variable_qtgui_check_box",
    "variable_qtgui_push_button",
    // Variables that also send their value as a message when set: headless blocks of the
    // graph (their GUI rows in radioflow_library's `HEADLESS`); on the live page the page
    // sends their messages (`widgets.rs`), run headless they send none.
    "variable_qtgui_dial_control",
    "variable_qtgui_toggle_button_msg",
    "variable_qtgui_toggle_switch",
    "variable_qtgui_msgcheckbox",
    "qtgui_msgdigitalnumbercontrol",
    // GNU Radio's constellation objects, their value made from their parameters
    // (`digital::variable_value`).
    "variable_constellation",
    "variable_constellation_rect",
    // A modulator's samples of a vector (`modulate::variable_value`).
    "variable_modulate_vector",
    // GNU Radio's packet header format (`header_format::variable_value`).
    "variable_header_format_default",
    // GNU Radio's stream tag objects (`tags::variable_value`).
    "variable_tag_object",
    // Filter taps designed by `firdes` (`filter_taps::variable_value`).
    "variable_rrc_filter_taps",
    "variable_low_pass_filter_taps",
    "variable_high_pass_filter_taps",
    "variable_band_pass_filter_taps",
    "variable_band_reject_filter_taps",
    // GNU Radio's FEC code objects (`fec::variable_value`).
    "variable_dummy_encoder_def",
    "variable_dummy_decoder_def",
    "variable_repetition_encoder_def",
    "variable_repetition_decoder_def",
    "variable_cc_encoder_def",
    "variable_cc_decoder_def",
    "variable_ccsds_encoder_def",
    "variable_ldpc_encoder_def",
    "variable_ldpc_decoder_def",
    "variable_ldpc_H_matrix_def",
    "variable_ldpc_G_matrix_def",
    "variable_ldpc_encoder_H_def",
    "variable_ldpc_encoder_G_def",
    "variable_ldpc_bit_flip_decoder_def",
    "variable_polar_code_configurator",
    "variable_polar_encoder_def",
    "variable_polar_encoder_systematic_def",
    "variable_polar_decoder_sc_def",
    "variable_polar_decoder_sc_systematic_def",
    "variable_polar_decoder_sc_list_def",
    // GNU Radio's adaptive algorithm objects (`adaptive_algorithm::variable_value`).
    "variable_adaptive_algorithm",
];

/// Block ids that are part of the file but not of the graph.
const IGNORED: &[&str] = &["options", "import", "note"];

/// Parameters whose value GRC takes as written, not as an expression (enumerations of
/// words: `type`, and `in_type`/`out_type` of `digital_chunks_to_symbols_xx`).
const RAW: &[&str] = &["type", "file", "in_type", "out_type"];

/// String parameters (GRC's `dtype: string`): an expression if it evaluates to a string, else
/// the text as written (`tcp://127.0.0.1:5555` unquoted), as GRC does. `name`, `filter` and
/// `device_name` are strings wherever GNU Radio 3.10's blocks have them (`tag_debug`'s
/// `name: Test`, `audio_sink`'s `device_name: pulse`); so are the tag keys of burst_tagger,
/// tags_to_pdu and tag_gate, var_to_msg's `msgname` (`true_key: SOB`), and gr-soapy's device
/// names, device, stream, tune and settings arguments, antennas and gain modes (`antenna0:
/// RX`, `devname: rtlsdr`, `gain_mode0: Overall`), gr-uhd's device address, first
/// motherboard's clock and time sources and subdevice spec, first channel's automatic gain and
/// LO source and the sink's length tag (`sd_spec0: A:0`, `rx_agc0: Default`), and
/// multiply_by_tag_value_cc's `tagname`, and the equalizers' `training_start_tag`.
const STRING: &[&str] = &[
    "tagname",
    "true_key",
    "false_key",
    "start_tag",
    "end_tag",
    "single_key",
    "msgname",
    "driver",
    "dev_args",
    "stream_args",
    "tune_args0",
    "tune_args1",
    "settings0",
    "settings1",
    "antenna0",
    "antenna1",
    "devname",
    "dev",
    "args",
    "clock_source",
    "ant0",
    "ant1",
    "gain_mode0",
    "gain_mode1",
    "sdrplay_if_mode",
    "address",
    "key",
    "addr",
    "len_tag_key",
    "tag",
    "lentagname",
    "lengthtagname",
    "length_tag_name",
    "name",
    "filter",
    "device_name",
    "antenna",
    "dev_addr",
    "clock_source0",
    "time_source0",
    "sd_spec0",
    "rx_agc0",
    "rx_agc1",
    "lo_source0",
    "len_tag_name",
    "training_start_tag",
];

/// The name of the discarding sink behind stream input `i` of headless GUI block `name` (a
/// `/` cannot be in a GRC name, so it names no other block).
fn headless_input(name: &str, i: usize) -> String {
    format!("{name}/{i}")
}

/// The item types of a headless GUI block's stream inputs and their vector length.
fn headless_inputs(
    gui: &gnuradio::GrHeadless,
    e: &Entry,
    vars: &mut Variables,
) -> Result<(Vec<radioflow_runtime::registry::Dtype>, i64), String> {
    let count = |key: Option<&str>, vars: &mut Variables| -> Result<usize, String> {
        let Some(text) = key.and_then(|k| e.params.get(k)) else {
            return Ok(1);
        };
        match vars.eval(text) {
            Ok(Value::Int(n)) if (0..=64).contains(&n) => Ok(n as usize),
            Ok(other) => Err(format!(
                "{}: {} = {} is not a number of inputs (0 to 64)",
                e.id,
                key.unwrap_or_default(),
                cut_display(&other)
            )),
            Err(err) => Err(format!("{}: {}: {err}", e.id, key.unwrap_or_default())),
        }
    };
    let vector_length = |key: Option<&str>, vars: &mut Variables| -> Result<i64, String> {
        let Some((key, text)) = key.and_then(|k| Some((k, e.params.get(k)?))) else {
            return Ok(1);
        };
        match vars.eval(text) {
            Ok(Value::Int(n)) if n >= 1 => Ok(n),
            Ok(other) => Err(format!(
                "{}: {key} = {} is not a vector length (1 or more)",
                e.id,
                cut_display(&other)
            )),
            Err(err) => Err(format!("{}: {key}: {err}", e.id)),
        }
    };
    Ok(match gui.inputs {
        gnuradio::HeadlessInputs::None => (Vec::new(), 1),
        gnuradio::HeadlessInputs::Fixed {
            dtype,
            count: key,
            vlen,
        } => (vec![dtype; count(key, vars)?], vector_length(vlen, vars)?),
        gnuradio::HeadlessInputs::Typed { count: key } => {
            let option = e.params.get("type").map_or("complex", String::as_str);
            if option.starts_with("msg_") {
                (Vec::new(), 1)
            } else {
                let dtype = gnuradio::gui_dtype(option).ok_or_else(|| {
                    format!("{}: type {} is not one of GNU Radio's", e.id, cut(option))
                })?;
                (vec![dtype; count(Some(key), vars)?], 1)
            }
        }
    })
}

/// The host a block's GRC comment assigns it to: a line `host=NAME` (or `host: NAME`).
fn comment_host(entry: &Entry) -> Option<String> {
    entry.params.get("comment")?.lines().find_map(|line| {
        let (key, value) = line.split_once(['=', ':'])?;
        (key.trim() == "host" && !value.trim().is_empty()).then(|| value.trim().to_owned())
    })
}

/// [`describe_grc`](super::describe_grc) with the variables of `overrides` holding the values (or expressions)
/// given instead of their own (GUI widgets set while the graph runs: [`LiveGrc`](super::LiveGrc)), and with
/// `widgets`, the file's variable widgets valued.
pub(crate) fn describe_grc_with(
    text: &str,
    file: &Path,
    overrides: &Overrides,
    widgets: bool,
) -> Result<(GraphDescription, Vec<Widget>), GraphError> {
    describe_in(text, file, overrides, widgets, &HierSearch::default(), None)
        .map(|(graph, widgets, _)| (graph, widgets))
}

/// [`describe_grc_with`] for a file with embedded Python (`embedded.rs`): its `epy_block`s,
/// `epy_module`s and snippets left to the Python side (collected in `python` with the
/// variables' values), not refused as blocks radioflow lacks.
pub(crate) fn describe_grc_python(
    text: &str,
    file: &Path,
    overrides: &Overrides,
    python: &mut Collect,
) -> Result<GraphDescription, GraphError> {
    describe_in(
        text,
        file,
        overrides,
        false,
        &HierSearch::default(),
        Some(python),
    )
    .map(|(graph, _, _)| graph)
}

/// [`describe_grc_with`] inside the hierarchical blocks `search` is inlining (none for the
/// flowgraph loaded itself), with the file's [`Pads`] when it is one of them; with `python`,
/// the Python entries left to the Python side (only in the file loaded itself).
fn describe_in(
    text: &str,
    file: &Path,
    overrides: &Overrides,
    widgets: bool,
    search: &HierSearch,
    mut python: Option<&mut Collect>,
) -> Result<(GraphDescription, Vec<Widget>, Pads), GraphError> {
    let file = file.to_owned();
    let syntax = |message: String| GraphError::Syntax {
        file: file.clone(),
        message,
    };
    if text.trim_start().starts_with("<?xml") {
        return Err(syntax(
            "GNU Radio 3.7's XML format: open and save it in GNU Radio Companion 3.8 or later \
             (YAML, file_format 1)"
                .into(),
        ));
    }
    let loaded = yaml::load(text).map_err(syntax)?;
    let doc = &loaded;
    match &doc["metadata"]["file_format"] {
        Yaml::Integer(1) => {}
        Yaml::BadValue => {
            return Err(syntax(
                "no metadata.file_format (is this a GRC file?)".into(),
            ))
        }
        other => {
            return Err(syntax(format!(
                "file_format {} is not supported (GNU Radio 3.8-3.10 write 1)",
                cut(&scalar(other).unwrap_or_default())
            )))
        }
    }
    // A hierarchical block (GRC's `generate_options: hb`, or `hb_qt_gui`) is a block of
    // the flowgraphs that use it: alone it is checked, then reported as what it is.
    let options = &doc["options"]["parameters"];
    let generate = scalar(&options["generate_options"]).unwrap_or_default();
    let is_hier = generate.starts_with("hb");
    if search.inlining() && !is_hier {
        return Err(syntax(format!(
            "used as a hierarchical block, but its generate_options is {}, not hb",
            cut(&generate)
        )));
    }
    if is_hier && !search.inlining() {
        let inner = search.enter(&file).map_err(syntax)?;
        describe_in(text, &file, overrides, false, &inner, None)?;
        return Err(GraphError::HierBlock {
            file,
            id: scalar(&options["id"]).unwrap_or_default(),
        });
    }
    let src_path = scalar(&options["hier_block_src_path"]).unwrap_or_else(|| ".:".into());
    let all = entries(doc).map_err(syntax)?;
    let mut vars = Variables::new(
        all.iter()
            .filter(|e| VARIABLES.contains(&e.id.as_str()) && e.state != "disabled")
            .filter_map(|e| {
                let value = digital::variable_value(&e.id, &e.params)
                    .or_else(|| filter_taps::variable_value(&e.id, &e.params))
                    .or_else(|| fec::variable_value(&e.id, &e.params))
                    .or_else(|| header_format::variable_value(&e.id, &e.params))
                    .or_else(|| modulate::variable_value(&e.id, &e.params))
                    .or_else(|| tags::variable_value(&e.id, &e.params))
                    .or_else(|| adaptive_algorithm::variable_value(&e.id, &e.params))
                    .or_else(|| e.params.get("value").cloned());
                // A raw entry widget set while running holds the expression typed into it.
                let value = overrides.expressions.get(&e.name).cloned().or(value);
                value.map(|v| (e.name.clone(), v))
            })
            .collect(),
    );
    // GRC takes a string-typed widget's value (`type: string`) as an expression where that
    // evaluates to a string, else as the text written (a chooser's `value: TX/RX`), as it does
    // the widget's options.
    for e in all.iter().filter(|e| {
        VARIABLES.contains(&e.id.as_str())
            && e.state != "disabled"
            && e.params.get("type").is_some_and(|t| t == "string")
            && !overrides.expressions.contains_key(&e.name)
    }) {
        if let Some(text) = e.params.get("value") {
            let value = match vars.eval(text) {
                Ok(s @ Value::Str(_)) => s,
                _ => Value::Str(text.clone()),
            };
            vars.fix(&e.name, value);
        }
    }
    for (name, value) in &overrides.values {
        vars.fix(name, value.clone());
    }
    if let Some(python) = python.as_deref_mut() {
        for e in &all {
            python.entry(e);
        }
        for e in all
            .iter()
            .filter(|e| VARIABLES.contains(&e.id.as_str()) && e.state != "disabled")
        {
            let written = e.params.get("value").cloned().unwrap_or_default();
            let value = vars.eval(&e.name).map_err(|err| err.to_string());
            python.variables.push((e.name.clone(), written, value));
        }
    }
    // Left to the Python side when it loads the file.
    let is_python = |e: &Entry| python.is_some() && PYTHON_IDS.contains(&e.id.as_str());
    let graph_blocks: Vec<&Entry> = all
        .iter()
        .filter(|e| {
            // A variable with message ports is also a (headless) block of the graph.
            (!VARIABLES.contains(&e.id.as_str()) || gnuradio::headless(&e.id).is_some())
                && !IGNORED.contains(&e.id.as_str())
                && !PAD_IDS.contains(&e.id.as_str())
                && !e.id.starts_with("virtual_")
                && e.state == "enabled"
        })
        .collect();
    let pads: Vec<&Entry> = all
        .iter()
        .filter(|e| PAD_IDS.contains(&e.id.as_str()) && e.state == "enabled")
        .collect();
    if let (Some(pad), false) = (pads.first(), search.inlining()) {
        return Err(GraphError::Block {
            file,
            name: pad.name.clone(),
            message: format!(
                "{} is a port of a hierarchical block, and this flowgraph's generate_options \
                 is {}, not hb",
                pad.id,
                cut(&generate)
            ),
        });
    }
    // Blocks GNU Radio does not have are hierarchical blocks when their .grc is found.
    let mut hier = HashMap::new();
    let mut unsupported = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for e in &graph_blocks {
        if gnuradio::find(&e.id).is_some() || gnuradio::headless(&e.id).is_some() || is_python(e) {
            continue;
        }
        match search.find(&e.id, &file, &src_path) {
            Some(path) => {
                hier.insert(e.name.as_str(), path);
            }
            None => {
                unsupported.push(format!("{} ({})", cut(&e.id), cut(&e.name)));
                if !ids.contains(&e.id) {
                    ids.push(e.id.clone());
                }
            }
        }
    }
    let mut inlined = Vec::new();
    let mut failed = None;
    for e in graph_blocks
        .iter()
        .filter(|e| hier.contains_key(e.name.as_str()))
    {
        let path = &hier[e.name.as_str()];
        let inner = search.enter(path).map_err(|message| GraphError::Block {
            file: file.clone(),
            name: e.name.clone(),
            message,
        })?;
        let described = hier_inline::inline(e, &file, path, &mut vars, |text, path, overrides| {
            describe_in(text, path, overrides, false, &inner, None).map(|(g, _, pads)| (g, pads))
        });
        match described {
            Ok(child) => inlined.push((*e, child)),
            Err(GraphError::Unsupported {
                blocks, ids: inner, ..
            }) => {
                unsupported.extend(blocks.iter().map(|b| match b.split_once(" (") {
                    Some((id, name)) => format!("{id} ({}/{name}", e.name),
                    None => b.clone(),
                }));
                for id in inner {
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
            }
            Err(err) => {
                failed.get_or_insert(err);
            }
        }
    }
    if !unsupported.is_empty() {
        return Err(GraphError::Unsupported {
            file,
            blocks: unsupported,
            ids,
        });
    }
    if let Some(err) = failed {
        return Err(err);
    }
    let mut graph = GraphDescription::new(&file);
    let mut instances: HashMap<String, Pads> = HashMap::new();
    for (e, (child, mut child_pads)) in inlined {
        hier_inline::merge(
            &mut graph,
            &e.name,
            comment_host(e).as_ref(),
            child,
            &mut child_pads,
        );
        instances.insert(e.name.clone(), child_pads);
    }
    // GUI blocks run headless: their stream inputs' types, and their host.
    let mut headless: HashMap<&str, Inputs> = HashMap::new();
    for e in &graph_blocks {
        let fail = |message: String| GraphError::Block {
            file: file.clone(),
            name: e.name.clone(),
            message,
        };
        if let Some(gui) = gnuradio::headless(&e.id) {
            let inputs = headless_inputs(gui, e, &mut vars).map_err(fail)?;
            if let Some(view) = gui_views::view(&e.id, &e.name, &e.params, &mut vars) {
                graph.gui.push(view.map_err(fail)?);
            }
            headless.insert(e.name.as_str(), (inputs, comment_host(e)));
            graph.notes.push(gui.note(&e.name));
            continue;
        }
        if instances.contains_key(&e.name) || is_python(e) {
            continue;
        }
        let row = gnuradio::find(&e.id).expect("checked above");
        // A blank expression is a parameter left empty (GNU Radio's templates test it, as
        // the resampler's `taps if taps else None`): not given, rather than an expression
        // that ends too early. Raw and string parameters keep their empty text.
        let values: HashMap<String, Result<Value, String>> = e
            .params
            .iter()
            .filter(|(k, v)| {
                !v.trim().is_empty()
                    || RAW.contains(&k.as_str())
                    || row.is_word(k)
                    || STRING.contains(&k.as_str())
            })
            .map(|(k, v)| {
                let value = if RAW.contains(&k.as_str()) || row.is_word(k) {
                    Ok(Value::Str(v.clone()))
                } else if STRING.contains(&k.as_str()) {
                    match vars.eval(v) {
                        // A string, or a PMT made by `pmt.*` (`pmt.intern("strobe")` for a
                        // tag key) as it is.
                        Ok(s @ (Value::Str(_) | Value::Pmt(_))) => Ok(s),
                        _ => Ok(Value::Str(v.clone())),
                    }
                } else {
                    vars.eval(v)
                        .map_err(|err| format!("{}: {err}", cut_display(&format_args!("{v:?}"))))
                };
                (k.clone(), value)
            })
            .collect();
        let mapped = row.map(&blocks::GrcParams(&values)).map_err(fail)?;
        graph.notes.extend(
            mapped
                .notes
                .iter()
                .map(|n| format!("block '{}': {n}", e.name)),
        );
        if radioflow_runtime::registry::find(mapped.block).is_none() {
            return Err(fail(format!(
                "radioflow has no block '{}'",
                cut(mapped.block)
            )));
        }
        let spec = BlockSpec {
            name: e.name.clone(),
            block: mapped.block.to_owned(),
            dtype: mapped.dtype.map(|d| d.name().to_owned()),
            params: mapped.params,
            host: comment_host(e),
        };
        spec.check()
            .map_err(|err| fail(format!("{} as radioflow's {err}", cut(&e.id))))?;
        graph.blocks.push(spec);
    }
    let names: HashSet<&str> = graph_blocks
        .iter()
        .chain(&pads)
        .map(|e| e.name.as_str())
        .collect();
    let refused = |(connection, message)| GraphError::Connection {
        file: file.clone(),
        connection,
        message,
    };
    let streams = connections(doc, &all, &names, false).map_err(refused)?;
    graph
        .streams
        .extend(hier_inline::rewire(streams, &instances).map_err(refused)?);
    let messages = connections(doc, &all, &names, true).map_err(refused)?;
    graph
        .messages
        .extend(hier_inline::rewire(messages, &instances).map_err(refused)?);
    let pads = if search.inlining() {
        hier_inline::take_pads(&mut graph, &pads, &mut vars)?
    } else {
        Pads::default()
    };
    // A headless GUI block's connected stream inputs go to discarding sinks (an optional
    // input left unconnected gets none); its messages are dropped.
    for c in &mut graph.streams {
        if let (Some(((inputs, vlen), host)), PortName::Index(i)) =
            (headless.get(c.to.block.as_str()), &c.to.port)
        {
            let Some(dtype) = inputs.get(*i) else {
                return Err(GraphError::Connection {
                    file: file.clone(),
                    connection: c.written.clone(),
                    message: format!("the GUI block has {} stream inputs", inputs.len()),
                });
            };
            if let Some(view) = graph.gui.iter_mut().find(|v| v.name == c.to.block) {
                view.inputs.push((*i, c.from.clone()));
            }
            let name = headless_input(&c.to.block, *i);
            graph.blocks.push(BlockSpec {
                name: name.clone(),
                block: "null_sink".into(),
                dtype: Some(dtype.name().to_owned()),
                params: vec![("vlen".to_owned(), radioflow_runtime::Pmt::Int(*vlen))],
                host: host.clone(),
            });
            c.to = crate::End {
                block: name,
                port: PortName::Index(0),
            };
        }
        if headless.contains_key(c.from.block.as_str()) {
            return Err(GraphError::Connection {
                file: file.clone(),
                connection: c.written.clone(),
                message: "a GUI block run headless has no stream outputs".into(),
            });
        }
    }
    let mut widgets = if widgets {
        let variables: Vec<&Entry> = all
            .iter()
            .filter(|e| {
                VARIABLES.contains(&e.id.as_str())
                    || widgets::MESSAGE_WIDGETS.contains(&e.id.as_str())
            })
            .collect();
        let (mut widgets, notes) = widgets::widgets(&variables, &mut vars);
        graph.notes.extend(notes);
        // Widgets with a message input, and frequency and waterfall sinks (their `freq`
        // input), take messages from other widgets too.
        let listening: HashSet<String> = widgets
            .iter()
            .filter(|w| w.input().is_some())
            .map(|w| w.name.clone())
            .chain(
                graph
                    .gui
                    .iter()
                    .filter(|v| matches!(v.kind, "spectrum" | "waterfall") && !shows_messages(v))
                    .map(|v| v.name.clone()),
            )
            .collect();
        for w in &mut widgets {
            if let Some(message) = &mut w.message {
                let (relay, sends) = relay_widget(&mut graph, &headless, &listening, &w.name);
                message.relay = relay;
                message.sends = sends;
            }
        }
        // A frequency or waterfall sink's `freq` output (QT: a double click on the plot)
        // leaves from a relay the page posts to.
        let clickable: Vec<String> = graph
            .gui
            .iter()
            .filter(|v| matches!(v.kind, "spectrum" | "waterfall") && !shows_messages(v))
            .map(|v| v.name.clone())
            .collect();
        for name in clickable {
            let (relay, _) = relay_widget(&mut graph, &headless, &listening, &name);
            if let Some(view) = graph.gui.iter_mut().find(|v| v.name == name) {
                view.clicks = relay;
            }
        }
        widgets
    } else {
        Vec::new()
    };
    // A relayed widget's connections leave from its relay; the other GUI blocks' go. A message
    // display shows what comes from the graph's blocks and relays.
    let relayed: HashSet<String> = widgets
        .iter()
        .filter_map(|w| w.message.as_ref()?.relay.clone())
        .chain(graph.gui.iter().filter_map(|v| v.clicks.clone()))
        .collect();
    for c in &graph.messages {
        let from_graph =
            relayed.contains(&c.from.block) || !headless.contains_key(c.from.block.as_str());
        if let Some(view) = graph
            .gui
            .iter_mut()
            .find(|v| v.name == c.to.block && shows_messages(v))
            .filter(|_| from_graph)
        {
            view.messages.push(c.from.clone());
        }
        // A frequency or waterfall sink's centre follows its `freq` input.
        if let Some(view) = graph
            .gui
            .iter_mut()
            .find(|v| {
                v.name == c.to.block
                    && matches!(v.kind, "spectrum" | "waterfall")
                    && !shows_messages(v)
                    && c.to.port == PortName::Name("freq".into())
            })
            .filter(|_| from_graph)
        {
            view.centre_from.push(c.from.clone());
        }
    }
    // A widget with a message input follows what the graph's blocks and relays send it.
    for w in &mut widgets {
        let Some(port) = w.input() else { continue };
        w.follows = graph
            .messages
            .iter()
            .filter(|c| c.to.block == w.name && c.to.port == PortName::Name(port.into()))
            .filter(|c| {
                relayed.contains(&c.from.block) || !headless.contains_key(c.from.block.as_str())
            })
            .map(|c| c.from.clone())
            .collect();
    }
    graph.messages.retain(|c| {
        (relayed.contains(&c.from.block) || !headless.contains_key(c.from.block.as_str()))
            && !headless.contains_key(c.to.block.as_str())
    });
    Ok((graph, widgets, pads))
}

/// A GUI block run headless: its stream inputs' types and vector length, and its host.
type Inputs = (
    (Vec<radioflow_runtime::registry::Dtype>, i64),
    Option<String>,
);

/// Puts message widget (or sink) `name` in `graph` as a `message_relay` block of the same
/// name, when the file connects its message output to blocks of the graph or to widgets with
/// a message input (`listening`): its connections then leave from the relay's `out`, and the
/// page posts the widget's messages to the relay's `in`. Returns the relay, if made, and the
/// graph's message inputs it sends to. Its connections to other GUI blocks run headless are
/// dropped with the others (a note names them); the widget's own note that it runs headless
/// goes, as its messages are sent.
fn relay_widget(
    graph: &mut GraphDescription,
    headless: &HashMap<&str, Inputs>,
    listening: &HashSet<String>,
    name: &str,
) -> (Option<String>, Vec<End>) {
    let mut dropped = Vec::new();
    let mut relayed = false;
    let mut sends = Vec::new();
    let shown: HashSet<String> = graph
        .gui
        .iter()
        .filter(|v| shows_messages(v))
        .map(|v| v.name.clone())
        .chain(listening.iter().cloned())
        .collect();
    for c in &mut graph.messages {
        if c.from.block != name {
            continue;
        }
        if headless.contains_key(c.to.block.as_str()) && !shown.contains(&c.to.block) {
            dropped.push(c.to.block.clone());
            continue;
        }
        if !headless.contains_key(c.to.block.as_str()) {
            sends.push(c.to.clone());
        }
        c.from.port = PortName::Name("out".into());
        relayed = true;
    }
    let headless_note = format!("'{name}' runs headless");
    graph.notes.retain(|n| !n.contains(&headless_note));
    if !dropped.is_empty() {
        graph.notes.push(format!(
            "the page sends the messages of '{name}', but not to {} (GUI blocks the page does \
             not show yet)",
            dropped.join(", ")
        ));
    }
    if !relayed {
        return (None, sends);
    }
    let host = graph
        .blocks
        .iter()
        .find(|b| b.name == name)
        .and_then(|b| b.host.clone());
    graph.blocks.push(BlockSpec {
        name: name.to_owned(),
        block: "message_relay".into(),
        dtype: None,
        params: Vec::new(),
        host,
    });
    (Some(name.to_owned()), sends)
}

/// The kinds of [`crate::GuiView`] that show messages rather than streams.
const MESSAGE_VIEWS: &[&str] = &["led", "gauge"];

/// Whether view `v` shows messages rather than streams: an LED, a gauge, a sink of PDUs (a
/// `msg_*` type, its `pdu` option) or a compass of messages (its `msg` option).
fn shows_messages(v: &crate::GuiView) -> bool {
    MESSAGE_VIEWS.contains(&v.kind) || v.options.iter().any(|(k, _)| k == "pdu" || k == "msg")
}

/// The file's stream (or, with `messages`, message) connections, through virtual
/// sinks/sources and around bypassed blocks, leaving out those of disabled blocks; `names`
/// are the blocks of the graph.
fn connections(
    doc: &Yaml,
    all: &[Entry],
    names: &HashSet<&str>,
    messages: bool,
) -> Result<Vec<Connection>, (String, String)> {
    let by_name: HashMap<&str, &Entry> = all.iter().map(|e| (e.name.as_str(), e)).collect();
    let mut edges: Vec<[String; 4]> = Vec::new();
    if let Yaml::Array(list) = &doc["connections"] {
        for c in list {
            let Yaml::Array(parts) = c else { continue };
            let parts: Vec<String> = parts.iter().filter_map(scalar).collect();
            if let [a, b, c, d] = parts.as_slice() {
                edges.push([a.clone(), b.clone(), c.clone(), d.clone()]);
            } else {
                return Err((
                    cut_display(&format_args!("{parts:?}")),
                    "a connection has 4 parts".into(),
                ));
            }
        }
    }
    let written = |[src, sp, dst, dp]: &[String; 4]| format!("{src}:{sp} -> {dst}:{dp}");
    // A virtual source continues the connection into the virtual sink of the same stream id.
    // GRC allows one connection into a virtual sink and one sink per stream id; more would
    // multiply the connections (k into a sink times k sources out of it), so they are refused.
    let stream_id = |name: &str| {
        by_name
            .get(name)
            .and_then(|e| e.params.get("stream_id"))
            .cloned()
    };
    let kind = |name: &str| by_name.get(name).map(|e| e.id.as_str());
    let mut feeds: HashMap<Option<String>, &[String; 4]> = HashMap::new();
    for edge in edges.iter().filter(|e| kind(&e[2]) == Some("virtual_sink")) {
        if feeds.insert(stream_id(&edge[2]), edge).is_some() {
            return Err((
                written(edge),
                "a second connection into a virtual sink of this stream id (GRC takes one)".into(),
            ));
        }
    }
    let mut resolved = Vec::new();
    for [src, sp, dst, dp] in &edges {
        if kind(dst) == Some("virtual_sink") {
            continue;
        }
        if kind(src) == Some("virtual_source") {
            if let Some([s2, sp2, ..]) = feeds.get(&stream_id(src)) {
                resolved.push([s2.clone(), sp2.clone(), dst.clone(), dp.clone()]);
            }
        } else {
            resolved.push([src.clone(), sp.clone(), dst.clone(), dp.clone()]);
        }
    }
    // A bypassed block passes its one input straight to its outputs (one stream in: more
    // would multiply the connections too).
    let state = |name: &str| by_name.get(name).map_or("enabled", |e| e.state.as_str());
    let mut outputs: HashMap<&str, Vec<&[String; 4]>> = HashMap::new();
    for edge in &resolved {
        if state(&edge[0]) == "bypassed" && state(&edge[2]) != "bypassed" {
            outputs.entry(edge[0].as_str()).or_default().push(edge);
        }
    }
    let mut bypassed_fed: HashSet<&str> = HashSet::new();
    let mut joined = Vec::new();
    for edge @ [src, sp, dst, dp] in &resolved {
        if state(src) == "bypassed" {
            continue;
        }
        if state(dst) == "bypassed" {
            let stream = sp.parse::<usize>().is_ok() && dp.parse::<usize>().is_ok();
            if stream && !bypassed_fed.insert(dst.as_str()) {
                return Err((
                    written(edge),
                    "a second stream into a bypassed block (it passes one input on)".into(),
                ));
            }
            for [_, _, d2, dp2] in outputs.get(dst.as_str()).into_iter().flatten() {
                joined.push([src.clone(), sp.clone(), d2.clone(), dp2.clone()]);
            }
        } else {
            joined.push([src.clone(), sp.clone(), dst.clone(), dp.clone()]);
        }
    }
    let mut out = Vec::new();
    for edge in joined {
        let text = written(&edge);
        let [src, sp, dst, dp] = edge;
        if state(&src) == "disabled" || state(&dst) == "disabled" {
            continue;
        }
        for n in [&src, &dst] {
            if !names.contains(n.as_str()) {
                return Err((text, format!("no block named '{}'", cut(n))));
            }
        }
        // GRC numbers stream ports and names message ports.
        let stream = match (sp.parse::<usize>(), dp.parse::<usize>()) {
            (Ok(a), Ok(b)) => Some((a, b)),
            _ => None,
        };
        if stream.is_some() == messages {
            continue;
        }
        let (from, to) = match stream {
            Some((a, b)) => (PortName::Index(a), PortName::Index(b)),
            None => (PortName::Name(sp.clone()), PortName::Name(dp.clone())),
        };
        out.push(Connection {
            from: End {
                block: src,
                port: from,
            },
            to: End {
                block: dst,
                port: to,
            },
            written: text,
        });
    }
    Ok(out)
}
