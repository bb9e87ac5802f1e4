//! Graphs to profile by name (`radioflow profile GRAPH`): a built-in example receiver chain and
//! the graphs of the experiments (`radioflow_bench`).

use radioflow_bench::workload::{Kind, Processor};
use radioflow_bench::{buf, counters, fm, msg, opti};
use radioflow_bench::{BufParams, CountersParams, FmParams, MsgParams, OptiParams};
use radioflow_blocks::{
    FirFilter, Head, MultiplyConst, NullSink, RateProbe, RateSource, SignalSource, Waveform,
};
use radioflow_runtime::{Complex32, Flowgraph};

/// Names accepted by [`build`].
pub(crate) const GRAPH_NAMES: &[&str] = &[
    "example",
    "fir",
    "fir-chain",
    "buf",
    "opti",
    "msg",
    "workload",
    "fm",
];

/// Builds graph `name` sized by `samples` (items through each head block, or messages in the
/// burst for `msg`).
///
/// - `example`: complex tone -> head -> low-pass FIR (64 taps) -> gain -> null sink.
/// - `fir`, `fir-chain`: the `counters` experiment with 1 and 20 FIR filters of 100 taps.
/// - `buf`: 3 x 3 copy blocks; `opti`: 4 branches of 3 copies; `msg`: 3 x 3 forwarders.
/// - `workload`: a real-time source of 1e6 samples/s (so `samples` microseconds long) -> two
///   chained processors doing 1e5 floating-point divisions per packet -> rate probe.
/// - `fm`: the `fm` benchmark's mono receiver chain on its recording (made once in the
///   temporary directory): file source -> head -> channel filter -> demodulator -> audio
///   filter -> de-emphasis -> null sink.
///
/// # Errors
/// An unknown name.
pub(crate) fn build(name: &str, samples: u64) -> anyhow::Result<Flowgraph> {
    Ok(match name {
        "example" => example(samples),
        "fir" | "fir-chain" => {
            let stages = if name == "fir" { 1 } else { 20 };
            counters::build(&CountersParams {
                stages,
                samples,
                taps: 100,
            })?
            .0
        }
        "buf" => {
            buf::build(&BufParams {
                pipes: 3,
                stages: 3,
                samples,
            })?
            .0
        }
        "opti" => {
            opti::build(&OptiParams {
                pipes: 4,
                stages: 3,
                samples,
            })?
            .0
        }
        "msg" => {
            msg::build(&MsgParams {
                pipes: 3,
                stages: 3,
                burst: samples.min(1 << 20) as usize,
            })?
            .0
        }
        "workload" => {
            let mut fg = Flowgraph::new();
            let src = fg.add(RateSource::new(1e6, samples));
            let a = fg.add(Processor::new(Kind::FloatDivision, 50_000, 1));
            let b = fg.add(Processor::new(Kind::FloatDivision, 50_000, 1));
            let probe = fg.add(RateProbe::new());
            for (x, y) in [(src, a), (a, b), (b, probe)] {
                fg.connect(x, y)
                    .unwrap_or_else(|e| unreachable!("the workload graph is well-formed: {e}"));
            }
            fg
        }
        "fm" => {
            let input = fm::recording(&std::env::temp_dir())?;
            fm::build(&FmParams { samples, input })?.0
        }
        _ => anyhow::bail!("unknown graph '{name}' (known: {})", GRAPH_NAMES.join(", ")),
    })
}

/// A windowed-sinc low-pass filter: cut-off `cutoff` (fraction of the sample rate), Hamming
/// window.
pub(crate) fn lowpass(taps: usize, cutoff: f64) -> Vec<f32> {
    let m = (taps - 1) as f64 / 2.0;
    (0..taps)
        .map(|k| {
            let x = k as f64 - m;
            let sinc = if x == 0.0 {
                2.0 * cutoff
            } else {
                (2.0 * std::f64::consts::PI * cutoff * x).sin() / (std::f64::consts::PI * x)
            };
            let w = 0.54
                - 0.46 * (2.0 * std::f64::consts::PI * k as f64 / (taps - 1).max(1) as f64).cos();
            (sinc * w) as f32
        })
        .collect()
}

fn example(samples: u64) -> Flowgraph {
    let mut fg = Flowgraph::new();
    let src = fg.add(SignalSource::<Complex32>::new(
        Waveform::Cosine,
        10_000.0,
        1_000_000.0,
        1.0,
        Complex32::new(0.0, 0.0),
    ));
    let head = fg.add(Head::<Complex32>::new(samples));
    let fir = fg.add(FirFilter::<Complex32>::new(&lowpass(64, 0.1)));
    let gain = fg.add(MultiplyConst::new(Complex32::new(0.5, 0.0)));
    let sink = fg.add(NullSink::<Complex32>::new());
    for (a, b) in [(src, head), (head, fir), (fir, gain), (gain, sink)] {
        fg.connect(a, b)
            .unwrap_or_else(|e| unreachable!("the example graph is well-formed: {e}"));
    }
    fg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_graph_builds_and_runs() {
        for name in GRAPH_NAMES {
            let mut fg = build(name, 10_000).unwrap();
            fg.run().unwrap();
        }
        assert!(build("nope", 1).is_err());
    }

    #[test]
    fn lowpass_has_unit_gain_at_dc() {
        let t = lowpass(64, 0.1);
        let dc: f32 = t.iter().sum();
        assert!((dc - 1.0).abs() < 0.02, "{dc}");
    }
}
