//! A hierarchical block inlined: its `.grc` described with the parameters the instance passes
//! ([`inline`]), its blocks put into the flowgraph under the instance's name
//! (`instance/block`: GRC names hold no `/`, so they cannot clash with the flowgraph's own),
//! and the flowgraph's connections to the instance's ports joined to the blocks its pads
//! connect to ([`rewire`]).
//!
//! A hierarchical block's ports are its `pad_source` (inputs) and `pad_sink` (outputs) blocks,
//! as GRC numbers them: pads sorted by name, a stream pad's `num_streams` ports numbered on
//! from the stream pads before it, a message pad named by its `label` ([`Pads`]).

use super::entries::{entries, Entry};
use super::expr::Variables;
use super::overrides::Overrides;
use super::value::Value;
use super::yaml;
use crate::{Connection, End, GraphDescription, GraphError};
use radioflow_runtime::echo::{cut, cut_display};
use radioflow_runtime::PortName;
use std::collections::HashMap;
use std::path::Path;

/// The ids of a hierarchical block's port blocks.
pub(super) const PAD_IDS: &[&str] = &["pad_source", "pad_sink"];

/// Parameters every GRC block has, which a hierarchical block's instance does not pass on.
const COMMON: &[&str] = &["alias", "affinity", "comment", "maxoutbuf", "minoutbuf"];

/// A hierarchical block's ports, each by the key the flowgraphs using it connect to, with
/// the ends inside it: an input's blocks (any number), an output's block (one, or none when
/// nothing inside feeds it).
#[derive(Debug, Default)]
pub(crate) struct Pads {
    pub(super) inputs: Vec<(PortName, Vec<End>)>,
    pub(super) outputs: Vec<(PortName, Option<End>)>,
}

/// A port as GRC's connections write it: its number, or its name quoted.
fn port_text(port: &PortName) -> String {
    match port {
        PortName::Index(i) => i.to_string(),
        PortName::Name(n) => format!("'{n}'"),
    }
}

impl Pads {
    fn keys(list: &[PortName]) -> String {
        let keys: Vec<String> = list.iter().map(port_text).collect();
        if keys.is_empty() {
            "none".into()
        } else {
            keys.join(", ")
        }
    }
}

/// A pad's port as connections inside the hierarchical block name it: the pad's name, the
/// port's text.
type PadPort = (String, String);

/// Each pad's ports with the key outside, and whether it is an input.
fn pad_keys(
    pads: &[&Entry],
    vars: &mut Variables,
) -> Result<HashMap<PadPort, (bool, PortName)>, String> {
    let mut keys = HashMap::new();
    for (kind, input) in [("pad_source", true), ("pad_sink", false)] {
        let mut of_kind: Vec<&&Entry> = pads.iter().filter(|e| e.id == kind).collect();
        of_kind.sort_by(|a, b| a.name.cmp(&b.name));
        let mut offset = 0;
        for pad in of_kind {
            let label = pad.params.get("label").cloned().unwrap_or_default();
            if pad.params.get("type").map(String::as_str) == Some("message") {
                let port = if input { "out" } else { "in" };
                keys.insert(
                    (pad.name.clone(), port_text(&PortName::Name(port.into()))),
                    (input, PortName::Name(label)),
                );
                continue;
            }
            let count = match pad.params.get("num_streams").map(|t| vars.eval(t)) {
                None => 1,
                Some(Ok(Value::Int(n))) if (1..=64).contains(&n) => n as usize,
                Some(other) => {
                    return Err(format!(
                        "pad '{}': num_streams is {}, not 1 to 64",
                        cut(&pad.name),
                        match other {
                            Ok(v) => cut_display(&v).to_string(),
                            Err(e) => e.to_string(),
                        }
                    ))
                }
            };
            for i in 0..count {
                keys.insert(
                    (pad.name.clone(), i.to_string()),
                    (input, PortName::Index(offset + i)),
                );
            }
            offset += count;
        }
    }
    Ok(keys)
}

/// Takes the connections to and from the pads out of `graph` (a hierarchical block's
/// description) into its [`Pads`].
pub(super) fn take_pads(
    graph: &mut GraphDescription,
    pads: &[&Entry],
    vars: &mut Variables,
) -> Result<Pads, GraphError> {
    let file = graph.origin.clone();
    let keys = pad_keys(pads, vars).map_err(|message| GraphError::Syntax {
        file: file.clone(),
        message,
    })?;
    let mut sorted: Vec<&(bool, PortName)> = keys.values().collect();
    sorted.sort_by_key(|(_, k)| match k {
        PortName::Index(i) => (0, *i, String::new()),
        PortName::Name(n) => (1, 0, n.clone()),
    });
    let mut out = Pads::default();
    for (input, key) in sorted {
        if *input {
            out.inputs.push((key.clone(), Vec::new()));
        } else {
            out.outputs.push((key.clone(), None));
        }
    }
    let key = |end: &End| keys.get(&(end.block.clone(), port_text(&end.port)));
    for list in [&mut graph.streams, &mut graph.messages] {
        let mut kept = Vec::new();
        for c in list.drain(..) {
            let refuse = |message: &str| GraphError::Connection {
                file: file.clone(),
                connection: c.written.clone(),
                message: message.into(),
            };
            match (key(&c.from), key(&c.to)) {
                (None, None) => kept.push(c),
                (Some(_), Some(_)) => {
                    return Err(refuse(
                        "a pad connected straight to a pad (radioflow inlines hierarchical \
                         blocks, and this one passes nothing through a block)",
                    ))
                }
                (Some((true, k)), None) => {
                    let ends = &mut out.inputs.iter_mut().find(|(x, _)| x == k).expect("key").1;
                    ends.push(c.to.clone());
                }
                (None, Some((false, k))) => {
                    let end = &mut out.outputs.iter_mut().find(|(x, _)| x == k).expect("key").1;
                    if end.is_some() {
                        return Err(refuse("a second connection into a pad_sink port"));
                    }
                    *end = Some(c.from.clone());
                }
                _ => return Err(refuse("a pad used the wrong way round")),
            }
        }
        *list = kept;
    }
    Ok(out)
}

/// The value instance parameter `text` passes to a `parameter` block of GRC type `kind`,
/// evaluated with the using flowgraph's variables.
fn parameter_value(kind: &str, text: &str, vars: &mut Variables) -> Result<Value, String> {
    if kind == "str" {
        return Ok(match vars.eval(text) {
            Ok(s @ Value::Str(_)) => s,
            _ => Value::Str(text.to_owned()),
        });
    }
    let value = vars
        .eval(text)
        .map_err(|e| format!("{}: {e}", cut_display(&format_args!("{text:?}"))))?;
    let wrong = |what: &str| {
        Err(format!(
            "{} is not {what} (the parameter's type is {kind})",
            cut_display(&value)
        ))
    };
    // The type is checked, and the value passed as the using flowgraph evaluated it: GRC's
    // generated code passes the expression (`packet_rx(sps=sps)`, an int into a real
    // parameter stays an int, which packet_rx.grc's `mark_delays[sps]` needs).
    match (kind, &value) {
        ("", _) => Ok(value),
        ("intx" | "long", Value::Int(_)) => Ok(value),
        ("intx" | "long", _) => wrong("an integer"),
        ("eng_float", Value::Int(_) | Value::Float(_)) => Ok(value),
        ("eng_float", _) => wrong("a real number"),
        ("complex", Value::Int(_) | Value::Float(_) | Value::Complex(_)) => Ok(value),
        ("complex", _) => wrong("a number"),
        _ => Err(format!("parameter type {} is not one of GRC's", cut(kind))),
    }
}

/// Hierarchical block `e` (an instance in the flowgraph `file`, whose variables are `vars`)
/// defined by `path`: its parameters evaluated as its `parameter` blocks type them, then the
/// block described by `describe` (the `.grc` text and path, the parameters' values).
pub(super) fn inline(
    e: &Entry,
    file: &Path,
    path: &Path,
    vars: &mut Variables,
    describe: impl FnOnce(&str, &Path, &Overrides) -> Result<(GraphDescription, Pads), GraphError>,
) -> Result<(GraphDescription, Pads), GraphError> {
    let fail = |message: String| GraphError::Block {
        file: file.to_owned(),
        name: e.name.clone(),
        message: format!(
            "{} (hierarchical block {}): {message}",
            e.id,
            path.display()
        ),
    };
    let text = std::fs::read_to_string(path).map_err(|err| fail(err.to_string()))?;
    let doc = yaml::load(&text).map_err(fail)?;
    let inner = entries(&doc).map_err(fail)?;
    let kinds: HashMap<&str, &str> = inner
        .iter()
        .filter(|p| p.id == "parameter" && p.state != "disabled")
        .map(|p| {
            let kind = p.params.get("type").map_or("", String::as_str);
            (p.name.as_str(), kind)
        })
        .collect();
    let mut overrides = Overrides::default();
    let mut given: Vec<(&String, &String)> = e.params.iter().collect();
    given.sort();
    for (key, text) in given {
        if COMMON.contains(&key.as_str()) {
            continue;
        }
        let Some(kind) = kinds.get(key.as_str()) else {
            let mut known: Vec<&str> = kinds.keys().copied().collect();
            known.sort_unstable();
            return Err(fail(format!(
                "no parameter '{}' (its parameters: {})",
                cut(key),
                known.join(", ")
            )));
        };
        if text.trim().is_empty() {
            continue;
        }
        let value = parameter_value(kind, text, vars)
            .map_err(|message| fail(format!("parameter '{key}': {message}")))?;
        overrides.values.insert(key.clone(), value);
    }
    describe(&text, path, &overrides)
}

/// Puts hierarchical block `child` into `graph` as instance `name` (on `host` unless its
/// blocks name theirs).
pub(super) fn merge(
    graph: &mut GraphDescription,
    name: &str,
    host: Option<&String>,
    child: GraphDescription,
    pads: &mut Pads,
) {
    let rename = |end: &mut End| end.block = format!("{name}/{}", end.block);
    for mut b in child.blocks {
        b.name = format!("{name}/{}", b.name);
        if b.host.is_none() {
            b.host = host.cloned();
        }
        graph.blocks.push(b);
    }
    for (list, from) in [
        (&mut graph.streams, child.streams),
        (&mut graph.messages, child.messages),
    ] {
        for mut c in from {
            rename(&mut c.from);
            rename(&mut c.to);
            c.written = format!("{name}: {}", c.written);
            list.push(c);
        }
    }
    for mut view in child.gui {
        view.name = format!("{name}/{}", view.name);
        view.inputs.iter_mut().for_each(|(_, end)| rename(end));
        view.messages.iter_mut().for_each(rename);
        graph.gui.push(view);
    }
    graph
        .notes
        .extend(child.notes.into_iter().map(|n| format!("in '{name}': {n}")));
    pads.inputs
        .iter_mut()
        .flat_map(|(_, ends)| ends.iter_mut())
        .for_each(rename);
    pads.outputs
        .iter_mut()
        .filter_map(|(_, end)| end.as_mut())
        .for_each(rename);
}

/// `connections` with every end at a hierarchical block's instance (`instances`, by name)
/// replaced by the blocks inside it: an input by each block its pad feeds, an output by the
/// block feeding its pad.
pub(super) fn rewire(
    connections: Vec<Connection>,
    instances: &HashMap<String, Pads>,
) -> Result<Vec<Connection>, (String, String)> {
    let mut out = Vec::new();
    for c in connections {
        let refuse = |message: String| (c.written.clone(), message);
        let from = match instances.get(&c.from.block) {
            None => c.from.clone(),
            Some(pads) => {
                let Some((_, end)) = pads.outputs.iter().find(|(k, _)| *k == c.from.port) else {
                    let keys: Vec<PortName> = pads.outputs.iter().map(|p| p.0.clone()).collect();
                    return Err(refuse(format!(
                        "'{}' has no output {} (its outputs: {})",
                        cut(&c.from.block),
                        port_text(&c.from.port),
                        Pads::keys(&keys)
                    )));
                };
                match end {
                    Some(end) => end.clone(),
                    None => {
                        return Err(refuse(format!(
                            "output {} of '{}' is fed by nothing inside it",
                            port_text(&c.from.port),
                            cut(&c.from.block)
                        )))
                    }
                }
            }
        };
        let to = match instances.get(&c.to.block) {
            None => vec![c.to.clone()],
            Some(pads) => {
                let Some((_, ends)) = pads.inputs.iter().find(|(k, _)| *k == c.to.port) else {
                    let keys: Vec<PortName> = pads.inputs.iter().map(|p| p.0.clone()).collect();
                    return Err(refuse(format!(
                        "'{}' has no input {} (its inputs: {})",
                        cut(&c.to.block),
                        port_text(&c.to.port),
                        Pads::keys(&keys)
                    )));
                };
                if ends.is_empty() {
                    return Err(refuse(format!(
                        "input {} of '{}' goes to nothing inside it",
                        port_text(&c.to.port),
                        cut(&c.to.block)
                    )));
                }
                ends.clone()
            }
        };
        for to in to {
            out.push(Connection {
                from: from.clone(),
                to,
                written: c.written.clone(),
            });
        }
    }
    Ok(out)
}
