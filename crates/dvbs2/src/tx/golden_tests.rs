//! Bit-exactness against GNU Radio's gr-dtv: golden data made by `golden/generate.py`.

use num_complex::Complex32;

use crate::bbframe::{unpack, BbScrambler, InputStream, ModeAdapter, RollOff};
use crate::bch::BchEncoder;
use crate::ldpc::LdpcEncoder;
use crate::mapper::{interleave, Mapper};
use crate::modcod::{FrameSize, Modcod};
use crate::tx::transmitter::{Transmitter, TxConfig};

const GOLDEN: &str = include_str!("../../golden/gr_dtv.txt");
const FRAMES: usize = 2;

/// The generator's TS stream: packet p, byte j (`ts_byte` in generate.py).
pub(crate) fn ts_stream(npackets: usize) -> Vec<u8> {
    let mut s = Vec::with_capacity(npackets * 188);
    for p in 0..npackets as i64 {
        for j in 0..188i64 {
            let b = if j == 0 {
                0x47
            } else {
                (p * 131 + j * 29 + ((p * j) >> 3)) & 0xFF
            };
            s.push(b as u8);
        }
    }
    s
}

fn fnv1a64(bytes: impl IntoIterator<Item = u8>) -> String {
    let h = bytes.into_iter().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    });
    format!("{h:016x}")
}

/// numpy.packbits: 8 bits per byte, first bit in the MSB.
fn pack(bits: &[u8]) -> impl Iterator<Item = u8> + '_ {
    bits.chunks(8).map(|c| {
        c.iter()
            .enumerate()
            .fold(0u8, |a, (k, &b)| a | (b << (7 - k)))
    })
}

struct Case {
    modcod: Modcod,
    frame: FrameSize,
    pilots: bool,
    gold: u32,
    kbch: usize,
    plframe_len: usize,
    hashes: [String; 5],
    modulator_wsum: Complex32,
    wsum: [f64; 2],
    first: Vec<Complex32>,
    last: Vec<Complex32>,
}

fn cases() -> Vec<Case> {
    GOLDEN
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let num = |i: usize| f[i].parse::<f64>().unwrap();
            let pts = |start: usize| {
                (0..8)
                    .map(|k| {
                        Complex32::new(num(start + 2 * k) as f32, num(start + 2 * k + 1) as f32)
                    })
                    .collect()
            };
            Case {
                modcod: f[0].parse().unwrap(),
                frame: f[1].parse().unwrap(),
                pilots: f[2] == "on",
                gold: f[3].parse().unwrap(),
                kbch: f[4].parse().unwrap(),
                plframe_len: f[5].parse().unwrap(),
                hashes: std::array::from_fn(|i| f[6 + i].to_string()),
                modulator_wsum: Complex32::new(num(11) as f32, num(12) as f32),
                wsum: [num(13), num(14)],
                first: pts(15),
                last: pts(31),
            }
        })
        .collect()
}

fn wsum(symbols: &[Complex32]) -> [f64; 2] {
    symbols
        .iter()
        .enumerate()
        .fold([0.0, 0.0], |[re, im], (k, s)| {
            let w = (k % 97 + 1) as f64;
            [re + w * f64::from(s.re), im + w * f64::from(s.im)]
        })
}

fn close(a: Complex32, b: Complex32) -> bool {
    (a - b).norm() < 1e-5
}

#[test]
fn every_modcod_frame_and_pilot_setting_matches_gr_dtv() {
    let cases = cases();
    // 28 MODCODs normal + 24 short, pilots off and on, plus 3 cases with other Gold codes.
    assert_eq!(cases.len(), 2 * (Modcod::all().count() * 2 - 4) + 3);
    assert_eq!(cases.iter().filter(|c| c.gold != 0).count(), 3);
    let input = ts_stream(FRAMES * 40 + 2);
    let scrambler = BbScrambler::new();
    for c in &cases {
        let name = format!(
            "{} {:?} pilots {} gold {}",
            c.modcod, c.frame, c.pilots, c.gold
        );
        let fec = c.modcod.fec(c.frame).unwrap();
        assert_eq!(fec.kbch, c.kbch, "{name}");
        // Stage by stage, FRAMES frames.
        let mut adapter = ModeAdapter::new(InputStream::Transport, RollOff::R020, true);
        let bch = BchEncoder::new(&fec);
        let mut ldpc = LdpcEncoder::new(&fec);
        let mapper = Mapper::new(c.modcod);
        let nsym = fec.nldpc / c.modcod.constellation().bits_per_symbol();
        let mut stages: [Vec<u8>; 5] = Default::default();
        let mut symbols = Vec::new();
        let mut pos = 0;
        for _ in 0..FRAMES {
            let mut bytes = vec![0u8; fec.nbch / 8];
            pos += adapter.build(&fec, &input[pos..], &mut bytes).unwrap();
            stages[0].extend_from_slice(&bytes[..fec.kbch / 8]);
            scrambler.apply(&mut bytes[..fec.kbch / 8]);
            stages[1].extend_from_slice(&bytes[..fec.kbch / 8]);
            bch.encode(&mut bytes, fec.kbch);
            stages[2].extend_from_slice(&bytes);
            let mut bits = vec![0u8; fec.nldpc];
            unpack(&bytes, &mut bits);
            ldpc.encode(&mut bits);
            stages[3].extend(pack(&bits));
            let mut labels = vec![0u8; nsym];
            interleave(c.modcod, &bits, &mut labels);
            stages[4].extend_from_slice(&labels);
            let mut s = vec![Complex32::new(0.0, 0.0); nsym];
            mapper.map(&labels, &mut s);
            symbols.extend(s);
        }
        let names = ["bbheader", "bbscrambler", "bch", "ldpc", "interleaver"];
        for (i, stage) in stages.iter().enumerate() {
            let got = fnv1a64(stage.iter().copied());
            assert_eq!(got, c.hashes[i], "{name}: stage {}", names[i]);
        }
        let mw = wsum(&symbols);
        assert!(
            (mw[0] - f64::from(c.modulator_wsum.re)).abs() < 1e-2
                && (mw[1] - f64::from(c.modulator_wsum.im)).abs() < 1e-2,
            "{name}: modulator {mw:?} vs {:?}",
            c.modulator_wsum
        );

        // The whole chain through the public Transmitter.
        let cfg = TxConfig {
            gold: c.gold,
            ..TxConfig::new(c.modcod, c.frame, c.pilots)
        };
        let mut tx = Transmitter::new(cfg).unwrap();
        assert_eq!(tx.frame_len(), c.plframe_len, "{name}");
        let mut pl = vec![Complex32::new(0.0, 0.0); FRAMES * c.plframe_len];
        let mut pos = 0;
        for frame in pl.chunks_exact_mut(c.plframe_len) {
            pos += tx.encode_frame(&input[pos..], frame).unwrap().consumed;
        }
        let w = wsum(&pl);
        assert!(
            (w[0] - c.wsum[0]).abs() < 1e-2 && (w[1] - c.wsum[1]).abs() < 1e-2,
            "{name}: {w:?} vs {:?}",
            c.wsum
        );
        assert!(
            pl[..8].iter().zip(&c.first).all(|(a, b)| close(*a, *b)),
            "{name}: first symbols"
        );
        assert!(
            pl[pl.len() - 8..]
                .iter()
                .zip(&c.last)
                .all(|(a, b)| close(*a, *b)),
            "{name}: last symbols"
        );
    }
}

#[test]
fn full_plframes_match_gr_dtv_symbol_by_symbol() {
    let files: [(&str, &[u8]); 4] = [
        (
            "qpsk-1/4 short on",
            include_bytes!("../../golden/qpsk-1_4_short_pilots.cf32"),
        ),
        (
            "8psk-3/5 normal off",
            include_bytes!("../../golden/8psk-3_5_normal_nopilots.cf32"),
        ),
        (
            "16apsk-2/3 short on",
            include_bytes!("../../golden/16apsk-2_3_short_pilots.cf32"),
        ),
        (
            "32apsk-9/10 normal on",
            include_bytes!("../../golden/32apsk-9_10_normal_pilots.cf32"),
        ),
    ];
    let input = ts_stream(FRAMES * 40 + 2);
    for (name, bytes) in files {
        let f: Vec<&str> = name.split(' ').collect();
        let mut tx = Transmitter::new(TxConfig::new(
            f[0].parse().unwrap(),
            f[1].parse().unwrap(),
            f[2] == "on",
        ))
        .unwrap();
        let expected: Vec<Complex32> = bytes
            .chunks_exact(8)
            .map(|c| {
                let re = f32::from_le_bytes(c[..4].try_into().unwrap());
                let im = f32::from_le_bytes(c[4..].try_into().unwrap());
                Complex32::new(re, im)
            })
            .collect();
        let mut out = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        assert_eq!(out.len(), expected.len(), "{name}");
        tx.encode_frame(&input, &mut out).unwrap();
        let worst = out
            .iter()
            .zip(&expected)
            .map(|(a, b)| (a - b).norm())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-5, "{name}: worst symbol error {worst}");
    }
}

/// Regenerates the golden data with the installed gr-dtv and checks it equals the committed
/// files, so the committed data cannot drift from GNU Radio. Skipped (saying so) without it.
#[test]
fn committed_golden_data_equals_live_gr_dtv_output() {
    let python = "/usr/bin/python3";
    let have_gr = std::process::Command::new(python)
        .args(["-c", "from gnuradio import dtv"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_gr {
        eprintln!("SKIPPED committed_golden_data_equals_live_gr_dtv_output: no GNU Radio gr-dtv for {python}");
        return;
    }
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    let dir = tempfile::tempdir().unwrap();
    let status = std::process::Command::new(python)
        .arg(here.join("generate.py"))
        .arg(dir.path())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "generate.py failed");
    let mut compared = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        let live = std::fs::read(&path).unwrap();
        let committed = std::fs::read(here.join(name)).unwrap();
        if live != committed {
            // Name the first differing line of the text file (its header names the GNU Radio
            // version); the .cf32 files are binary.
            let first_diff = String::from_utf8_lossy(&live)
                .lines()
                .zip(String::from_utf8_lossy(&committed).lines())
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("\n live:      {a}\n committed: {b}"))
                .unwrap_or_default();
            panic!("{name:?} differs from live gr-dtv output{first_diff}");
        }
        compared += 1;
    }
    assert_eq!(compared, 5);
}
