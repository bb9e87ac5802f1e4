//! signal_source's square, triangle and sawtooth waves against GNU Radio 3.10's
//! `analog.sig_source_f` / `sig_source_c` on the same settings, one GNU Radio process for all.
//! GNU Radio accumulates the phase in a float where radioflow's NCO is exact, so a sample may
//! differ only where the phase is within a hair of one of the waves' corners. SKIPPED where GNU
//! Radio is not installed.

use radioflow_blocks::{SignalSource, VectorSink, Waveform};
use radioflow_runtime::{Complex32, Flowgraph};
use std::f64::consts::{FRAC_PI_2, PI};
use std::process::Command;

const PYTHON: &str = "/usr/bin/python3";
const N: usize = 5000;
const RATE: f64 = 48_000.0;
const FREQ: f64 = 1_000.0;
const AMP: f32 = 2.0;
const PHASE: f64 = 0.3;

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.analog"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// radioflow's `n` samples of `waveform`.
fn ours<T: radioflow_blocks::SignalItem>(waveform: Waveform, offset: T) -> Vec<T> {
    let mut fg = Flowgraph::new();
    let src = fg.add(SignalSource::<T>::new(waveform, FREQ, RATE, AMP, offset).phase(PHASE));
    let head = fg.add(radioflow_blocks::Head::<T>::new(N as u64));
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect(src, head).unwrap();
    fg.connect(head, sink).unwrap();
    fg.run().unwrap();
    fg.block::<VectorSink<T>>(sink).unwrap().data().to_vec()
}

/// Whether sample `n`'s phase (exact) is within `eps` of a corner of the waves.
fn near_corner(n: usize) -> bool {
    let p = (PHASE + 2.0 * PI * FREQ / RATE * n as f64 + PI).rem_euclid(2.0 * PI) - PI;
    [-PI, -FRAC_PI_2, 0.0, FRAC_PI_2, PI]
        .iter()
        .any(|c| (p - c).abs() < 1e-3)
}

#[test]
fn square_triangle_and_sawtooth_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.analog)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "from gnuradio import analog, blocks, gr\n\
         for kind, wave in (('square', analog.GR_SQR_WAVE), ('triangle', analog.GR_TRI_WAVE), ('sawtooth', analog.GR_SAW_WAVE)):\n\
         \x20   for t, src, off, sink in (('f', analog.sig_source_f, 0.5, blocks.vector_sink_f), ('c', analog.sig_source_c, 0.5 - 0.25j, blocks.vector_sink_c)):\n\
         \x20       tb = gr.top_block()\n\
         \x20       s = src({RATE}, wave, {FREQ}, {AMP}, off, {PHASE})\n\
         \x20       h = blocks.head(gr.sizeof_gr_complex if t == 'c' else gr.sizeof_float, {N})\n\
         \x20       k = sink()\n\
         \x20       tb.connect(s, h, k)\n\
         \x20       tb.run()\n\
         \x20       import numpy\n\
         \x20       numpy.array(k.data(), dtype=numpy.complex64 if t == 'c' else numpy.float32).tofile('{dir}/' + kind + '_' + t + '.bin')\n",
        dir = dir.path().display()
    );
    let out = Command::new(PYTHON).args(["-c", &script]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (name, waveform) in [
        ("square", Waveform::Square),
        ("triangle", Waveform::Triangle),
        ("sawtooth", Waveform::Sawtooth),
    ] {
        let real: Vec<f32> = std::fs::read(dir.path().join(format!("{name}_f.bin")))
            .unwrap()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        let got = ours::<f32>(waveform, 0.5);
        assert_eq!(got.len(), real.len(), "{name}: lengths");
        let mut corners = 0;
        for (n, (a, b)) in got.iter().zip(&real).enumerate() {
            if (a - b).abs() > 1e-3 {
                assert!(
                    near_corner(n),
                    "{name} float sample {n}: radioflow {a}, GNU Radio {b}"
                );
                corners += 1;
            }
        }
        assert!(
            corners <= N / 100,
            "{name}: {corners} samples differ at corners"
        );
        let complex: Vec<Complex32> = std::fs::read(dir.path().join(format!("{name}_c.bin")))
            .unwrap()
            .chunks_exact(8)
            .map(|b| {
                Complex32::new(
                    f32::from_le_bytes(b[..4].try_into().unwrap()),
                    f32::from_le_bytes(b[4..].try_into().unwrap()),
                )
            })
            .collect();
        let got = ours::<Complex32>(waveform, Complex32::new(0.5, -0.25));
        assert_eq!(got.len(), complex.len(), "{name}: lengths");
        let mut corners = 0;
        for (n, (a, b)) in got.iter().zip(&complex).enumerate() {
            if (a - b).norm() > 1e-3 {
                assert!(
                    near_corner(n),
                    "{name} complex sample {n}: radioflow {a}, GNU Radio {b}"
                );
                corners += 1;
            }
        }
        assert!(
            corners <= N / 100,
            "{name}: {corners} complex samples differ at corners"
        );
    }
}
