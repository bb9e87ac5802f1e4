//! Filters and resamplers (pfb_arb_resampler, fft_filter as the FIR filters, interp_fir_filter,
//! the real-taps FIR filters with a declared sample delay,
//! the complex-taps fir_filter_ccc, interp_fir_filter_ccc and fft_filter_ccc, dc_blocker)
//! and the frequency modulator, single-pole IIR filter and RMS level against GNU Radio 3.10's
//! own on the same inputs with tags, run by `gnuradio/filters.py` (one GNU Radio process for
//! the file), and under every scheduler: items within a float tolerance (the dot products are
//! summed in another order than VOLK's; GNU Radio's modulator takes its sines from a
//! fixed-point table), tags at the same offsets. GNU Radio's FM hier blocks (wfm_rcv, nbfm_rx,
//! wfm_tx, nbfm_tx) likewise, against its Python hier blocks, and its gain controls (agc_xx,
//! agc2_xx, every parameter given) and its MMSE resampler (mmse_resampler_ff/cc, ratios above and
//! below 1, a phase shift). Where GNU Radio stops short of the input's
//! end (its resampler's forecast asks for a window of history ahead, its FFT filters work in
//! whole FFT blocks), its output must be a prefix of radioflow's, at most that much shorter.
//! SKIPPED where GNU Radio is not installed.

use radioflow_blocks::runtime::{
    BlockId, Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use radioflow_blocks::{
    Agc, Agc2, ComplexFirFilter, ComplexInterpFirFilter, DcBlocker, DecimatingFirFilter, FirFilter,
    FrequencyModulator, InterpFirFilter, MmseResampler, NbfmRx, NbfmTx, PfbArbResampler, Rms,
    SinglePoleIirFilter, VectorSink, VectorSource, WfmRcv, WfmTx,
};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.filter"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Fixed-seed samples in [-1, 1).
fn samples(seed: u64, n: usize) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

/// Items of a case's input or output.
#[derive(Clone, Debug)]
enum Items {
    F(Vec<f32>),
    C(Vec<Complex32>),
}

impl Items {
    fn code(&self) -> &'static str {
        match self {
            Items::F(_) => "f",
            Items::C(_) => "c",
        }
    }

    fn bytes(&self) -> Vec<u8> {
        match self {
            Items::F(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Items::C(v) => v
                .iter()
                .flat_map(|x| [x.re.to_le_bytes(), x.im.to_le_bytes()].concat())
                .collect(),
        }
    }

    /// The components, for comparing.
    fn floats(&self) -> Vec<f32> {
        match self {
            Items::F(v) => v.clone(),
            Items::C(v) => v.iter().flat_map(|x| [x.re, x.im]).collect(),
        }
    }
}

/// One block on one input.
struct Case {
    name: &'static str,
    /// GNU Radio's constructor, as Python.
    gr: String,
    input: Items,
    /// Output `f` or `c`.
    out: &'static str,
    tags: Vec<u64>,
    /// radioflow's block, added to a graph.
    block: Box<dyn Fn(&mut Flowgraph) -> BlockId>,
    /// Largest difference allowed, relative to the largest output.
    tol: f32,
    /// How many outputs GNU Radio may leave out at the end.
    slack: usize,
}

/// Runs `case` on `scheduler`: output items (as `f32` components) and tag offsets.
fn run(case: &Case, scheduler: &dyn Scheduler) -> (Vec<f32>, Vec<u64>) {
    let mut fg = Flowgraph::new();
    let tags: Vec<Tag> = case
        .tags
        .iter()
        .map(|&o| Tag::new(o, "t", Pmt::Int(o as i64)))
        .collect();
    let src = match &case.input {
        Items::F(v) => fg.add(VectorSource::new(v.clone()).tags(tags)),
        Items::C(v) => fg.add(VectorSource::new(v.clone()).tags(tags)),
    };
    let block = (case.block)(&mut fg);
    fg.connect(src, block).unwrap();
    let (data, tags): (Vec<f32>, Vec<Tag>) = if case.out == "f" {
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(block, sink).unwrap();
        fg.run_with(scheduler).unwrap();
        let s = fg.block::<VectorSink<f32>>(sink).unwrap();
        (s.data().to_vec(), s.tags().to_vec())
    } else {
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.connect(block, sink).unwrap();
        fg.run_with(scheduler).unwrap();
        let s = fg.block::<VectorSink<Complex32>>(sink).unwrap();
        (Items::C(s.data().to_vec()).floats(), s.tags().to_vec())
    };
    (data, tags.iter().map(|t| t.offset).collect())
}

fn cases() -> Vec<Case> {
    let n = 1500;
    let re = samples(1, 2 * n);
    let noise: Vec<Complex32> = re.chunks(2).map(|c| Complex32::new(c[0], c[1])).collect();
    let real = samples(2, n);
    let tags = vec![0, 100, 105, 333, 1000];
    let mut cases = Vec::new();
    // The resampler: GNU Radio's default taps above and below rate 1 (optfir, low_pass_2),
    // given taps, float items, a declared sample delay.
    for (name, rate, delay) in [("pfb_ccf_1_37", 1.37, 0), ("pfb_ccf_0_61", 0.61, 3)] {
        cases.push(Case {
            name,
            gr: format!(
                "(lambda b: (b.declare_sample_delay({delay}), b)[1])\
                 (pfb.arb_resampler_ccf({rate}, taps=None, flt_size=32))"
            ),
            input: Items::C(noise.clone()),
            out: "c",
            tags: tags.clone(),
            block: Box::new(move |fg| {
                let b = PfbArbResampler::<Complex32>::new(rate, &[], 32, 100.0).unwrap();
                fg.add(b.with_delay(delay))
            }),
            tol: 1e-5,
            slack: 40,
        });
    }
    cases.push(Case {
        name: "pfb_fff_given_taps",
        gr: "pfb.arb_resampler_fff(2.3, taps=firdes.low_pass(16, 16, 0.4, 0.1), flt_size=16)"
            .into(),
        input: Items::F(real),
        out: "f",
        tags: tags.clone(),
        block: Box::new(|fg| {
            let taps = radioflow_dsp::firdes::low_pass(
                16.0,
                16.0,
                0.4,
                0.1,
                radioflow_dsp::firdes::Window::Hamming,
            )
            .unwrap();
            fg.add(PfbArbResampler::<f32>::new(2.3, &taps, 16, 100.0).unwrap())
        }),
        tol: 1e-5,
        slack: 40,
    });
    // GNU Radio's FFT filters compute the FIR filter's convolution by blocks of FFTs: the
    // table maps them to radioflow's (SIMD, direct) FIR filters, which must give the same
    // outputs, decimation phase and tags included. GNU Radio's stop at a whole FFT block
    // (here 128 - 49 + 1 = 80 inputs) before the end.
    let lp = || {
        radioflow_dsp::firdes::low_pass(1.0, 1.0, 0.1, 0.05, radioflow_dsp::firdes::Window::Hamming)
            .unwrap()
    };
    let taps_py = "firdes.low_pass(1.0, 1.0, 0.1, 0.05)";
    cases.push(Case {
        name: "fft_filter_ccf_1",
        gr: format!("filter.fft_filter_ccf(1, {taps_py}, 1)"),
        input: Items::C(noise.clone()),
        out: "c",
        tags: tags.clone(),
        block: Box::new(move |fg| fg.add(FirFilter::<Complex32>::new(&lp()))),
        tol: 1e-5,
        slack: 80,
    });
    cases.push(Case {
        name: "fft_filter_ccf_3",
        gr: format!("filter.fft_filter_ccf(3, {taps_py}, 2)"),
        input: Items::C(noise.clone()),
        out: "c",
        tags: tags.clone(),
        block: Box::new(move |fg| fg.add(DecimatingFirFilter::<Complex32>::new(&lp(), 3).unwrap())),
        tol: 1e-5,
        slack: 80,
    });
    cases.push(Case {
        name: "fft_filter_fff_2",
        gr: format!("filter.fft_filter_fff(2, {taps_py}, 1)"),
        input: Items::F(samples(3, 1500)),
        out: "f",
        tags: tags.clone(),
        block: Box::new(move |fg| fg.add(DecimatingFirFilter::<f32>::new(&lp(), 2).unwrap())),
        tol: 1e-5,
        slack: 80,
    });
    for (name, interp, complex) in [
        ("interp_fir_ccf_3", 3, true),
        ("interp_fir_fff_4", 4, false),
    ] {
        let kind = if complex { "ccf" } else { "fff" };
        cases.push(Case {
            name,
            gr: format!("filter.interp_fir_filter_{kind}({interp}, {taps_py})"),
            input: if complex {
                Items::C(noise[..500].to_vec())
            } else {
                Items::F(samples(4, 500))
            },
            out: if complex { "c" } else { "f" },
            tags: vec![0, 100, 105, 333],
            block: Box::new(move |fg| {
                if complex {
                    fg.add(InterpFirFilter::<Complex32>::new(&lp(), interp).unwrap())
                } else {
                    fg.add(InterpFirFilter::<f32>::new(&lp(), interp).unwrap())
                }
            }),
            tol: 1e-5,
            slack: 0,
        });
    }
    // The frequency modulator: GNU Radio's sine and cosine come from a fixed-point table.
    cases.push(Case {
        name: "frequency_modulator",
        gr: "analog.frequency_modulator_fc(0.7)".into(),
        input: Items::F(samples(5, 1500)),
        out: "c",
        tags: tags.clone(),
        block: Box::new(|fg| fg.add(FrequencyModulator::new(0.7))),
        tol: 1e-4,
        slack: 0,
    });
    // The single-pole IIR filter and the RMS level (f64 state, as GNU Radio's).
    for complex in [false, true] {
        let (t, input) = if complex {
            ("c", Items::C(noise.clone()))
        } else {
            ("f", Items::F(samples(6, 1500)))
        };
        cases.push(Case {
            name: if complex {
                "single_pole_cc"
            } else {
                "single_pole_ff"
            },
            gr: format!("filter.single_pole_iir_filter_{t}{t}(0.05, 1)"),
            input: input.clone(),
            out: t,
            tags: tags.clone(),
            block: Box::new(move |fg| {
                if complex {
                    fg.add(SinglePoleIirFilter::<Complex32>::new(0.05).unwrap())
                } else {
                    fg.add(SinglePoleIirFilter::<f32>::new(0.05).unwrap())
                }
            }),
            tol: 1e-6,
            slack: 0,
        });
        cases.push(Case {
            name: if complex { "rms_cf" } else { "rms_ff" },
            gr: format!("blocks.rms_{t}f(0.01)"),
            input,
            out: "f",
            tags: tags.clone(),
            block: Box::new(move |fg| {
                if complex {
                    fg.add(Rms::<Complex32>::new(0.01).unwrap())
                } else {
                    fg.add(Rms::<f32>::new(0.01).unwrap())
                }
            }),
            tol: 1e-6,
            slack: 0,
        });
    }
    // Complex taps (type ccc): decimation, interpolation and GNU Radio's declared sample
    // delay (samp_delay), which moves the tags.
    let ctaps: Vec<Complex32> = samples(9, 46)
        .chunks(2)
        .map(|c| Complex32::new(c[0], c[1]))
        .collect();
    let ctaps_py = format!(
        "[{}]",
        ctaps
            .iter()
            .map(|t| format!("complex({:?}, {:?})", t.re, t.im))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let delayed = |delay: u64, make: String| {
        format!("(lambda b: (b.declare_sample_delay({delay}), b)[1])({make})")
    };
    for (name, decimation, delay, fft) in [
        ("fir_filter_ccc_1", 1, 0, false),
        ("fir_filter_ccc_3_delay_30", 3, 30, false),
        ("fft_filter_ccc_2", 2, 0, true),
    ] {
        let ctaps = ctaps.clone();
        let make = if fft {
            format!("filter.fft_filter_ccc({decimation}, {ctaps_py}, 1)")
        } else {
            format!("filter.fir_filter_ccc({decimation}, {ctaps_py})")
        };
        cases.push(Case {
            name,
            gr: delayed(delay, make),
            input: Items::C(noise.clone()),
            out: "c",
            tags: tags.clone(),
            block: Box::new(move |fg| {
                let b = ComplexFirFilter::<Complex32>::new(&ctaps, decimation).unwrap();
                fg.add(b.with_delay(delay))
            }),
            tol: 1e-5,
            // GNU Radio's FFT filter stops at a whole FFT block (64 - 23 + 1 inputs).
            slack: if fft { 64 } else { 0 },
        });
    }
    // Real taps with GNU Radio's declared sample delay (samp_delay, GRC's fir_filter_xxx and
    // interp_fir_filter_xxx), which moves the tags: plain, decimating and interpolating.
    for (name, decimation, interp, delay) in [
        ("fir_filter_fff_delay_7", 1, 1, 7),
        ("fir_filter_fff_3_delay_30", 3, 1, 30),
        ("interp_fir_fff_4_delay_5", 1, 4, 5),
    ] {
        let make = if interp > 1 {
            format!("filter.interp_fir_filter_fff({interp}, {taps_py})")
        } else {
            format!("filter.fir_filter_fff({decimation}, {taps_py})")
        };
        cases.push(Case {
            name,
            gr: delayed(delay, make),
            // 699 inputs, a multiple of the decimation: at the end of a stream whose length is
            // not, GNU Radio's decimator makes one output fewer (it needs all `decimation`
            // inputs of the last one; ours only its newest).
            input: Items::F(samples(5, 699)),
            out: "f",
            tags: vec![0, 100, 105, 333],
            block: Box::new(move |fg| match (decimation, interp) {
                (1, 1) => fg.add(FirFilter::<f32>::new(&lp()).with_delay(delay)),
                (d, 1) => fg.add(
                    DecimatingFirFilter::<f32>::new(&lp(), d)
                        .unwrap()
                        .with_delay(delay),
                ),
                (_, i) => fg.add(
                    InterpFirFilter::<f32>::new(&lp(), i)
                        .unwrap()
                        .with_delay(delay),
                ),
            }),
            tol: 1e-5,
            slack: 0,
        });
    }
    // The DC blocker, long and short form, with a DC offset to remove.
    for (name, length, long_form, complex) in [
        ("dc_blocker_ff_32_long", 32, true, false),
        ("dc_blocker_cc_13_short", 13, false, true),
    ] {
        let offset = |x: f32| x + 0.5;
        let long = if long_form { "True" } else { "False" };
        cases.push(Case {
            name,
            gr: format!(
                "filter.dc_blocker_{}({length}, {long})",
                if complex { "cc" } else { "ff" }
            ),
            input: if complex {
                Items::C(
                    noise
                        .iter()
                        .map(|z| Complex32::new(offset(z.re), z.im))
                        .collect(),
                )
            } else {
                Items::F(samples(3, n).into_iter().map(offset).collect())
            },
            out: if complex { "c" } else { "f" },
            tags: tags.clone(),
            block: Box::new(move |fg| {
                if complex {
                    fg.add(DcBlocker::<Complex32>::new(length, long_form).unwrap())
                } else {
                    fg.add(DcBlocker::<f32>::new(length, long_form).unwrap())
                }
            }),
            tol: 1e-5,
            slack: 0,
        });
    }
    fm_cases(&mut cases, &tags);
    agc_cases(&mut cases, &noise, &tags);
    mmse_cases(&mut cases, &noise, &tags);
    let taps = ctaps.clone();
    cases.push(Case {
        name: "interp_fir_filter_ccc_3_delay_5",
        gr: delayed(5, format!("filter.interp_fir_filter_ccc(3, {ctaps_py})")),
        input: Items::C(noise.clone()),
        out: "c",
        tags: tags.clone(),
        block: Box::new(move |fg| {
            let b = ComplexInterpFirFilter::<Complex32>::new(&taps, 3).unwrap();
            fg.add(b.with_delay(5))
        }),
        tol: 1e-5,
        slack: 0,
    });
    cases
}

/// Smooth audio in about [-0.5, 0.5]: noise through a moving average of 8 (white noise,
/// pre-emphasised up to 50 times, would turn the modulator's phase by tens of radians a
/// sample, where GNU Radio's wrapping and radioflow's round differently).
fn audio(seed: u64, n: usize) -> Vec<f32> {
    let x = samples(seed, n + 8);
    (0..n)
        .map(|i| x[i..i + 8].iter().sum::<f32>() / 16.0)
        .collect()
}

/// GNU Radio's FM receivers and transmitters (its Python hier blocks).
fn fm_cases(cases: &mut Vec<Case>, tags: &[u64]) {
    // An FM signal: the phase steps by the audio, at most half a radian a sample (far from
    // ±π, where a demodulator's angle would jump by 2π on a rounding difference).
    let mut phase = 0f64;
    let fm: Vec<Complex32> = audio(7, 1500)
        .iter()
        .map(|&a| {
            phase += f64::from(a);
            Complex32::new(phase.cos() as f32, phase.sin() as f32)
        })
        .collect();
    cases.push(Case {
        name: "wfm_rcv_250k_5",
        gr: "analog.wfm_rcv(quad_rate=250e3, audio_decimation=5)".into(),
        input: Items::C(fm.clone()),
        out: "f",
        tags: tags.to_vec(),
        block: Box::new(|fg| fg.add(WfmRcv::new(250e3, 5).unwrap())),
        tol: 1e-4,
        slack: 0,
    });
    cases.push(Case {
        name: "nbfm_rx_40k_8k",
        gr: "analog.nbfm_rx(audio_rate=8000, quad_rate=40000, tau=50e-6, max_dev=3e3)".into(),
        input: Items::C(fm),
        out: "f",
        tags: tags.to_vec(),
        block: Box::new(|fg| fg.add(NbfmRx::new(8000, 40000, 50e-6, 3e3).unwrap())),
        tol: 1e-4,
        slack: 0,
    });
    let few: Vec<u64> = vec![0, 21, 100, 299];
    for (name, audio_rate, quad_rate, fh) in [
        ("wfm_tx_48k_240k", 48_000, 240_000, -1.0),
        ("wfm_tx_240k_240k_fh", 240_000, 240_000, 90e3),
    ] {
        cases.push(Case {
            name,
            gr: format!(
                "analog.wfm_tx(audio_rate={audio_rate}, quad_rate={quad_rate}, tau=75e-6, \
                 max_dev=75e3, fh={fh:?})"
            ),
            input: Items::F(audio(8, 300)),
            out: "c",
            tags: few.clone(),
            block: Box::new(move |fg| {
                fg.add(WfmTx::new(audio_rate, quad_rate, 75e-6, 75e3, fh).unwrap())
            }),
            tol: 1e-4,
            slack: 0,
        });
    }
    cases.push(Case {
        name: "nbfm_tx_8k_40k",
        gr: "analog.nbfm_tx(audio_rate=8000, quad_rate=40000, tau=50e-6, max_dev=2.5e3, fh=-1.0)"
            .into(),
        input: Items::F(audio(9, 300)),
        out: "c",
        tags: few,
        block: Box::new(|fg| fg.add(NbfmTx::new(8000, 40000, 50e-6, 2.5e3, -1.0).unwrap())),
        tol: 1e-4,
        slack: 0,
    });
}

/// GNU Radio's automatic gain controls, complex and real, with a loud start (the attack)
/// and a quiet rest (the decay), max_gain set after making as GRC's template does.
fn agc_cases(cases: &mut Vec<Case>, noise: &[Complex32], tags: &[u64]) {
    let loud = |i: usize| if i < 300 { 3.0 } else { 0.1 };
    let c: Vec<Complex32> = noise.iter().enumerate().map(|(i, z)| z * loud(i)).collect();
    let f: Vec<f32> = c.iter().map(|z| z.re).collect();
    let with_max =
        |max: f32, make: String| format!("(lambda b: (b.set_max_gain({max:?}), b)[1])({make})");
    for complex in [false, true] {
        let (t, input) = if complex {
            ("cc", Items::C(c.clone()))
        } else {
            ("ff", Items::F(f.clone()))
        };
        let out = if complex { "c" } else { "f" };
        cases.push(Case {
            name: if complex { "agc_cc" } else { "agc_ff" },
            gr: with_max(4.0, format!("analog.agc_{t}(2e-3, 0.8, 1.5)")),
            input: input.clone(),
            out,
            tags: tags.to_vec(),
            block: Box::new(move |fg| {
                if complex {
                    fg.add(Agc::<Complex32>::new(2e-3, 0.8, 1.5, 4.0).unwrap())
                } else {
                    fg.add(Agc::<f32>::new(2e-3, 0.8, 1.5, 4.0).unwrap())
                }
            }),
            tol: 1e-6,
            slack: 0,
        });
        for max in [0.0, 3.0] {
            cases.push(Case {
                name: match (complex, max > 0.0) {
                    (true, true) => "agc2_cc_max_3",
                    (true, false) => "agc2_cc_max_0",
                    (false, true) => "agc2_ff_max_3",
                    (false, false) => "agc2_ff_max_0",
                },
                gr: with_max(max, format!("analog.agc2_{t}(0.2, 0.01, 0.7, 2.0)")),
                input: input.clone(),
                out,
                tags: tags.to_vec(),
                block: Box::new(move |fg| {
                    if complex {
                        fg.add(Agc2::<Complex32>::new(0.2, 0.01, 0.7, 2.0, max).unwrap())
                    } else {
                        fg.add(Agc2::<f32>::new(0.2, 0.01, 0.7, 2.0, max).unwrap())
                    }
                }),
                tol: 1e-6,
                slack: 0,
            });
        }
    }
}

/// GNU Radio's MMSE resampler, real and complex, fewer and more outputs than inputs. Its
/// forecast asks for a whole window ahead of the last output: it leaves out up to 2 at the end.
fn mmse_cases(cases: &mut Vec<Case>, noise: &[Complex32], tags: &[u64]) {
    for (ratio, phase) in [(1.5f32, 0.25f32), (0.7, 0.0)] {
        for complex in [false, true] {
            let (t, input, out) = if complex {
                ("cc", Items::C(noise.to_vec()), "c")
            } else {
                ("ff", Items::F(noise.iter().map(|z| z.re).collect()), "f")
            };
            cases.push(Case {
                name: match (complex, ratio > 1.0) {
                    (true, true) => "mmse_resampler_cc_1.5",
                    (true, false) => "mmse_resampler_cc_0.7",
                    (false, true) => "mmse_resampler_ff_1.5",
                    (false, false) => "mmse_resampler_ff_0.7",
                },
                gr: format!("filter.mmse_resampler_{t}({phase:?}, {ratio:?})"),
                input,
                out,
                tags: tags.to_vec(),
                block: Box::new(move |fg| {
                    if complex {
                        fg.add(MmseResampler::<Complex32>::new(phase, ratio).unwrap())
                    } else {
                        fg.add(MmseResampler::<f32>::new(phase, ratio).unwrap())
                    }
                }),
                tol: 1e-5,
                slack: 2,
            });
        }
    }
}

/// Every scheduler the results must not depend on, and whether tags land exactly where
/// GNU Radio's do: with tiny buffers a block may have taken input ahead of outputs already
/// made, and a tag then lands on the next output out (as the blocks' docs say), never
/// earlier.
fn schedulers() -> Vec<(Box<dyn Scheduler>, bool)> {
    let tiny = FlowScheduler::new()
        .workers(2)
        .chunk_bytes(64)
        .buffer_bytes(4096);
    vec![
        (Box::new(SingleThread::new()), true),
        (Box::new(ThreadPerBlock::new()), true),
        (Box::new(FlowScheduler::new()), true),
        (Box::new(tiny), false),
    ]
}

#[test]
fn filters_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.filter)");
        return;
    }
    let cases = cases();
    let dir = tempfile::tempdir().unwrap();
    let specs: Vec<Value> = cases
        .iter()
        .map(|c| {
            let file = dir.path().join(format!("{}.in.bin", c.name));
            std::fs::write(&file, c.input.bytes()).unwrap();
            let tags: Vec<Value> = c.tags.iter().map(|&o| json!([o, "t", o])).collect();
            json!({"name": c.name, "make": c.gr, "type": c.input.code(), "out_type": c.out,
                   "file": file, "tags": tags})
        })
        .collect();
    let job = json!({"out": dir.path(), "cases": specs});
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/filters.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.to_string().as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success(), "GNU Radio's script failed");
    let mut failures = Vec::new();
    for c in &cases {
        let bytes = std::fs::read(dir.path().join(format!("{}.bin", c.name))).unwrap();
        let theirs: Vec<f32> = bytes
            .chunks(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        let their_tags: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(format!("{}.tags.json", c.name))).unwrap(),
        )
        .unwrap();
        let their_tags: Vec<u64> = their_tags
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t[0].as_u64().unwrap())
            .collect();
        let per_item = if c.out == "c" { 2 } else { 1 };
        let peak = theirs.iter().fold(0f32, |m, x| m.max(x.abs()));
        for (s, exact_tags) in schedulers() {
            let (ours, tags) = run(c, s.as_ref());
            let what = format!("{} ({}) on {}", c.name, c.gr, s.name());
            if ours.len() < theirs.len() || ours.len() > theirs.len() + c.slack * per_item {
                failures.push(format!(
                    "{what}: {} items, GNU Radio's {}",
                    ours.len() / per_item,
                    theirs.len() / per_item
                ));
                continue;
            }
            if let Some(i) = (0..theirs.len()).find(|&i| (ours[i] - theirs[i]).abs() > c.tol * peak)
            {
                failures.push(format!(
                    "{what}: item {}: {} vs GNU Radio's {}",
                    i / per_item,
                    ours[i],
                    theirs[i]
                ));
            }
            let later =
                tags.len() == their_tags.len() && tags.iter().zip(&their_tags).all(|(a, b)| a >= b);
            if tags != their_tags && (exact_tags || !later) {
                failures.push(format!(
                    "{what}: tags at {tags:?}, GNU Radio's {their_tags:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    println!("{} GNU Radio cases equal", cases.len());
}
