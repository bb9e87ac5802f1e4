//! [`Dvbt2PilotGenerator`]: gr-dtv's `dvbt2_pilotgenerator_cc`, DVB-T2's pilot insertion and
//! OFDM modulation.

use crate::error::SettingsError;
use crate::params::{self, FftSize, GuardInterval};
use crate::pilot_map::{Carrier, PilotMap};
use crate::symbol_cells::{self, SymbolCells};
use radioflow_fftplan::Fft;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::sync::Arc;

const BLOCK: &str = "dvbt2_pilotgenerator";

/// Chips of the PN sequence (ETSI EN 302 755 clause 9.2.2.2): a T2 frame has no more symbols.
const PN_CHIPS: usize = 2624;

/// DVB-T2's pilots and OFDM modulation (ETSI EN 302 755 clauses 9.2 to 9.5) as gr-dtv's
/// `dvbt2_pilotgenerator_cc`: the cells of a T2 frame (its N_P2 P2 symbols, `numdatasyms`
/// data symbols, the last a frame closing symbol where the pilot pattern and guard interval
/// make one) in, one vector of `fftsize` time-domain samples per OFDM symbol out.
///
/// Each symbol's carriers get the P2, scattered, continual and edge pilots, zeros on the
/// tones reserved for PAPR reduction (`paprmode` `tr` or `both`), and the next data cells on
/// the others; the carriers are centred in the FFT (the unused ones zero), optionally
/// multiplied by an inverse sin(x)/x (`equalization` `on`, for the DAC's roll-off at the
/// `bandwidth`'s sample rate), and inverse transformed, scaled by 5/sqrt(27 C_PS). Pilot
/// positions and values are gr-dtv's: its tables, its reduction of continual pilot indices
/// modulo K_mod, its extra pilots of extended mode and beside the closing symbol's edge.
///
/// With a MISO preamble (`t2_miso`, `t2_lite_miso`) the P2 symbols have MISO's pilots and
/// `misogroup` `tx2` inverts the second transmitter's pilots as gr-dtv does (`misogroup` has
/// no effect with a SISO preamble, as in gr-dtv). 16K extended PP1 is refused: gr-dtv's
/// pilots there do not fit the frame's cells (see [`new`](Self::new)). A frame cut by the
/// end of the stream makes no output; tags are not passed (the output counts symbols).
///
/// gr-dtv's work consumes one frame's cells per call however many frames it writes, so a
/// call that writes two frames reads the second frame's cells again in the next; this block
/// takes each frame's own cells, as gr-dtv does when each call writes one frame (the tests
/// run it so).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt2::Dvbt2PilotGenerator;
///
/// let pg = Dvbt2PilotGenerator::new(
///     "normal", "1k", "pp1", "1/8", 3, "off", "t2_siso", "tx1", "off", "8", 1024,
/// )?;
/// let n = pg.frame_cells(); // 16 P2 symbols of 558 cells, 2 of 764, the closing 568
/// assert_eq!(n, 16 * 558 + 2 * 764 + 568);
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); n]));
/// let pg = fg.add(pg);
/// let sink = fg.add(VectorSink::<Complex32>::new().with_vlen(1024));
/// fg.connect(src, pg)?;
/// fg.connect(pg, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data().len(), 19 * 1024);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt2_pilotgenerator",
    summary = "DVB-T2 pilots and OFDM modulation as gr-dtv's dvbt2_pilotgenerator_cc: the cells of a T2 frame in, one vector of FFT-size samples per OFDM symbol out.",
    make = Self::new(&carriermode, &fftsize, &pilotpattern, &guardinterval, numdatasyms, &paprmode,
        &preamble, &misogroup, &equalization, &bandwidth, vlength)
        .map_err(Refused::from)
)]
#[param(carriermode: String = "normal", words = ["normal", "extended"], doc = "carrier mode (extended: 8K, 16K and 32K)")]
#[param(
    fftsize: String = "16k",
    words = ["1k", "2k", "4k", "8k", "8k_t2gi", "16k", "16k_t2gi", "32k", "32k_t2gi"],
    doc = "FFT size (the _t2gi variants are the same here)"
)]
#[param(
    pilotpattern: String = "pp4",
    words = ["pp1", "pp2", "pp3", "pp4", "pp5", "pp6", "pp7", "pp8"],
    doc = "scattered pilot pattern"
)]
#[param(
    guardinterval: String = "1/32",
    words = ["1/32", "1/16", "1/8", "1/4", "1/128", "19/128", "19/256"],
    doc = "guard interval (decides whether the frame has a closing symbol)"
)]
#[param(numdatasyms: usize = 100, min = 1, doc = "data symbols per T2 frame (the closing symbol among them)")]
#[param(paprmode: String = "off", words = ["off", "ace", "tr", "both"], doc = "PAPR reduction (tone reservation reserves carriers)")]
#[param(
    preamble: String = "t2_siso",
    words = ["t2_siso", "t2_miso", "t2_lite_siso", "t2_lite_miso"],
    doc = "preamble (SISO or MISO pilots)"
)]
#[param(misogroup: String = "tx1", words = ["tx1", "tx2"], doc = "MISO transmitter (its pilots; no effect with a SISO preamble)")]
#[param(equalization: String = "off", words = ["off", "on"], doc = "inverse sin(x)/x equalization")]
#[param(
    bandwidth: String = "8",
    words = ["1.7", "5", "6", "7", "8", "10"],
    doc = "channel bandwidth in MHz (its sample rate shapes the equalization)"
)]
#[param(vlength: usize = 0, doc = "samples per output vector, an FFT of as many points (0: the FFT size)")]
pub struct Dvbt2PilotGenerator {
    /// Cells of T2 frames, symbol after symbol.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// One vector of `vlength` samples per OFDM symbol.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    frame_cells: usize,
    modulator: Modulator,
}

/// Makes the OFDM symbols of a frame: carriers, pilots, inverse FFT.
struct Modulator {
    map: PilotMap,
    vlength: usize,
    /// Zero carriers below the first used one.
    left_nulls: usize,
    inverse_sinc: Option<Vec<f32>>,
    normalization: f32,
    fft: Arc<dyn Fft<f32>>,
    spectrum: Vec<Complex32>,
    scratch: Vec<Complex32>,
}

impl std::fmt::Debug for Dvbt2PilotGenerator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbt2PilotGenerator")
            .field("frame_cells", &self.frame_cells)
            .field("vlength", &self.modulator.vlength)
            .finish()
    }
}

#[block(type_name = "dvbt2_pilotgenerator")]
impl Dvbt2PilotGenerator {
    /// The pilot generator of T2 frames of these settings (the parameters' words).
    ///
    /// # Errors
    /// A word that is not one of a parameter's, `numdatasyms` 0 or more symbols than the PN sequence has chips, a pilot pattern the FFT
    /// size does not have (ETSI EN 302 755 clause 9.2.3.1), `vlength` not 0 nor an even number
    /// above the FFT size's carriers.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        carriermode: &str,
        fftsize: &str,
        pilotpattern: &str,
        guardinterval: &str,
        numdatasyms: usize,
        paprmode: &str,
        preamble: &str,
        misogroup: &str,
        equalization: &str,
        bandwidth: &str,
        vlength: usize,
    ) -> Result<Self, SettingsError> {
        let extended = params::parse_extended(BLOCK, "carriermode", carriermode)?;
        let fft = FftSize::parse(BLOCK, "fftsize", fftsize)?;
        let pp = params::parse_pilot_pattern(BLOCK, "pilotpattern", pilotpattern)?;
        let gi = GuardInterval::parse(BLOCK, "guardinterval", guardinterval)?;
        let tr = params::parse_tone_reservation(BLOCK, "paprmode", paprmode)?;
        let miso = params::parse_miso(BLOCK, "preamble", preamble)?;
        let tx2 = match misogroup {
            "tx1" => false,
            "tx2" => true,
            other => {
                return Err(SettingsError::param(
                    BLOCK,
                    "misogroup",
                    format!("must be one of tx1, tx2, not {other:?}"),
                ))
            }
        };
        let equalize = match equalization {
            "off" => false,
            "on" => true,
            other => {
                return Err(SettingsError::param(
                    BLOCK,
                    "equalization",
                    format!("must be one of off, on, not {other:?}"),
                ))
            }
        };
        // The sample rate of each bandwidth (clause 9.5, table 66).
        let fs = match bandwidth {
            "1.7" => 131.0 * 1_000_000.0 / 71.0,
            "5" => 5.0 * 8_000_000.0 / 7.0,
            "6" => 6.0 * 8_000_000.0 / 7.0,
            "7" => 7.0 * 8_000_000.0 / 7.0,
            "8" => 8.0 * 8_000_000.0 / 7.0,
            "10" => 10.0 * 8_000_000.0 / 7.0,
            other => {
                return Err(SettingsError::param(
                    BLOCK,
                    "bandwidth",
                    format!("must be one of 1.7, 5, 6, 7, 8, 10, not {other:?}"),
                ))
            }
        };
        params::require_data_symbols(BLOCK, numdatasyms)?;
        let cells = symbol_cells::require_cells(
            BLOCK,
            fftsize,
            pilotpattern,
            SymbolCells::new(fft, extended, pp, (gi.num, gi.den), tr, miso),
        )?;
        if extended && matches!(fft, FftSize::K1 | FftSize::K2 | FftSize::K4) {
            return Err(SettingsError::param(
                BLOCK,
                "carriermode",
                format!("extended: FFT size {fftsize} has no extended carriers (ETSI EN 302 755 clause 9.5)"),
            ));
        }
        if cells.p2_symbols + numdatasyms > PN_CHIPS {
            return Err(SettingsError::param(
                BLOCK,
                "numdatasyms",
                format!("{numdatasyms}: a T2 frame has at most {PN_CHIPS} symbols after P1 (the PN sequence's chips)"),
            ));
        }
        let map = PilotMap::new(fft, extended, pp, tr, miso, tx2, &cells, numdatasyms);
        let vlength = if vlength == 0 {
            1 << fft.log2()
        } else {
            vlength
        };
        if !map.matches(&cells) {
            // 16K extended PP1 only: gr-dtv's continual pilot at 3636 (for 13636) leaves a
            // data carrier more in every fourth symbol than the frame has cells for, and
            // gr-dtv's output goes out of step with its input.
            return Err(SettingsError::param(
                BLOCK,
                "pilotpattern",
                format!("{pilotpattern} with {carriermode} carriers at FFT size {fftsize}: gr-dtv's pilot tables leave symbols more data carriers than the frame has cells (ETSI EN 302 755 clause 8.3.1), so its output is not a T2 signal"),
            ));
        }
        if vlength <= map.carriers || !vlength.is_multiple_of(2) {
            return Err(SettingsError::param(
                BLOCK,
                "vlength",
                format!(
                    "{vlength}: must be even and above the {} carriers of FFT size {fftsize}",
                    map.carriers
                ),
            ));
        }
        let frame_cells = cells.frame_cells(numdatasyms);
        let inverse_sinc = equalize.then(|| inverse_sinc(vlength, fs));
        let plan = radioflow_fftplan::inverse(vlength);
        let scratch = vec![Complex32::new(0.0, 0.0); plan.get_inplace_scratch_len()];
        let symbols = map.symbols;
        Ok(Self {
            input: StreamInput::new().with_min_items(frame_cells),
            output: StreamOutput::new()
                .with_vlen(vlength)
                .with_min_items(symbols * vlength),
            frame_cells,
            modulator: Modulator {
                left_nulls: (vlength - map.carriers) / 2 + 1,
                normalization: (5.0 / (27.0 * map.carriers as f64).sqrt()) as f32,
                map,
                vlength,
                inverse_sinc,
                fft: plan,
                spectrum: vec![Complex32::new(0.0, 0.0); vlength],
                scratch,
            },
        })
    }

    /// The cells of a T2 frame in.
    pub fn frame_cells(&self) -> usize {
        self.frame_cells
    }

    /// The OFDM symbols (output vectors) of a T2 frame.
    pub fn frame_symbols(&self) -> usize {
        self.modulator.map.symbols
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let m = &mut self.modulator;
        let out_frame = m.map.symbols * m.vlength;
        let n = (self.input.slice().len() / self.frame_cells)
            .min(self.output.slice().len() / out_frame);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let (x, y) = (self.input.slice(), self.output.slice());
        let frames = x
            .chunks_exact(self.frame_cells)
            .zip(y.chunks_exact_mut(out_frame));
        for (cells, samples) in frames.take(n) {
            let mut taken = 0;
            for (j, out) in samples.chunks_exact_mut(m.vlength).enumerate() {
                taken += m.symbol(j, &cells[taken..], out);
            }
            debug_assert_eq!(taken, self.frame_cells);
        }
        self.input.consume(n * self.frame_cells);
        self.output.produce(n * out_frame);
        Ok(WorkStatus::Continue)
    }
}

impl Modulator {
    /// Symbol `j` of the frame from its data cells `cells` into `out` (`vlength` samples);
    /// returns the cells used.
    fn symbol(&mut self, j: usize, cells: &[Complex32], out: &mut [Complex32]) -> usize {
        let map = self.map.symbol(j);
        let pn = self.map.pn[j];
        let [p2, sp, cp] = self.map.amplitude;
        let bpsk = |a: f32, bit: u8| Complex32::new(if bit == 0 { a } else { -a }, 0.0);
        out.fill(Complex32::new(0.0, 0.0));
        let mut used = 0;
        let carriers = &mut out[self.left_nulls..self.left_nulls + map.len()];
        for ((y, &c), &w) in carriers.iter_mut().zip(map).zip(&self.map.prbs) {
            *y = match c {
                Carrier::Data => {
                    used += 1;
                    cells[used - 1]
                }
                Carrier::P2 => bpsk(p2, w ^ pn),
                Carrier::Scattered => bpsk(sp, w ^ pn),
                Carrier::Continual => bpsk(cp, w ^ pn),
                Carrier::P2Inverted => bpsk(p2, w ^ pn ^ 1),
                Carrier::ScatteredInverted => bpsk(sp, w ^ pn ^ 1),
                Carrier::ContinualInverted => bpsk(cp, w ^ pn ^ 1),
                Carrier::Reserved => Complex32::new(0.0, 0.0),
            };
        }
        if let Some(eq) = &self.inverse_sinc {
            for (y, &g) in out.iter_mut().zip(eq) {
                *y = Complex32::new(y.re * g, y.im * g);
            }
        }
        // The carriers are centred; the transform wants carrier 0 first.
        let half = self.vlength / 2;
        self.spectrum[half..].copy_from_slice(&out[..half]);
        self.spectrum[..half].copy_from_slice(&out[half..]);
        self.fft
            .process_with_scratch(&mut self.spectrum, &mut self.scratch);
        for (y, x) in out.iter_mut().zip(&self.spectrum) {
            *y = Complex32::new(x.re * self.normalization, x.im * self.normalization);
        }
        used
    }
}

/// gr-dtv's inverse sin(x)/x over `vlength` carriers at sample rate `fs`, centred, scaled by
/// the RMS of sin(x)/x over half the band, as float.
fn inverse_sinc(vlength: usize, fs: f64) -> Vec<f32> {
    let mut g = vec![0f32; vlength];
    let half = vlength / 2;
    let fstep = fs / vlength as f64;
    let (mut f, mut rms) = (0.0f64, 0.0f64);
    for i in 0..half {
        let x = std::f64::consts::PI * f / fs;
        let sinc = if i == 0 { 1.0 } else { x.sin() / x };
        rms += sinc * sinc;
        g[half + i] = (1.0 / sinc) as f32;
        g[half - i - 1] = (1.0 / sinc) as f32;
        f += fstep;
    }
    let rms = (rms / half as f64).sqrt() as f32;
    for v in &mut g {
        *v *= rms;
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make(
        carriers: &str,
        fft: &str,
        pp: &str,
        preamble: &str,
        vlength: usize,
    ) -> Result<Dvbt2PilotGenerator, SettingsError> {
        Dvbt2PilotGenerator::new(
            carriers, fft, pp, "1/32", 3, "off", preamble, "tx1", "off", "8", vlength,
        )
    }

    /// What is not implemented, or has no T2 signal, is refused naming the parameter.
    #[test]
    fn refuses_by_name() {
        for (r, says) in [
            (
                make("extended", "16k", "pp1", "t2_siso", 16384),
                "pilotpattern",
            ),
            (make("normal", "1k", "pp7", "t2_siso", 1024), "pilotpattern"),
            (
                make("extended", "2k", "pp2", "t2_siso", 2048),
                "carriermode",
            ),
            (make("normal", "1k", "pp1", "t2_siso", 512), "vlength"),
        ] {
            let e = r.expect_err(says).to_string();
            assert!(e.contains(BLOCK) && e.contains(says), "{says}: {e}");
        }
        assert!(make("normal", "1k", "pp1", "t2_siso", 1024).is_ok());
        assert!(make("normal", "1k", "pp1", "t2_miso", 1024).is_ok());
        // 0: the FFT size.
        let pg = make("normal", "1k", "pp1", "t2_siso", 0).unwrap();
        assert_eq!(pg.modulator.vlength, 1024);
    }

    /// The inverse sin(x)/x is 1 at the centre before scaling, grows to the band edges, and is
    /// symmetric about the centre.
    #[test]
    fn inverse_sinc_rises_to_the_edges() {
        let g = inverse_sinc(1024, 8.0 * 8_000_000.0 / 7.0);
        assert_eq!(g[512], g[511]);
        assert!(g[0] > g[256] && g[256] > g[512]);
        assert_eq!(g[600], g[1023 - 600]);
    }
}
