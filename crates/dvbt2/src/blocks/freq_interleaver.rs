//! [`Dvbt2FreqInterleaver`]: gr-dtv's `dvbt2_freqinterleaver_cc`, DVB-T2's frequency
//! interleaver.

use crate::error::SettingsError;
use crate::freq_interleaver::FreqInterleaver;
use crate::params::{self, FftSize, GuardInterval};
use crate::symbol_cells::{self, SymbolCells};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt2_freqinterleaver";

/// DVB-T2's frequency interleaver (ETSI EN 302 755 clause 6.6) as gr-dtv's
/// `dvbt2_freqinterleaver_cc`: the cells of a T2 frame's OFDM symbols (N_P2 P2 symbols,
/// `numdatasyms` data symbols, the last a frame closing symbol where the pilot pattern and
/// guard interval make one) in, each symbol's cells permuted out, one T2 frame at a time; see
/// [`FreqInterleaver`]. The cells per symbol follow from the FFT size, carrier mode, pilot
/// pattern, guard interval, tone reservation (`paprmode` `tr` or `both`) and preamble. Tags
/// keep their offsets. A frame cut by the end of the stream makes no output.
///
/// gr-dtv alternates the even and odd symbols' permutations from the first symbol of each
/// call of its work, so its output depends on how many frames a call holds where a frame has
/// an odd number of symbols; this block starts each frame with the even one, as the standard
/// does and as gr-dtv does when each call holds one frame.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt2::Dvbt2FreqInterleaver;
///
/// let fi = Dvbt2FreqInterleaver::new("normal", "1k", "pp1", "1/8", 3, "off", "t2_siso")?;
/// let n = fi.frame_cells(); // 16 P2 symbols of 558 cells, 2 of 764, the closing 568
/// assert_eq!(n, 16 * 558 + 2 * 764 + 568);
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); n]));
/// let fi = fg.add(fi);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, fi)?;
/// fg.connect(fi, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data().len(), n);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt2_freqinterleaver",
    summary = "DVB-T2 frequency interleaver as gr-dtv's dvbt2_freqinterleaver_cc: the cells of each OFDM symbol of a T2 frame permuted, one T2 frame at a time.",
    make = Self::new(&carriermode, &fftsize, &pilotpattern, &guardinterval, numdatasyms, &paprmode, &preamble)
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
    doc = "guard interval"
)]
#[param(numdatasyms: usize = 100, min = 1, doc = "data symbols per T2 frame (the closing symbol among them)")]
#[param(paprmode: String = "off", words = ["off", "ace", "tr", "both"], doc = "PAPR reduction (tone reservation reserves carriers)")]
#[param(
    preamble: String = "t2_siso",
    words = ["t2_siso", "t2_miso", "t2_lite_siso", "t2_lite_miso"],
    doc = "preamble (SISO or MISO P2 symbols)"
)]
pub struct Dvbt2FreqInterleaver {
    /// Cells of T2 frames, symbol after symbol.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The same cells, each symbol's permuted.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    interleaver: FreqInterleaver,
}

impl std::fmt::Debug for Dvbt2FreqInterleaver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbt2FreqInterleaver")
            .field("frame_cells", &self.interleaver.frame_cells())
            .finish()
    }
}

#[block(type_name = "dvbt2_freqinterleaver")]
impl Dvbt2FreqInterleaver {
    /// The interleaver of T2 frames of these settings (the parameters' words).
    ///
    /// # Errors
    /// A word that is not one of a parameter's, `numdatasyms` 0, a pilot pattern the FFT
    /// size does not have (ETSI EN 302 755 clause 9.2.3.1; gr-dtv makes frames without data
    /// cells of them).
    pub fn new(
        carriermode: &str,
        fftsize: &str,
        pilotpattern: &str,
        guardinterval: &str,
        numdatasyms: usize,
        paprmode: &str,
        preamble: &str,
    ) -> Result<Self, SettingsError> {
        let extended = params::parse_extended(BLOCK, "carriermode", carriermode)?;
        let fft = FftSize::parse(BLOCK, "fftsize", fftsize)?;
        let pp = params::parse_pilot_pattern(BLOCK, "pilotpattern", pilotpattern)?;
        let gi = GuardInterval::parse(BLOCK, "guardinterval", guardinterval)?;
        let tr = params::parse_tone_reservation(BLOCK, "paprmode", paprmode)?;
        let miso = params::parse_miso(BLOCK, "preamble", preamble)?;
        params::require_data_symbols(BLOCK, numdatasyms)?;
        let cells = symbol_cells::require_cells(
            BLOCK,
            fftsize,
            pilotpattern,
            SymbolCells::new(fft, extended, pp, (gi.num, gi.den), tr, miso),
        )?;
        let interleaver = FreqInterleaver::new(fft, cells, numdatasyms);
        let frame = interleaver.frame_cells();
        Ok(Self {
            input: StreamInput::new().with_min_items(frame),
            output: StreamOutput::new().with_min_items(frame),
            interleaver,
        })
    }

    /// The cells of a T2 frame, in and out.
    pub fn frame_cells(&self) -> usize {
        self.interleaver.frame_cells()
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let frame = self.interleaver.frame_cells();
        let n = (self.input.slice().len() / frame).min(self.output.slice().len() / frame);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let end = self.input.offset() + (n * frame) as u64;
        for t in self.input.tags().iter().take_while(|t| t.offset < end) {
            self.output.push_tag(t.clone());
        }
        let (x, y) = (self.input.slice(), self.output.slice());
        for (x, y) in x.chunks_exact(frame).zip(y.chunks_exact_mut(frame)).take(n) {
            self.interleaver.interleave(x, y);
        }
        self.input.consume(n * frame);
        self.output.produce(n * frame);
        Ok(WorkStatus::Continue)
    }
}
