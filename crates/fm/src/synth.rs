//! A built-in FM broadcast station, for the demo and for tests on a machine without GNU
//! Radio or a recording: a stereo programme (a different tone on each channel), the 19 kHz
//! pilot and RDS (radioflow-rds' encoder), frequency modulated (±75 kHz) on a carrier off
//! the centre of an IQ recording written in any of the receiver's formats.

use crate::FmError;
use radioflow_blocks::SampleFormat;
use radioflow_dsp::{
    complex_to_cf32, complex_to_cs16, complex_to_cs8, complex_to_cu8, firdes, Complex32,
    InterpolatingFir, Num,
};
use radioflow_rds::{Encoder, StationInfo};
use std::f64::consts::PI;
use std::io::Write;
use std::path::Path;

/// What the built-in station sends.
#[derive(Clone, Debug)]
pub struct Station {
    /// Left channel tone, Hz.
    pub left_hz: f64,
    /// Right channel tone, Hz.
    pub right_hz: f64,
    /// RDS programme identification.
    pub pi: u16,
    /// RDS programme service name (up to 8 characters).
    pub ps: String,
    /// RDS RadioText (up to 64 characters).
    pub radiotext: String,
}

impl Default for Station {
    fn default() -> Self {
        Station {
            left_hz: 1000.0,
            right_hz: 1500.0,
            pi: 0xC0DE,
            ps: "RADIOFLW".into(),
            radiotext: "radioflow built-in station: 1 kHz left, 1.5 kHz right".into(),
        }
    }
}

/// The multiplex rate the station is made at (then interpolated to the recording's rate).
const MPX_RATE: f64 = 240e3;

/// Writes `seconds` of the station at `offset` Hz from the centre of a recording at
/// `sample_rate` (a whole multiple of 240 kHz) in `format` to `path`.
///
/// # Errors
/// A rate that is not a multiple of 240 kHz or too low for the offset, RDS text too long, or
/// the file not writable (named).
pub fn write_station(
    path: &Path,
    format: SampleFormat,
    sample_rate: f64,
    offset: f64,
    seconds: f64,
    station: &Station,
) -> Result<(), FmError> {
    let up = (sample_rate / MPX_RATE).round() as usize;
    if up < 2 || (up as f64 * MPX_RATE - sample_rate).abs() > 1e-6 {
        return Err(FmError::option(
            "rate",
            format!(
                "the built-in station needs a multiple of 240 kHz (at least 480 kHz), not {}",
                Num(sample_rate)
            ),
        ));
    }
    if offset.abs() + 100e3 > sample_rate / 2.0 {
        return Err(FmError::option(
            "offset",
            format!(
                "{} Hz puts the station outside a recording at {} samples/s",
                Num(offset),
                Num(sample_rate)
            ),
        ));
    }
    let info = StationInfo::new(station.pi, &station.ps, &station.radiotext)
        .map_err(|e| FmError::option("station", e.to_string()))?;
    let mut rds =
        Encoder::new(MPX_RATE, &info).map_err(|e| FmError::option("station", e.to_string()))?;
    let written = |e: std::io::Error| {
        FmError::option("demo", format!("cannot write '{}': {e}", path.display()))
    };
    let file = std::fs::File::create(path).map_err(written)?;
    let mut out = std::io::BufWriter::new(file);
    let taps = firdes::low_pass(up as f64, sample_rate, 100e3, 60e3, firdes::Window::Hamming)
        .expect("valid design");
    let mut interp = InterpolatingFir::<f32>::new(&taps, up).expect("valid taps");
    let total = (seconds * MPX_RATE) as usize;
    let block = 24_000;
    let (k, step) = (
        2.0 * PI * 75e3 / sample_rate,
        2.0 * PI * offset / sample_rate,
    );
    let mut phase = 0.0f64;
    let mut mpx = vec![0.0f32; block];
    let mut fast = vec![0.0f32; block * up];
    let mut iq = vec![Complex32::default(); block * up];
    let mut bytes = vec![0u8; block * up * format.bytes_per_sample()];
    let mut n0 = 0usize;
    while n0 < total {
        let n = block.min(total - n0);
        for (i, m) in mpx[..n].iter_mut().enumerate() {
            let t = (n0 + i) as f64 / MPX_RATE;
            let (l, r) = (
                (2.0 * PI * station.left_hz * t).sin(),
                (2.0 * PI * station.right_hz * t).sin(),
            );
            let pilot = 2.0 * PI * 19e3 * t;
            // 90 % programme (L+R, and L-R on the 38 kHz subcarrier in phase with the
            // pilot's double: sin 2θ for a pilot sin θ), 10 % pilot (ITU-R BS.450).
            *m = (0.45 * (l + r) / 2.0
                + 0.45 * (l - r) / 2.0 * (2.0 * pilot).sin()
                + 0.1 * pilot.sin()) as f32;
        }
        rds.add_to(&mut mpx[..n]);
        let (_, produced) = interp.process(&mpx[..n], &mut fast);
        for (c, &x) in iq.iter_mut().zip(&fast[..produced]) {
            phase = (phase + k * f64::from(x) + step) % (2.0 * PI);
            *c = Complex32::from_polar(0.7, phase as f32);
        }
        let len = produced * format.bytes_per_sample();
        let (iq, bytes) = (&iq[..produced], &mut bytes[..len]);
        match format {
            SampleFormat::Cu8 => complex_to_cu8(iq, bytes),
            SampleFormat::Cs8 => complex_to_cs8(iq, bytes),
            SampleFormat::Cs16 => complex_to_cs16(iq, bytes),
            SampleFormat::Cf32 => complex_to_cf32(iq, bytes),
        }
        out.write_all(bytes).map_err(written)?;
        n0 += n;
    }
    out.flush().map_err(written)
}
