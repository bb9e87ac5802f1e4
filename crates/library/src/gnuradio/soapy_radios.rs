//! Rows for gr-soapy's per-radio blocks (`soapy_rtlsdr_source`, `soapy_hackrf_source/sink`,
//! `soapy_plutosdr_source/sink`, `soapy_bladerf_source/sink`, `soapy_limesdr_source/sink`,
//! `soapy_airspyhf_source`, `soapy_sdrplay_source`): radioflow-interop's `soapy_source` /
//! `soapy_sink` with the driver GRC's template fixes and the settings it makes, in its order.
//!
//! Each template makes the block on `driver=<radio>` plus the user's device arguments, then
//! sets the rate, bandwidth, antenna, automatic gain, frequency and gain. The overall gain,
//! clamped as the template clamps it (`min(max(gain, lo), hi)`; the SDRplay's negated), is the
//! block's `gain`, settable while running; a radio whose template sets gain elements (RTL-SDR's
//! TUNER, HackRF's AMP/LNA/VGA, Airspy HF+'s RF/LNA) gets them as start commands after an
//! overall gain of 0. The bandwidth is a start command. With `agc` on, the block turns the
//! device's automatic gain on and sets no overall gain (GNU Radio's template writes it to the
//! device anyway, where the automatic gain overrides it).

use super::common::{only, param};
use super::soapy::{is_zero_number, joined, text, TYPES};
use super::table::{GrBlock, GrParam, Mapped, To};
use radioflow_runtime::Pmt;

const NO_CORRECTION: &str = "the soapysdr crate radioflow uses has no frequency correction call";

/// The value clamped to `lo..=hi` (Python's `min(max(v, lo), hi)`).
fn clamped(v: &Pmt, lo: f64, hi: f64) -> Result<Pmt, String> {
    let x = v.as_f64().ok_or_else(|| format!("{v} is not a number"))?;
    Ok(Pmt::Double(x.max(lo).min(hi)))
}

const fn gain(convert: fn(&Pmt) -> Result<Pmt, String>) -> GrParam {
    GrParam {
        key: "gain",
        to: To::Convert("gain", convert),
    }
}

const COMMON: [GrParam; 3] = [
    param("dev_args", "_dev_args"),
    param("samp_rate", "sample_rate"),
    param("center_freq", "frequency"),
];

/// A gain element the template sets: its name, the `_` parameter holding its value, and
/// what the template makes of the value (clamped, a switch's dB).
type Element = (&'static str, &'static str, fn(f64) -> f64);

/// The device arguments, the bandwidth and the gain elements, as start commands; the overall
/// gain 0 where elements are set.
fn radio(m: &mut Mapped, driver: &str, elements: &[Element]) -> Result<(), String> {
    let args = joined(format!("driver={driver}"), &text(m, "_dev_args")?);
    let mut commands = Vec::new();
    if let Some(bw) = m.param("_bandwidth") {
        commands.push(Pmt::dict_from([(Pmt::symbol("bandwidth"), bw.clone())]));
    }
    for (element, grc, value) in elements {
        let Some(v) = m.param(grc) else { continue };
        // GNU Radio passes the HackRF's `amp` switch as it is: True is 1 dB.
        let x = v
            .as_f64()
            .or_else(|| v.as_bool().map(|b| f64::from(u8::from(b))))
            .ok_or_else(|| format!("{}: {v} is not a number", &grc[1..]))?;
        commands.push(Pmt::dict_from([(
            Pmt::symbol("gain"),
            Pmt::dict_from([
                (Pmt::symbol("name"), Pmt::symbol(*element)),
                (Pmt::symbol("gain"), Pmt::Double(value(x))),
            ]),
        )]));
    }
    if !elements.is_empty() {
        m.params.retain(|(k, _)| k != "gain");
        m.params.push(("gain".to_owned(), Pmt::Int(0)));
    }
    if m.param("agc").is_none() {
        m.params.push(("agc".to_owned(), Pmt::Bool(false)));
    }
    m.params.retain(|(k, _)| !k.starts_with('_'));
    m.params
        .push(("args".to_owned(), Pmt::symbol(args.as_str())));
    m.params
        .push(("commands".to_owned(), Pmt::Vector(commands.into())));
    Ok(())
}

fn same(x: f64) -> f64 {
    x
}

fn rtlsdr(m: &mut Mapped) -> Result<(), String> {
    radio(m, "rtlsdr", &[("TUNER", "_gain", same)])
}

fn hackrf_source(m: &mut Mapped) -> Result<(), String> {
    radio(
        m,
        "hackrf",
        &[
            ("AMP", "_amp", same),
            ("LNA", "_gain", |g| g.clamp(0.0, 40.0)),
            ("VGA", "_vga", |g| g.clamp(0.0, 62.0)),
        ],
    )
}

fn hackrf_sink(m: &mut Mapped) -> Result<(), String> {
    radio(
        m,
        "hackrf",
        &[
            ("AMP", "_amp", same),
            ("VGA", "_vga", |g| g.clamp(0.0, 47.0)),
        ],
    )
}

fn airspyhf(m: &mut Mapped) -> Result<(), String> {
    radio(
        m,
        "airspyhf",
        &[
            ("RF", "_gain", |g| g.clamp(-48.0, 0.0)),
            ("LNA", "_lna", |on| if on != 0.0 { 6.0 } else { 0.0 }),
        ],
    )
}

fn plutosdr(m: &mut Mapped) -> Result<(), String> {
    radio(m, "plutosdr", &[])
}

fn bladerf(m: &mut Mapped) -> Result<(), String> {
    radio(m, "bladerf", &[])
}

fn lime(m: &mut Mapped) -> Result<(), String> {
    radio(m, "lime", &[])
}

fn sdrplay(m: &mut Mapped) -> Result<(), String> {
    radio(m, "sdrplay", &[])
}

const fn row(
    id: &'static str,
    make: &'static str,
    block: &'static str,
    params: &'static [GrParam],
    choose: fn(&mut Mapped) -> Result<(), String>,
) -> GrBlock {
    GrBlock {
        id,
        make,
        block,
        types: TYPES,
        params,
        fixed: &[],
        extra: &[],
        choose: Some(choose),
    }
}

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "soapy_rtlsdr_source",
        "Nonedev='driver=rtlsdr'",
        "soapy_source",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            only("freq_correction", is_zero_number, NO_CORRECTION),
            param("agc", "agc"),
            param("gain", "_gain"),
        ],
        rtlsdr,
    ),
    row(
        "soapy_hackrf_source",
        "Nonedev='driver=hackrf'",
        "soapy_source",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            param("bandwidth", "_bandwidth"),
            param("amp", "_amp"),
            param("gain", "_gain"),
            param("vga", "_vga"),
        ],
        hackrf_source,
    ),
    row(
        "soapy_hackrf_sink",
        "Nonedev='driver=hackrf'",
        "soapy_sink",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            param("bandwidth", "_bandwidth"),
            param("amp", "_amp"),
            param("vga", "_vga"),
        ],
        hackrf_sink,
    ),
    row(
        "soapy_plutosdr_source",
        "Nonedev='driver=plutosdr'",
        "soapy_source",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            param("bandwidth", "_bandwidth"),
            param("agc", "agc"),
            gain(|v| clamped(v, 0.0, 73.0)),
        ],
        plutosdr,
    ),
    row(
        "soapy_plutosdr_sink",
        "Nonedev='driver=plutosdr'",
        "soapy_sink",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            param("bandwidth", "_bandwidth"),
            gain(|v| clamped(v, 0.0, 89.0)),
        ],
        plutosdr,
    ),
    row(
        "soapy_bladerf_source",
        "Nonedev='driver=bladerf'",
        "soapy_source",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            param("bandwidth", "_bandwidth"),
            only("freq_correction", is_zero_number, NO_CORRECTION),
            gain(|v| clamped(v, -1.0, 60.0)),
        ],
        bladerf,
    ),
    row(
        "soapy_bladerf_sink",
        "Nonedev='driver=bladerf'",
        "soapy_sink",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            param("bandwidth", "_bandwidth"),
            only("freq_correction", is_zero_number, NO_CORRECTION),
            gain(|v| clamped(v, 17.0, 73.0)),
        ],
        bladerf,
    ),
    row(
        "soapy_limesdr_source",
        "Nonedev='driver=lime'",
        "soapy_source",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            param("bandwidth", "_bandwidth"),
            only("freq_correction", is_zero_number, NO_CORRECTION),
            gain(|v| clamped(v, -12.0, 61.0)),
        ],
        lime,
    ),
    row(
        "soapy_limesdr_sink",
        "Nonedev='driver=lime'",
        "soapy_sink",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            param("bandwidth", "_bandwidth"),
            only("freq_correction", is_zero_number, NO_CORRECTION),
            gain(|v| clamped(v, -12.0, 64.0)),
        ],
        lime,
    ),
    row(
        "soapy_airspyhf_source",
        "Nonedev='driver=airspyhf'",
        "soapy_source",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            only("freq_correction", is_zero_number, NO_CORRECTION),
            param("agc", "agc"),
            param("gain", "_gain"),
            param("lna", "_lna"),
        ],
        airspyhf,
    ),
    row(
        "soapy_sdrplay_source",
        "Nonedev='driver=sdrplay'",
        "soapy_source",
        &[
            COMMON[0],
            COMMON[1],
            COMMON[2],
            param("bandwidth", "_bandwidth"),
            param("antenna", "antenna"),
            only("freq_correction", is_zero_number, NO_CORRECTION),
            param("agc", "agc"),
            // The template's min(max(-gain, 0.0), 47.0): the gain reduction as a gain.
            gain(|v| clamped(&Pmt::Double(-v.as_f64().unwrap_or(f64::NAN)), 0.0, 47.0)),
        ],
        sdrplay,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::registry::Dtype;

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

    fn element(name: &str, db: f64) -> Pmt {
        dict(&[(
            "gain",
            dict(&[("name", Pmt::symbol(name)), ("gain", Pmt::Double(db))]),
        )])
    }

    #[test]
    fn the_hackrf_s_template_sets_amp_lna_and_vga_clamped() {
        let mut m = mapped(&[
            ("_dev_args", Pmt::symbol("serial=1234")),
            ("frequency", Pmt::Double(100e6)),
            ("_bandwidth", Pmt::Double(0.0)),
            ("_amp", Pmt::Bool(true)),
            ("_gain", Pmt::Double(55.0)),
            ("_vga", Pmt::Double(16.0)),
        ]);
        hackrf_source(&mut m).unwrap();
        assert_eq!(
            m.param("args"),
            Some(&Pmt::symbol("driver=hackrf,serial=1234"))
        );
        assert_eq!(m.param("gain"), Some(&Pmt::Int(0)));
        assert_eq!(m.param("agc"), Some(&Pmt::Bool(false)));
        assert_eq!(
            m.param("commands"),
            Some(&Pmt::Vector(
                vec![
                    dict(&[("bandwidth", Pmt::Double(0.0))]),
                    element("AMP", 1.0),
                    element("LNA", 40.0),
                    element("VGA", 16.0),
                ]
                .into()
            ))
        );
    }

    #[test]
    fn overall_gains_are_clamped_as_the_templates_clamp_them() {
        let convert = |id: &str, v: f64| {
            let row = ROWS.iter().find(|r| r.id == id).unwrap();
            let p = row.params.iter().find(|p| p.key == "gain").unwrap();
            match p.to {
                To::Convert("gain", f) => f(&Pmt::Double(v)).unwrap(),
                _ => panic!("{id}: gain is not converted"),
            }
        };
        assert_eq!(convert("soapy_plutosdr_source", 80.0), Pmt::Double(73.0));
        assert_eq!(convert("soapy_plutosdr_sink", 80.0), Pmt::Double(80.0));
        assert_eq!(convert("soapy_bladerf_sink", 0.0), Pmt::Double(17.0));
        assert_eq!(convert("soapy_limesdr_source", -20.0), Pmt::Double(-12.0));
        // The SDRplay's gain is a reduction: -20 is 20 dB of gain.
        assert_eq!(convert("soapy_sdrplay_source", -20.0), Pmt::Double(20.0));
        assert_eq!(convert("soapy_sdrplay_source", 5.0), Pmt::Double(0.0));
        // The Airspy HF+'s RF element and its LNA switch (6 dB or 0).
        let mut m = mapped(&[
            ("_dev_args", Pmt::symbol("")),
            ("agc", Pmt::Bool(true)),
            ("_gain", Pmt::Double(-60.0)),
            ("_lna", Pmt::Bool(true)),
        ]);
        airspyhf(&mut m).unwrap();
        assert_eq!(m.param("args"), Some(&Pmt::symbol("driver=airspyhf")));
        assert_eq!(m.param("agc"), Some(&Pmt::Bool(true)));
        assert_eq!(
            m.param("commands"),
            Some(&Pmt::Vector(
                vec![element("RF", -48.0), element("LNA", 6.0)].into()
            ))
        );
    }
}
