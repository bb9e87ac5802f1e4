//! Reading a graph file into a [`Flowgraph`].

use crate::GraphError;
use radioflow_runtime::registry::{self, Dtype};
use radioflow_runtime::{BlockId, Flowgraph, Pmt, PortName, PortRef};
use std::collections::BTreeMap;
use std::path::Path;
use toml::{Table, Value};

// The library's blocks register themselves when linked; naming the crate links it.
use radioflow_blocks as _;

/// A flowgraph built from a graph file, with its blocks by the names the file gives them.
#[derive(Debug)]
pub struct Graph {
    /// The flowgraph, ready to run.
    pub flowgraph: Flowgraph,
    /// Each block's name in the file and its id, in the file's order.
    pub blocks: Vec<(String, BlockId)>,
}

/// Reads and builds the graph file at `path`.
pub fn load(path: impl AsRef<Path>) -> Result<Graph, GraphError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|source| GraphError::Read {
        file: path.to_owned(),
        source,
    })?;
    parse(&text, path)
}

/// Builds the graph written in `text` (`file` names it in errors).
pub fn parse(text: &str, file: impl AsRef<Path>) -> Result<Graph, GraphError> {
    let file = file.as_ref().to_owned();
    let syntax = |message: String| GraphError::Syntax {
        file: file.clone(),
        message,
    };
    let table: Table = text
        .parse()
        .map_err(|e: toml::de::Error| syntax(e.to_string()))?;
    for key in table.keys() {
        if !["blocks", "connections", "messages"].contains(&key.as_str()) {
            return Err(syntax(format!(
                "unknown key '{key}' (a graph file has blocks, connections and messages)"
            )));
        }
    }
    let blocks = match table.get("blocks") {
        Some(Value::Table(t)) => t,
        Some(_) => return Err(syntax("'blocks' must be a table of blocks".into())),
        None => return Err(syntax("no [blocks] table".into())),
    };
    let mut flowgraph = Flowgraph::new();
    let mut ids = Vec::new();
    for (name, entry) in blocks {
        let block = make(name, entry).map_err(|message| GraphError::Block {
            file: file.clone(),
            name: name.clone(),
            message,
        })?;
        ids.push((name.clone(), flowgraph.add_boxed(Some(name), block)));
    }
    let by_name: BTreeMap<&str, BlockId> = ids.iter().map(|(n, id)| (n.as_str(), *id)).collect();
    for (key, message_links) in [("connections", false), ("messages", true)] {
        for line in strings(&table, key).map_err(syntax)? {
            connect(&mut flowgraph, &by_name, &line, message_links).map_err(|message| {
                GraphError::Connection {
                    file: file.clone(),
                    connection: line.clone(),
                    message,
                }
            })?;
        }
    }
    Ok(Graph {
        flowgraph,
        blocks: ids,
    })
}

/// The block described by `entry`.
fn make(name: &str, entry: &Value) -> Result<Box<dyn radioflow_runtime::Block>, String> {
    let Value::Table(entry) = entry else {
        return Err(format!(
            "must be a table ({name} = {{ block = \"...\", ... }})"
        ));
    };
    let id = match entry.get("block") {
        Some(Value::String(id)) => id,
        Some(other) => return Err(format!("'block' must be a block id, not {other}")),
        None => {
            return Err("has no 'block' (the block's id; `radioflow blocks` lists them)".into())
        }
    };
    let description = registry::find(id)
        .ok_or_else(|| format!("no block '{id}' in the library (`radioflow blocks` lists them)"))?;
    let dtype = match entry.get("dtype") {
        None => None,
        Some(Value::String(d)) => Some(Dtype::parse(d).ok_or_else(|| {
            format!(
                "unknown dtype '{d}' (use one of {})",
                Dtype::list(Dtype::ALL)
            )
        })?),
        Some(other) => return Err(format!("'dtype' must be a type name, not {other}")),
    };
    let mut given = Vec::new();
    for (key, value) in entry {
        if key == "block" || key == "dtype" {
            continue;
        }
        given.push((key.clone(), pmt(value).map_err(|m| format!("{key}: {m}"))?));
    }
    registry::make(description, dtype, given).map_err(|e| e.to_string())
}

/// A TOML value as the PMT a block parameter takes.
fn pmt(v: &Value) -> Result<Pmt, String> {
    Ok(match v {
        Value::Boolean(b) => Pmt::Bool(*b),
        Value::Integer(i) => Pmt::Int(*i),
        Value::Float(x) => Pmt::Double(*x),
        Value::String(s) => Pmt::symbol(s.as_str()),
        Value::Array(items) => {
            Pmt::Vector(items.iter().map(pmt).collect::<Result<Vec<_>, _>>()?.into())
        }
        Value::Datetime(d) => return Err(format!("a date ({d}) is not a parameter value")),
        Value::Table(_) => return Err("a table is not a parameter value".into()),
    })
}

/// The strings of array `key` (empty if absent).
fn strings(table: &Table, key: &str) -> Result<Vec<String>, String> {
    match table.get(key) {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                other => Err(format!(
                    "'{key}' holds strings like \"a -> b\", not {other}"
                )),
            })
            .collect(),
        Some(other) => Err(format!("'{key}' must be an array of strings, not {other}")),
    }
}

/// Connects the chain `line` (`a -> b.in1 -> c`), stream or message.
fn connect(
    fg: &mut Flowgraph,
    by_name: &BTreeMap<&str, BlockId>,
    line: &str,
    message: bool,
) -> Result<(), String> {
    let ends: Vec<&str> = line.split("->").map(str::trim).collect();
    if ends.len() < 2 || ends.iter().any(|e| e.is_empty()) {
        return Err("write it as \"a -> b\" (or a chain \"a -> b -> c\")".into());
    }
    let port = |end: &str| -> Result<(PortRef, bool), String> {
        let (block, port) = match end.split_once('.') {
            Some((b, p)) => (b, Some(p)),
            None => (end, None),
        };
        let id = *by_name
            .get(block)
            .ok_or_else(|| format!("no block named '{block}' in [blocks]"))?;
        let port = match port {
            None => PortName::Index(0),
            Some(p) => match p.parse::<usize>() {
                Ok(i) => PortName::Index(i),
                Err(_) => PortName::Name(p.to_owned()),
            },
        };
        Ok((PortRef { block: id, port }, end.contains('.')))
    };
    for pair in ends.windows(2) {
        let (src, src_named) = port(pair[0])?;
        let (dst, dst_named) = port(pair[1])?;
        let named = src_named && dst_named;
        if message {
            if !named {
                return Err("message links name both ports: \"a.out -> b.in\"".into());
            }
            fg.connect_message(src, dst).map_err(|e| e.to_string())?;
        } else {
            fg.connect(src, dst).map(drop).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
