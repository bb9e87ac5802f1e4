//! Rows for GNU Radio's UHD device blocks (`uhd_usrp_source`, `uhd_usrp_sink`): radioflow-interop's
//! `soapy_source` / `soapy_sink` on SoapySDR's `uhd` driver (SoapyUHD, Debian's
//! `soapysdr0.8-module-uhd`), one or two channels of CF32 samples in one stream (channel 1's
//! settings as start commands naming it).
//!
//! GRC's template makes `uhd.usrp_source(",".join((dev_addr, dev_args[, master_clock_rate])),
//! stream_args)` and then sets, in order: each motherboard's clock source, time source and
//! subdevice spec, the time (`sync`), and per channel the centre frequency (a number or a
//! `uhd.tune_request(freq, lo_offset)`), antenna, bandwidth, automatic gain, gain (dB or
//! normalized), DC offset and IQ balance corrections. Here the device arguments are
//! `driver=uhd,` followed by GRC's joined string (SoapyUHD hands them to UHD), the frequency,
//! gain and antenna are the block's parameters, the LO offset is SoapySDR's `OFFSET` tune
//! argument, and the rest are the start's command dicts (`clock_src`, `time_src`,
//! `frontend_mapping` for the subdevice spec, `time_sync`, `bandwidth`, `gain_mode`,
//! `normalized_gain`, `dc_offset_mode`, `dc_offset`, `iq_bal`). The `command` message input
//! takes gr-uhd's dicts (`freq`, `lo_offset`, `gain`, `antenna`, `rate`, `bandwidth`, `chan`).
//!
//! What SoapySDR does not express is refused by name: more than two channels, several
//! motherboards, a
//! timed start, GPS time, the power reference gain, LO source and export, automatic IQ
//! balance, the wire format and stream arguments, length-tagged bursts, sc16 and item32 items.

use super::common::{is_empty_list, is_false, is_one, no_effect, no_ty, only, param, ty};
use super::soapy::{on_channel, text};
use super::table::{GrBlock, GrParam, GrType, Mapped, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

const BEYOND_NCHAN: &str = "a setting of a channel beyond nchan (GRC's template sets only the \
                            first nchan channels; nchan must be 1 or 2 here)";
const BEYOND_MBOARDS: &str = "a setting of a motherboard beyond num_mboards (GRC's template sets \
                              only the first num_mboards; num_mboards must be 1 here)";
const LO_CONTROLS: &str = "GRC's template sets it only with show_lo_controls, which is refused \
                           (SoapySDR has no LO source or export)";

/// The parameters of channels 1..31 or motherboards 1..7 (GRC's definition lists 32 and 8),
/// each without effect: `numbered!([fixed params,] WHY [keys] [numbers] ...)` is one array.
macro_rules! numbered {
    ([$($acc:expr,)*]) => { [$($acc,)*] };
    ([$($acc:expr,)*] $why:ident [$($key:literal),*] [] $($more:tt)*) => {
        numbered!([$($acc,)*] $($more)*)
    };
    ([$($acc:expr,)*] $why:ident [$($key:literal),*] [$n:literal $($rest:literal)*] $($more:tt)*) => {
        numbered!(
            [$($acc,)* $(no_effect(concat!($key, $n), $why),)*]
            $why [$($key),*] [$($rest)*] $($more)*
        )
    };
}

fn is_empty_text(v: &Pmt) -> bool {
    v.as_symbol().is_some_and(|s| s.trim().is_empty())
}

/// `-1.0`, GRC's "Default" start time (no timed start).
fn is_no_start_time(v: &Pmt) -> bool {
    v.as_f64().is_some_and(|t| t < 0.0)
}

/// `[]` (every channel up to nchan) or `[0, 1, ...]` (the same written out).
fn is_first_channels(v: &Pmt) -> bool {
    is_empty_list(v)
        || matches!(v, Pmt::Vector(items) | Pmt::Tuple(items)
            if items.iter().enumerate().all(|(i, c)| c.as_f64() == Some(i as f64)))
}

/// An enum's option as the loader passes it, with GRC's default (`''`, `""` in older files)
/// read as `default`.
fn word(m: &Mapped, name: &str) -> Result<String, String> {
    let w = text(m, name)?;
    let w = w.trim().trim_matches('"').trim_matches('\'');
    Ok(if w.is_empty() {
        "default".to_owned()
    } else {
        w.to_owned()
    })
}

const TYPES: &[GrType] = &[
    ty("fc32", Dtype::Complex32),
    no_ty(
        "sc16",
        "radioflow's soapy blocks stream CF32 (complex64) only: use fc32 and convert",
    ),
    no_ty(
        "item32",
        "radioflow's soapy blocks stream CF32 (complex64) only, not UHD's raw VITA words",
    ),
];

/// What both blocks share, before the per-channel parameters.
macro_rules! common_params {
    ($what:literal) => {
        [
            only(
                "otw",
                is_empty_text,
                "radioflow lets SoapyUHD choose the wire format (Automatic)",
            ),
            only(
                "stream_args",
                is_empty_text,
                "radioflow opens the stream without stream arguments",
            ),
            only(
                "stream_chans",
                is_first_channels,
                concat!(
                    "radioflow's ",
                    $what,
                    " streams channels 0 to nchan - 1 (stream_chans [] or those)"
                ),
            ),
            param("dev_addr", "_dev_addr"),
            param("dev_args", "_dev_args"),
            GrParam {
                key: "sync",
                to: To::Word("_sync"),
            },
            only(
                "start_time",
                is_no_start_time,
                "radioflow starts the stream when the graph starts, not at a device time",
            ),
            param("clock_rate", "_clock_rate"),
            only(
                "num_mboards",
                is_one,
                "one motherboard: SoapySDR's clock and time sources have no motherboard index",
            ),
            param("clock_source0", "_clock_source"),
            param("time_source0", "_time_source"),
            param("sd_spec0", "_sd_spec"),
            param("nchan", "nchan"),
            param("samp_rate", "sample_rate"),
            param("center_freq0", "frequency"),
            param("gain0", "gain"),
            GrParam {
                key: "gain_type0",
                to: To::Word("_gain_type"),
            },
            param("ant0", "antenna"),
            param("bw0", "_bandwidth"),
            no_effect("lo_source0", LO_CONTROLS),
            no_effect("lo_export0", LO_CONTROLS),
            only(
                "show_lo_controls",
                is_false,
                "SoapySDR has no LO source or LO export (UHD's set_lo_source, \
                 set_lo_export_enabled)",
            ),
        ]
    };
}

const SOURCE_COMMON: [GrParam; 22] = common_params!("soapy_source");
const SINK_COMMON: [GrParam; 22] = common_params!("soapy_sink");

const fn cat<const A: usize, const B: usize, const N: usize>(
    a: [GrParam; A],
    b: [GrParam; B],
) -> [GrParam; N] {
    assert!(A + B == N);
    let mut out = [a[0]; N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

static SOURCE_PARAMS: [GrParam; 420] = cat(
    SOURCE_COMMON,
    numbered!(
        [
            GrParam { key: "rx_agc0", to: To::Param("_rx_agc") },
            GrParam { key: "dc_offs_enb0", to: To::Word("_dc_offs_enb") },
            param("dc_offs0", "_dc_offs"),
            GrParam { key: "iq_imbal_enb0", to: To::Word("_iq_imbal_enb") },
            param("iq_imbal0", "_iq_imbal"),
            param("center_freq1", "_center_freq1"),
            param("rx_agc1", "_rx_agc1"),
            param("gain1", "_gain1"),
            GrParam { key: "gain_type1", to: To::Word("_gain_type1") },
            param("ant1", "_ant1"),
            param("bw1", "_bw1"),
            no_effect("lo_source1", LO_CONTROLS),
            no_effect("lo_export1", LO_CONTROLS),
            GrParam { key: "dc_offs_enb1", to: To::Word("_dc_offs_enb1") },
            param("dc_offs1", "_dc_offs1"),
            GrParam { key: "iq_imbal_enb1", to: To::Word("_iq_imbal_enb1") },
            param("iq_imbal1", "_iq_imbal1"),
        ]
        BEYOND_NCHAN
        [
            "center_freq", "rx_agc", "gain", "gain_type", "ant", "bw", "lo_source",
            "lo_export", "dc_offs_enb", "dc_offs", "iq_imbal_enb", "iq_imbal"
        ]
        [2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31]
        BEYOND_MBOARDS
        ["clock_source", "time_source", "sd_spec"]
        [1 2 3 4 5 6 7]
    ),
);

static SINK_PARAMS: [GrParam; 261] = cat(
    SINK_COMMON,
    numbered!(
        [
            only(
                "len_tag_name",
                is_empty_text,
                "radioflow's soapy_sink sends one burst, ended with the stream; no length tags",
            ),
            param("center_freq1", "_center_freq1"),
            param("gain1", "_gain1"),
            GrParam { key: "gain_type1", to: To::Word("_gain_type1") },
            param("ant1", "_ant1"),
            param("bw1", "_bw1"),
            no_effect("lo_source1", LO_CONTROLS),
            no_effect("lo_export1", LO_CONTROLS),
        ]
        BEYOND_NCHAN
        ["center_freq", "gain", "gain_type", "ant", "bw", "lo_source", "lo_export"]
        [2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31]
        BEYOND_MBOARDS
        ["clock_source", "time_source", "sd_spec"]
        [1 2 3 4 5 6 7]
    ),
);

/// The block's parameters and start commands from GRC's, as gr-uhd's template sets them.
fn usrp(m: &mut Mapped, rx: bool) -> Result<(), String> {
    let mut commands = Vec::new();
    let mut command = |key: &str, value: Pmt| {
        commands.push(Pmt::dict_from([(Pmt::symbol(key), value)]));
    };
    // ",".join((dev_addr, dev_args[, "master_clock_rate=..."])) after SoapySDR's driver.
    // (UHD skips the empty parts of the string, so they are left out here.)
    let mut parts = vec![
        "driver=uhd".to_owned(),
        text(m, "_dev_addr")?,
        text(m, "_dev_args")?,
    ];
    if let Some(rate) = m.param("_clock_rate").and_then(Pmt::as_f64)
        && rate != 0.0
    {
        parts.push(format!("master_clock_rate={rate}"));
    }
    parts.retain(|p| !p.trim().is_empty());
    let args = parts.join(",");
    for (grc, key) in [
        ("_clock_source", "clock_src"),
        ("_time_source", "time_src"),
        ("_sd_spec", "frontend_mapping"),
    ] {
        let v = text(m, grc)?;
        if !v.trim().is_empty() {
            command(key, Pmt::symbol(v.trim()));
        }
    }
    match word(m, "_sync")?.as_str() {
        "sync" => command("time_sync", Pmt::symbol("unknown_pps")),
        "pc_clock" => command("time_sync", Pmt::symbol("pc_clock")),
        "pc_clock_next_pps" => command("time_sync", Pmt::symbol("pc_clock_next_pps")),
        "none" | "default" => {}
        "gps_time" => {
            return Err(
                "sync = gps_time: radioflow does not read the GPSDO's time (UHD's gps_time \
                 sensor) to set the device's; use Unknown PPS, PC Clock or No Sync"
                    .into(),
            );
        }
        other => return Err(format!("sync: unknown option {other}")),
    }
    // uhd.tune_request(freq, lo_offset): the frequency, and the offset as a start command.
    if let Some(tune) = m.param("frequency").filter(|v| v.is_dict()).cloned() {
        let freq = tune.dict_get("freq").and_then(Pmt::as_f64);
        let lo = tune.dict_get("lo_offset").and_then(Pmt::as_f64);
        let (Some(freq), Some(lo)) = (freq, lo) else {
            return Err(format!(
                "center_freq0: {tune} is not a number or a tune request"
            ));
        };
        if lo != 0.0 {
            command("lo_offset", Pmt::Double(lo));
        }
        m.params.retain(|(k, _)| k != "frequency");
        m.params.push(("frequency".to_owned(), Pmt::Double(freq)));
    }
    if let Some(bw) = m.param("_bandwidth").and_then(Pmt::as_f64)
        && bw != 0.0
    {
        command("bandwidth", Pmt::Double(bw));
    }
    let agc = if rx {
        text(m, "_rx_agc")?
    } else {
        String::new()
    };
    let gain = m.param("gain").cloned().unwrap_or(Pmt::Int(0));
    // With automatic gain enabled, GRC's template sets no gain.
    let (agc_on, gain) = match (agc.as_str(), word(m, "_gain_type")?.as_str()) {
        ("Enabled", _) => (true, Pmt::Int(0)),
        ("Default" | "Disabled" | "", "default") => (false, gain),
        ("Default" | "Disabled" | "", "normalized") => {
            command("normalized_gain", gain);
            (false, Pmt::Int(0))
        }
        (_, "power") => {
            return Err(
                "gain_type0 = power: SoapySDR has no power reference (UHD's \
                 set_power_reference); give the gain in dB or normalized"
                    .into(),
            );
        }
        ("Default" | "Disabled" | "", other) => {
            return Err(format!("gain_type0: unknown option {other}"));
        }
        (other, _) => return Err(format!("rx_agc0: unknown option {other}")),
    };
    if rx {
        match word(m, "_dc_offs_enb")?.as_str() {
            "default" => {}
            "auto" => command("dc_offset_mode", Pmt::Bool(true)),
            "disabled" => command("dc_offset_mode", Pmt::Bool(false)),
            "manual" => command(
                "dc_offset",
                m.param("_dc_offs").cloned().unwrap_or(Pmt::Int(0)),
            ),
            other => return Err(format!("dc_offs_enb0: unknown option {other}")),
        }
        match word(m, "_iq_imbal_enb")?.as_str() {
            "default" => {}
            "manual" => command(
                "iq_bal",
                m.param("_iq_imbal").cloned().unwrap_or(Pmt::Int(0)),
            ),
            "auto" | "disabled" => {
                return Err(
                    "iq_imbal_enb0: the soapysdr crate radioflow uses has no automatic IQ \
                     balance switch (SoapySDR's setIQBalanceMode); use Default or Manual"
                        .into(),
                );
            }
            other => return Err(format!("iq_imbal_enb0: unknown option {other}")),
        }
    }
    let nchan = m.param("nchan").and_then(Pmt::as_f64).unwrap_or(1.0);
    if nchan == 2.0 {
        // Channel 0's commands are its own; channel 1's follow, as GRC's template sets it.
        on_channel(&mut commands, 0);
        commands.extend(channel_one(m, rx)?);
    } else if nchan != 1.0 {
        return Err(format!(
            "nchan: {nchan}: radioflow maps one or two channels of GRC's UHD blocks"
        ));
    }
    m.params.retain(|(k, _)| !k.starts_with('_') && k != "gain");
    m.params
        .push(("args".to_owned(), Pmt::symbol(args.as_str())));
    m.params.push(("agc".to_owned(), Pmt::Bool(agc_on)));
    m.params.push(("gain".to_owned(), gain));
    m.params
        .push(("commands".to_owned(), Pmt::Vector(commands.into())));
    Ok(())
}

/// Channel 1's settings (where nchan is 2) as start commands naming it, as GRC's template sets
/// them: the frequency (with the tune request's LO offset), antenna, bandwidth, automatic
/// gain or the gain (dB or normalized), the DC offset and IQ balance corrections.
fn channel_one(m: &Mapped, rx: bool) -> Result<Vec<Pmt>, String> {
    let mut commands = Vec::new();
    let mut command = |entries: Vec<(&str, Pmt)>| {
        let mut all = vec![("chan", Pmt::Int(1))];
        all.extend(entries);
        commands.push(Pmt::dict_from(
            all.into_iter().map(|(k, v)| (Pmt::symbol(k), v)),
        ));
    };
    match m.param("_center_freq1") {
        Some(tune) if tune.is_dict() => {
            let freq = tune.dict_get("freq").cloned();
            let lo = tune.dict_get("lo_offset").cloned();
            let (Some(freq), Some(lo)) = (freq, lo) else {
                return Err(format!(
                    "center_freq1: {tune} is not a number or a tune request"
                ));
            };
            command(vec![("freq", freq), ("lo_offset", lo)]);
        }
        Some(freq) => command(vec![("freq", freq.clone())]),
        None => {}
    }
    let ant = text(m, "_ant1")?;
    if !ant.trim().is_empty() {
        command(vec![("antenna", Pmt::symbol(ant.trim()))]);
    }
    if let Some(bw) = m.param("_bw1").and_then(Pmt::as_f64)
        && bw != 0.0
    {
        command(vec![("bandwidth", Pmt::Double(bw))]);
    }
    let agc = if rx {
        text(m, "_rx_agc1")?
    } else {
        String::new()
    };
    let gain = m.param("_gain1").cloned().unwrap_or(Pmt::Int(0));
    match (agc.as_str(), word(m, "_gain_type1")?.as_str()) {
        ("Enabled", _) => command(vec![("gain_mode", Pmt::Bool(true))]),
        ("Default" | "Disabled" | "", "default") => command(vec![("gain", gain)]),
        ("Default" | "Disabled" | "", "normalized") => {
            command(vec![("normalized_gain", gain)]);
        }
        (_, "power") => {
            return Err(
                "gain_type1 = power: SoapySDR has no power reference (UHD's \
                        set_power_reference); give the gain in dB or normalized"
                    .into(),
            );
        }
        ("Default" | "Disabled" | "", other) => {
            return Err(format!("gain_type1: unknown option {other}"));
        }
        (other, _) => return Err(format!("rx_agc1: unknown option {other}")),
    }
    if rx {
        match word(m, "_dc_offs_enb1")?.as_str() {
            "default" => {}
            "auto" => command(vec![("dc_offset_mode", Pmt::Bool(true))]),
            "disabled" => command(vec![("dc_offset_mode", Pmt::Bool(false))]),
            "manual" => command(vec![(
                "dc_offset",
                m.param("_dc_offs1").cloned().unwrap_or(Pmt::Int(0)),
            )]),
            other => return Err(format!("dc_offs_enb1: unknown option {other}")),
        }
        match word(m, "_iq_imbal_enb1")?.as_str() {
            "default" => {}
            "manual" => command(vec![(
                "iq_bal",
                m.param("_iq_imbal1").cloned().unwrap_or(Pmt::Int(0)),
            )]),
            "auto" | "disabled" => {
                return Err(
                    "iq_imbal_enb1: the soapysdr crate radioflow uses has no automatic \
                            IQ balance switch (SoapySDR's setIQBalanceMode); use Default or \
                            Manual"
                        .into(),
                );
            }
            other => return Err(format!("iq_imbal_enb1: unknown option {other}")),
        }
    }
    Ok(commands)
}

fn source(m: &mut Mapped) -> Result<(), String> {
    usrp(m, true)
}

fn sink(m: &mut Mapped) -> Result<(), String> {
    usrp(m, false)
}

pub(crate) const ROWS: &[GrBlock] = &[
    GrBlock {
        id: "uhd_usrp_source",
        make: "uhd.usrp_source(",
        block: "soapy_source",
        types: TYPES,
        params: &SOURCE_PARAMS,
        fixed: &[],
        extra: &[],
        choose: Some(source),
    },
    GrBlock {
        id: "uhd_usrp_sink",
        make: "uhd.usrp_sink(",
        block: "soapy_sink",
        types: TYPES,
        params: &SINK_PARAMS,
        fixed: &[],
        extra: &[],
        choose: Some(sink),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn mapped(params: &[(&str, Pmt)]) -> Mapped {
        Mapped {
            block: "soapy_source",
            dtype: Some(Dtype::Complex32),
            params: params
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
            notes: Vec::new(),
        }
    }

    fn dict(entries: &[(&str, Pmt)]) -> Pmt {
        Pmt::dict_from(entries.iter().map(|(k, v)| (Pmt::symbol(*k), v.clone())))
    }

    fn commands(m: &Mapped) -> Vec<Pmt> {
        match m.param("commands") {
            Some(Pmt::Vector(v)) => v.to_vec(),
            other => panic!("commands: {other:?}"),
        }
    }

    #[test]
    fn gnu_radio_s_uhd_packet_rx_settings_become_soapy_uhd_s() {
        // digital/packet/uhd_packet_rx.grc: an N210 at addr=192.168.10.2 with its GPSDO,
        // tuned with tune_request(freq, samp_rate/2), antenna TX/RX.
        let mut m = mapped(&[
            ("_dev_addr", Pmt::symbol("addr=192.168.10.2")),
            ("_dev_args", Pmt::symbol("")),
            ("_sync", Pmt::symbol("sync")),
            ("_clock_rate", Pmt::Double(0.0)),
            ("_clock_source", Pmt::symbol("gpsdo")),
            ("_time_source", Pmt::symbol("gpsdo")),
            ("_sd_spec", Pmt::symbol("")),
            ("sample_rate", Pmt::Double(1e6)),
            (
                "frequency",
                dict(&[
                    ("freq", Pmt::Double(915e6)),
                    ("lo_offset", Pmt::Double(0.5e6)),
                ]),
            ),
            ("_rx_agc", Pmt::symbol("Default")),
            ("gain", Pmt::Double(15.0)),
            ("_gain_type", Pmt::symbol("default")),
            ("antenna", Pmt::symbol("TX/RX")),
            ("_bandwidth", Pmt::Double(0.0)),
            ("_dc_offs_enb", Pmt::symbol("\"\"")),
            ("_iq_imbal_enb", Pmt::symbol("\"\"")),
        ]);
        source(&mut m).unwrap();
        assert_eq!(
            m.param("args"),
            Some(&Pmt::symbol("driver=uhd,addr=192.168.10.2"))
        );
        assert_eq!(m.param("frequency"), Some(&Pmt::Double(915e6)));
        assert_eq!(m.param("gain"), Some(&Pmt::Double(15.0)));
        assert_eq!(m.param("agc"), Some(&Pmt::Bool(false)));
        assert_eq!(m.param("antenna"), Some(&Pmt::symbol("TX/RX")));
        assert_eq!(
            commands(&m),
            vec![
                dict(&[("clock_src", Pmt::symbol("gpsdo"))]),
                dict(&[("time_src", Pmt::symbol("gpsdo"))]),
                dict(&[("time_sync", Pmt::symbol("unknown_pps"))]),
                dict(&[("lo_offset", Pmt::Double(0.5e6))]),
            ]
        );
    }

    #[test]
    fn clock_rate_subdevice_normalized_gain_and_corrections() {
        let mut m = mapped(&[
            ("_dev_addr", Pmt::symbol("type=b200")),
            ("_dev_args", Pmt::symbol("serial=F00")),
            ("_sync", Pmt::symbol("pc_clock")),
            ("_clock_rate", Pmt::Double(30.72e6)),
            ("_sd_spec", Pmt::symbol("A:B")),
            ("frequency", Pmt::Double(1e9)),
            ("_rx_agc", Pmt::symbol("Disabled")),
            ("gain", Pmt::Double(0.65)),
            ("_gain_type", Pmt::symbol("normalized")),
            ("_bandwidth", Pmt::Double(20e6)),
            ("_dc_offs_enb", Pmt::symbol("manual")),
            ("_dc_offs", Pmt::Double(0.25)),
            ("_iq_imbal_enb", Pmt::symbol("manual")),
            ("_iq_imbal", Pmt::Double(-0.5)),
        ]);
        source(&mut m).unwrap();
        assert_eq!(
            m.param("args"),
            Some(&Pmt::symbol(
                "driver=uhd,type=b200,serial=F00,master_clock_rate=30720000"
            ))
        );
        assert_eq!(m.param("gain"), Some(&Pmt::Int(0)));
        assert_eq!(
            commands(&m),
            vec![
                dict(&[("frontend_mapping", Pmt::symbol("A:B"))]),
                dict(&[("time_sync", Pmt::symbol("pc_clock"))]),
                dict(&[("bandwidth", Pmt::Double(20e6))]),
                dict(&[("normalized_gain", Pmt::Double(0.65))]),
                dict(&[("dc_offset", Pmt::Double(0.25))]),
                dict(&[("iq_bal", Pmt::Double(-0.5))]),
            ]
        );
        // Automatic gain enabled: no gain set (GRC's template), AGC on.
        let mut m = mapped(&[
            ("_rx_agc", Pmt::symbol("Enabled")),
            ("gain", Pmt::Double(30.0)),
            ("_sync", Pmt::symbol("none")),
            ("_dc_offs_enb", Pmt::symbol("auto")),
        ]);
        source(&mut m).unwrap();
        assert_eq!(m.param("agc"), Some(&Pmt::Bool(true)));
        assert_eq!(
            commands(&m),
            vec![dict(&[("dc_offset_mode", Pmt::Bool(true))])]
        );
    }

    #[test]
    fn what_soapysdr_cannot_express_is_refused_saying_why() {
        for (params, starts) in [
            (vec![("_sync", Pmt::symbol("gps_time"))], "sync = gps_time"),
            (
                vec![("_gain_type", Pmt::symbol("power"))],
                "gain_type0 = power",
            ),
            (
                vec![("_iq_imbal_enb", Pmt::symbol("auto"))],
                "iq_imbal_enb0: ",
            ),
        ] {
            let mut m = mapped(&params);
            let e = source(&mut m).unwrap_err();
            assert!(e.starts_with(starts), "{e}");
        }
        // More than two channels are not mapped.
        let mut m = mapped(&[("nchan", Pmt::Int(3))]);
        assert!(source(&mut m).unwrap_err().starts_with("nchan: 3: "));
        // The sink has no automatic gain or corrections in GRC's definition.
        let mut m = mapped(&[("gain", Pmt::Int(10)), ("_sync", Pmt::symbol("sync"))]);
        sink(&mut m).unwrap();
        assert_eq!(m.param("agc"), Some(&Pmt::Bool(false)));
        assert_eq!(m.param("gain"), Some(&Pmt::Int(10)));
    }
}
