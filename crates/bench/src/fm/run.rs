//! One `fm` run (issue 18): the mono FM receiver chain of GNU Radio's examples, on a recording read
//! from a file: file source (repeating) -> head(N) -> frequency-translating FIR decimating
//! by 10 (2.4 Msps -> 240 kHz) -> quadrature demod -> audio FIR decimating by 5 -> FM
//! de-emphasis -> null sink, i.e. `freq_xlating_fir_filter_ccf` then `analog.wfm_rcv` with
//! the same taps as GNU Radio's (`peers/gnuradio/fm_bench.py` runs GNU Radio's). Verified:
//! the sink received N / 50 audio samples.

use crate::experiment::timed_run;
use crate::measurement::{BenchError, Measurement};
use radioflow_blocks::dsp::firdes::{self, Window};
use radioflow_blocks::{
    DecimatingFirFilter, FileSource, FreqXlatingFirFilter, Head, IirFilter, NullSink,
    QuadratureDemod,
};
use radioflow_runtime::{BlockId, Complex32, Flowgraph, Scheduler};
use serde_json::json;
use std::f64::consts::PI;
use std::path::{Path, PathBuf};

/// The recording's rate.
pub const RATE: f64 = 2.4e6;
/// The station's offset from the recording's centre.
pub const OFFSET: f64 = 400e3;

/// Parameters of one `fm` run.
#[derive(Clone, Debug, PartialEq)]
pub struct FmParams {
    /// Input samples through the receiver.
    pub samples: u64,
    /// The recording (cf32 at [`RATE`], station at [`OFFSET`]), read over and over; see
    /// [`recording`].
    pub input: PathBuf,
}

/// The channel filter's taps, as GNU Radio designs them in the peer (145 taps).
pub fn channel_taps() -> Vec<f32> {
    firdes::low_pass(1.0, RATE, 100e3, 40e3, Window::Hamming).expect("valid design")
}

/// `wfm_rcv`'s audio filter at 240 kHz decimating by 5: cut at 48 kHz / 2 - 1.5 kHz with a
/// 1.5 kHz transition (385 taps), as GNU Radio 3.10's `wfm_rcv.py` designs it.
pub fn audio_taps() -> Vec<f32> {
    let audio_rate = RATE / 10.0 / 5.0;
    let width = audio_rate / 32.0;
    firdes::low_pass(
        1.0,
        RATE / 10.0,
        audio_rate / 2.0 - width,
        width,
        Window::Hamming,
    )
    .expect("valid design")
}

/// A one-second cf32 recording of an FM station (1 kHz tone, 75 kHz deviation) at
/// [`OFFSET`], written to `dir` once (19.2 MB) and reused.
///
/// # Errors
/// The file cannot be written.
pub fn recording(dir: &Path) -> Result<PathBuf, BenchError> {
    let path = dir.join("radioflow-bench-fm-2400000.cf32");
    let n = RATE as usize;
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == 8 * n as u64) {
        return Ok(path);
    }
    let mut bytes = Vec::with_capacity(8 * n);
    let mut phase = 0.0f64;
    for k in 0..n {
        let tone = (2.0 * PI * 1e3 * k as f64 / RATE).sin();
        phase = (phase + 2.0 * PI * (OFFSET + 0.5 * 75e3 * tone) / RATE) % (2.0 * PI);
        bytes.extend_from_slice(&(0.7 * phase.cos() as f32).to_le_bytes());
        bytes.extend_from_slice(&(0.7 * phase.sin() as f32).to_le_bytes());
    }
    std::fs::write(&path, bytes).map_err(|source| BenchError::Write {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// The chain reading `p.input` (repeated) for `p.samples` samples, and its null sink.
///
/// # Errors
/// The recording cannot be opened.
pub fn build(p: &FmParams) -> Result<(Flowgraph, BlockId), BenchError> {
    let mut fg = Flowgraph::new();
    let src = FileSource::<Complex32>::new(&p.input)
        .map_err(|e| BenchError::Params(format!("fm: {e}")))?
        .repeat(true);
    let src = fg.add_named("source", src);
    let head = fg.add_named("head", Head::<Complex32>::new(p.samples));
    let xlate = fg.add_named(
        "channel",
        FreqXlatingFirFilter::new(&channel_taps(), 10, OFFSET, RATE).expect("valid design"),
    );
    let demod = fg.add_named("demod", QuadratureDemod::for_deviation(RATE / 10.0, 75e3));
    let audio = fg.add_named(
        "audio",
        DecimatingFirFilter::<f32>::new(&audio_taps(), 5).expect("valid design"),
    );
    let deemph = fg.add_named(
        "deemphasis",
        IirFilter::fm_deemphasis(RATE / 50.0, 75e-6).expect("valid design"),
    );
    let sink = fg.add_named("sink", NullSink::<f32>::new());
    for (a, b) in [
        (src, head),
        (head, xlate),
        (xlate, demod),
        (demod, audio),
        (audio, deemph),
        (deemph, sink),
    ] {
        fg.connect(a, b)
            .unwrap_or_else(|e| unreachable!("the fm graph is well-formed: {e}"));
    }
    Ok((fg, sink))
}

/// One run of the chain on `scheduler`.
///
/// # Errors
/// The recording cannot be opened, or the graph fails.
pub fn run(p: &FmParams, scheduler: &dyn Scheduler) -> Result<Measurement, BenchError> {
    let (mut fg, sink) = build(p)?;
    let seconds = timed_run("fm", &mut fg, scheduler)?;
    let want = p.samples.div_ceil(50);
    let got = fg.block::<NullSink<f32>>(sink).map_or(0, NullSink::items);
    Ok(Measurement {
        experiment: "fm".into(),
        runtime: "radioflow".into(),
        scheduler: scheduler.name().into(),
        params: json!({ "samples": p.samples, "rate": RATE, "offset": OFFSET }),
        seconds,
        verified: got == want,
        detail: format!("{got} audio samples of {want}"),
        extra: serde_json::Value::Null,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::SingleThread;

    #[test]
    fn a_short_run_is_verified() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("short.cf32");
        // 0.1 s of an unmodulated carrier: the chain's counts, not its audio.
        std::fs::write(&input, vec![0u8; 8 * 240_000]).unwrap();
        let p = FmParams {
            samples: 500_000,
            input,
        };
        let m = run(&p, &SingleThread::new()).unwrap();
        assert!(m.verified, "{}", m.detail);
        assert_eq!(channel_taps().len(), 145);
        assert_eq!(audio_taps().len(), 385);
    }
}
