//! `radioflow bench dvbs2-fer`: frame and packet error rates of the DVB-S2 receiver against
//! Es/N0 around each MODCOD's EN 302 307-1 Table 13 threshold, on recordings of the crate's
//! transmitter with AWGN; with `--compare gr-dvbs2rx`, gr-dvbs2rx's packet error rate on the
//! same recordings.

use super::rx::{
    command, gr_dvbs2rx_peer, io_error, timed, ts_bytes, write_recording, Dvbs2RxParams,
};
use super::{parse_cases, Dvbs2Case};
use crate::common::Common;
use crate::machine::Machine;
use crate::measurement::BenchError;
use crate::plot::{line_chart, Chart, Series};
use crate::values;
use clap::Args;
use std::path::PathBuf;

/// What [`fer`] sweeps.
#[derive(Debug, Clone)]
pub struct FerParams {
    /// The MODCODs (frame size and pilots included).
    pub cases: Vec<Dvbs2Case>,
    /// Es/N0 points, in dB relative to each MODCOD's Table 13 threshold.
    pub offsets_db: Vec<f64>,
    /// PLFRAMEs per point.
    pub frames: usize,
    /// gr-dvbs2rx's install prefix, to measure beside radioflow.
    pub gr_dvbs2rx: Option<PathBuf>,
    /// The `radioflow` binary (unused by radioflow's own runs, which are in-process).
    pub radioflow: PathBuf,
}

/// Frames sent after the measured ones (see [`fer`]).
const FER_TAIL: usize = 40;

/// One point of a curve.
#[derive(Debug, Clone, Copy)]
pub struct FerPoint {
    /// Es/N0 of the recording (dB).
    pub esn0_db: f64,
    /// radioflow: frames that failed / frames synchronised after the first decoded one.
    pub fer: f64,
    /// radioflow: packets not delivered intact in the measured window (see [`fer`]).
    pub per: f64,
    /// gr-dvbs2rx: the same packet measure, when it ran.
    pub gr_per: Option<f64>,
    /// radioflow's own estimate of the Es/N0 (dB), from the known symbols.
    pub estimated_db: f64,
}

/// A case's curve.
#[derive(Debug, Clone)]
pub struct FerCurve {
    /// `qpsk-1/2 normal pilots`.
    pub case: String,
    /// Table 13's quasi-error-free Es/N0 (dB).
    pub threshold_db: f64,
    /// The points, in Es/N0 order.
    pub points: Vec<FerPoint>,
}

/// Packets per frame of `case` (Kbch less the BBHEADER, over 188 bytes).
fn packets_per_frame(case: &Dvbs2Case) -> Result<usize, BenchError> {
    let m: radioflow_dvbs2::Modcod = case
        .modcod
        .parse()
        .map_err(|e| BenchError::Params(format!("dvbs2-fer: {e}")))?;
    let fec = m
        .fec(case.frame)
        .map_err(|e| BenchError::Params(format!("dvbs2-fer: {e}")))?;
    Ok((fec.kbch - 80) / 8 / 188)
}

/// Packets of `sent` delivered intact in `got`, counting only packets `from..to` of the stream
/// (each output packet is matched to the sent one its counter names).
fn intact(got: &[u8], sent: &[u8], from: usize, to: usize) -> usize {
    got.chunks_exact(188)
        .filter(|p| {
            let k = u32::from_be_bytes([p[4], p[5], p[6], p[7]]) as usize;
            (from..to).contains(&k) && sent.get(k * 188..(k + 1) * 188) == Some(*p)
        })
        .count()
}

/// FER and PER against Es/N0 around each MODCOD's Table 13 threshold, with the whole receiver
/// (synchronisation included), on recordings of the crate's transmitter with AWGN (RRC 0.2, 2
/// samples/symbol). PER counts the packets of frames 3..frames-2 not delivered intact
/// (acquisition left out); 40 more frames follow them so both receivers flush the window.
/// FER is over every frame radioflow synchronised, the extra ones included.
///
/// # Errors
/// A file that cannot be written, a run that fails.
pub fn fer(p: &FerParams) -> Result<Vec<FerCurve>, BenchError> {
    use radioflow_dvbs2::framed::{run_rx, RxLive, RxRun};
    let tmp = std::env::temp_dir().join(format!("radioflow-dvbs2-fer-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(io_error(&tmp))?;
    let result = (|| {
        let mut curves = Vec::new();
        for case in &p.cases {
            let ppf = packets_per_frame(case)?;
            // 40 frames after the measured ones, so that a receiver whose pipeline still holds
            // frames when the file ends (gr-dvbs2rx holds about 25) is not charged for them.
            let packets = (p.frames + FER_TAIL) * ppf;
            let sent = ts_bytes(packets);
            let (from, to) = (3 * ppf, (p.frames - 2) * ppf);
            let m: radioflow_dvbs2::Modcod = case
                .modcod
                .parse()
                .map_err(|e| BenchError::Params(format!("dvbs2-fer: {e}")))?;
            let threshold = m.qef_esn0_db();
            let mut points = Vec::new();
            for &off in &p.offsets_db {
                let esn0 = threshold + off;
                let rec = tmp.join("rec.cf32");
                let out = tmp.join("out.ts");
                write_recording(case, packets, esn0, &rec)?;
                // As `radioflow dvbs2 rx --cores 0` receives a file.
                let run = RxRun {
                    sync: Default::default(),
                    filter: Default::default(),
                    cores: 0,
                    pin: false,
                };
                let input = std::fs::File::open(&rec).map_err(io_error(&rec))?;
                let output = std::fs::File::create(&out).map_err(io_error(&out))?;
                let output = std::io::BufWriter::with_capacity(1 << 16, output);
                let live = std::sync::Arc::new(RxLive::default());
                let r = run_rx(&run, input, output, None, live, |_| {})
                    .map_err(|e| BenchError::Params(format!("dvbs2-fer radioflow: {e}")))?;
                let got = std::fs::read(&out).map_err(io_error(&out))?;
                let window = (to - from).max(1) as f64;
                let per = 1.0 - intact(&got, &sent, from, to) as f64 / window;
                let fer = r.failed as f64 / (r.decoded + r.failed).max(1) as f64;
                // gr-dvbs2rx decodes QPSK and 8PSK only (it refuses APSK MODCODs).
                let gr_supports =
                    case.modcod.starts_with("qpsk") || case.modcod.starts_with("8psk");
                let gr_per = match &p.gr_dvbs2rx {
                    Some(_) if gr_supports => {
                        let _ = std::fs::remove_file(&out);
                        let cmd = command(
                            &Dvbs2RxParams {
                                packets,
                                runs: 1,
                                cores: vec![],
                                cases: vec![],
                                esn0_db: esn0,
                                gr_dvbs2rx: p.gr_dvbs2rx.clone(),
                                radioflow: p.radioflow.clone(),
                            },
                            case,
                            None,
                            &rec,
                            &out,
                        );
                        timed(cmd, &out, "gr-dvbs2rx")?;
                        let got = std::fs::read(&out).map_err(io_error(&out))?;
                        Some(1.0 - intact(&got, &sent, from, to) as f64 / window)
                    }
                    _ => None,
                };
                points.push(FerPoint {
                    esn0_db: esn0,
                    fer,
                    per,
                    gr_per,
                    estimated_db: f64::from(r.esn0_db.unwrap_or(f32::NAN)),
                });
            }
            curves.push(FerCurve {
                case: case.label(),
                threshold_db: threshold,
                points,
            });
        }
        Ok(curves)
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

/// `bench dvbs2-fer`: frame and packet error rates against Es/N0 around Table 13.
#[derive(Args, Clone)]
pub(crate) struct Dvbs2FerArgs {
    /// MODCOD settings, `MODCOD:FRAME:PILOTS` comma separated.
    #[arg(
        long,
        default_value = "qpsk-1/2:normal:on,qpsk-1/2:short:on,qpsk-8/9:normal:on,qpsk-8/9:short:on,8psk-3/5:normal:on,8psk-3/5:short:on,16apsk-3/4:normal:on,16apsk-3/4:short:on"
    )]
    cases: String,
    /// Es/N0 points in dB relative to each MODCOD's Table 13 threshold, comma separated.
    #[arg(
        long,
        default_value = "-0.5,0,0.5,1,1.5,2,3",
        allow_hyphen_values = true
    )]
    offsets: String,
    /// PLFRAMEs per point (accepts 1e3).
    #[arg(long, default_value = "60", value_parser = values::count)]
    frames: u64,
    /// Install prefix of gr-dvbs2rx, for `--compare gr-dvbs2rx`. Default: $GR_DVBS2RX_PREFIX.
    #[arg(long)]
    gr_dvbs2rx: Option<PathBuf>,
}

/// `radioflow bench dvbs2-fer`: every case's curve, printed (and plotted with `--out`).
pub(crate) fn bench(a: Dvbs2FerArgs, c: &Common) -> Result<(), BenchError> {
    let offsets: Vec<f64> = a
        .offsets
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|e| BenchError::Params(format!("--offsets {:?}: {e}", a.offsets)))?;
    if let Some(o) = offsets.iter().find(|o| !o.is_finite() || o.abs() > 20.0) {
        return Err(BenchError::Params(format!(
            "--offsets: {o} dB is not within ±20 dB of the threshold"
        )));
    }
    if a.frames < 8 {
        return Err(BenchError::Params(format!(
            "--frames {}: at least 8 (3 for acquisition, 2 at the end)",
            a.frames
        )));
    }
    let gr = gr_dvbs2rx_peer(c, a.gr_dvbs2rx.clone(), "dvbs2-fer")?;
    if let Some(dir) = &c.out {
        std::fs::create_dir_all(dir)?;
    }
    let p = FerParams {
        cases: parse_cases(&a.cases)?,
        offsets_db: if c.quick { vec![3.0] } else { offsets },
        frames: if c.quick { 12 } else { a.frames as usize },
        gr_dvbs2rx: gr,
        radioflow: std::env::current_exe()?,
    };
    if !c.json {
        println!("machine: {}", Machine::detect());
        println!(
            "dvbs2-fer: {} PLFRAMEs per point, AWGN, RRC roll-off 0.2 at 2 samples/symbol, the whole \
             receiver (synchronisation included); FER: frames failed / synchronised; PER: packets of \
             frames 3..{} not delivered intact",
            p.frames,
            p.frames - 2
        );
    }
    let curves = fer(&p)?;
    for cv in &curves {
        if c.json {
            for pt in &cv.points {
                println!(
                    "{}",
                    serde_json::json!({"experiment": "dvbs2-fer", "case": cv.case, "threshold_db": cv.threshold_db, "esn0_db": pt.esn0_db, "estimated_db": pt.estimated_db, "fer": pt.fer, "per": pt.per, "gr_per": pt.gr_per})
                );
            }
            continue;
        }
        println!("\n{} (Table 13: {:.2} dB)", cv.case, cv.threshold_db);
        println!(
            "{:>10} {:>10} {:>12} {:>12} {:>14}",
            "Es/N0 dB", "estimated", "FER", "PER", "gr-dvbs2rx PER"
        );
        for pt in &cv.points {
            println!(
                "{:>10.2} {:>10.2} {:>12.4} {:>12.4} {:>14}",
                pt.esn0_db,
                pt.estimated_db,
                pt.fer,
                pt.per,
                pt.gr_per.map_or("-".to_string(), |g| format!("{g:.4}"))
            );
        }
        if let Some(dir) = &c.out {
            let mut series = vec![
                Series {
                    label: "radioflow FER".into(),
                    points: cv.points.iter().map(|p| (p.esn0_db, p.fer)).collect(),
                },
                Series {
                    label: "radioflow PER".into(),
                    points: cv.points.iter().map(|p| (p.esn0_db, p.per)).collect(),
                },
            ];
            if cv.points.iter().any(|p| p.gr_per.is_some()) {
                series.push(Series {
                    label: "gr-dvbs2rx PER".into(),
                    points: cv
                        .points
                        .iter()
                        .filter_map(|p| p.gr_per.map(|g| (p.esn0_db, g)))
                        .collect(),
                });
            }
            series.push(Series {
                label: "EN 302 307-1 Table 13 (QEF)".into(),
                points: vec![(cv.threshold_db, 0.0), (cv.threshold_db, 1.0)],
            });
            let stem = dir.join(format!("dvbs2-fer-{}", cv.case.replace(['/', ' '], "_")));
            let title = format!("{}: error rates against Es/N0", cv.case);
            match line_chart(
                &stem,
                &Chart {
                    title: &title,
                    x_label: "Es/N0 (dB)",
                    y_label: "error rate",
                    log_x: false,
                    series: &series,
                },
            ) {
                Ok(w) => println!("plot: {}", w.svg.display()),
                Err(e) => println!("no plot: {e}"),
            }
        }
    }
    Ok(())
}
