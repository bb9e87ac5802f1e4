//! gr-dtv's DVB-T transmitter blocks against GNU Radio 3.10's on the same input, run by
//! `gnuradio/dvbt.py` in one GNU Radio process; ours under every scheduler; items and tags
//! equal, bit for bit (the reference signals' samples, an inverse FFT, to 1e-5 of the peak:
//! FFTW's rounding against rustfft's). SKIPPED where GNU Radio is not installed.
//! - dvbt_energy_dispersal: 1 and 2 groups a vector; a stream starting with bytes that are
//!   not a sync byte (more than a packet of them: a search that drops 188 bytes), and ending
//!   with a cut group.
//! - dvbt_energy_descramble: scrambled groups from the start, after a few packets that hold
//!   no inverted sync byte, and after more than two vectors of them (a search that finds
//!   none); an odd and an even number of vectors (gr-dtv keeps the last 15 or 14).
//! - dvbt_reed_solomon_enc: DVB-T's RS(204, 188) in 8 and 1 codewords a vector; 32 parity
//!   bytes unshortened; 10 parity bytes shortened by 40; another primitive polynomial.
//! - dvbt_reed_solomon_dec: RS(204, 188) and RS(255, 223) of another polynomial, codewords
//!   with none to more wrong bytes than the code corrects, in message and parity.
//! - dvbt_convolutional_interleaver: DVB-T's 12 × 17 and a small one.
//! - dvbt_viterbi_decoder: every code rate with every constellation on bytes of random bits
//!   (decisions of every sort, ties included), every rate on the inner coder's output with
//!   wrong bits, a small block size, a `superframe_start` tag in the first block (a reset,
//!   the bytes before it dropped).
//! - dvbt_convolutional_deinterleaver: DVB-T's 12 × 17 and two small ones, a
//!   `superframe_start` tag in the first vector (the bytes before it dropped).
//! - dvbt_inner_coder: every code rate with every constellation, vectors of 1512 and 3024.
//! - dvbt_bit_inner_interleaver: every constellation in both modes.
//! - dvbt_bit_inner_deinterleaver: every constellation, bytes with bits above v (not read).
//! - dvbt_symbol_inner_interleaver: both modes, across a frame's end; deinterleaving by
//!   `symbol_index` tags.
//! - dvbt_map: every constellation with every hierarchy, both modes, a gain.
//! - dvbt_demap: every constellation with every hierarchy, both modes, a gain; cells all over
//!   the plane and equally near to several points.
//! - dvbt_reference_signals: both modes, every constellation, hierarchy, code rates, guard
//!   intervals, cell identifiers; 2K over a whole super-frame (TPS of four frames).

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_dvbt::{
    dispersal_sequence, CodeRate, DvbtBitInnerDeinterleaver, DvbtBitInnerInterleaver,
    DvbtConvolutionalDeinterleaver, DvbtConvolutionalInterleaver, DvbtDemap, DvbtEnergyDescramble,
    DvbtEnergyDispersal, DvbtInnerCoder, DvbtMap, DvbtReedSolomonDec, DvbtReedSolomonEnc,
    DvbtReferenceSignals, DvbtSymbolInnerInterleaver, DvbtViterbiDecoder, InnerCoder, ReedSolomon,
};
use radioflow_runtime::{
    Block, Complex32, FlowScheduler, Flowgraph, Item, Pmt, Scheduler, SingleThread, Tag,
    ThreadPerBlock,
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

/// A stream of bytes or of complex cells.
#[derive(Clone)]
enum Data {
    Bytes(Vec<u8>),
    Cells(Vec<Complex32>),
}

impl Data {
    fn kind(&self) -> &'static str {
        match self {
            Data::Bytes(_) => "b",
            Data::Cells(_) => "c",
        }
    }

    fn to_file(&self) -> Vec<u8> {
        match self {
            Data::Bytes(b) => b.clone(),
            Data::Cells(c) => c
                .iter()
                .flat_map(|z| [z.re.to_le_bytes(), z.im.to_le_bytes()])
                .flatten()
                .collect(),
        }
    }
}

struct Case {
    name: String,
    make: String,
    input: Data,
    in_vlen: usize,
    /// "b" or "c".
    out: &'static str,
    out_vlen: usize,
    tags: Vec<(u64, &'static str, i64)>,
    /// The output is an inverse FFT's: compared to 1e-5 of the peak.
    fft: bool,
    ours: Box<dyn Fn() -> Box<dyn Block>>,
}

fn case(
    name: String,
    make: String,
    input: Data,
    (in_vlen, out, out_vlen): (usize, &'static str, usize),
    tags: Vec<(u64, &'static str, i64)>,
    ours: impl Fn() -> Box<dyn Block> + 'static,
) -> Case {
    Case {
        name,
        make,
        input,
        in_vlen,
        out,
        out_vlen,
        tags,
        fft: false,
        ours: Box::new(ours),
    }
}

/// `n` bytes below `limit`, all sorts.
fn bytes(n: usize, limit: u32, seed: usize) -> Vec<u8> {
    (0..n)
        .map(|k| (((k * 7919 + seed * 104_729) ^ (k >> 3)) as u32 % limit) as u8)
        .collect()
}

/// A transport stream of `packets` packets (sync byte first) after `junk` bytes that hold no
/// sync byte.
fn transport_stream(junk: usize, packets: usize) -> Vec<u8> {
    let mut ts: Vec<u8> = (0..junk).map(|k| (k as u8) % 0x40).collect();
    for p in 0..packets {
        ts.push(0x47);
        ts.extend(bytes(187, 256, p));
    }
    ts
}

const RATES: [(&str, &str); 5] = [
    ("1/2", "C1_2"),
    ("2/3", "C2_3"),
    ("3/4", "C3_4"),
    ("5/6", "C5_6"),
    ("7/8", "C7_8"),
];
const CONSTELLATIONS: [(&str, &str, u32); 3] = [
    ("qpsk", "MOD_QPSK", 4),
    ("16qam", "MOD_16QAM", 16),
    ("64qam", "MOD_64QAM", 64),
];
const HIERARCHIES: [(&str, &str); 4] = [
    ("nh", "NH"),
    ("alpha1", "ALPHA1"),
    ("alpha2", "ALPHA2"),
    ("alpha4", "ALPHA4"),
];
const MODES: [(&str, &str, usize); 2] = [("2k", "T2k", 1512), ("8k", "T8k", 6048)];

fn energy_dispersal_cases() -> Vec<Case> {
    // (nsize, bytes before the first packet (200: a search that finds no sync byte), packets)
    [(1, 5, 3 * 8 + 5), (2, 0, 4 * 8 + 3), (1, 200, 2 * 8)]
        .into_iter()
        .map(|(nsize, junk, packets)| {
            case(
                format!("ed_{nsize}_{junk}"),
                format!("dtv.dvbt_energy_dispersal({nsize})"),
                Data::Bytes(transport_stream(junk, packets)),
                (1, "b", 1504 * nsize),
                vec![(0, "a", 1), (700, "b", 2), (1600, "c", 3)],
                move || Box::new(DvbtEnergyDispersal::new(nsize).unwrap()),
            )
        })
        .collect()
}

/// `junk` bytes holding no inverted sync byte, then `groups` groups of eight packets as
/// energy dispersal writes them (0xB8 first, 0x47 at the other packets' starts, the rest
/// scrambled), then bytes up to a whole number of 1504-byte vectors.
fn scrambled_groups(junk: usize, groups: usize) -> Vec<u8> {
    let sequence = dispersal_sequence();
    let mut out: Vec<u8> = (0..junk).map(|k| (k as u8) % 0x40).collect();
    for g in 0..groups {
        let mut group: Vec<u8> = bytes(1504, 256, g)
            .iter()
            .zip(&sequence)
            .map(|(b, s)| b ^ s)
            .collect();
        for (p, packet) in group.chunks_mut(188).enumerate() {
            packet[0] = if p == 0 { 0xB8 } else { 0x47 };
        }
        out.extend(group);
    }
    out.resize(out.len().next_multiple_of(1504), 0x11);
    out
}

fn energy_descramble_cases() -> Vec<Case> {
    // (bytes before the first group: packet starts of no inverted sync byte; groups)
    [(0, 19), (3 * 188, 17), (2 * 1504 + 5 * 188, 16)]
        .into_iter()
        .map(|(junk, groups)| {
            case(
                format!("de_{junk}_{groups}"),
                "dtv.dvbt_energy_descramble(8)".to_owned(),
                Data::Bytes(scrambled_groups(junk, groups)),
                (1504, "b", 1),
                vec![(0, "a", 1), (3, "b", 2), (5, "c", 3)],
                || Box::new(DvbtEnergyDescramble::new(8).unwrap()),
            )
        })
        .collect()
}

fn reed_solomon_cases() -> Vec<Case> {
    // (gfpoly, n, k, s, blocks, vectors)
    [
        (0x11d, 255, 239, 51, 8, 3),
        (0x11d, 255, 239, 51, 1, 5),
        (0x11d, 255, 223, 0, 1, 2),
        (0x187, 255, 239, 51, 2, 2),
        (0x11d, 255, 245, 40, 1, 2),
    ]
    .into_iter()
    .map(|(poly, n, k, s, blocks, vectors)| {
        let vin = blocks * (k - s);
        case(
            format!("rs_{poly:x}_{k}_{s}_{blocks}"),
            format!(
                "dtv.dvbt_reed_solomon_enc(2, 8, {poly}, {n}, {k}, {}, {s}, {blocks})",
                (n - k) / 2
            ),
            Data::Bytes(bytes(vectors * vin, 256, k)),
            (vin, "b", blocks * (n - s)),
            vec![(0, "a", 1), (1, "b", 2)],
            move || Box::new(DvbtReedSolomonEnc::new(poly, n, k, s, blocks).unwrap()),
        )
    })
    .collect()
}

fn reed_solomon_decoder_cases() -> Vec<Case> {
    // (gfpoly, n, k, s, blocks, codewords)
    [(0x11d, 255, 239, 51, 8, 24), (0x187, 255, 223, 0, 1, 40)]
        .into_iter()
        .map(|(poly, n, k, s, blocks, words)| {
            let rs = ReedSolomon::new(poly, n - k).unwrap();
            let (m, r) = (k - s, n - k);
            // Codeword w with w mod (r + 5) wrong bytes: none up to r/2 + 4 (too many), in
            // the message and the parity.
            let mut input = Vec::new();
            for w in 0..words {
                let mut word = bytes(m, 256, w);
                let mut parity = vec![0u8; r];
                rs.encode(&word, &mut parity);
                word.extend(parity);
                for e in 0..w % (r / 2 + 5) {
                    let at = (e * 37 + w * 11) % (m + r);
                    word[at] ^= (e * 29 + w + 1) as u8 | 1;
                }
                input.extend(word);
            }
            case(
                format!("rsd_{poly:x}_{k}_{s}_{blocks}"),
                format!(
                    "dtv.dvbt_reed_solomon_dec(2, 8, {poly}, {n}, {k}, {}, {s}, {blocks})",
                    r / 2
                ),
                Data::Bytes(input),
                (blocks * (m + r), "b", blocks * m),
                vec![(0, "a", 1), (2, "b", 2)],
                move || {
                    Box::new(DvbtReedSolomonDec::new(i64::from(poly), n, k, s, blocks).unwrap())
                },
            )
        })
        .collect()
}

fn convolutional_interleaver_cases() -> Vec<Case> {
    [(136, 12, 17, 4), (2, 3, 5, 20)]
        .into_iter()
        .map(|(blocks, i, m, vectors)| {
            case(
                format!("ci_{blocks}_{i}_{m}"),
                format!("dtv.dvbt_convolutional_interleaver({blocks}, {i}, {m})"),
                Data::Bytes(bytes(vectors * blocks * i, 256, i)),
                (blocks * i, "b", 1),
                vec![(1, "a", 1), (2, "b", 2)],
                move || Box::new(DvbtConvolutionalInterleaver::new(blocks, i, m).unwrap()),
            )
        })
        .collect()
}

/// `data` through the inner coder of `rate` for `m`-bit bytes, every `every`-th coded byte's
/// lowest bit wrong.
fn inner_coded(data: &[u8], rate: CodeRate, m: usize, every: usize) -> Vec<u8> {
    let mut coder = InnerCoder::new(rate, m);
    let (gi, go) = (coder.group_in(), coder.group_out());
    let mut coded = vec![0u8; data.len() / gi * go];
    for (i, o) in data.chunks_exact(gi).zip(coded.chunks_exact_mut(go)) {
        coder.encode_group(i, o);
    }
    for b in coded.iter_mut().step_by(every).skip(1) {
        *b ^= 1;
    }
    coded
}

/// A Viterbi decoder case: `constellation`, `rate` and `block_size` on `input`. Ours is
/// told hierarchy alpha2, GNU Radio's NH: it changes nothing in either.
fn viterbi_case(
    label: &str,
    (c, cc, _): (&'static str, &str, u32),
    (r, rc): (&'static str, &str),
    block_size: usize,
    input: Vec<u8>,
    tags: Vec<(u64, &'static str, i64)>,
) -> Case {
    case(
        format!("vit_{label}_{c}_{rc}_{block_size}"),
        format!("dtv.dvbt_viterbi_decoder(dtv.{cc}, dtv.NH, dtv.{rc}, {block_size})"),
        Data::Bytes(input),
        (1, "b", 1),
        tags,
        move || Box::new(DvbtViterbiDecoder::new(c, "alpha2", r, block_size).unwrap()),
    )
}

fn viterbi_cases() -> Vec<Case> {
    let rate_of = |word: &str| CodeRate::parse("test", "code_rate", word).unwrap();
    let plain = || vec![(0, "a", 1), (5, "b", 2)];
    let mut cases = Vec::new();
    // Random bits: three blocks of 768.
    for (seed, &constellation) in CONSTELLATIONS.iter().enumerate() {
        let m = constellation.2.trailing_zeros() as usize;
        for (r, &rate) in RATES.iter().enumerate() {
            let (_, n) = rate_of(rate.0).k_n();
            let input = bytes(3 * 768 * n / m, constellation.2, seed * 5 + r);
            cases.push(viterbi_case(
                "random",
                constellation,
                rate,
                768,
                input,
                plain(),
            ));
        }
    }
    // The coder's output for 64QAM, a wrong bit every 97 bytes.
    for (r, &rate) in RATES.iter().enumerate() {
        let (k, _) = rate_of(rate.0).k_n();
        let data = bytes(3 * 768 * k / 8, 256, 40 + r);
        let input = inner_coded(&data, rate_of(rate.0), 6, 97);
        cases.push(viterbi_case(
            "coded",
            CONSTELLATIONS[2],
            rate,
            768,
            input,
            plain(),
        ));
    }
    // Blocks of 6 bytes out (QPSK 1/2), just more than the traceback.
    let input = inner_coded(&bytes(40 * 6, 256, 50), CodeRate::R1_2, 2, 31);
    cases.push(viterbi_case(
        "small",
        CONSTELLATIONS[0],
        RATES[0],
        48,
        input,
        plain(),
    ));
    // A reset at byte 100: the bytes before it dropped.
    let input = inner_coded(&bytes(4 * 192, 256, 51), CodeRate::R2_3, 6, 53);
    let tags = vec![(0, "a", 1), (100, "superframe_start", 1)];
    cases.push(viterbi_case(
        "tagged",
        CONSTELLATIONS[2],
        RATES[1],
        768,
        input,
        tags,
    ));
    cases
}

fn convolutional_deinterleaver_cases() -> Vec<Case> {
    // (blocks, I, M, vectors, where a superframe_start tag says a super-frame starts)
    [
        (136, 12, 17, 4, Some(100)),
        (16, 2, 2, 20, None),
        (8, 3, 1, 30, Some(5)),
    ]
    .into_iter()
    .map(|(blocks, i, m, vectors, superframe)| {
        let mut tags = vec![(0, "a", 1), (blocks * i + 3, "b", 2)];
        tags.extend(superframe.map(|o| (o, "superframe_start", 1)));
        case(
            format!("cd_{blocks}_{i}_{m}"),
            format!("dtv.dvbt_convolutional_deinterleaver({blocks}, {i}, {m})"),
            Data::Bytes(bytes(vectors * blocks * i + 7, 256, m)),
            (1, "b", blocks * i),
            tags.into_iter().map(|(o, k, v)| (o as u64, k, v)).collect(),
            move || Box::new(DvbtConvolutionalDeinterleaver::new(blocks, i, m).unwrap()),
        )
    })
    .collect()
}

fn inner_coder_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (rate, gr_rate) in RATES {
        for (c, gr_c, _) in CONSTELLATIONS {
            for noutput in [1512, 3024] {
                if noutput == 3024 && (c != "16qam" || rate != "3/4") {
                    continue;
                }
                // Two runs of four vectors and part of a third.
                let (k, n) = match rate {
                    "1/2" => (1, 2),
                    "2/3" => (2, 3),
                    "3/4" => (3, 4),
                    "5/6" => (5, 6),
                    _ => (7, 8),
                };
                let m = match c {
                    "qpsk" => 2,
                    "16qam" => 4,
                    _ => 6,
                };
                let run = 4 * noutput * k * m / (8 * n);
                cases.push(case(
                    format!("ic_{}_{c}_{noutput}", rate.replace('/', "")),
                    format!(
                        "dtv.dvbt_inner_coder(1, {noutput}, dtv.{gr_c}, dtv.NH, dtv.{gr_rate})"
                    ),
                    Data::Bytes(bytes(2 * run + run / 2, 256, k * m)),
                    (1, "b", noutput),
                    vec![(0, "a", 1), (3, "b", 2)],
                    move || Box::new(DvbtInnerCoder::new(1, noutput, c, "nh", rate).unwrap()),
                ));
            }
        }
    }
    cases
}

fn bit_interleaver_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (mode, gr_mode, p) in MODES {
        for (c, gr_c, points) in CONSTELLATIONS {
            cases.push(case(
                format!("bi_{mode}_{c}"),
                format!("dtv.dvbt_bit_inner_interleaver({p}, dtv.{gr_c}, dtv.NH, dtv.{gr_mode})"),
                Data::Bytes(bytes(2 * p, points, p)),
                (p, "b", p),
                vec![(1, "a", 1)],
                move || Box::new(DvbtBitInnerInterleaver::new(c, "nh", mode).unwrap()),
            ));
        }
    }
    cases
}

fn bit_deinterleaver_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (mode, gr_mode, p) in MODES {
        for (c, gr_c, points) in CONSTELLATIONS {
            if mode == "8k" && c == "16qam" {
                continue;
            }
            // Bytes of any value: the bits above v are not read.
            let limit = if c == "16qam" { 256 } else { points };
            cases.push(case(
                format!("bd_{mode}_{c}"),
                format!("dtv.dvbt_bit_inner_deinterleaver({p}, dtv.{gr_c}, dtv.NH, dtv.{gr_mode})"),
                Data::Bytes(bytes(2 * p, limit, p + 1)),
                (p, "b", p),
                vec![(1, "a", 1)],
                move || Box::new(DvbtBitInnerDeinterleaver::new(c, "nh", mode).unwrap()),
            ));
        }
    }
    cases
}

fn symbol_interleaver_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (mode, gr_mode, p) in MODES {
        let symbols = if mode == "2k" { 70 } else { 3 };
        cases.push(case(
            format!("si_{mode}"),
            format!("dtv.dvbt_symbol_inner_interleaver({p}, dtv.{gr_mode}, 1)"),
            Data::Bytes(bytes(symbols * p, 64, p)),
            (p, "b", p),
            vec![(0, "a", 1), (2, "b", 2)],
            move || Box::new(DvbtSymbolInnerInterleaver::new(mode, "interleave").unwrap()),
        ));
    }
    // Deinterleaving: each vector tagged with its symbol index, starting odd.
    let tags = (0..5).map(|k| (k, "symbol_index", k as i64 + 3)).collect();
    cases.push(case(
        "si_2k_deinterleave".to_owned(),
        "dtv.dvbt_symbol_inner_interleaver(1512, dtv.T2k, 0)".to_owned(),
        Data::Bytes(bytes(5 * 1512, 64, 3)),
        (1512, "b", 1512),
        tags,
        || Box::new(DvbtSymbolInnerInterleaver::new("2k", "deinterleave").unwrap()),
    ));
    cases
}

fn map_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (c, gr_c, points) in CONSTELLATIONS {
        for (h, gr_h) in HIERARCHIES {
            for (mode, gr_mode, p) in MODES {
                if mode == "8k" && h != "alpha2" {
                    continue;
                }
                let gain = if h == "alpha4" { 2.5f32 } else { 1.0 };
                cases.push(case(
                    format!("map_{c}_{h}_{mode}"),
                    format!("dtv.dvbt_map({p}, dtv.{gr_c}, dtv.{gr_h}, dtv.{gr_mode}, {gain})"),
                    Data::Bytes(bytes(2 * p, points, points as usize)),
                    (p, "c", p),
                    vec![(1, "a", 1)],
                    move || Box::new(DvbtMap::new(c, h, mode, gain).unwrap()),
                ));
            }
        }
    }
    cases
}

/// Mode, constellation, hierarchy, HP rate, LP rate, guard, cell id included, cell id,
/// symbols.
type ReferenceCase = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    bool,
    i64,
    usize,
);

fn demap_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (c, gr_c, _) in CONSTELLATIONS {
        for (h, gr_h) in HIERARCHIES {
            for (mode, gr_mode, p) in MODES {
                if mode == "8k" && h != "alpha4" {
                    continue;
                }
                let gain = if h == "alpha2" { 0.5f32 } else { 1.0 };
                // Cells all over the constellation, and some equally near to several points
                // (the origin, the axes).
                let cells: Vec<Complex32> = (0..2 * p)
                    .map(|k| match k % 97 {
                        0 => Complex32::new(0.0, 0.0),
                        1 => Complex32::new(0.0, 0.5),
                        2 => Complex32::new(-0.25, 0.0),
                        _ => Complex32::new(
                            ((k * 7919) % 3001) as f32 / 1000.0 - 1.5,
                            ((k * 104_729) % 2999) as f32 / 1000.0 - 1.5,
                        ),
                    })
                    .collect();
                cases.push(case(
                    format!("demap_{c}_{h}_{mode}"),
                    format!("dtv.dvbt_demap({p}, dtv.{gr_c}, dtv.{gr_h}, dtv.{gr_mode}, {gain})"),
                    Data::Cells(cells),
                    (p, "b", p),
                    vec![(1, "a", 1)],
                    move || Box::new(DvbtDemap::new(c, h, mode, gain).unwrap()),
                ));
            }
        }
    }
    cases
}

fn reference_signals_cases() -> Vec<Case> {
    let sweep: [ReferenceCase; 4] = [
        (
            "2k",
            "64qam",
            "nh",
            "2/3",
            "2/3",
            "1/32",
            true,
            0,
            4 * 68 + 2,
        ),
        (
            "2k", "qpsk", "alpha2", "1/2", "7/8", "1/4", true, 0x1234, 70,
        ),
        (
            "8k", "16qam", "alpha4", "3/4", "5/6", "1/8", false, 0xbeef, 70,
        ),
        ("8k", "64qam", "alpha1", "5/6", "1/2", "1/16", true, 7, 3),
    ];
    let gr = |w: &str, prefix: &str| format!("dtv.{prefix}{}", w.replace('/', "_"));
    sweep
        .into_iter()
        .map(|(mode, c, h, hp, lp, gi, with_id, id, symbols)| {
            let (p, fft, gr_mode) = if mode == "2k" {
                (1512, 2048, "T2k")
            } else {
                (6048, 8192, "T8k")
            };
            let gr_c = CONSTELLATIONS.iter().find(|x| x.0 == c).unwrap().1;
            let gr_h = HIERARCHIES.iter().find(|x| x.0 == h).unwrap().1;
            let cells: Vec<Complex32> = (0..symbols * p)
                .map(|k| Complex32::from_polar(1.0, ((k * 7919) % 1_000_003) as f32 * 1e-4))
                .collect();
            let mut c = case(
                format!("ref_{mode}_{c}_{h}_{symbols}"),
                format!(
                    "dtv.dvbt_reference_signals(gr.sizeof_gr_complex, {p}, {fft}, dtv.{gr_c}, \
                     dtv.{gr_h}, {}, {}, {}, dtv.{gr_mode}, {}, {id})",
                    gr(hp, "C"),
                    gr(lp, "C"),
                    gr(gi, "GI_"),
                    i32::from(with_id)
                ),
                Data::Cells(cells),
                (p, "c", fft),
                vec![(1, "a", 1)],
                move || {
                    Box::new(
                        DvbtReferenceSignals::new(c, h, hp, lp, gi, mode, with_id, id).unwrap(),
                    )
                },
            );
            c.fft = true;
            c
        })
        .collect()
}

fn run_ours<A: Item, B: Item>(c: &Case, input: Vec<A>, s: &dyn Scheduler) -> (Vec<B>, Tags) {
    let tags = c.tags.iter().map(|&(o, k, v)| Tag::new(o, k, v)).collect();
    let mut fg = Flowgraph::new();
    let src = fg.add(
        VectorSource::new(input)
            .with_vlen(c.in_vlen)
            .unwrap()
            .tags(tags),
    );
    let block = fg.add_boxed(None, (c.ours)());
    let sink = fg.add(VectorSink::<B>::new().with_vlen(c.out_vlen));
    fg.connect(src, block).unwrap();
    fg.connect(block, sink).unwrap();
    fg.run_with(s).unwrap();
    let sink = fg.block::<VectorSink<B>>(sink).unwrap();
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

fn complex(bytes: &[u8]) -> Vec<Complex32> {
    let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
    bytes
        .chunks(8)
        .map(|p| Complex32::new(f(&p[..4]), f(&p[4..])))
        .collect()
}

/// Runs `cases` in GNU Radio and ours under every scheduler.
fn equal_gnu_radio_s(label: &str, cases: &[Case]) {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.dtv)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("radioflow-dvbt-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for c in cases {
        std::fs::write(dir.join(format!("{}.in.bin", c.name)), c.input.to_file()).unwrap();
    }
    let job = json!({
        "out": dir,
        "cases": cases.iter().map(|c| json!({
            "name": c.name,
            "make": c.make,
            "in": c.input.kind(),
            "in_vlen": c.in_vlen,
            "out": c.out,
            "out_vlen": c.out_vlen,
            "tags": c.tags.iter().map(|&(o, k, v)| json!([o, k, v])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/dvbt.py");
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
        let want = std::fs::read(base.with_extension("bin")).unwrap();
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
            let (got, mut tags): (Vec<u8>, Tags) = match (&c.input, c.out) {
                (Data::Bytes(i), "b") => run_ours::<u8, u8>(c, i.clone(), &*s),
                (Data::Bytes(i), _) => {
                    let (o, t) = run_ours::<u8, Complex32>(c, i.clone(), &*s);
                    (Data::Cells(o).to_file(), t)
                }
                (Data::Cells(i), "b") => run_ours::<Complex32, u8>(c, i.clone(), &*s),
                (Data::Cells(i), _) => {
                    let (o, t) = run_ours::<Complex32, Complex32>(c, i.clone(), &*s);
                    (Data::Cells(o).to_file(), t)
                }
            };
            assert_eq!(
                got.len(),
                want.len(),
                "{} on {}: bytes out",
                c.name,
                s.name()
            );
            if c.fft {
                let (got, want) = (complex(&got), complex(&want));
                let peak = want.iter().map(|z| z.norm()).fold(0.0f32, f32::max);
                if let Some(k) = (0..got.len()).find(|&k| (got[k] - want[k]).norm() > 1e-5 * peak) {
                    panic!(
                        "{} on {}: sample {k}: {} vs GNU Radio's {}",
                        c.name,
                        s.name(),
                        got[k],
                        want[k]
                    );
                }
            } else if let Some(k) = (0..got.len()).find(|&k| got[k] != want[k]) {
                panic!(
                    "{} on {}: byte {k} of the output: {} vs GNU Radio's {}",
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
fn energy_dispersal_equals_gnu_radio_s() {
    equal_gnu_radio_s("ed", &energy_dispersal_cases());
}

#[test]
fn energy_descramble_equals_gnu_radio_s() {
    equal_gnu_radio_s("de", &energy_descramble_cases());
}

#[test]
fn reed_solomon_encoder_equals_gnu_radio_s() {
    equal_gnu_radio_s("rs", &reed_solomon_cases());
}

#[test]
fn reed_solomon_decoder_equals_gnu_radio_s() {
    equal_gnu_radio_s("rsd", &reed_solomon_decoder_cases());
}

#[test]
fn convolutional_interleaver_equals_gnu_radio_s() {
    equal_gnu_radio_s("ci", &convolutional_interleaver_cases());
}

#[test]
fn viterbi_decoder_equals_gnu_radio_s() {
    equal_gnu_radio_s("vit", &viterbi_cases());
}

#[test]
fn convolutional_deinterleaver_equals_gnu_radio_s() {
    equal_gnu_radio_s("cd", &convolutional_deinterleaver_cases());
}

#[test]
fn inner_coder_equals_gnu_radio_s() {
    equal_gnu_radio_s("ic", &inner_coder_cases());
}

#[test]
fn bit_inner_interleaver_equals_gnu_radio_s() {
    equal_gnu_radio_s("bi", &bit_interleaver_cases());
}

#[test]
fn bit_inner_deinterleaver_equals_gnu_radio_s() {
    equal_gnu_radio_s("bd", &bit_deinterleaver_cases());
}

#[test]
fn symbol_inner_interleaver_equals_gnu_radio_s() {
    equal_gnu_radio_s("si", &symbol_interleaver_cases());
}

#[test]
fn map_equals_gnu_radio_s() {
    equal_gnu_radio_s("map", &map_cases());
}

#[test]
fn demap_equals_gnu_radio_s() {
    equal_gnu_radio_s("demap", &demap_cases());
}

#[test]
fn reference_signals_equal_gnu_radio_s() {
    equal_gnu_radio_s("ref", &reference_signals_cases());
}
