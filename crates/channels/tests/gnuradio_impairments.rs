//! The quantizer and the amplitude balance against GNU Radio 3.10's `channels.quantizer`
//! (ties, values beyond the range, 1 to 20 bits) and `channels.amp_bal` (alpha 0, which
//! makes NaN, to 1) on the same input, in one GNU Radio process: outputs bit for bit (the
//! same float products, rounding and saturation; the same f64 averages), NaN where GNU
//! Radio's is, under each scheduler. The hardware impairments against GNU Radio's
//! hierarchical `channels.impairments` (its Gaussian phase noise of seed 42, the distortions,
//! IQ imbalance, DC and frequency offsets): within 1e-5 without a frequency offset (the same
//! operations; VOLK may round a product differently), 1e-4 with one (GNU Radio's oscillator
//! is a fixed-point table). SKIPPED where GNU Radio is not installed.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_channels::{AmpBal, Impairments, Quantizer};
use radioflow_runtime::{
    Complex32, FlowScheduler, Flowgraph, Scheduler, SingleThread, ThreadPerBlock,
};
use std::process::Command;

const PYTHON: &str = "/usr/bin/python3";
const BITS: [i64; 6] = [1, 3, 8, 16, 17, 20];
const ALPHAS: [f64; 4] = [0.0, 0.01, 0.5, 1.0];
/// `channels.impairments`' parameters, in its order: phase_noise_mag, magbal, phasebal,
/// q_ofs, i_ofs, freq_offset, gamma, beta.
const IMPAIRMENTS: [[f64; 8]; 3] = [
    [0.0; 8],
    [-20.0, 0.5, 3.0, 0.01, -0.02, 0.0, 0.1, -0.2],
    [-30.0, -0.7, -5.0, 0.0, 0.03, 0.013, 0.05, 0.08],
];

/// 600 deterministic complex samples within ±1 (an LCG).
fn impairment_input() -> Vec<Complex32> {
    let mut state = 5u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    (0..600).map(|_| Complex32::new(next(), next())).collect()
}

fn input() -> Vec<f32> {
    // A ramp through ±1.5 in steps that land on ties of the coarse grids, and a few values
    // between.
    (0..=96)
        .map(|i| (i as f32 - 48.0) / 32.0)
        .chain([0.123_456_7, -0.987_654_3, 1e-6, -0.499_99, 0.500_01])
        .collect()
}

#[test]
fn the_quantizer_equals_gnu_radio_s() {
    let x = input();
    let data: Vec<String> = x.iter().map(|v| format!("{v:e}")).collect();
    // The same numbers as complex samples: even items in phase, odd ones · 0.3 in quadrature.
    let odd: Vec<f32> = x.iter().skip(1).step_by(2).map(|&v| v * 0.3).collect();
    let c: Vec<Complex32> = x
        .iter()
        .step_by(2)
        .enumerate()
        .map(|(i, &re)| Complex32::new(re, odd.get(i).copied().unwrap_or(0.0)))
        .collect();
    let cdata: Vec<String> = c
        .iter()
        .map(|z| format!("complex({:e}, {:e})", z.re, z.im))
        .collect();
    let y = impairment_input();
    let impaired: Vec<String> = y
        .iter()
        .map(|z| format!("complex({:e}, {:e})", z.re, z.im))
        .collect();
    let script = format!(
        "from gnuradio import blocks, channels, gr\n\
         import numpy\n\
         x = numpy.array([{}], dtype=numpy.float32).tolist()\n\
         for bits in {BITS:?}:\n\
         \x20   tb = gr.top_block()\n\
         \x20   src = blocks.vector_source_f(x)\n\
         \x20   q = channels.quantizer(bits)\n\
         \x20   snk = blocks.vector_sink_f()\n\
         \x20   tb.connect(src, q, snk)\n\
         \x20   tb.run()\n\
         \x20   print(' '.join(numpy.array(snk.data(), dtype=numpy.float32).view(numpy.uint32).astype(str)))\n\
         c = numpy.array([{}], dtype=numpy.complex64)\n\
         for alpha in {ALPHAS:?}:\n\
         \x20   tb = gr.top_block()\n\
         \x20   src = blocks.vector_source_c(c.tolist())\n\
         \x20   q = channels.amp_bal(alpha)\n\
         \x20   snk = blocks.vector_sink_c()\n\
         \x20   tb.connect(src, q, snk)\n\
         \x20   tb.run()\n\
         \x20   print(' '.join(numpy.array(snk.data(), dtype=numpy.complex64).view(numpy.uint32).astype(str)))\n\
         y = numpy.array([{}], dtype=numpy.complex64)\n\
         for p in {IMPAIRMENTS:?}:\n\
         \x20   tb = gr.top_block()\n\
         \x20   src = blocks.vector_source_c(y.tolist())\n\
         \x20   q = channels.impairments(*p)\n\
         \x20   snk = blocks.vector_sink_c()\n\
         \x20   tb.connect(src, q, snk)\n\
         \x20   tb.run()\n\
         \x20   print(' '.join(numpy.array(snk.data(), dtype=numpy.complex64).view(numpy.uint32).astype(str)))\n",
        data.join(", "),
        cdata.join(", "),
        impaired.join(", ")
    );
    let out = match Command::new(PYTHON).args(["-c", &script]).output() {
        Ok(o) if o.status.success() => o,
        _ => {
            println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot run channels.quantizer)");
            return;
        }
    };
    let text = String::from_utf8(out.stdout).unwrap();
    let theirs: Vec<Vec<f32>> = text
        .lines()
        .map(|l| {
            l.split(' ')
                .map(|b| f32::from_bits(b.parse().unwrap()))
                .collect()
        })
        .collect();
    assert_eq!(theirs.len(), BITS.len() + ALPHAS.len() + IMPAIRMENTS.len());
    let (theirs, rest) = theirs.split_at(BITS.len());
    let (balanced, impaired) = rest.split_at(ALPHAS.len());
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(FlowScheduler::new().chunk_bytes(24).buffer_bytes(4096)),
    ];
    for (bits, want) in BITS.iter().zip(theirs) {
        for s in &schedulers {
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(x.clone()));
            let q = fg.add(Quantizer::new(*bits).unwrap());
            let sink = fg.add(VectorSink::<f32>::new());
            fg.connect(src, q).unwrap();
            fg.connect(q, sink).unwrap();
            fg.run_with(s.as_ref()).unwrap();
            let got = fg.block::<VectorSink<f32>>(sink).unwrap().data().to_vec();
            let bits_of = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits_of(&got),
                bits_of(want),
                "{bits} bits under {}: ours {got:?}, GNU Radio's {want:?}",
                s.name()
            );
        }
    }
    assert!(Quantizer::new(0).is_err() && Quantizer::new(33).is_err());

    for (alpha, want) in ALPHAS.iter().zip(balanced) {
        for s in &schedulers {
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(c.clone()));
            let b = fg.add(AmpBal::new(*alpha).unwrap());
            let sink = fg.add(VectorSink::<Complex32>::new());
            fg.connect(src, b).unwrap();
            fg.connect(b, sink).unwrap();
            fg.run_with(s.as_ref()).unwrap();
            let got: Vec<f32> = fg
                .block::<VectorSink<Complex32>>(sink)
                .unwrap()
                .data()
                .iter()
                .flat_map(|z| [z.re, z.im])
                .collect();
            assert_eq!(got.len(), want.len(), "alpha {alpha}");
            for (i, (a, b)) in got.iter().zip(want).enumerate() {
                assert!(
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    "alpha {alpha} under {}: real {i}: ours {a}, GNU Radio's {b}",
                    s.name()
                );
            }
        }
    }
    assert!(AmpBal::new(1.5).is_err());

    for (p, want) in IMPAIRMENTS.iter().zip(impaired) {
        let tolerance = if p[5] == 0.0 { 1e-5 } else { 1e-4 };
        for s in &schedulers {
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(y.clone()));
            let b =
                fg.add(Impairments::new(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]).unwrap());
            let sink = fg.add(VectorSink::<Complex32>::new());
            fg.connect(src, b).unwrap();
            fg.connect(b, sink).unwrap();
            fg.run_with(s.as_ref()).unwrap();
            let got: Vec<f32> = fg
                .block::<VectorSink<Complex32>>(sink)
                .unwrap()
                .data()
                .iter()
                .flat_map(|z| [z.re, z.im])
                .collect();
            // GNU Radio's hierarchical block stops up to a few samples short of the end
            // (its oscillator and noise sources never end); every sample comes out here.
            assert!(
                want.len() >= 1000,
                "impairments {p:?}: GNU Radio made {}",
                want.len()
            );
            assert_eq!(got.len(), 2 * y.len(), "impairments {p:?}");
            for (i, (a, b)) in got.iter().zip(want).enumerate() {
                assert!(
                    (a - b).abs() <= tolerance * b.abs().max(1.0),
                    "impairments {p:?} under {}: real {i}: ours {a}, GNU Radio's {b}",
                    s.name()
                );
            }
        }
    }
    assert!(Impairments::new(0.0, f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0).is_err());
}
