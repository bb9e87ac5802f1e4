//! What the page plots from a message tap's latest PDU, as GNU Radio's QT sinks of a `msg_*`
//! type plot the PDUs sent to them (`handle_pdus` in gr-qtgui): the samples against their
//! index (time, histogram, raster), as points (constellation), the spectrum averaged over the
//! PDU (frequency) or the PDU's spectrogram (waterfall). Computed on the control port's thread
//! when a page asks, from the message the tap keeps.

use crate::probe_view::{ProbeData, SpectrumOptions, View};
use radioflow_dsp::firdes::Window;
use radioflow_dsp::Spectrum;
use radioflow_runtime::{Complex32, Pmt};

/// Rows of a waterfall drawn from one PDU (`d_nrows` of GNU Radio's waterfall sink).
pub(crate) const WATERFALL_ROWS: usize = 200;

/// Windows a frequency sink lays over a PDU per FFT length (`winoverlap` of its
/// `handle_pdus`): successive FFTs start a quarter of a length apart.
const OVERLAP: usize = 4;

/// How a PDU is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PduView {
    /// As a probe's frame would be (the spectrum averaged over the PDU).
    Plot(View),
    /// [`WATERFALL_ROWS`] spectra spread over the PDU, the first row at its start.
    Waterfall(SpectrumOptions),
}

/// The samples a sink of `takes` ("complex", "float" or "byte", the sink's `msg_*` type) finds
/// in `msg`: a PDU (`(metadata . samples)`) or a bare uniform vector; an error says what else
/// came.
pub(crate) fn pdu_samples(msg: &Pmt, takes: &str) -> Result<Vec<Complex32>, String> {
    let data = match msg {
        Pmt::Pair(pair) => &pair.1,
        other => other,
    };
    let (kind, samples): (&str, Vec<Complex32>) = match data {
        Pmt::C32Vector(v) => ("complex", v.to_vec()),
        Pmt::F32Vector(v) => ("float", v.iter().map(|&x| Complex32::new(x, 0.0)).collect()),
        Pmt::U8Vector(v) => (
            "byte",
            v.iter().map(|&x| Complex32::new(x.into(), 0.0)).collect(),
        ),
        Pmt::S8Vector(v) => (
            "byte",
            v.iter().map(|&x| Complex32::new(x.into(), 0.0)).collect(),
        ),
        other => {
            let kind = match other {
                Pmt::U16Vector(_) | Pmt::U32Vector(_) | Pmt::U64Vector(_) => "unsigned integer",
                Pmt::S16Vector(_) | Pmt::S32Vector(_) | Pmt::S64Vector(_) => "integer",
                Pmt::F64Vector(_) => "double",
                Pmt::C64Vector(_) => "double complex",
                _ => return Err("the message is not a PDU or a vector of samples".into()),
            };
            return Err(format!(
                "a PDU of {kind} samples: this sink takes {takes} ones"
            ));
        }
    };
    if kind != takes {
        return Err(format!(
            "a PDU of {kind} samples: this sink takes {takes} ones"
        ));
    }
    Ok(samples)
}

/// `view` of `samples` (the PDU's); `count` is the number of messages so far, the `frames` of
/// the result. A spectrum is on GNU Radio's QT sinks' scale, with Blackman-Harris unless the
/// options name a window, over `fft` bins (1024 unless given).
///
/// # Errors
/// A window or FFT size [`Spectrum`] refuses.
pub(crate) fn pdu_view(
    id: &str,
    samples: &[Complex32],
    count: u64,
    view: PduView,
) -> Result<ProbeData, String> {
    let mut d = ProbeData {
        id: id.to_owned(),
        frames: count,
        ..ProbeData::default()
    };
    match view {
        PduView::Plot(View::Time) => {
            d.x_unit = "sample";
            d.x = (0..samples.len()).map(|k| k as f32).collect();
            d.y = samples.iter().map(|c| c.re).collect();
            d.y2 = samples.iter().map(|c| c.im).collect();
        }
        PduView::Plot(View::Constellation) => {
            d.x_unit = "I";
            d.x = samples.iter().map(|c| c.re).collect();
            d.y = samples.iter().map(|c| c.im).collect();
        }
        PduView::Plot(View::Spectrum(options)) => {
            let (fft, mut plan) = plan(options)?;
            d.y = averaged_spectrum(samples, fft, &mut plan);
            d.x = bins(fft);
            d.x_unit = "bin";
        }
        PduView::Waterfall(options) => {
            let (fft, mut plan) = plan(options)?;
            d.y = spectrogram(samples, fft, &mut plan);
            d.x = bins(fft);
            d.x_unit = "bin";
            d.rows = WATERFALL_ROWS;
        }
    }
    // JSON has no -inf: an empty bin reads as a very low power.
    d.y.iter_mut().for_each(|v| *v = v.max(-300.0));
    Ok(d)
}

/// The FFT length and plan for `options`.
fn plan(options: SpectrumOptions) -> Result<(usize, Spectrum), String> {
    let fft = options.fft.unwrap_or(1024);
    let window = options.window.unwrap_or(Window::BlackmanHarris);
    let plan = Spectrum::gnuradio(fft, window, options.normalize, true)
        .map_err(|e| format!("spectrum of {fft} bins: {e}"))?;
    Ok((fft, plan))
}

/// Bin offsets from the centre, `-fft/2` first.
fn bins(fft: usize) -> Vec<f32> {
    let half = (fft / 2) as f32;
    (0..fft).map(|k| k as f32 - half).collect()
}

/// The dB spectra of `fft` samples starting every `step` samples of `x` (the last ones
/// zero-padded), `count` of them, each passed to `each` with its index: the walk both of GNU
/// Radio's PDU sinks make, the window's end advancing with its start until the PDU's end.
fn walk(
    x: &[Complex32],
    fft: usize,
    step: usize,
    count: usize,
    plan: &mut Spectrum,
    mut each: impl FnMut(usize, &[f32]),
) {
    let mut buf = vec![Complex32::default(); fft];
    let mut db = vec![0.0; fft];
    let (mut lo, mut hi) = (0, fft.min(x.len()));
    for n in 0..count {
        buf.fill(Complex32::default());
        buf[..hi - lo].copy_from_slice(&x[lo..hi]);
        plan.process(&buf, &mut db);
        each(n, &db);
        lo += step;
        hi = (hi + step).min(x.len());
    }
}

/// GNU Radio's frequency sink on a PDU: the dB spectra of windows a quarter of a length
/// apart (`ceil(4·len/fft)` of them) averaged, in dB.
fn averaged_spectrum(x: &[Complex32], fft: usize, plan: &mut Spectrum) -> Vec<f32> {
    let count = (OVERLAP * x.len()).div_ceil(fft);
    if count == 0 {
        return Vec::new();
    }
    let mut sum = vec![0.0f64; fft];
    walk(x, fft, fft / OVERLAP, count, plan, |_, db| {
        for (s, d) in sum.iter_mut().zip(db) {
            *s += f64::from(*d);
        }
    });
    sum.into_iter().map(|s| (s / count as f64) as f32).collect()
}

/// GNU Radio's waterfall sink on a PDU: [`WATERFALL_ROWS`] spectra `(len - fft)/rows` samples
/// apart (all of the PDU's start when it is shorter than `fft`), row by row.
fn spectrogram(x: &[Complex32], fft: usize, plan: &mut Spectrum) -> Vec<f32> {
    if x.is_empty() {
        return Vec::new();
    }
    let stride = x.len().saturating_sub(fft) / WATERFALL_ROWS;
    let mut rows = vec![0.0; fft * WATERFALL_ROWS];
    walk(x, fft, stride, WATERFALL_ROWS, plan, |n, db| {
        rows[n * fft..(n + 1) * fft].copy_from_slice(db);
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn tone(len: usize, bin: f32, fft: usize) -> Vec<Complex32> {
        (0..len)
            .map(|n| {
                Complex32::from_polar(
                    1.0,
                    2.0 * std::f32::consts::PI * bin * n as f32 / fft as f32,
                )
            })
            .collect()
    }

    #[test]
    fn a_pdus_samples_of_the_sinks_type() {
        let pdu = Pmt::pair(Pmt::Null, Pmt::F32Vector(Arc::new([1.0, -2.0])));
        let got = pdu_samples(&pdu, "float").unwrap();
        assert_eq!(got, [Complex32::new(1.0, 0.0), Complex32::new(-2.0, 0.0)]);
        let err = pdu_samples(&pdu, "complex").unwrap_err();
        assert_eq!(err, "a PDU of float samples: this sink takes complex ones");
        let bytes = Pmt::U8Vector(Arc::new([7]));
        assert_eq!(
            pdu_samples(&bytes, "byte").unwrap(),
            [Complex32::new(7.0, 0.0)]
        );
        let err = pdu_samples(&Pmt::Double(1.0), "float").unwrap_err();
        assert!(err.contains("not a PDU"), "{err}");
    }

    #[test]
    fn the_frequency_sinks_average_is_gnu_radios_walk() {
        // 1000 samples at fft 256: ceil(4000/256) = 16 windows, 64 apart, the last ones
        // zero-padded; the average in dB of each window's spectrum, computed here window by
        // window.
        let x = tone(1000, 10.0, 256);
        let mut plan = Spectrum::gnuradio(256, Window::Hann, false, true).unwrap();
        let got = averaged_spectrum(&x, 256, &mut plan);
        let mut want = vec![0.0f64; 256];
        let mut db = vec![0.0; 256];
        for n in 0..16 {
            let lo = n * 64;
            let hi = (256 + n * 64).min(1000);
            let mut buf = vec![Complex32::default(); 256];
            buf[..hi - lo].copy_from_slice(&x[lo..hi]);
            plan.process(&buf, &mut db);
            want.iter_mut()
                .zip(&db)
                .for_each(|(w, d)| *w += f64::from(*d) / 16.0);
        }
        for (g, w) in got.iter().zip(&want) {
            assert!((f64::from(*g) - w).abs() < 1e-4, "{g} vs {w}");
        }
        // The tone's bin (DC in the middle) is the peak.
        let peak = (0..256).max_by(|&a, &b| got[a].total_cmp(&got[b])).unwrap();
        assert_eq!(peak, 128 + 10);
    }

    #[test]
    fn a_waterfall_of_a_chirp_climbs_row_by_row() {
        // Frequency rising through the PDU: later rows peak in higher bins.
        let len = 64 * 200 + 64;
        let x: Vec<Complex32> = (0..len)
            .map(|n| {
                let t = n as f32 / len as f32;
                Complex32::from_polar(1.0, std::f32::consts::PI * 20.0 * t * n as f32 / 64.0)
            })
            .collect();
        let d = pdu_view(
            "chirp",
            &x,
            3,
            PduView::Waterfall(SpectrumOptions {
                fft: Some(64),
                window: Some(Window::Hann),
                normalize: false,
            }),
        )
        .unwrap();
        assert_eq!((d.rows, d.y.len(), d.frames), (WATERFALL_ROWS, 64 * 200, 3));
        let peak = |row: usize| {
            let r = &d.y[row * 64..(row + 1) * 64];
            (0..64).max_by(|&a, &b| r[a].total_cmp(&r[b])).unwrap()
        };
        assert!(
            peak(0) < peak(100) && peak(100) < peak(199),
            "{} {} {}",
            peak(0),
            peak(100),
            peak(199)
        );
        // Shorter than one FFT: every row is the whole PDU's.
        let short = pdu_view(
            "s",
            &x[..10],
            1,
            PduView::Waterfall(SpectrumOptions::default()),
        )
        .unwrap();
        assert_eq!(short.y[..1024], short.y[199 * 1024..]);
    }
}
