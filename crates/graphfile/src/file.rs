//! Reading a graph file (TOML) into a [`GraphDescription`] and a [`BuiltGraph`].

use crate::{BlockSpec, BuiltGraph, GraphDescription, GraphError};
use radioflow_runtime::echo::{cut, cut_display, cut_message};
use radioflow_runtime::Pmt;
use std::path::Path;
use toml::{Table, Value};

/// Reads and builds the graph file at `path`.
pub fn load(path: impl AsRef<Path>) -> Result<BuiltGraph, GraphError> {
    describe_file(path)?.build()
}

/// Reads the graph file at `path` into a description (not built).
pub fn describe_file(path: impl AsRef<Path>) -> Result<GraphDescription, GraphError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|source| GraphError::Read {
        file: path.to_owned(),
        source,
    })?;
    describe(&text, path)
}

/// Builds the graph written in `text` (`file` names it in errors).
pub fn parse(text: &str, file: impl AsRef<Path>) -> Result<BuiltGraph, GraphError> {
    describe(text, file)?.build()
}

/// Reads the graph written in `text` into a description (`file` names it in errors).
pub fn describe(text: &str, file: impl AsRef<Path>) -> Result<GraphDescription, GraphError> {
    let file = file.as_ref().to_owned();
    let syntax = |message: String| GraphError::Syntax {
        file: file.clone(),
        message,
    };
    let table: Table = text
        .parse()
        .map_err(|e: toml::de::Error| syntax(toml_error(text, &e)))?;
    for key in table.keys() {
        if !["blocks", "connections", "messages"].contains(&key.as_str()) {
            return Err(syntax(format!(
                "unknown key '{}' (a graph file has blocks, connections and messages)",
                cut(key)
            )));
        }
    }
    let blocks = match table.get("blocks") {
        Some(Value::Table(t)) => t,
        Some(_) => return Err(syntax("'blocks' must be a table of blocks".into())),
        None => return Err(syntax("no [blocks] table".into())),
    };
    let mut graph = GraphDescription::new(&file);
    for (name, entry) in blocks {
        let spec = spec(name, entry).map_err(|message| GraphError::Block {
            file: file.clone(),
            name: name.clone(),
            message,
        })?;
        graph.blocks.push(spec);
    }
    for (key, message_links) in [("connections", false), ("messages", true)] {
        for line in strings(&table, key).map_err(syntax)? {
            let ends: Vec<&str> = line.split("->").map(str::trim).collect();
            if ends.len() < 2 || ends.iter().any(|e| e.is_empty()) {
                return Err(GraphError::Connection {
                    file: file.clone(),
                    connection: line.clone(),
                    message: "write it as \"a -> b\" (or a chain \"a -> b -> c\")".into(),
                });
            }
            for pair in ends.windows(2) {
                let c = if message_links {
                    graph.message_connection(pair[0], pair[1], Some(&line))?
                } else {
                    graph.connection(pair[0], pair[1], Some(&line))?
                };
                if message_links {
                    graph.messages.push(c);
                } else {
                    graph.streams.push(c);
                }
            }
        }
    }
    Ok(graph)
}

/// The block described by `entry` (its id, item type and parameters are checked when it is
/// made).
fn spec(name: &str, entry: &Value) -> Result<BlockSpec, String> {
    let Value::Table(entry) = entry else {
        return Err(format!(
            "must be a table ({} = {{ block = \"...\", ... }})",
            cut(name)
        ));
    };
    let block = match entry.get("block") {
        Some(Value::String(id)) => id.clone(),
        Some(other) => {
            return Err(format!(
                "'block' must be a block id, not {}",
                cut_display(other)
            ))
        }
        None => {
            return Err("has no 'block' (the block's id; `radioflow blocks` lists them)".into())
        }
    };
    let text = |key: &str| match entry.get(key) {
        None => Ok(None),
        Some(Value::String(d)) => Ok(Some(d.clone())),
        Some(other) => Err(format!(
            "'{key}' must be a string, not {}",
            cut_display(other)
        )),
    };
    let dtype = text("dtype")?;
    let host = text("host")?;
    let mut params = Vec::new();
    for (key, value) in entry {
        if ["block", "dtype", "host"].contains(&key.as_str()) {
            continue;
        }
        params.push((
            key.clone(),
            pmt(value).map_err(|m| format!("{}: {m}", cut(key)))?,
        ));
    }
    Ok(BlockSpec {
        name: name.to_owned(),
        block,
        dtype,
        params,
        host,
    })
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
        // A dict, as GNU Radio's `pmt.to_pmt` makes one of a Python dict: each key (a
        // symbol) added in turn, in the table's key order.
        Value::Table(t) => {
            let mut dict = Pmt::Null;
            for (k, v) in t {
                dict.dict_add(
                    Pmt::symbol(k.as_str()),
                    pmt(v).map_err(|m| format!("{}: {m}", cut(k)))?,
                );
            }
            dict
        }
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
                    "'{key}' holds strings like \"a -> b\", not {}",
                    cut_display(other)
                )),
            })
            .collect(),
        Some(other) => Err(format!(
            "'{key}' must be an array of strings, not {}",
            cut_display(other)
        )),
    }
}

/// A TOML error as "TOML parse error at line L, column C: what", with the text around the column (the toml
/// crate's own message repeats the whole line, which may be megabytes long).
fn toml_error(text: &str, e: &toml::de::Error) -> String {
    let message = cut_message(e.message().trim());
    let Some(at) = e.span().map(|s| s.start.min(text.len())) else {
        return message.into_owned();
    };
    let mut at = at;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = text[..at].matches('\n').count() + 1;
    let column = text[line_start..at].chars().count() + 1;
    // Up to 40 characters either side of the column.
    let before: String = {
        let mut b: Vec<char> = text[line_start..at].chars().rev().take(41).collect();
        let cut_before = b.len() > 40;
        b.truncate(40);
        b.reverse();
        format!(
            "{}{}",
            if cut_before { "..." } else { "" },
            b.into_iter().collect::<String>()
        )
    };
    let after: String = {
        let a: Vec<char> = text[at..line_end].chars().take(41).collect();
        let more = a.len() > 40;
        format!(
            "{}{}",
            a.into_iter().take(40).collect::<String>(),
            if more { "..." } else { "" }
        )
    };
    format!("TOML parse error at line {line}, column {column}: {message}: `{before}{after}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_a_dict_as_gnu_radio_s_to_pmt_makes_it() {
        let v: Value =
            toml::from_str::<Table>("d = { freq = 2000, ampl = 1.5 }").unwrap()["d"].clone();
        // Keys in the table's order (sorted), each added in front.
        assert_eq!(
            pmt(&v),
            Ok(Pmt::dict_from([
                (Pmt::symbol("ampl"), Pmt::Double(1.5)),
                (Pmt::symbol("freq"), Pmt::Int(2000)),
            ]))
        );
        let empty: Value = toml::from_str::<Table>("d = {}").unwrap()["d"].clone();
        assert_eq!(pmt(&empty), Ok(Pmt::Null));
        let bad: Value = toml::from_str::<Table>("d = { t = 1979-05-27 }").unwrap()["d"].clone();
        assert!(pmt(&bad).unwrap_err().starts_with("t: a date"));
    }
}
