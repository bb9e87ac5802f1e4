//! The DVB-T2 OFDM blocks against gr-dtv's (GNU Radio 3.10) on the same input, run by
//! `gnuradio/dvbt2.py` in one GNU Radio process; ours under every scheduler. SKIPPED where
//! GNU Radio is not installed.
//! - dvbt2_cellinterleaver: every frame size and constellation, time interleaving off, one
//!   TI block, several (FEC blocks a multiple of them or not), more TI blocks than FEC
//!   blocks; two interleaving frames and a cut one (no output from it); cells and tags equal,
//!   bit for bit (the block only moves cells).
//! - dvbt2_freqinterleaver: every FFT size and pilot pattern, normal and extended carriers,
//!   guard intervals that drop the closing symbol, tone reservation, MISO preambles, a frame
//!   of an odd number of symbols; two T2 frames and a cut one; cells and tags equal, bit for
//!   bit. gr-dtv runs one frame per call of its work (see the block's docs).
//! - dvbt2_p1insertion: every FFT size (every S2 code) and preamble (every S1), every guard
//!   interval; two T2 frames and a cut one; the frames' samples and tags equal, P1's samples
//!   to 1e-5 (an inverse FFT: FFTW's rounding against rustfft's).
//! - dvbt2_framemapper: every FFT size (N_P2 16 to 1), L1 constellation and PLP
//!   constellation, short and normal FEC blocks, normal and extended carriers, closing symbols
//!   or not, tone reservation, MISO and T2-Lite preambles, version 1.3.1 with L1 scrambling,
//!   bias balancing, in-band signalling and high efficiency mode; super-frames of 2 and 3
//!   T2 frames (FRAME_IDX counting); several T2 frames and a cut interleaving frame; cells
//!   and tags equal, bit for bit. gr-dtv runs one frame per call of its work (see the block's
//!   docs); tags in the first frame only (gr-dtv puts later ones on cells it has written).
//! - dvbt2_miso: both outputs, normal and extended carriers, closing symbols or not, tone
//!   reservation; two T2 frames and a cut one; cells and tags equal, bit for bit.
//! - dvbt2_pilotgenerator: the FFT sizes, pilot patterns and carrier modes of GNU Radio's
//!   DVB-T2 examples and more (see `pilot_generator_cases`), tone reservation, equalization;
//!   two T2 frames and a cut one; the symbols' samples to 1e-5 (inverse FFTs).
//! - dvbt2_paprtr: every PAPR mode (tone reservation, both, ACE and off copied, version
//!   1.3.1's P2 only), 1K to 32K, normal and extended carriers, reserved carriers shifting over
//!   2, 4 and 16 symbols, closing symbols or not, the settings of GNU Radio's vv012 and vv017
//!   (see `paprtr_cases`); complex Gaussian symbols of power 1; two T2 frames and a cut one;
//!   samples to 1e-5 of their magnitude (at least 1) and tags equal. The kernels are inverse
//!   FFTs (FFTW's rounding against rustfft's) and VOLK's complex products may use fused
//!   multiply-adds; the largest difference seen is 2.1e-6 (1K, 10 iterations), most 1e-7.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_dvbt2::{
    Dvbt2CellInterleaver, Dvbt2FrameMapper, Dvbt2FreqInterleaver, Dvbt2Miso, Dvbt2P1Insertion,
    Dvbt2Paprtr, Dvbt2PilotGenerator,
};
use radioflow_runtime::{
    Block, Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.dtv"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(
            FlowScheduler::new()
                .workers(2)
                .chunk_bytes(4096)
                .buffer_bytes(1 << 16),
        ),
    ]
}

type Tags = Vec<(u64, String, i64)>;

struct Case {
    name: String,
    make: String,
    /// Input cells.
    len: usize,
    tags: Vec<(u64, &'static str, i64)>,
    /// The most items a call of GNU Radio's work may make (0: GNU Radio's choice).
    max_items: usize,
    /// Our block's output compared (GNU Radio's of the same index), and our block's outputs.
    port: usize,
    outputs: &'static [&'static str],
    /// Where the output is an FFT's (P1: the first 2048 samples of each period of this
    /// many), compared to a tolerance; elsewhere bit for bit.
    fft_period: Option<usize>,
    /// Scalars per output item (GNU Radio's vlen). Above 1 the output is an inverse FFT's
    /// (the pilot generator's): compared to a tolerance, on input cells of magnitude 1.
    vlen: usize,
    /// Scalars per input item: above 1 the input is OFDM symbols (the PAPR reduction's), made
    /// of complex Gaussian samples of power 1, as an OFDM symbol's are (their peaks about 3).
    in_vlen: usize,
    ours: Box<dyn Fn() -> Box<dyn Block>>,
}

/// Cells all different, so that a cell out of place shows (of magnitude 1 and scattered
/// phases, all different, where the output is an inverse FFT's).
fn data(c: &Case) -> Vec<Complex32> {
    if c.in_vlen > 1 {
        // A linear congruential generator's uniforms, as complex Gaussian samples of power 1
        // (Box-Muller).
        let mut state = 12345u64;
        let mut uniform = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
        };
        return (0..c.len)
            .map(|_| {
                let (r, t) = ((-uniform().ln()).sqrt(), std::f64::consts::TAU * uniform());
                Complex32::new((r * t.cos()) as f32, (r * t.sin()) as f32)
            })
            .collect();
    }
    if c.vlen > 1 {
        return (0..c.len)
            .map(|k| Complex32::from_polar(1.0, ((k * 7919) % 1_000_003) as f32 * 1e-4))
            .collect();
    }
    (0..c.len)
        .map(|k| Complex32::new(k as f32, ((k * 7919) % 1013) as f32 - 500.0))
        .collect()
}

fn cell_interleaver_cases() -> Vec<Case> {
    let cells = |frame: &str, c: &str| match (frame, c) {
        ("normal", "qpsk") => 32400,
        ("normal", "16qam") => 16200,
        ("normal", "64qam") => 10800,
        ("normal", "256qam") | ("short", "qpsk") => 8100,
        ("short", "16qam") => 4050,
        ("short", "64qam") => 2700,
        _ => 2025,
    };
    let gr_frame = |f: &str| {
        if f == "normal" {
            "dtv.FECFRAME_NORMAL"
        } else {
            "dtv.FECFRAME_SHORT"
        }
    };
    let gr_mod = |c: &str| match c {
        "qpsk" => "dtv.MOD_QPSK",
        "16qam" => "dtv.MOD_16QAM",
        "64qam" => "dtv.MOD_64QAM",
        _ => "dtv.MOD_256QAM",
    };
    // (frame, constellation, FEC blocks, TI blocks, frames): short frames swept wider, as
    // they cost less.
    let sweep: [(&'static str, &'static str, usize, usize, usize); 10] = [
        ("short", "qpsk", 4, 2, 2),
        ("short", "16qam", 3, 0, 2),
        ("short", "64qam", 5, 2, 2),
        ("short", "256qam", 7, 3, 2),
        ("short", "256qam", 2, 3, 2),
        ("short", "qpsk", 3, 1, 2),
        ("normal", "qpsk", 2, 1, 1),
        ("normal", "16qam", 2, 0, 1),
        ("normal", "64qam", 3, 2, 1),
        ("normal", "256qam", 4, 3, 1),
    ];
    sweep
        .into_iter()
        .map(|(frame, c, fec, ti, frames)| {
            let frame_cells = cells(frame, c) * fec;
            Case {
                name: format!("ci_{frame}_{c}_{fec}_{ti}"),
                make: format!(
                    "dtv.dvbt2_cellinterleaver_cc({}, {}, {fec}, {ti})",
                    gr_frame(frame),
                    gr_mod(c)
                ),
                // And a cut frame, which neither outputs.
                len: frames * frame_cells + frame_cells / 2,
                tags: vec![(0, "a", 1), (17, "b", 2), (frame_cells as u64 + 3, "c", 3)],
                max_items: 0,
                fft_period: None,
                vlen: 1,
                in_vlen: 1,
                port: 0,
                outputs: &["out"],
                ours: Box::new(move || {
                    Box::new(Dvbt2CellInterleaver::new(frame, c, fec, ti).unwrap())
                }),
            }
        })
        .collect()
}

fn freq_interleaver_cases() -> Vec<Case> {
    // (carrier mode, FFT size, pilot pattern, guard interval, data symbols, PAPR, preamble):
    // every FFT size and pattern once at least, closing symbols or not (by pattern and by
    // guard interval), tone reservation, MISO; 1K PP1 makes frames of an odd number of
    // symbols (16 P2 + 3).
    let sweep: [(&str, &str, &str, &str, usize, &str, &str); 11] = [
        ("normal", "1k", "pp1", "1/8", 3, "off", "t2_siso"),
        ("normal", "2k", "pp7", "1/128", 4, "tr", "t2_siso"),
        ("normal", "2k", "pp5", "19/256", 3, "ace", "t2_lite_siso"),
        ("normal", "4k", "pp3", "1/16", 3, "both", "t2_miso"),
        ("normal", "8k", "pp8", "19/256", 2, "ace", "t2_siso"),
        ("extended", "8k_t2gi", "pp2", "1/16", 3, "off", "t2_siso"),
        ("normal", "16k", "pp6", "1/4", 2, "off", "t2_lite_miso"),
        ("extended", "16k", "pp4", "1/32", 2, "tr", "t2_siso"),
        ("normal", "32k", "pp7", "1/128", 2, "off", "t2_siso"),
        ("extended", "32k_t2gi", "pp2", "19/128", 2, "tr", "t2_miso"),
        ("normal", "32k", "pp4", "1/16", 3, "off", "t2_miso"),
    ];
    let gr = |w: &str| w.to_uppercase().replace('/', "_");
    sweep
        .into_iter()
        .map(|(cm, fft, pp, gi, syms, papr, pre)| {
            let frame = Dvbt2FreqInterleaver::new(cm, fft, pp, gi, syms, papr, pre)
                .unwrap()
                .frame_cells();
            // gr-dtv's version only picks GRC's fields: 1.3.1 has every preamble.
            let make = format!(
                "dtv.dvbt2_freqinterleaver_cc(dtv.CARRIERS_{}, dtv.FFTSIZE_{}, dtv.PILOT_{}, \
                 dtv.GI_{}, {syms}, dtv.PAPR_{}, dtv.VERSION_131, dtv.PREAMBLE_{})",
                gr(cm),
                gr(fft),
                gr(pp),
                gr(gi),
                gr(papr),
                gr(pre)
            );
            Case {
                name: format!("fi_{cm}_{fft}_{pp}_{}_{syms}_{papr}_{pre}", gr(gi)),
                make,
                len: 2 * frame + frame / 2,
                tags: vec![(5, "a", 1), (frame as u64, "b", 2)],
                // One frame per call, where gr-dtv restarts its even/odd alternation (see
                // the block's docs).
                max_items: frame,
                fft_period: None,
                vlen: 1,
                in_vlen: 1,
                port: 0,
                outputs: &["out"],
                ours: Box::new(move || {
                    Box::new(Dvbt2FreqInterleaver::new(cm, fft, pp, gi, syms, papr, pre).unwrap())
                }),
            }
        })
        .collect()
}

fn p1_insertion_cases() -> Vec<Case> {
    // (FFT size, guard interval, data symbols, preamble): every FFT size (every S2 code,
    // 16K T2GI's too) and preamble (every S1), every guard interval.
    let sweep: [(&str, &str, usize, &str); 9] = [
        ("1k", "1/4", 2, "t2_siso"),
        ("2k", "1/32", 1, "t2_miso"),
        ("4k", "19/256", 1, "t2_lite_siso"),
        ("8k", "1/8", 1, "t2_lite_miso"),
        ("8k_t2gi", "19/128", 1, "t2_siso"),
        ("16k", "1/16", 1, "t2_miso"),
        ("16k_t2gi", "1/128", 1, "t2_siso"),
        ("32k", "1/32", 1, "t2_siso"),
        ("32k_t2gi", "19/256", 1, "t2_miso"),
    ];
    let gr = |w: &str| w.to_uppercase().replace('/', "_");
    sweep
        .into_iter()
        .map(|(fft, gi, syms, pre)| {
            let size = 1usize
                << (10
                    + ["1k", "2k", "4k", "8k", "16k", "32k"]
                        .iter()
                        .position(|s| fft.starts_with(s))
                        .unwrap());
            let p2 = (16 * 1024 / size).max(1);
            let (a, b) = gi.split_once('/').unwrap();
            let (num, den): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
            let frame = (p2 + syms) * (size + size * num / den);
            Case {
                name: format!("p1_{fft}_{}_{syms}_{pre}", gr(gi)),
                make: format!(
                    "dtv.dvbt2_p1insertion_cc(dtv.CARRIERS_NORMAL, dtv.FFTSIZE_{}, dtv.GI_{}, \
                     {syms}, dtv.PREAMBLE_{}, dtv.SHOWLEVELS_OFF, 3.3)",
                    gr(fft),
                    gr(gi),
                    gr(pre)
                ),
                len: 2 * frame + frame / 2,
                // In the first frame, and in the second beyond the P1 samples before it.
                tags: vec![(0, "a", 1), (9, "b", 2), (frame as u64 + 2100, "c", 3)],
                max_items: 0,
                fft_period: Some(frame + 2048),
                vlen: 1,
                in_vlen: 1,
                port: 0,
                outputs: &["out"],
                ours: Box::new(move || {
                    Box::new(Dvbt2P1Insertion::new(fft, gi, syms, pre).unwrap())
                }),
            }
        })
        .collect()
}

fn miso_cases() -> Vec<Case> {
    // (carrier mode, FFT size, pilot pattern, guard interval, data symbols, PAPR), each
    // output in turn.
    let sweep: [(&str, &str, &str, &str, usize, &str); 4] = [
        ("normal", "1k", "pp3", "1/128", 2, "off"),
        ("extended", "8k", "pp7", "1/128", 3, "tr"),
        ("normal", "16k_t2gi", "pp8", "19/256", 2, "ace"),
        ("extended", "32k", "pp6", "1/16", 2, "both"),
    ];
    let gr = |w: &str| w.to_uppercase().replace('/', "_");
    let mut cases = Vec::new();
    for (cm, fft, pp, gi, syms, papr) in sweep {
        let frame = Dvbt2Miso::new(cm, fft, pp, gi, syms, papr)
            .unwrap()
            .frame_cells();
        for port in 0..2 {
            cases.push(Case {
                name: format!("miso_{cm}_{fft}_{pp}_{}_{syms}_{papr}_{port}", gr(gi)),
                make: format!(
                    "dtv.dvbt2_miso_cc(dtv.CARRIERS_{}, dtv.FFTSIZE_{}, dtv.PILOT_{}, dtv.GI_{}, \
                     {syms}, dtv.PAPR_{})",
                    gr(cm),
                    gr(fft),
                    gr(pp),
                    gr(gi),
                    gr(papr)
                ),
                len: 2 * frame + frame / 2,
                tags: vec![(0, "a", 1), (frame as u64 + 1, "b", 2)],
                max_items: 0,
                fft_period: None,
                vlen: 1,
                in_vlen: 1,
                port,
                outputs: &["tx1", "tx2"],
                ours: Box::new(move || {
                    Box::new(Dvbt2Miso::new(cm, fft, pp, gi, syms, papr).unwrap())
                }),
            });
        }
    }
    cases
}

/// One frame mapper setting of the sweep.
#[derive(Clone, Copy)]
struct Fm {
    cm: &'static str,
    fft: &'static str,
    pp: &'static str,
    gi: &'static str,
    syms: usize,
    papr: &'static str,
    pre: &'static str,
    l1: &'static str,
    frame: &'static str,
    c: &'static str,
    rate: &'static str,
    rot: bool,
    fec: usize,
    /// Version 1.3.1 with every 1.3.1 field on (else 1.1.1 with them on, which it ignores).
    v131: bool,
    t2frames: usize,
    /// T2 frames made (and a cut one).
    frames: usize,
}

impl Fm {
    fn make(&self) -> Dvbt2FrameMapper {
        let f = *self;
        let version = if f.v131 { "1.3.1" } else { "1.1.1" };
        Dvbt2FrameMapper::new(
            f.frame, f.rate, f.c, f.rot, f.fec, 3, f.cm, f.fft, f.gi, f.l1, f.pp, f.t2frames,
            f.syms, f.papr, version, f.pre, "hieff", true, true, true,
        )
        .unwrap()
    }
}

fn frame_mapper_cases() -> Vec<Case> {
    let fm = |cm, fft, pp, gi, syms, papr, pre, l1, frame, c, rate, rot, fec| Fm {
        cm,
        fft,
        pp,
        gi,
        syms,
        papr,
        pre,
        l1,
        frame,
        c,
        rate,
        rot,
        fec,
        v131: false,
        t2frames: 2,
        frames: 2,
    };
    let sweep = [
        fm(
            "normal", "1k", "pp1", "1/8", 3, "off", "t2_siso", "bpsk", "short", "16qam", "1/2",
            true, 1,
        ),
        Fm {
            frames: 3,
            ..fm(
                "normal", "2k", "pp7", "1/128", 4, "tr", "t2_siso", "qpsk", "short", "qpsk", "3/5",
                false, 1,
            )
        },
        fm(
            "normal", "4k", "pp3", "1/16", 3, "both", "t2_miso", "16qam", "short", "64qam", "2/3",
            true, 3,
        ),
        fm(
            "normal", "8k", "pp8", "19/256", 2, "ace", "t2_siso", "64qam", "normal", "256qam",
            "3/4", false, 1,
        ),
        fm(
            "extended", "8k_t2gi", "pp2", "1/16", 3, "off", "t2_siso", "bpsk", "short", "qpsk",
            "1/3", true, 2,
        ),
        Fm {
            v131: true,
            ..fm(
                "normal",
                "16k",
                "pp6",
                "1/4",
                2,
                "off",
                "t2_lite_miso",
                "16qam",
                "short",
                "256qam",
                "4/5",
                true,
                3,
            )
        },
        Fm {
            v131: true,
            ..fm(
                "extended", "16k_t2gi", "pp4", "1/32", 2, "tr", "t2_siso", "64qam", "normal",
                "64qam", "5/6", false, 2,
            )
        },
        Fm {
            t2frames: 3,
            frames: 4,
            ..fm(
                "normal", "32k", "pp7", "1/128", 2, "off", "t2_siso", "qpsk", "normal", "16qam",
                "2/5", true, 4,
            )
        },
        fm(
            "extended", "32k_t2gi", "pp2", "19/128", 2, "tr", "t2_miso", "bpsk", "normal",
            "256qam", "1/2", false, 2,
        ),
        Fm {
            v131: true,
            ..fm(
                "normal", "1k", "pp5", "1/4", 3, "off", "t2_miso", "64qam", "short", "qpsk", "5/6",
                true, 1,
            )
        },
    ];
    let gr = |w: &str| w.to_uppercase().replace('/', "_");
    sweep
        .into_iter()
        .enumerate()
        .map(|(k, f)| {
            let block = f.make();
            let (data, frame) = (block.data_cells(), block.frame_cells());
            let onoff = |on: bool| if on { "ON" } else { "OFF" };
            let make = format!(
                "dtv.dvbt2_framemapper_cc(dtv.FECFRAME_{}, dtv.C{}, dtv.MOD_{}, dtv.ROTATION_{}, \
                 {}, 3, dtv.CARRIERS_{}, dtv.FFTSIZE_{}, dtv.GI_{}, dtv.L1_MOD_{}, dtv.PILOT_{}, \
                 {}, {}, dtv.PAPR_{}, dtv.VERSION_{}, dtv.PREAMBLE_{}, dtv.INPUTMODE_HIEFF, \
                 dtv.RESERVED_ON, dtv.L1_SCRAMBLED_ON, dtv.INBAND_ON)",
                gr(f.frame),
                gr(f.rate),
                gr(f.c),
                onoff(f.rot),
                f.fec,
                gr(f.cm),
                gr(f.fft),
                gr(f.gi),
                gr(f.l1),
                gr(f.pp),
                f.t2frames,
                f.syms,
                gr(f.papr),
                if f.v131 { "131" } else { "111" },
                gr(f.pre),
            );
            Case {
                name: format!("fm{k}_{}_{}_{}_{}", f.fft, f.pp, f.l1, f.c),
                make,
                len: f.frames * data + data / 2,
                tags: vec![(0, "a", 1), (17, "b", 2)],
                // One frame per call (see the block's docs).
                max_items: frame,
                fft_period: None,
                vlen: 1,
                in_vlen: 1,
                port: 0,
                outputs: &["out"],
                ours: Box::new(move || Box::new(f.make())),
            }
        })
        .collect()
}

/// The pilot generator: the FFT sizes, pilot patterns and carrier modes of GNU Radio's
/// examples and more (1K to 32K, PP1 to PP8, normal and extended carriers, tone reservation),
/// closing symbols or not, equalization at four bandwidths; MISO preambles, both
/// transmitters; two T2 frames and a cut one. One frame per call of
/// GNU Radio's work (it consumes one frame's cells per call however many it makes).
fn pilot_generator_cases() -> Vec<Case> {
    // (carriers, FFT size, pattern, guard interval, data symbols, PAPR, equalization, bandwidth)
    type Pg = (
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        usize,
        &'static str,
        &'static str,
        &'static str,
    );
    let sweep: [Pg; 18] = [
        ("normal", "1k", "pp3", "1/8", 3, "off", "off", "8"),
        ("normal", "1k", "pp1", "1/4", 2, "tr", "on", "6"),
        ("normal", "2k", "pp2", "1/8", 3, "off", "off", "8"),
        ("normal", "4k", "pp7", "1/32", 3, "off", "off", "8"),
        ("extended", "8k_t2gi", "pp5", "19/256", 3, "off", "off", "8"),
        ("extended", "16k", "pp8", "19/128", 2, "off", "off", "8"),
        ("normal", "1k", "pp4", "1/8", 5, "off", "off", "8"),
        ("normal", "2k", "pp7", "1/32", 4, "tr", "off", "8"),
        ("normal", "4k", "pp5", "19/256", 3, "off", "on", "7"),
        ("normal", "8k", "pp2", "1/16", 3, "off", "off", "8"),
        ("extended", "8k_t2gi", "pp8", "19/128", 2, "tr", "off", "8"),
        ("extended", "16k", "pp2", "1/32", 3, "off", "off", "8"),
        ("normal", "16k", "pp1", "1/4", 2, "tr", "on", "1.7"),
        ("extended", "16k_t2gi", "pp6", "1/16", 2, "off", "off", "8"),
        ("extended", "16k", "pp3", "1/8", 2, "tr", "off", "8"),
        ("extended", "32k", "pp4", "1/32", 2, "off", "off", "8"),
        ("extended", "32k_t2gi", "pp7", "1/128", 2, "tr", "off", "10"),
        ("normal", "32k", "pp8", "19/256", 2, "off", "on", "5"),
    ];
    let gr = |w: &str| w.to_uppercase().replace('/', "_");
    let bw = |b: &str| match b {
        "1.7" => "1_7".to_owned(),
        b => format!("{b}_0"),
    };
    // MISO: both transmitters, the patterns whose continual pilots gr-dtv inverts and one
    // whose it does not, P2's pilots beside the reserved tones, extended carriers, T2-Lite.
    let miso: [(Pg, &str, &str); 9] = [
        (
            ("normal", "1k", "pp1", "1/8", 3, "off", "off", "8"),
            "t2_miso",
            "tx2",
        ),
        (
            ("normal", "2k", "pp4", "1/32", 3, "tr", "off", "8"),
            "t2_miso",
            "tx2",
        ),
        (
            ("normal", "4k", "pp2", "1/16", 2, "off", "off", "8"),
            "t2_miso",
            "tx2",
        ),
        (
            ("extended", "8k", "pp8", "1/16", 3, "off", "off", "8"),
            "t2_miso",
            "tx2",
        ),
        (
            ("extended", "16k", "pp3", "1/8", 2, "tr", "off", "8"),
            "t2_miso",
            "tx2",
        ),
        (
            ("extended", "32k", "pp2", "1/16", 3, "off", "off", "8"),
            "t2_miso",
            "tx2",
        ),
        (
            ("extended", "32k", "pp2", "1/16", 2, "off", "off", "8"),
            "t2_miso",
            "tx1",
        ),
        (
            ("normal", "32k_t2gi", "pp7", "1/128", 2, "tr", "off", "8"),
            "t2_lite_miso",
            "tx2",
        ),
        (
            ("normal", "8k", "pp4", "1/32", 2, "off", "off", "8"),
            "t2_siso",
            "tx2",
        ),
    ];
    let sweep = sweep.into_iter().map(|p| (p, "t2_siso", "tx1")).chain(miso);
    sweep
        .map(|((cm, fft, pp, gi, syms, papr, eq, b), pre, group)| {
            let make = move || {
                let vlen = block_vlen(fft);
                Dvbt2PilotGenerator::new(cm, fft, pp, gi, syms, papr, pre, group, eq, b, vlen)
                    .unwrap()
            };
            let block = make();
            let (frame, symbols) = (block.frame_cells(), block.frame_symbols());
            let vlen = block_vlen(fft);
            Case {
                name: format!("pg_{}_{fft}_{pp}_{papr}_{eq}_{pre}_{group}", cm),
                make: format!(
                    "dtv.dvbt2_pilotgenerator_cc(dtv.CARRIERS_{}, dtv.FFTSIZE_{}, dtv.PILOT_{}, \
                     dtv.GI_{}, {syms}, dtv.PAPR_{}, dtv.VERSION_{}, dtv.PREAMBLE_{}, \
                     dtv.MISO_{}, dtv.EQUALIZATION_{}, dtv.BANDWIDTH_{}_MHZ, {vlen})",
                    gr(cm),
                    gr(fft),
                    gr(pp),
                    gr(gi),
                    gr(papr),
                    if pre.contains("lite") { "131" } else { "111" },
                    gr(pre),
                    gr(group),
                    gr(eq),
                    bw(b),
                ),
                len: 2 * frame + frame / 2,
                tags: vec![],
                max_items: symbols,
                fft_period: None,
                vlen,
                in_vlen: 1,
                port: 0,
                outputs: &["out"],
                ours: Box::new(move || Box::new(make())),
            }
        })
        .collect()
}

/// The PAPR reduction: every mode (tone reservation, both, ACE and off copied, version
/// 1.3.1's P2 only), FFT sizes 1K to 32K, normal and extended carriers, pilot patterns whose
/// reserved carriers shift over 2, 4 and 16 symbols, closing symbols or not, the settings
/// of GNU Radio's examples vv012 and vv017; two T2 frames and a cut one.
fn paprtr_cases() -> Vec<Case> {
    // (carriers, FFT size, pattern, guard interval, data symbols, PAPR, version, V_clip,
    // iterations)
    type Pt = (
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        usize,
        &'static str,
        &'static str,
        f32,
        usize,
    );
    let sweep: [Pt; 11] = [
        ("normal", "1k", "pp3", "1/8", 3, "tr", "111", 2.0, 10),
        ("normal", "2k", "pp7", "1/128", 2, "both", "111", 2.2, 5),
        ("normal", "4k", "pp1", "1/4", 2, "ace", "111", 2.5, 10),
        ("normal", "1k", "pp5", "1/4", 2, "both", "131", 3.0, 4),
        ("normal", "2k", "pp1", "1/16", 2, "off", "131", 2.5, 10),
        ("extended", "8k", "pp8", "19/256", 3, "tr", "111", 2.5, 8),
        (
            "extended", "8k_t2gi", "pp7", "1/32", 3, "tr", "111", 2.57, 50,
        ),
        ("normal", "16k", "pp3", "1/8", 2, "off", "131", 2.9, 11),
        ("extended", "16k", "pp2", "1/16", 2, "tr", "111", 3.0, 6),
        ("extended", "32k", "pp4", "1/32", 2, "tr", "111", 3.05, 9),
        ("normal", "32k", "pp2", "1/8", 2, "off", "111", 3.0, 9),
    ];
    let gr = |w: &str| w.to_uppercase().replace('/', "_");
    let version = |v: &str| if v == "111" { "1.1.1" } else { "1.3.1" };
    sweep
        .into_iter()
        .map(|(cm, fft, pp, gi, syms, papr, v, vclip, it)| {
            let vlen = block_vlen(fft);
            let make = move || {
                Dvbt2Paprtr::new(cm, fft, pp, gi, syms, papr, version(v), vclip, it, vlen).unwrap()
            };
            let symbols = make().frame_symbols();
            Case {
                name: format!("papr_{cm}_{fft}_{pp}_{}_{papr}_{v}", gr(gi)),
                make: format!(
                    "dtv.dvbt2_paprtr_cc(dtv.CARRIERS_{}, dtv.FFTSIZE_{}, dtv.PILOT_{}, \
                     dtv.GI_{}, {syms}, dtv.PAPR_{}, dtv.VERSION_{v}, {vclip}, {it}, {vlen})",
                    gr(cm),
                    gr(fft),
                    gr(pp),
                    gr(gi),
                    gr(papr),
                ),
                len: (2 * symbols + symbols / 2) * vlen,
                tags: vec![(0, "a", 1), (symbols as u64 + 1, "b", 2)],
                max_items: 0,
                fft_period: None,
                vlen,
                in_vlen: vlen,
                port: 0,
                outputs: &["out"],
                ours: Box::new(move || Box::new(make())),
            }
        })
        .collect()
}

/// The FFT size of word `fft`.
fn block_vlen(fft: &str) -> usize {
    1024 << ["1k", "2k", "4k", "8k", "16k", "32k"]
        .iter()
        .position(|f| fft.starts_with(f))
        .unwrap()
}

fn run_ours(c: &Case, s: &dyn Scheduler) -> (Vec<Complex32>, Tags) {
    let tags = c.tags.iter().map(|&(o, k, v)| Tag::new(o, k, v)).collect();
    let mut fg = Flowgraph::new();
    let src = fg.add(
        VectorSource::new(data(c))
            .tags(tags)
            .with_vlen(c.in_vlen)
            .unwrap(),
    );
    let block = fg.add_boxed(None, (c.ours)());
    let sink = fg.add(VectorSink::<Complex32>::new().with_vlen(c.vlen));
    fg.connect(src, block).unwrap();
    for (k, &port) in c.outputs.iter().enumerate() {
        if k == c.port {
            fg.connect((block, port), sink).unwrap();
        } else {
            let other = fg.add(VectorSink::<Complex32>::new().with_vlen(c.vlen));
            fg.connect((block, port), other).unwrap();
        }
    }
    fg.run_with(s).unwrap();
    let sink = fg.block::<VectorSink<Complex32>>(sink).unwrap();
    let tags = sink
        .tags()
        .iter()
        .map(|t| {
            let Pmt::Int(v) = t.value else {
                panic!("{}: tag value {:?}", c.name, t.value)
            };
            (t.offset, t.key.to_string(), v)
        })
        .collect();
    (sink.data().to_vec(), tags)
}

/// Runs `cases` in GNU Radio and ours under every scheduler; cells equal bit for bit.
fn equal_gnu_radio_s(label: &str, cases: &[Case]) {
    let dir = std::env::temp_dir().join(format!("radioflow-dvbt2-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for c in cases {
        let bytes: Vec<u8> = data(c)
            .iter()
            .flat_map(|z| [z.re.to_le_bytes(), z.im.to_le_bytes()])
            .flatten()
            .collect();
        std::fs::write(dir.join(format!("{}.in.bin", c.name)), bytes).unwrap();
    }
    let job = json!({
        "out": dir,
        "cases": cases.iter().map(|c| json!({
            "name": c.name,
            "make": c.make,
            "tags": c.tags.iter().map(|&(o, k, v)| json!([o, k, v])).collect::<Vec<_>>(),
            "max_items": c.max_items,
            "port": c.port,
            "outputs": c.outputs.len(),
            "vlen": c.vlen,
            "in_vlen": c.in_vlen,
        })).collect::<Vec<_>>(),
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/dvbt2.py");
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
    for c in cases {
        let base = dir.join(&c.name);
        let bytes = std::fs::read(base.with_extension("bin")).unwrap();
        let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
        let want: Vec<Complex32> = bytes
            .chunks(8)
            .map(|p| Complex32::new(f(&p[..4]), f(&p[4..])))
            .collect();
        assert!(!want.is_empty(), "{}: GNU Radio made nothing", c.name);
        let want_tags: Value = serde_json::from_str(
            &std::fs::read_to_string(base.with_extension("tags.json")).unwrap(),
        )
        .unwrap();
        let mut want_tags: Tags = want_tags
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t[0].as_u64().unwrap(),
                    t[1].as_str().unwrap().to_owned(),
                    t[2].as_i64().unwrap(),
                )
            })
            .collect();
        want_tags.sort();
        for s in schedulers() {
            let (got, mut tags) = run_ours(c, &*s);
            assert_eq!(got.len(), want.len(), "{} on {}: length", c.name, s.name());
            // P1 is an inverse FFT of 384 carriers of ±1 divided by √384 (samples of magnitude
            // up to about 3): FFTW and rustfft sum in different orders, some 1e-7 apart.
            // The pilot generator's symbols (cells and pilots of magnitude up to 8/3 over
            // C_PS carriers, times 5/sqrt(27 C_PS): samples of magnitude about 1, P2 symbols'
            // peaks up to about 25): FFTW and rustfft, 1e-6 apart, relative to the larger
            // samples.
            let differs = |k: usize| match c.fft_period {
                Some(p) if k % p < 2048 => (got[k] - want[k]).norm() > 1e-5,
                _ if c.vlen > 1 => (got[k] - want[k]).norm() > 1e-5 * want[k].norm().max(1.0),
                _ => got[k] != want[k],
            };
            if let Some(k) = (0..got.len()).find(|&k| differs(k)) {
                panic!(
                    "{} on {}: cell {k}: {} vs GNU Radio's {}",
                    c.name,
                    s.name(),
                    got[k],
                    want[k]
                );
            }
            tags.sort();
            assert_eq!(tags, want_tags, "{} on {}: tags", c.name, s.name());
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cell_interleaver_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    equal_gnu_radio_s("cellinterleaver", &cell_interleaver_cases());
}

#[test]
fn freq_interleaver_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    equal_gnu_radio_s("freqinterleaver", &freq_interleaver_cases());
}

#[test]
fn p1_insertion_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    equal_gnu_radio_s("p1insertion", &p1_insertion_cases());
}

#[test]
fn frame_mapper_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    equal_gnu_radio_s("framemapper", &frame_mapper_cases());
}

#[test]
fn miso_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    equal_gnu_radio_s("miso", &miso_cases());
}

#[test]
fn pilot_generator_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    equal_gnu_radio_s("pilotgenerator", &pilot_generator_cases());
}

#[test]
fn paprtr_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    equal_gnu_radio_s("paprtr", &paprtr_cases());
}
