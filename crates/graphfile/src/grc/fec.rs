//! GNU Radio's FEC code objects in GRC expressions (`fec.cc_encoder_make(...)`,
//! `fec.cc_decoder.make(...)` and the like) and the value of the `variable_*_encoder_def` /
//! `variable_*_decoder_def` blocks: each is GNU Radio's call with its arguments evaluated, as
//! a string, the form the FEC blocks' `encoder` / `decoder` parameters take
//! (`radioflow_fec::EncoderDef`, checked here so a bad one is refused with its variable).
//!
//! GNU Radio makes a list of objects where `ndim` is 1 or 2 (one per thread of its threaded
//! blocks); radioflow runs one object per block, so every variable is the one object.

use super::expr_error::ExprError;
use super::value::Value;
use radioflow_library::fec::{DecoderDef, EncoderDef};
use radioflow_runtime::echo::{cut, cut_display};
use std::collections::HashMap;

type Result<T> = std::result::Result<T, ExprError>;

/// GNU Radio's functions radioflow evaluates, with their parameters.
const FUNCTIONS: &[(&str, &[&str])] = &[
    ("fec.dummy_encoder_make", &["frame_size"]),
    ("fec.repetition_encoder_make", &["frame_size", "rep"]),
    (
        "fec.cc_encoder_make",
        &[
            "frame_size",
            "k",
            "rate",
            "polys",
            "start_state",
            "mode",
            "padded",
        ],
    ),
    (
        "fec.ccsds_encoder_make",
        &["frame_size", "start_state", "mode"],
    ),
    ("fec.ldpc_encoder_make", &["alist_file"]),
    ("fec.ldpc_H_matrix", &["filename", "gap"]),
    ("fec.ldpc_G_matrix", &["filename"]),
    ("fec.ldpc_par_mtrx_encoder_make_H", &["H_obj"]),
    ("fec.ldpc_par_mtrx_encoder_make", &["alist_file", "gap"]),
    ("fec.ldpc_gen_mtrx_encoder_make", &["G_obj"]),
    ("fec.ldpc_bit_flip_decoder.make", &["mtrx_obj", "max_iter"]),
    (
        "fec.polar_encoder.make",
        &[
            "block_size",
            "num_info_bits",
            "frozen_bit_positions",
            "frozen_bit_values",
            "is_packed",
        ],
    ),
    (
        "fec.polar_encoder_systematic.make",
        &["block_size", "num_info_bits", "frozen_bit_positions"],
    ),
    (
        "fec.polar_decoder_sc.make",
        &[
            "block_size",
            "num_info_bits",
            "frozen_bit_positions",
            "frozen_bit_values",
        ],
    ),
    (
        "fec.polar_decoder_sc_systematic.make",
        &["block_size", "num_info_bits", "frozen_bit_positions"],
    ),
    (
        "fec.polar_decoder_sc_list.make",
        &[
            "max_list_size",
            "block_size",
            "num_info_bits",
            "frozen_bit_positions",
            "frozen_bit_values",
        ],
    ),
    (
        POLAR_CONFIG,
        &[
            "is_prototype",
            "channel",
            "block_size",
            "num_info_bits",
            "design_snr",
            "mu",
        ],
    ),
    ("fec.dummy_decoder.make", &["frame_size"]),
    (
        "fec.repetition_decoder.make",
        &["frame_size", "rep", "ap_prob"],
    ),
    (
        "fec.ldpc_decoder.make",
        &["alist_file", "sigma", "max_iterations"],
    ),
    (
        "fec.cc_decoder.make",
        &[
            "frame_size",
            "k",
            "rate",
            "polys",
            "start_state",
            "end_state",
            "mode",
            "padded",
        ],
    ),
];

/// The expression GNU Radio's FEC variable `id` evaluates to, from its parameters as written
/// (GRC's defaults for those left out); `None` for other blocks.
pub(super) fn variable_value(id: &str, params: &HashMap<String, String>) -> Option<String> {
    let p = |key: &str, default: &str| {
        let text = params.get(key).map_or(default, String::as_str);
        format!("({text})")
    };
    let bits = p("framebits", "2048");
    let cc = || {
        format!(
            "{bits}, {}, {}, {}, {}",
            p("k", "7"),
            p("rate", "2"),
            p("polys", "[79,109]"),
            p("state_start", "0")
        )
    };
    let mode = p("mode", "fec.CC_STREAMING");
    let padding = p("padding", "False");
    Some(match id {
        "variable_dummy_encoder_def" => format!("fec.dummy_encoder_make({bits})"),
        "variable_dummy_decoder_def" => format!("fec.dummy_decoder.make({bits})"),
        "variable_repetition_encoder_def" => {
            format!("fec.repetition_encoder_make({bits}, {})", p("rep", "3"))
        }
        "variable_repetition_decoder_def" => format!(
            "fec.repetition_decoder.make({bits}, {}, {})",
            p("rep", "3"),
            p("prob", "0.5")
        ),
        "variable_cc_encoder_def" => {
            format!("fec.cc_encoder_make({}, {mode}, {padding})", cc())
        }
        "variable_cc_decoder_def" => format!(
            "fec.cc_decoder.make({}, {}, {mode}, {padding})",
            cc(),
            p("state_end", "-1")
        ),
        "variable_ccsds_encoder_def" => format!(
            "fec.ccsds_encoder_make({bits}, {}, {mode})",
            p("state_start", "0")
        ),
        "variable_ldpc_encoder_def" => format!("fec.ldpc_encoder_make({})", p("file", "''")),
        "variable_ldpc_decoder_def" => format!(
            "fec.ldpc_decoder.make({}, {}, {})",
            p("file", "''"),
            p("sigma", "0.5"),
            p("max_iter", "50")
        ),
        "variable_ldpc_H_matrix_def" => format!(
            "fec.ldpc_H_matrix({}, {})",
            p("filename", "''"),
            p("gap", "0")
        ),
        "variable_ldpc_G_matrix_def" => format!("fec.ldpc_G_matrix({})", p("filename", "''")),
        "variable_ldpc_encoder_H_def" => {
            format!("fec.ldpc_par_mtrx_encoder_make_H({})", p("H", "None"))
        }
        "variable_ldpc_encoder_G_def" => {
            format!("fec.ldpc_gen_mtrx_encoder_make({})", p("G", "None"))
        }
        // GRC writes `matrix.get_base_sptr()`: the matrix itself here.
        "variable_ldpc_bit_flip_decoder_def" => format!(
            "fec.ldpc_bit_flip_decoder.make({}, {})",
            p("matrix_object", "None"),
            p("max_iterations", "100")
        ),
        "variable_polar_code_configurator" => {
            // GNU Radio's channel names are these strings.
            let channel = match params.get("channel").map(|c| c.trim()) {
                None | Some("polar.CHANNEL_TYPE_BEC") => "('BEC')".to_owned(),
                Some("polar.CHANNEL_TYPE_AWGN") => "('AWGN')".to_owned(),
                Some(other) => format!("({other})"),
            };
            format!(
                "{POLAR_CONFIG}(False, {channel}, {}, {}, {}, {})",
                p("block_size", "32"),
                p("num_info_bits", "16"),
                p("design_snr", "0.0"),
                p("mu", "16")
            )
        }
        "variable_polar_encoder_def" => format!(
            "fec.polar_encoder.make({}, {}, {}, {}, {})",
            p("block_size", "None"),
            p("num_info_bits", "None"),
            config_item(params, "frozen_bit_positions"),
            config_item(params, "frozen_bit_values"),
            p("is_packed", "False")
        ),
        "variable_polar_encoder_systematic_def" => format!(
            "fec.polar_encoder_systematic.make({}, {}, {})",
            p("block_size", "None"),
            p("num_info_bits", "None"),
            config_item(params, "frozen_bit_positions"),
        ),
        "variable_polar_decoder_sc_def" => format!(
            "fec.polar_decoder_sc.make({}, {}, {}, {})",
            p("block_size", "None"),
            p("num_info_bits", "None"),
            config_item(params, "frozen_bit_positions"),
            config_item(params, "frozen_bit_values"),
        ),
        "variable_polar_decoder_sc_systematic_def" => format!(
            "fec.polar_decoder_sc_systematic.make({}, {}, {})",
            p("block_size", "None"),
            p("num_info_bits", "None"),
            config_item(params, "frozen_bit_positions"),
        ),
        "variable_polar_decoder_sc_list_def" => format!(
            "fec.polar_decoder_sc_list.make({}, {}, {}, {}, {})",
            p("max_list_size", "None"),
            p("block_size", "None"),
            p("num_info_bits", "None"),
            config_item(params, "frozen_bit_positions"),
            config_item(params, "frozen_bit_values"),
        ),
        _ => return None,
    })
}

/// GNU Radio's polar channel construction (`variable_polar_code_configurator`'s value): a
/// dictionary in GNU Radio, here the list `[positions, values]`.
const POLAR_CONFIG: &str = "polar.load_frozen_bits_info";

/// Parameter `key` as written, with the configurator's entries GRC files read
/// (`polar_config['positions']`, `polar_config['values']`) as items of its list.
fn config_item(params: &HashMap<String, String>, key: &str) -> String {
    let text = params.get(key).map_or("[]", |t| t.trim());
    let entry = |name: &str| {
        let (var, rest) = text.split_once('[')?;
        let rest = rest.strip_suffix(']')?.trim();
        let quoted = rest
            .strip_prefix('\'')
            .and_then(|r| r.strip_suffix('\''))
            .or_else(|| rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')))?;
        let var = var.trim();
        let identifier = !var.is_empty()
            && var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !var.starts_with(|c: char| c.is_ascii_digit());
        (identifier && quoted == name).then(|| var.to_owned())
    };
    if let Some(var) = entry("positions") {
        format!("(({var})[0])")
    } else if let Some(var) = entry("values") {
        format!("(({var})[1])")
    } else {
        format!("({text})")
    }
}

/// `polar.load_frozen_bits_info(is_prototype, channel, N, K, design_snr, mu)` for a binary
/// erasure channel: `[positions, values]`.
fn polar_config(args: &[std::borrow::Cow<'_, Value>]) -> Result<Value> {
    let bad = |param: &str, why: String| {
        ExprError::InvalidValue(format!("{POLAR_CONFIG}: {param}: {why}"))
    };
    match &*args[1] {
        Value::Str(c) if c == "BEC" => {}
        Value::Str(c) if c == "AWGN" => {
            return Err(bad(
                "channel",
                "the AWGN construction (Tal and Vardy's, which GNU Radio reads from its cache of \
                 Z-parameter files) is not built: use polar.CHANNEL_TYPE_BEC"
                    .into(),
            ))
        }
        other => {
            return Err(bad(
                "channel",
                format!("{} is not 'BEC' or 'AWGN'", cut_display(other)),
            ))
        }
    }
    let count = |i: usize, name: &str| {
        args[i]
            .index()
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| bad(name, format!("{} is not a count", cut_display(&*args[i]))))
    };
    let (n, k) = (count(2, "block_size")?, count(3, "num_info_bits")?);
    let snr = args[4].as_f64().ok_or_else(|| {
        bad(
            "design_snr",
            format!("{} is not a number", cut_display(&*args[4])),
        )
    })?;
    let positions = radioflow_library::fec::bec_frozen_positions(n, k, snr)
        .map_err(|(param, why)| bad(param, why))?;
    let values = vec![Value::Int(0); positions.len()];
    Ok(Value::List(vec![
        Value::List(
            positions
                .into_iter()
                .map(|p| Value::Int(p as i64))
                .collect(),
        ),
        Value::List(values),
    ]))
}

/// GNU Radio's functions making an LDPC matrix object, which the matrix encoders and the
/// bit-flip decoder take (its value here: GNU Radio's call, checked).
const MATRICES: &[&str] = &["fec.ldpc_H_matrix", "fec.ldpc_G_matrix"];

/// Parameters taking an LDPC matrix object.
const MATRIX_PARAMS: &[&str] = &["H_obj", "G_obj", "mtrx_obj"];

/// GNU Radio's `gr.prefix()`, which GRC files use to name the files GNU Radio installs (the
/// LDPC matrices under `share/gnuradio/fec/ldpc/`): as GNU Radio answers, the `GR_PREFIX`
/// environment variable where it is set, else `/usr`, where distributions install GNU Radio.
const PREFIX: &str = "gr.prefix";

/// Whether `name` is a function of this module.
pub(super) fn is_function(name: &str) -> bool {
    name == PREFIX || FUNCTIONS.iter().any(|(f, _)| *f == name)
}

/// An argument as GNU Radio's Python call writes it.
fn write_arg(name: &str, param: &str, v: &Value) -> Result<String> {
    Ok(match v {
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Constant(_) => v.to_string(),
        // An LDPC matrix object: its call as written (checked where it was made, and again by
        // the definition).
        Value::Str(text)
            if MATRIX_PARAMS.contains(&param)
                && MATRICES.iter().any(|m| text.starts_with(&format!("{m}("))) =>
        {
            text.clone()
        }
        // A file name: quoted as Python writes it, read back by the definition.
        Value::Str(text) if !text.contains(['\'', '"', '\\']) => format!("'{text}'"),
        Value::List(items) | Value::Array(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|x| write_arg(name, param, x))
                .collect::<Result<_>>()?;
            format!("[{}]", items.join(", "))
        }
        other => {
            return Err(ExprError::InvalidValue(format!(
                "{}: {param}: {} is not a number, list or constant",
                cut(name),
                cut_display(other)
            )))
        }
    })
}

/// `name(args)` for a function of this module ([`is_function`]): GNU Radio's call with the
/// arguments evaluated, as a string.
pub(super) fn call(name: &str, args: &[&Value], kwargs: &[(&str, &Value)]) -> Result<Value> {
    if name == PREFIX {
        if !args.is_empty() || !kwargs.is_empty() {
            return Err(ExprError::InvalidValue(
                "gr.prefix() takes no arguments".into(),
            ));
        }
        return Ok(Value::Str(
            std::env::var("GR_PREFIX").unwrap_or_else(|_| "/usr".to_owned()),
        ));
    }
    let params = FUNCTIONS
        .iter()
        .find(|(f, _)| *f == name)
        .map_or(&[][..], |(_, p)| *p);
    let a = super::args::bind(name, params, params.len(), args, kwargs, |_| None)?;
    if name == POLAR_CONFIG {
        return polar_config(&a);
    }
    let written: Vec<String> = a
        .iter()
        .zip(params)
        .map(|(v, p)| write_arg(name, p, v))
        .collect::<Result<_>>()?;
    let text = format!("{name}({})", written.join(", "));
    let invalid = |e: &dyn std::fmt::Display| ExprError::InvalidValue(cut_display(e).to_string());
    let canonical = if MATRICES.contains(&name) {
        radioflow_library::fec::parse_ldpc_matrix(&text)
            .map_err(|e| invalid(&e))?
            .to_string()
    } else if name.contains("_encoder") {
        text.parse::<EncoderDef>()
            .map_err(|e| invalid(&e))?
            .to_string()
    } else {
        text.parse::<DecoderDef>()
            .map_err(|e| invalid(&e))?
            .to_string()
    };
    Ok(Value::Str(canonical))
}

/// `dec.method()` on a decoder object (the string of its text form): GNU Radio's
/// `generic_decoder` methods `rate()` (data bits per code bit: `int(1.0 / hdr_dec.rate())` in
/// GNU Radio's packet examples), `get_input_size()` and `get_output_size()` (of a frame); `None`
/// if `text` is no decoder.
pub(super) fn method(text: &str, method: &str, args: &[&Value]) -> Option<Result<Value>> {
    let def = text.parse::<DecoderDef>().ok()?;
    if !args.is_empty() {
        return Some(Err(ExprError::InvalidValue(format!(
            "{}() takes no argument",
            cut(method)
        ))));
    }
    let decoder = match def.build() {
        Ok(d) => d,
        Err(e) => return Some(Err(ExprError::InvalidValue(e.to_string()))),
    };
    Some(match method {
        "rate" => Ok(Value::Float(decoder.rate())),
        "get_input_size" => Ok(Value::Int(decoder.input_size() as i64)),
        "get_output_size" => Ok(Value::Int(decoder.output_size() as i64)),
        other => Err(ExprError::Unsupported(format!(
            "a FEC decoder has no method {}() radioflow evaluates (it has rate(), \
             get_input_size(), get_output_size())",
            cut(other)
        ))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(id: &str, params: &[(&str, &str)]) -> Option<String> {
        let params = params
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        variable_value(id, &params)
    }

    #[test]
    fn each_variable_is_gnu_radios_call_with_grc_defaults() {
        assert_eq!(
            value("variable_cc_decoder_def", &[("framebits", "80"), ("mode", "fec.CC_TERMINATED")])
                .unwrap(),
            "fec.cc_decoder.make((80), (7), (2), ([79,109]), (0), (-1), (fec.CC_TERMINATED), (False))"
        );
        assert_eq!(
            value(
                "variable_repetition_encoder_def",
                &[("ndim", "1"), ("dim1", "4")]
            )
            .unwrap(),
            "fec.repetition_encoder_make((2048), (3))"
        );
        assert_eq!(value("variable", &[("value", "1")]), None);
        assert_eq!(
            value(
                "variable_ldpc_decoder_def",
                &[("file", "f"), ("max_iter", "20")]
            )
            .unwrap(),
            "fec.ldpc_decoder.make((f), (0.5), (20))"
        );
        assert_eq!(
            value("variable_ldpc_encoder_def", &[]).unwrap(),
            "fec.ldpc_encoder_make((''))"
        );
    }

    #[test]
    fn ldpc_calls_read_their_file_and_name_it_where_it_is_missing() {
        let prefix = call(PREFIX, &[], &[]).unwrap();
        let Value::Str(prefix) = prefix else {
            panic!("gr.prefix() is {prefix:?}")
        };
        assert!(!prefix.is_empty());
        let e = call(
            "fec.ldpc_encoder_make",
            &[&Value::Str("/nonexistent/x.alist".into())],
            &[],
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("alist_file") && e.contains("/nonexistent/x.alist"),
            "{e}"
        );
        let e = call("fec.ldpc_encoder_make", &[&Value::Str("a'b".into())], &[]).unwrap_err();
        assert!(e.to_string().contains("alist_file"), "{e}");
    }

    #[test]
    fn ldpc_matrix_objects_pass_into_their_encoders_and_decoder() {
        let file = Value::Str("/usr/share/gnuradio/fec/ldpc/n_0100_k_0042_gap_02.alist".into());
        if std::fs::metadata("/usr/share/gnuradio/fec/ldpc/n_0100_k_0042_gap_02.alist").is_err() {
            eprintln!("SKIPPED: GNU Radio's LDPC matrices are not installed");
            return;
        }
        let h = call("fec.ldpc_H_matrix", &[&file, &Value::Int(2)], &[]).unwrap();
        let enc = call("fec.ldpc_par_mtrx_encoder_make_H", &[&h], &[]).unwrap();
        let Value::Str(enc) = enc else {
            panic!("{enc:?}")
        };
        let enc: EncoderDef = enc.parse().unwrap();
        assert_eq!(enc.build().input_size(), 42);
        let dec = call(
            "fec.ldpc_bit_flip_decoder.make",
            &[&h, &Value::Int(100)],
            &[],
        )
        .unwrap();
        let Value::Str(dec) = dec else {
            panic!("{dec:?}")
        };
        let dec: DecoderDef = dec.parse().unwrap();
        assert_eq!(dec.build().unwrap().input_size(), 100);
        // An H matrix is not a generator matrix; a wrong gap is refused, naming it.
        let e = call("fec.ldpc_gen_mtrx_encoder_make", &[&h], &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("G_obj"), "{e}");
        let e = call("fec.ldpc_H_matrix", &[&file, &Value::Int(0)], &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("gap"), "{e}");
    }

    #[test]
    fn polar_variables_read_the_configurators_entries() {
        assert_eq!(
            value(
                "variable_polar_decoder_sc_list_def",
                &[
                    ("max_list_size", "8"),
                    ("block_size", "block_size"),
                    ("num_info_bits", "k"),
                    ("frozen_bit_positions", "polar_config['positions']"),
                    ("frozen_bit_values", "polar_config[\"values\"]"),
                ]
            )
            .unwrap(),
            "fec.polar_decoder_sc_list.make((8), (block_size), (k), ((polar_config)[0]), \
             ((polar_config)[1]))"
        );
        assert_eq!(
            value(
                "variable_polar_code_configurator",
                &[("channel", "polar.CHANNEL_TYPE_BEC"), ("block_size", "64")]
            )
            .unwrap(),
            "polar.load_frozen_bits_info(False, ('BEC'), (64), (16), (0.0), (16))"
        );
        let config = call(
            POLAR_CONFIG,
            &[
                &Value::Bool(false),
                &Value::Str("BEC".into()),
                &Value::Int(8),
                &Value::Int(4),
                &Value::Float(0.0),
                &Value::Int(32),
            ],
            &[],
        )
        .unwrap();
        let Value::List(parts) = config else {
            panic!("{config:?}")
        };
        let Value::List(positions) = &parts[0] else {
            panic!("{parts:?}")
        };
        assert_eq!(positions.len(), 4);
        let e = call(
            POLAR_CONFIG,
            &[
                &Value::Bool(false),
                &Value::Str("AWGN".into()),
                &Value::Int(8),
                &Value::Int(4),
                &Value::Float(0.0),
                &Value::Int(32),
            ],
            &[],
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("channel"), "{e}");
    }

    #[test]
    fn calls_are_checked_and_written_as_gnu_radio_writes_them() {
        let (i, l) = (Value::Int, |v: Vec<i64>| {
            Value::List(v.into_iter().map(Value::Int).collect())
        });
        let mode = Value::Constant("cc_tailbiting");
        let f = Value::Bool(false);
        let args = [&i(80), &i(7), &i(2), &l(vec![109, 79]), &i(0), &mode, &f];
        assert_eq!(
            call("fec.cc_encoder_make", &args, &[]).unwrap().to_string(),
            "'fec.cc_encoder_make(80, 7, 2, [109, 79], 0, fec.CC_TAILBITING, False)'"
        );
        let args = [
            &i(80),
            &i(5),
            &i(2),
            &l(vec![19, 29]),
            &i(0),
            &i(-1),
            &mode,
            &f,
        ];
        let e = call("fec.cc_decoder.make", &args, &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("fec.cc_decoder.make: k:"), "{e}");
    }
}
