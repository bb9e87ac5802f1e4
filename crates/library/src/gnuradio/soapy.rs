//! Rows for GNU Radio's gr-soapy device blocks (`soapy_custom_source`, `soapy_custom_sink`,
//! and the older `soapy_source` with its per-radio gain fields): radioflow-interop's `soapy_source` / `soapy_sink` on one channel of
//! CF32 samples (two for `soapy_custom_*` with `nchan` 2, channel 1's settings as start
//! commands naming it). GRC's template makes the block and then calls its setters in a fixed order
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
pub(super) fn is_empty_text(v: &Pmt) -> bool {
    v.as_symbol().is_some_and(|s| s.trim().is_empty())
}

pub(super) fn is_zero_number(v: &Pmt) -> bool {
    v.as_f64() == Some(0.0)
}

/// The text of `_` parameter `name` (empty where not given).
pub(super) fn text(m: &Mapped, name: &str) -> Result<String, String> {
    match m.param(name) {
        None => Ok(String::new()),
        Some(v) => v
            .as_symbol()
            .map(str::to_owned)
            .ok_or_else(|| format!("{}: {v} is not text", &name[1..])),
    }
}

/// The device arguments as gr-soapy joins the device and the extra arguments.
pub(super) fn joined(device: String, dev_args: &str) -> String {
    let mut args = device;
    if !dev_args.trim().is_empty() {
        args.push(',');
        args.push_str(dev_args.trim());
    }
    args
}

const CHANNEL_1: &str = "a second channel's setting: nchan is 1 (GRC hides it)";

/// The device arguments as gr-soapy joins them (`driver=` + driver, then the device
/// arguments), and the start's command dicts from the `_` parameters.
fn device(m: &mut Mapped) -> Result<(), String> {
    let driver = text(m, "_driver")?;
    let args = joined(format!("driver={}", driver.trim()), &text(m, "_dev_args")?);
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
    let second = second_channel(m)?;
    if !second.is_empty() {
        // With two channels, channel 0's commands are its own (GRC's template sets them on
        // channel 0).
        on_channel(&mut commands, 0);
    }
    commands.extend(second);
    m.params.retain(|(k, _)| !k.starts_with('_'));
    m.params
        .push(("args".to_owned(), Pmt::symbol(args.as_str())));
    m.params
        .push(("commands".to_owned(), Pmt::Vector(commands.into())));
    Ok(())
}

/// Each command dict of `commands` for device channel `chan` only (its `chan` key).
pub(super) fn on_channel(commands: &mut [Pmt], chan: i64) {
    for c in commands {
        if let Some(entries) = c.as_dict() {
            let mut with_chan = vec![(Pmt::symbol("chan"), Pmt::Int(chan))];
            with_chan.extend(entries.iter().rev().cloned());
            *c = Pmt::dict_from(with_chan);
        }
    }
}

/// Channel 1's settings where `nchan` is 2, as GRC's template sets them after channel 0's
/// (bandwidth, antenna, frequency, automatic gain, gain, DC removal, DC offset, IQ balance):
/// start commands naming the channel. With one channel they are not used (GRC hides them).
fn second_channel(m: &Mapped) -> Result<Vec<Pmt>, String> {
    let nchan = m.param("nchan").and_then(Pmt::as_f64).unwrap_or(1.0);
    if nchan == 1.0 {
        return Ok(Vec::new());
    }
    if nchan != 2.0 {
        return Err(format!(
            "nchan: {nchan}: GRC's soapy_custom template sets one or two channels"
        ));
    }
    for (grc, what) in [("_tune_args1", "tune_args1"), ("_settings1", "settings1")] {
        if m.param(grc).is_some_and(|v| !is_empty_text(v)) {
            return Err(format!(
                "{what}: radioflow tunes without tune arguments and writes no channel settings \
                 at the start"
            ));
        }
    }
    if m.param("_freq_correction1")
        .is_some_and(|v| !is_zero_number(v))
    {
        return Err(
            "freq_correction1: the soapysdr crate radioflow uses has no frequency correction call"
                .into(),
        );
    }
    let on_1 = |key: &str, value: Pmt| {
        Pmt::dict_from([
            (Pmt::symbol("chan"), Pmt::Int(1)),
            (Pmt::symbol(key), value),
        ])
    };
    let mut commands = Vec::new();
    for (grc, key) in [
        ("_bandwidth1", "bandwidth"),
        ("_antenna1", "antenna"),
        ("_center_freq1", "freq"),
    ] {
        // (An empty antenna is the device's default, as for channel 0.)
        if let Some(v) = m.param(grc).filter(|v| !is_empty_text(v)) {
            commands.push(on_1(key, v.clone()));
        }
    }
    // gr-soapy's order: the automatic gain, then the gain (which here turns it off: so the
    // gain is set only without it).
    let agc = m.param("_agc1").is_some_and(super::common::is_true);
    if let Some(v) = m.param("_gain1").filter(|_| !agc) {
        commands.push(on_1("gain", v.clone()));
    }
    if agc {
        commands.push(on_1("gain_mode", Pmt::Bool(true)));
    }
    for (grc, key) in [
        ("_dc_removal1", "dc_offset_mode"),
        ("_dc_offset1", "dc_offset"),
        ("_iq_balance1", "iq_bal"),
    ] {
        if let Some(v) = m.param(grc) {
            commands.push(on_1(key, v.clone()));
        }
    }
    Ok(commands)
}

/// The sink: no automatic gain in GRC's definition (its template sets the gain only).
fn sink_device(m: &mut Mapped) -> Result<(), String> {
    device(m)?;
    m.params.push(("agc".to_owned(), Pmt::Bool(false)));
    Ok(())
}

/// The gain elements GRC's `soapy_source` sets in its "Specific" gain mode, in its order:
/// the element, the `_` parameter holding its value, and the radios (`devname`) that have it.
const SPECIFIC_GAINS: &[(&str, &str, &[&str])] = &[
    (
        "PGA",
        "_pga_gain",
        &["uhd", "plutosdr", "xtrxsoapy", "lime"],
    ),
    (
        "LNA",
        "_lna_gain",
        &[
            "airspy",
            "airspyhf",
            "bladerf",
            "lime",
            "hackrf",
            "xtrxsoapy",
        ],
    ),
    ("TIA", "_tia_gain", &["xtrxsoapy", "lime"]),
    ("MIX", "_mix_gain", &["airspy"]),
    ("RF", "_rf_gain", &["airspyhf"]),
    ("VGA", "_vga_gain", &["airspy", "hackrf"]),
    ("TUNER", "_tuner_gain", &["rtlsdr"]),
    ("AMP", "_amp_gain", &["hackrf"]),
    ("IFGR", "_ifgr_gain", &["sdrplay"]),
    ("RFGR", "_rfgr_gain", &["sdrplay"]),
    ("rxvga1", "_rxvga1_gain", &["bladerf"]),
    ("rxvga2", "_rxvga2_gain", &["bladerf"]),
];

/// GRC's `soapy_source` as its template makes it: the device from `devname` (or `dev` for
/// `custom`), the sdrplay's fields as device arguments (the user's own winning), the overall
/// gain or the radio's specific gain elements, and the corrections as start commands.
fn generic_source(m: &mut Mapped) -> Result<(), String> {
    let devname = text(m, "_devname")?;
    let args = if devname == "custom" {
        text(m, "_dev")?
    } else {
        format!("driver={devname}")
    };
    let mut dev_args = text(m, "_dev_args")?;
    if devname == "sdrplay" {
        let flag = |m: &Mapped, name: &str| m.param(name).map(super::common::is_true);
        let mut kwargs: Vec<(String, String)> = vec![
            ("if_mode".into(), text(m, "_sdrplay_if_mode")?),
            (
                "agc_setpoint".into(),
                m.param("_sdrplay_agc_setpoint")
                    .and_then(Pmt::as_f64)
                    .map_or("-30".into(), |v| format!("{}", v as i64)),
            ),
        ];
        for (key, grc) in [
            ("biasT_ctrl", "_sdrplay_biastee"),
            ("rfnotch_ctrl", "_sdrplay_rfnotch"),
            ("dabnotch_ctrl", "_sdrplay_dabnotch"),
        ] {
            kwargs.push((key.into(), flag(m, grc).unwrap_or(false).to_string()));
        }
        // The user's device arguments win over the fields (GRC's template: a dict update).
        for kv in dev_args
            .split(',')
            .map(str::trim)
            .filter(|kv| !kv.is_empty())
        {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            match kwargs.iter_mut().find(|(key, _)| key == k.trim()) {
                Some(entry) => entry.1 = v.trim().to_owned(),
                None => kwargs.push((k.trim().to_owned(), v.trim().to_owned())),
            }
        }
        let joined: Vec<String> = kwargs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        dev_args = joined.join(",");
    }
    let mut commands = Vec::new();
    let mut command = |key: &str, value: Pmt| {
        commands.push(Pmt::dict_from([(Pmt::symbol(key), value)]));
    };
    let clock = text(m, "_clock_source")?;
    if !clock.is_empty() {
        command("clock_src", Pmt::symbol(clock.as_str()));
    }
    for (grc, key) in [
        ("_dc_removal", "dc_offset_mode"),
        ("_dc_offset", "dc_offset"),
        ("_balance", "iq_bal"),
        ("_bandwidth", "bandwidth"),
    ] {
        if let Some(v) = m.param(grc) {
            command(key, v.clone());
        }
    }
    let gain_mode = text(m, "_gain_mode")?;
    let gain = match gain_mode.as_str() {
        "Overall" | "" => m.param("_overall_gain").cloned().unwrap_or(Pmt::Int(10)),
        "Specific" => {
            for (element, grc, radios) in SPECIFIC_GAINS {
                if radios.contains(&devname.as_str())
                    && let Some(v) = m.param(grc)
                {
                    command(
                        "gain",
                        Pmt::dict_from([
                            (Pmt::symbol("name"), Pmt::symbol(*element)),
                            (Pmt::symbol("gain"), v.clone()),
                        ]),
                    );
                }
            }
            // The overall gain first at 0, then each element (GNU Radio sets the elements only).
            Pmt::Int(0)
        }
        other => {
            return Err(format!(
                "gain_mode0: {other:?}: radioflow sets the overall gain (Overall) or the \
                 radio's gain elements (Specific); no channel settings at the start"
            ));
        }
    };
    // GNU Radio turns automatic gain on or off before setting the gain; here the gain is set
    // with it off, and a start command turns it on where asked (an error on a radio without
    // it, as in GNU Radio).
    if m.param("_agc").is_some_and(super::common::is_true) {
        command("gain_mode", Pmt::Bool(true));
    }
    m.params.retain(|(k, _)| !k.starts_with('_'));
    let args = joined(args, &dev_args);
    m.params
        .push(("args".to_owned(), Pmt::symbol(args.as_str())));
    m.params.push(("agc".to_owned(), Pmt::Bool(false)));
    m.params.push(("gain".to_owned(), gain));
    m.params
        .push(("commands".to_owned(), Pmt::Vector(commands.into())));
    Ok(())
}

/// GRC's `soapy_sink` as its template makes it: the device from `devname` (or `dev`), the
/// overall gain, or (manual gain) the gain elements its template sets for that radio, the IQ
/// balance where the template sets it, and automatic gain where asked.
fn generic_sink(m: &mut Mapped) -> Result<(), String> {
    let devname = text(m, "_devname")?;
    let device = if devname == "custom" {
        text(m, "_dev")?
    } else {
        format!("driver={devname}")
    };
    let args = joined(device, &text(m, "_args")?);
    let mut commands = Vec::new();
    let mut command = |key: &str, value: Pmt| {
        commands.push(Pmt::dict_from([(Pmt::symbol(key), value)]));
    };
    if !matches!(devname.as_str(), "uhd" | "lime")
        && let Some(v) = m.param("_balance")
    {
        command("iq_bal", v.clone());
    }
    let manual = m.param("_manual_gain").is_none_or(super::common::is_true);
    let gain = if devname == "sidekiq" || !manual {
        m.param("_overall_gain").cloned().unwrap_or(Pmt::Int(0))
    } else {
        let elements: &[(&str, &str)] = match devname.as_str() {
            "bladerf" => &[("txvga1", "_txvga1_gain"), ("txvga2", "_txvga2_gain")],
            "uhd" => &[("PGA", "_pga_gain")],
            // Every name, whatever the radio (GRC's template; a radio without one of them
            // fails the start naming it, as gr-soapy's set_gain does).
            _ => &[
                ("PGA", "_pga_gain"),
                ("PAD", "_pad_gain"),
                ("IAMP", "_iamp_gain"),
                ("txvga1", "_txvga1_gain"),
                ("txvga2", "_txvga2_gain"),
                ("VGA", "_vga_gain"),
            ],
        };
        for (element, grc) in elements {
            let db = m.param(grc).cloned().unwrap_or(Pmt::Int(0));
            command(
                "gain",
                Pmt::dict_from([
                    (Pmt::symbol("name"), Pmt::symbol(*element)),
                    (Pmt::symbol("gain"), db),
                ]),
            );
        }
        Pmt::Int(0)
    };
    if m.param("_gain_auto").is_some_and(super::common::is_true) {
        command("gain_mode", Pmt::Bool(true));
    }
    m.params.retain(|(k, _)| !k.starts_with('_'));
    m.params
        .push(("args".to_owned(), Pmt::symbol(args.as_str())));
    m.params.push(("agc".to_owned(), Pmt::Bool(false)));
    m.params.push(("gain".to_owned(), gain));
    m.params
        .push(("commands".to_owned(), Pmt::Vector(commands.into())));
    Ok(())
}

/// What GRC's `soapy_sink` template sets only in a callback (when a variable it uses
/// changes), not when it makes the block.
const CALLBACK_ONLY: &str = "GNU Radio's template sets it only when a variable it uses changes \
                             (a callback), not at the start; GRC variables are constants here";

pub(super) const TYPES: &[super::table::GrType] = &[
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
        id: "soapy_source",
        make: "None#Makesurethatthegainmodeisvalid",
        block: "soapy_source",
        types: TYPES,
        params: &[
            only(
                "nchan",
                is_one,
                "one channel: radioflow maps this older block's first channel only (soapy_custom_source maps two)",
            ),
            param("devname", "_devname"),
            param("dev", "_dev"),
            param("samp_rate", "sample_rate"),
            param("dev_args", "_dev_args"),
            only(
                "stream_args",
                is_empty_text,
                "radioflow opens the stream without stream arguments",
            ),
            only(
                "clock_rate",
                is_zero_number,
                "radioflow does not set the master clock rate (0: the device's)",
            ),
            param("clock_source", "_clock_source"),
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
            param("center_freq0", "frequency"),
            only(
                "nco_freq0",
                is_zero_number,
                "radioflow tunes the overall frequency only, not the baseband (BB) element",
            ),
            param("gain_mode0", "_gain_mode"),
            param("overall_gain0", "_overall_gain"),
            param("pga_gain0", "_pga_gain"),
            param("lna_gain0", "_lna_gain"),
            param("tia_gain0", "_tia_gain"),
            param("mix_gain0", "_mix_gain"),
            param("rf_gain0", "_rf_gain"),
            param("vga_gain0", "_vga_gain"),
            param("tuner_gain0", "_tuner_gain"),
            param("amp_gain0", "_amp_gain"),
            param("ifgr_gain", "_ifgr_gain"),
            param("rfgr_gain", "_rfgr_gain"),
            param("rxvga1_gain", "_rxvga1_gain"),
            param("rxvga2_gain", "_rxvga2_gain"),
            param("ant0", "antenna"),
            param("bw0", "_bandwidth"),
            param("dc_removal0", "_dc_removal"),
            param("dc_offset0", "_dc_offset"),
            only(
                "correction0",
                is_zero_number,
                "the soapysdr crate radioflow uses has no frequency correction call",
            ),
            param("balance0", "_balance"),
            param("agc0", "_agc"),
            param("sdrplay_if_mode", "_sdrplay_if_mode"),
            param("sdrplay_biastee", "_sdrplay_biastee"),
            param("sdrplay_agc_setpoint", "_sdrplay_agc_setpoint"),
            param("sdrplay_rfnotch", "_sdrplay_rfnotch"),
            param("sdrplay_dabnotch", "_sdrplay_dabnotch"),
            no_effect("tune_args1", CHANNEL_1),
            no_effect("settings1", CHANNEL_1),
            no_effect("center_freq1", CHANNEL_1),
            no_effect("nco_freq1", CHANNEL_1),
            no_effect("gain_mode1", CHANNEL_1),
            no_effect("overall_gain1", CHANNEL_1),
            no_effect("pga_gain1", CHANNEL_1),
            no_effect("lna_gain1", CHANNEL_1),
            no_effect("tia_gain1", CHANNEL_1),
            no_effect("ant1", CHANNEL_1),
            no_effect("bw1", CHANNEL_1),
            no_effect("dc_removal1", CHANNEL_1),
            no_effect("dc_offset1", CHANNEL_1),
            no_effect("correction1", CHANNEL_1),
            no_effect("balance1", CHANNEL_1),
            no_effect("agc1", CHANNEL_1),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(generic_source),
    },
    GrBlock {
        id: "soapy_sink",
        make: "Noneif\"{devname}\"=='custom':",
        block: "soapy_sink",
        types: TYPES,
        params: &[
            param("devname", "_devname"),
            param("dev", "_dev"),
            param("args", "_args"),
            param("samp_rate", "sample_rate"),
            only(
                "nchan",
                is_one,
                "one channel: radioflow maps this older block's first channel only (soapy_custom_sink maps two)",
            ),
            no_effect(
                "clock_rate",
                "GNU Radio's template does not use it (neither at the start nor in a callback)",
            ),
            no_effect(
                "clock_source",
                "GNU Radio's template does not use it (neither at the start nor in a callback)",
            ),
            only(
                "length_tag_name",
                is_empty_text,
                "radioflow's soapy_sink sends one burst, ended with the stream; no length tags",
            ),
            param("center_freq0", "frequency"),
            no_effect("nco_freq0", CALLBACK_ONLY),
            param("manual_gain0", "_manual_gain"),
            param("overall_gain0", "_overall_gain"),
            param("pga_gain0", "_pga_gain"),
            param("pad_gain0", "_pad_gain"),
            param("iamp_gain0", "_iamp_gain"),
            param("vga_gain0", "_vga_gain"),
            no_effect("amp_gain0", CALLBACK_ONLY),
            param("txvga1_gain", "_txvga1_gain"),
            param("txvga2_gain", "_txvga2_gain"),
            // GRC's template sets it only where the device lists more than one antenna (and
            // exits where it is not one of them); radioflow sets it wherever given, and a name
            // the device does not have fails the start naming it.
            param("ant0", "antenna"),
            no_effect("bw0", CALLBACK_ONLY),
            no_effect("dc_offset_auto_mode0", CALLBACK_ONLY),
            no_effect("dc_offset0", CALLBACK_ONLY),
            only(
                "correction0",
                is_zero_number,
                "the soapysdr crate radioflow uses has no frequency correction call",
            ),
            param("balance0", "_balance"),
            param("gain_auto_mode0", "_gain_auto"),
            no_effect("gain_auto_mode1", CHANNEL_1),
            no_effect("center_freq1", CHANNEL_1),
            no_effect("nco_freq1", CHANNEL_1),
            no_effect("manual_gain1", CHANNEL_1),
            no_effect("overall_gain1", CHANNEL_1),
            no_effect("pga_gain1", CHANNEL_1),
            no_effect("pad_gain1", CHANNEL_1),
            no_effect("iamp_gain1", CHANNEL_1),
            no_effect("ant1", CHANNEL_1),
            no_effect("bw1", CHANNEL_1),
            no_effect("dc_offset_auto_mode1", CHANNEL_1),
            no_effect("dc_offset1", CHANNEL_1),
            no_effect("correction1", CHANNEL_1),
            no_effect("balance1", CHANNEL_1),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(generic_sink),
    },
    GrBlock {
        id: "soapy_custom_source",
        make: "Nonedev='driver='+{driver}",
        block: "soapy_source",
        types: TYPES,
        params: &[
            param("driver", "_driver"),
            param("dev_args", "_dev_args"),
            param("nchan", "nchan"),
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
            param("tune_args1", "_tune_args1"),
            param("settings1", "_settings1"),
            param("bandwidth1", "_bandwidth1"),
            param("antenna1", "_antenna1"),
            param("center_freq1", "_center_freq1"),
            param("freq_correction1", "_freq_correction1"),
            param("agc1", "_agc1"),
            param("gain1", "_gain1"),
            param("dc_removal1", "_dc_removal1"),
            param("dc_offset1", "_dc_offset1"),
            param("iq_balance1", "_iq_balance1"),
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
            param("nchan", "nchan"),
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
            param("tune_args1", "_tune_args1"),
            param("settings1", "_settings1"),
            param("bandwidth1", "_bandwidth1"),
            param("antenna1", "_antenna1"),
            param("center_freq1", "_center_freq1"),
            param("freq_correction1", "_freq_correction1"),
            param("gain1", "_gain1"),
            param("dc_offset1", "_dc_offset1"),
            param("iq_balance1", "_iq_balance1"),
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

    fn param<'a>(m: &'a Mapped, name: &str) -> &'a Pmt {
        m.param(name).unwrap()
    }

    #[test]
    fn the_older_soapy_source_sets_the_radio_s_own_gain_elements() {
        let dict = |entries: &[(&str, Pmt)]| {
            Pmt::dict_from(entries.iter().map(|(k, v)| (Pmt::symbol(*k), v.clone())))
        };
        // A HackRF in the Specific gain mode: its LNA, VGA and AMP, in GRC's order; the other
        // radios' fields are not its own.
        let mut m = mapped(&[
            ("_devname", Pmt::symbol("hackrf")),
            ("_gain_mode", Pmt::symbol("Specific")),
            ("_lna_gain", Pmt::Int(16)),
            ("_vga_gain", Pmt::Int(20)),
            ("_amp_gain", Pmt::Int(0)),
            ("_tuner_gain", Pmt::Int(30)),
            ("_pga_gain", Pmt::Int(24)),
            ("_dc_removal", Pmt::Bool(false)),
            ("_agc", Pmt::Bool(true)),
        ]);
        generic_source(&mut m).unwrap();
        assert_eq!(param(&m, "args"), &Pmt::symbol("driver=hackrf"));
        assert_eq!(param(&m, "agc"), &Pmt::Bool(false));
        let gain = |name: &str, db: i64| {
            dict(&[(
                "gain",
                dict(&[("name", Pmt::symbol(name)), ("gain", Pmt::Int(db))]),
            )])
        };
        assert_eq!(
            param(&m, "commands"),
            &Pmt::Vector(
                vec![
                    dict(&[("dc_offset_mode", Pmt::Bool(false))]),
                    gain("LNA", 16),
                    gain("VGA", 20),
                    gain("AMP", 0),
                    dict(&[("gain_mode", Pmt::Bool(true))]),
                ]
                .into()
            )
        );
        // An RTL-SDR in the Overall mode: the overall gain, no element.
        let mut m = mapped(&[
            ("_devname", Pmt::symbol("rtlsdr")),
            ("_gain_mode", Pmt::symbol("Overall")),
            ("_overall_gain", Pmt::Double(33.8)),
            ("_tuner_gain", Pmt::Int(30)),
        ]);
        generic_source(&mut m).unwrap();
        assert_eq!(param(&m, "gain"), &Pmt::Double(33.8));
        assert_eq!(param(&m, "commands"), &Pmt::Vector(Vec::new().into()));
        // custom: the device string as given.
        let mut m = mapped(&[
            ("_devname", Pmt::symbol("custom")),
            ("_dev", Pmt::symbol("driver=remote,remote=10.0.0.2")),
        ]);
        generic_source(&mut m).unwrap();
        assert_eq!(
            param(&m, "args"),
            &Pmt::symbol("driver=remote,remote=10.0.0.2")
        );
        // The sdrplay's fields as device arguments, the user's own winning.
        let mut m = mapped(&[
            ("_devname", Pmt::symbol("sdrplay")),
            ("_dev_args", Pmt::symbol("agc_setpoint=-20, antenna=B")),
            ("_sdrplay_if_mode", Pmt::symbol("Zero-IF")),
            ("_sdrplay_agc_setpoint", Pmt::Int(-30)),
            ("_sdrplay_biastee", Pmt::Bool(true)),
            ("_sdrplay_rfnotch", Pmt::Bool(false)),
            ("_sdrplay_dabnotch", Pmt::Bool(false)),
        ]);
        generic_source(&mut m).unwrap();
        assert_eq!(
            param(&m, "args"),
            &Pmt::symbol(
                "driver=sdrplay,if_mode=Zero-IF,agc_setpoint=-20,biasT_ctrl=true,\
                 rfnotch_ctrl=false,dabnotch_ctrl=false,antenna=B"
            )
        );
        // Gains from channel settings are not written here: refused, saying so.
        let mut m = mapped(&[
            ("_devname", Pmt::symbol("rtlsdr")),
            ("_gain_mode", Pmt::symbol("Settings Field")),
        ]);
        assert!(generic_source(&mut m)
            .unwrap_err()
            .starts_with("gain_mode0: \"Settings Field\""));
    }

    #[test]
    fn the_older_soapy_sink_sets_what_its_template_sets() {
        let dict = |entries: &[(&str, Pmt)]| {
            Pmt::dict_from(entries.iter().map(|(k, v)| (Pmt::symbol(*k), v.clone())))
        };
        let gain = |name: &str, db: i64| {
            dict(&[(
                "gain",
                dict(&[("name", Pmt::symbol(name)), ("gain", Pmt::Int(db))]),
            )])
        };
        // GNU Radio's soapy_transmit.grc: a USRP with manual gain sets its PGA only, and no IQ
        // balance (the template leaves uhd and lime alone).
        let mut m = mapped(&[
            ("_devname", Pmt::symbol("uhd")),
            ("_dev", Pmt::symbol("driver=uhd")),
            ("_args", Pmt::symbol("")),
            ("_manual_gain", Pmt::Bool(true)),
            ("_overall_gain", Pmt::Int(20)),
            ("_pga_gain", Pmt::Int(20)),
            ("_balance", Pmt::Int(0)),
            ("_gain_auto", Pmt::Bool(false)),
        ]);
        m.block = "soapy_sink";
        generic_sink(&mut m).unwrap();
        assert_eq!(param(&m, "args"), &Pmt::symbol("driver=uhd"));
        assert_eq!(param(&m, "gain"), &Pmt::Int(0));
        assert_eq!(
            param(&m, "commands"),
            &Pmt::Vector(vec![gain("PGA", 20)].into())
        );
        // A bladeRF with manual gain: txvga1 and txvga2; the IQ balance command.
        let mut m = mapped(&[
            ("_devname", Pmt::symbol("bladerf")),
            ("_manual_gain", Pmt::Bool(true)),
            ("_txvga1_gain", Pmt::Int(-35)),
            ("_txvga2_gain", Pmt::Int(0)),
            ("_balance", Pmt::Int(0)),
        ]);
        generic_sink(&mut m).unwrap();
        assert_eq!(
            param(&m, "commands"),
            &Pmt::Vector(
                vec![
                    dict(&[("iq_bal", Pmt::Int(0))]),
                    gain("txvga1", -35),
                    gain("txvga2", 0),
                ]
                .into()
            )
        );
        // Without manual gain: the overall gain, automatic gain where asked.
        let mut m = mapped(&[
            ("_devname", Pmt::symbol("hackrf")),
            ("_manual_gain", Pmt::Bool(false)),
            ("_overall_gain", Pmt::Int(14)),
            ("_gain_auto", Pmt::Bool(true)),
        ]);
        generic_sink(&mut m).unwrap();
        assert_eq!(param(&m, "gain"), &Pmt::Int(14));
        assert_eq!(
            param(&m, "commands"),
            &Pmt::Vector(vec![dict(&[("gain_mode", Pmt::Bool(true))])].into())
        );
    }
}
