//! The GNU Radio block ids radioflow runs, and how each one's GRC parameters become the
//! parameters of a radioflow block (`radioflow grc list` prints this table).

use super::expr::Value;
use radioflow_runtime::echo::cut_display;
use radioflow_runtime::Pmt;
use std::collections::HashMap;

/// A GNU Radio block's evaluated parameters, by GRC key.
pub(crate) struct GrcParams<'a> {
    pub(crate) id: &'a str,
    /// Each parameter evaluated, or why it could not be (an error only if the block uses it).
    pub(crate) values: &'a HashMap<String, Result<Value, String>>,
}

/// What a GNU Radio block becomes: a radioflow block id, its item type (GRC's name) and its
/// parameters.
pub(crate) struct Mapped {
    pub(crate) block: &'static str,
    pub(crate) dtype: Option<String>,
    pub(crate) params: Vec<(String, Pmt)>,
}

impl GrcParams<'_> {
    fn get(&self, key: &str) -> Result<&Value, String> {
        match self.values.get(key) {
            Some(Ok(v)) => Ok(v),
            Some(Err(e)) => Err(format!("{}: {key}: {e}", self.id)),
            None => Err(format!("{}: parameter '{key}' is missing", self.id)),
        }
    }

    /// The parameter as our parameter `name`.
    fn pass(&self, key: &str, name: &str) -> Result<(String, Pmt), String> {
        Ok((name.to_owned(), self.get(key)?.to_pmt()))
    }

    /// The item type named by GRC's `type` (`complex`, `float`, ...; `ccf` style for
    /// filters: the first letter).
    fn dtype(&self, key: &str) -> Result<Option<String>, String> {
        Ok(match self.values.get(key) {
            None => None,
            Some(Ok(Value::Str(t))) => Some(match t.as_str() {
                "ccf" | "ccc" | "c" => "complex".to_owned(),
                "fff" | "f" => "float".to_owned(),
                other => other.to_owned(),
            }),
            Some(Ok(other)) => {
                return Err(format!(
                    "{}: type {} is not a type name",
                    self.id,
                    cut_display(other)
                ))
            }
            Some(Err(e)) => return Err(format!("{}: type: {e}", self.id)),
        })
    }

    /// Refuses a parameter whose value radioflow's block does not support.
    fn require(&self, key: &str, ok: impl Fn(&Value) -> bool, what: &str) -> Result<(), String> {
        match self.values.get(key) {
            Some(Ok(v)) if !ok(v) => Err(format!(
                "{}: {key} = {} is not supported ({what})",
                self.id,
                cut_display(v)
            )),
            Some(Err(e)) => Err(format!("{}: {key}: {e}", self.id)),
            _ => Ok(()),
        }
    }

    fn vlen_one(&self) -> Result<(), String> {
        self.require(
            "vlen",
            |v| v.as_f64() == Some(1.0),
            "vectors: vlen must be 1",
        )
    }
}

type Map = fn(&GrcParams) -> Result<Mapped, String>;

fn typed(p: &GrcParams, block: &'static str, params: Vec<(String, Pmt)>) -> Result<Mapped, String> {
    p.vlen_one()?;
    Ok(Mapped {
        block,
        dtype: p.dtype("type")?,
        params,
    })
}

fn is_false(v: &Value) -> bool {
    matches!(v, Value::Bool(false) | Value::Int(0))
}

fn is_zero(v: &Value) -> bool {
    v.as_f64() == Some(0.0)
}

/// A gr-zeromq stream block (`type`, `vlen` 1, `address`, `timeout`, `pass_tags`, `hwm`, and
/// for PUB/SUB `key` and `drop_on_hwm`): sinks bind and sources connect, as there. A source
/// may add radioflow's `drop_malformed` (not a GNU Radio parameter).
fn zmq_stream(p: &GrcParams, block: &'static str, pattern: &str) -> Result<Mapped, String> {
    let mut params = vec![
        p.pass("address", "address")?,
        ("pattern".into(), Pmt::symbol(pattern)),
        p.pass("timeout", "timeout_ms")?,
        p.pass("pass_tags", "pass_tags")?,
        p.pass("hwm", "hwm")?,
    ];
    // PUB/SUB's topic (GRC writes `key: ''` on the other patterns too).
    if p.values.contains_key("key") {
        params.push(p.pass("key", "key")?);
    }
    if p.values.contains_key("drop_on_hwm") {
        params.push(p.pass("drop_on_hwm", "drop_on_hwm")?);
    }
    drop_malformed(p, &mut params)?;
    typed(p, block, params)
}

/// radioflow's `drop_malformed` on a ZeroMQ source, where the `.grc` file gives it.
fn drop_malformed(p: &GrcParams, params: &mut Vec<(String, Pmt)>) -> Result<(), String> {
    if p.values.contains_key("drop_malformed") {
        params.push(p.pass("drop_malformed", "drop_malformed")?);
    }
    Ok(())
}

/// A gr-zeromq message block (`address`, `timeout`, `bind`; a source may add
/// `drop_malformed`).
fn zmq_message(p: &GrcParams, block: &'static str, pattern: &str) -> Result<Mapped, String> {
    let mut params = vec![
        p.pass("address", "address")?,
        ("pattern".into(), Pmt::symbol(pattern)),
        p.pass("timeout", "timeout_ms")?,
    ];
    if p.values.contains_key("bind") {
        params.push(p.pass("bind", "bind")?);
    }
    drop_malformed(p, &mut params)?;
    Ok(Mapped {
        block,
        dtype: None,
        params,
    })
}

/// Every supported GNU Radio block id, with what it becomes.
pub(crate) const SUPPORTED: &[(&str, &str, Map)] = &[
    ("blocks_null_source", "null_source", |p| {
        p.require("num_outputs", |v| v.as_f64() == Some(1.0), "one output")?;
        typed(p, "null_source", vec![])
    }),
    ("blocks_null_sink", "null_sink", |p| {
        p.require("num_inputs", |v| v.as_f64() == Some(1.0), "one input")?;
        typed(p, "null_sink", vec![])
    }),
    ("blocks_copy", "copy", |p| typed(p, "copy", vec![])),
    ("blocks_head", "head", |p| {
        typed(p, "head", vec![p.pass("num_items", "n")?])
    }),
    ("blocks_throttle", "throttle", |p| {
        typed(
            p,
            "throttle",
            vec![p.pass("samples_per_second", "sample_rate")?],
        )
    }),
    ("blocks_throttle2", "throttle", |p| {
        typed(
            p,
            "throttle",
            vec![p.pass("samples_per_second", "sample_rate")?],
        )
    }),
    ("blocks_multiply_const_xx", "multiply_const", |p| {
        typed(p, "multiply_const", vec![p.pass("const", "k")?])
    }),
    ("blocks_multiply_const_vxx", "multiply_const", |p| {
        typed(p, "multiply_const", vec![p.pass("const", "k")?])
    }),
    ("blocks_add_const_vxx", "add_const", |p| {
        typed(p, "add_const", vec![p.pass("const", "k")?])
    }),
    ("blocks_multiply_xx", "multiply", |p| {
        typed(p, "multiply", vec![p.pass("num_inputs", "inputs")?])
    }),
    ("blocks_file_source", "file_source", |p| {
        p.require("offset", is_zero, "reading from the start")?;
        p.require("length", is_zero, "the whole file")?;
        p.require(
            "begin_tag",
            |v| matches!(v, Value::Pmt(Pmt::Null) | Value::None),
            "no begin tag",
        )?;
        typed(
            p,
            "file_source",
            vec![p.pass("file", "path")?, p.pass("repeat", "repeat")?],
        )
    }),
    ("blocks_file_sink", "file_sink", |p| {
        p.require("append", is_false, "a new file")?;
        typed(p, "file_sink", vec![p.pass("file", "path")?])
    }),
    ("blocks_vector_source_x", "vector_source", |p| {
        p.require(
            "tags",
            |v| matches!(v, Value::List(t) if t.is_empty()),
            "no tags",
        )?;
        let data = match p.get("vector")? {
            Value::List(_) => p.get("vector")?.to_pmt(),
            single => Pmt::Vector(vec![single.to_pmt()].into()),
        };
        typed(
            p,
            "vector_source",
            vec![("data".into(), data), p.pass("repeat", "repeat")?],
        )
    }),
    ("blocks_vector_sink_x", "vector_sink", |p| {
        typed(p, "vector_sink", vec![])
    }),
    ("blocks_message_debug", "message_debug", |_| {
        Ok(Mapped {
            block: "message_debug",
            dtype: None,
            params: vec![],
        })
    }),
    ("analog_sig_source_x", "signal_source", |p| {
        let waveform = match p.get("waveform")? {
            Value::Constant(w @ ("cosine" | "sine" | "constant")) => *w,
            other => {
                return Err(format!(
                    "{}: waveform {} is not supported (cosine, sine or constant)",
                    p.id,
                    cut_display(other)
                ))
            }
        };
        typed(
            p,
            "signal_source",
            vec![
                p.pass("samp_rate", "sample_rate")?,
                ("waveform".into(), Pmt::symbol(waveform)),
                p.pass("freq", "frequency")?,
                p.pass("amp", "amplitude")?,
                p.pass("offset", "offset")?,
                p.pass("phase", "phase")?,
            ],
        )
    }),
    ("zeromq_pub_sink", "zmq_sink", |p| {
        zmq_stream(p, "zmq_sink", "pub")
    }),
    ("zeromq_push_sink", "zmq_sink", |p| {
        zmq_stream(p, "zmq_sink", "push")
    }),
    ("zeromq_rep_sink", "zmq_sink", |p| {
        zmq_stream(p, "zmq_sink", "rep")
    }),
    ("zeromq_sub_source", "zmq_source", |p| {
        zmq_stream(p, "zmq_source", "sub")
    }),
    ("zeromq_pull_source", "zmq_source", |p| {
        zmq_stream(p, "zmq_source", "pull")
    }),
    ("zeromq_req_source", "zmq_source", |p| {
        zmq_stream(p, "zmq_source", "req")
    }),
    ("zeromq_pub_msg_sink", "zmq_message_sink", |p| {
        zmq_message(p, "zmq_message_sink", "pub")
    }),
    ("zeromq_push_msg_sink", "zmq_message_sink", |p| {
        zmq_message(p, "zmq_message_sink", "push")
    }),
    ("zeromq_rep_msg_sink", "zmq_message_sink", |p| {
        zmq_message(p, "zmq_message_sink", "rep")
    }),
    ("zeromq_sub_msg_source", "zmq_message_source", |p| {
        zmq_message(p, "zmq_message_source", "sub")
    }),
    ("zeromq_pull_msg_source", "zmq_message_source", |p| {
        zmq_message(p, "zmq_message_source", "pull")
    }),
    ("zeromq_req_msg_source", "zmq_message_source", |p| {
        zmq_message(p, "zmq_message_source", "req")
    }),
    ("filter_fir_filter_xxx", "fir_filter", |p| {
        p.require("decim", |v| v.as_f64() == Some(1.0), "no decimation")?;
        p.require(
            "type",
            |v| matches!(v, Value::Str(t) if t == "ccf" || t == "fff"),
            "ccf or fff",
        )?;
        Ok(Mapped {
            block: "fir_filter",
            dtype: p.dtype("type")?,
            params: vec![p.pass("taps", "taps")?],
        })
    }),
];

/// The mapping of GNU Radio block `id`, if radioflow runs it.
pub(crate) fn find(id: &str) -> Option<(&'static str, Map)> {
    SUPPORTED
        .iter()
        .find(|(grc, _, _)| *grc == id)
        .map(|(_, ours, map)| (*ours, *map))
}
