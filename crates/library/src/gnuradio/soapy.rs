//! Rows for GNU Radio's gr-soapy custom device blocks (`soapy_custom_source`,
//! `soapy_custom_sink`): radioflow-interop's `soapy_source` / `soapy_sink` on one channel of
//! CF32 samples. GRC's template makes the block and then calls its setters in a fixed order
//! (rate, bandwidth, antenna, frequency, frequency correction, gain mode, gain, DC offset
//! mode, DC offset, IQ balance); the rate, antenna, frequency and gain are the block's
//! parameters, the rest become the command dicts it carries out when the device is opened,
//! with gr-soapy's rules (a zero DC offset or IQ balance on a device without that correction
//! is none; automatic gain or DC removal on one without is an error).

use super::common::{is_one, no_effect, no_ty, only, param, ty};
use super::table::{GrBlock, Mapped};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// Empty text (GRC's default for the stream, tune and settings arguments).
fn is_empty_text(v: &Pmt) -> bool {
    v.as_symbol().is_some_and(|s| s.trim().is_empty())
}

fn is_zero_number(v: &Pmt) -> bool {
    v.as_f64() == Some(0.0)
}

const CHANNEL_1: &str = "a second channel's setting: nchan is 1 (GRC hides it)";

/// The device arguments as gr-soapy joins them (`driver=` + driver, then the device
/// arguments), and the start's command dicts from the `_` parameters.
fn device(m: &mut Mapped) -> Result<(), String> {
    let text = |m: &Mapped, name: &str| -> Result<String, String> {
        match m.param(name) {
            None => Ok(String::new()),
            Some(v) => v
                .as_symbol()
                .map(str::to_owned)
                .ok_or_else(|| format!("{}: {v} is not text", &name[1..])),
        }
    };
    let driver = text(m, "_driver")?;
    let dev_args = text(m, "_dev_args")?;
    let mut args = format!("driver={}", driver.trim());
    if !dev_args.trim().is_empty() {
        args.push(',');
        args.push_str(dev_args.trim());
    }
    let mut commands = Vec::new();
    let mut command = |key: &str, value: Pmt| {
        commands.push(Pmt::dict_from([(Pmt::symbol(key), value)]));
    };
    for (grc, key) in [
        ("_bandwidth", "bandwidth"),
        ("_dc_removal", "dc_offset_mode"),
        ("_dc_offset", "dc_offset"),
        ("_iq_balance", "iq_bal"),
    ] {
        if let Some(v) = m.param(grc) {
            command(key, v.clone());
        }
    }
    m.params.retain(|(k, _)| !k.starts_with('_'));
    m.params
        .push(("args".to_owned(), Pmt::symbol(args.as_str())));
    m.params
        .push(("commands".to_owned(), Pmt::Vector(commands.into())));
    Ok(())
}

/// The sink: no automatic gain in GRC's definition (its template sets the gain only).
fn sink_device(m: &mut Mapped) -> Result<(), String> {
    device(m)?;
    m.params.push(("agc".to_owned(), Pmt::Bool(false)));
    Ok(())
}

const TYPES: &[super::table::GrType] = &[
    ty("fc32", Dtype::Complex32),
    no_ty(
        "sc16",
        "radioflow's soapy blocks stream CF32 (complex64) only: convert after the source",
    ),
    no_ty(
        "sc8",
        "radioflow's soapy blocks stream CF32 (complex64) only: convert after the source",
    ),
];

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "soapy_custom_source",
        make: "Nonedev='driver='+{driver}",
        block: "soapy_source",
        types: TYPES,
        params: &[
            param("driver", "_driver"),
            param("dev_args", "_dev_args"),
            only(
                "nchan",
                is_one,
                "one channel: radioflow's soapy_source streams one",
            ),
            only(
                "stream_args",
                is_empty_text,
                "radioflow opens the stream without stream arguments",
            ),
            param("samp_rate", "sample_rate"),
            only(
                "tune_args0",
                is_empty_text,
                "radioflow tunes without tune arguments",
            ),
            only(
                "settings0",
                is_empty_text,
                "radioflow writes no channel settings at the start (send cmd {setting: ...})",
            ),
            param("bandwidth0", "_bandwidth"),
            param("antenna0", "antenna"),
            param("center_freq0", "frequency"),
            only(
                "freq_correction0",
                is_zero_number,
                "the soapysdr crate radioflow uses has no frequency correction call",
            ),
            param("agc0", "agc"),
            param("gain0", "gain"),
            param("dc_removal0", "_dc_removal"),
            param("dc_offset0", "_dc_offset"),
            param("iq_balance0", "_iq_balance"),
            no_effect("tune_args1", CHANNEL_1),
            no_effect("settings1", CHANNEL_1),
            no_effect("bandwidth1", CHANNEL_1),
            no_effect("antenna1", CHANNEL_1),
            no_effect("center_freq1", CHANNEL_1),
            no_effect("freq_correction1", CHANNEL_1),
            no_effect("agc1", CHANNEL_1),
            no_effect("gain1", CHANNEL_1),
            no_effect("dc_removal1", CHANNEL_1),
            no_effect("dc_offset1", CHANNEL_1),
            no_effect("iq_balance1", CHANNEL_1),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(device),
    },
    GrBlock {
        id: "soapy_custom_sink",
        make: "Nonedev='driver='+{driver}",
        block: "soapy_sink",
        types: TYPES,
        params: &[
            param("driver", "_driver"),
            param("dev_args", "_dev_args"),
            only(
                "nchan",
                is_one,
                "one channel: radioflow's soapy_sink sends one",
            ),
            only(
                "stream_args",
                is_empty_text,
                "radioflow opens the stream without stream arguments",
            ),
            param("samp_rate", "sample_rate"),
            only(
                "tune_args0",
                is_empty_text,
                "radioflow tunes without tune arguments",
            ),
            only(
                "settings0",
                is_empty_text,
                "radioflow writes no channel settings at the start (send cmd {setting: ...})",
            ),
            param("bandwidth0", "_bandwidth"),
            param("antenna0", "antenna"),
            param("center_freq0", "frequency"),
            only(
                "freq_correction0",
                is_zero_number,
                "the soapysdr crate radioflow uses has no frequency correction call",
            ),
            param("gain0", "gain"),
            param("dc_offset0", "_dc_offset"),
            param("iq_balance0", "_iq_balance"),
            no_effect("tune_args1", CHANNEL_1),
            no_effect("settings1", CHANNEL_1),
            no_effect("bandwidth1", CHANNEL_1),
            no_effect("antenna1", CHANNEL_1),
            no_effect("center_freq1", CHANNEL_1),
            no_effect("freq_correction1", CHANNEL_1),
            no_effect("gain1", CHANNEL_1),
            no_effect("dc_offset1", CHANNEL_1),
            no_effect("iq_balance1", CHANNEL_1),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(sink_device),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_device_arguments_and_the_start_s_commands_are_gr_soapy_s() {
        let mut m = Mapped {
            block: "soapy_source",
            dtype: Some(Dtype::Complex32),
            params: vec![
                ("_driver".to_owned(), Pmt::symbol("hackrf")),
                ("_dev_args".to_owned(), Pmt::symbol("serial=1234")),
                ("_bandwidth".to_owned(), Pmt::Double(0.0)),
                ("_dc_removal".to_owned(), Pmt::Bool(true)),
                ("_dc_offset".to_owned(), Pmt::Int(0)),
                ("_iq_balance".to_owned(), Pmt::Int(0)),
                ("frequency".to_owned(), Pmt::Double(100e6)),
            ],
            notes: Vec::new(),
        };
        device(&mut m).unwrap();
        let dict = |k: &str, v: Pmt| Pmt::dict_from([(Pmt::symbol(k), v)]);
        assert_eq!(
            m.params,
            vec![
                ("frequency".to_owned(), Pmt::Double(100e6)),
                ("args".to_owned(), Pmt::symbol("driver=hackrf,serial=1234")),
                (
                    "commands".to_owned(),
                    Pmt::Vector(
                        vec![
                            dict("bandwidth", Pmt::Double(0.0)),
                            dict("dc_offset_mode", Pmt::Bool(true)),
                            dict("dc_offset", Pmt::Int(0)),
                            dict("iq_bal", Pmt::Int(0)),
                        ]
                        .into()
                    )
                ),
            ]
        );
        m.params = vec![("_driver".to_owned(), Pmt::Int(3))];
        assert_eq!(device(&mut m).unwrap_err(), "driver: 3 is not text");
    }
}
