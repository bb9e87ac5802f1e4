//! [`Dvbt2Paprtr`]: gr-dtv's `dvbt2_paprtr_cc`, DVB-T2's PAPR reduction by tone
//! reservation on the OFDM symbols.

use crate::error::SettingsError;
use crate::params::{self, FftSize, GuardInterval};
use crate::symbol_cells::{self, SymbolCells};
use crate::tone_reservation::ToneReservation;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt2_paprtr";

/// DVB-T2's peak-to-average power reduction by tone reservation (ETSI EN 302 755 clause
/// 9.6.2) as gr-dtv's `dvbt2_paprtr_cc`: T2 frames of OFDM symbols in (one vector of
/// `vlength` time samples per symbol, as the pilot generator makes them), the same symbols
/// out with their peaks above `vclip` lowered by values on the reserved carriers (up to
/// `iterations` rounds a symbol; see the kernel's docs in `tone_reservation.rs`).
///
/// By `paprmode` and `version`, as gr-dtv:
/// - `tr`, `both`: every symbol (P2 symbols and the frame closing symbol on the P2 reserved
///   carriers, data symbols on theirs). gr-dtv's block has no active constellation
///   extension (clause 9.6.1): `both` is tone reservation alone, as there.
/// - `off` at version `1.3.1` ("P2 only" in GRC): the P2 symbols alone, at `vclip` 3 and one
///   iteration whatever they say; the others are copied.
/// - `off` at `1.1.1`, and `ace` (gr-dtv's block does no ACE): every symbol copied.
///
/// The output is gr-dtv's to float rounding (its FFTW kernels against `fftplan`'s, VOLK's
/// arithmetic). A frame cut by the end of the stream makes no output; tags pass at their
/// offsets.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt2::Dvbt2Paprtr;
///
/// let tr = Dvbt2Paprtr::new("normal", "1k", "pp3", "1/8", 2, "tr", "1.1.1", 2.0, 5, 1024)?;
/// assert_eq!(tr.frame_symbols(), 18); // 16 P2 symbols and 2 data symbols
/// // A frame of symbols with one peak of 3 each.
/// let mut x = vec![Complex32::new(0.01, 0.0); 18 * 1024];
/// for s in x.chunks_exact_mut(1024) {
///     s[100] = Complex32::new(3.0, 0.0);
/// }
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(x).with_vlen(1024)?);
/// let tr = fg.add(tr);
/// let sink = fg.add(VectorSink::<Complex32>::new().with_vlen(1024));
/// fg.connect(src, tr)?;
/// fg.connect(tr, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data().to_vec();
/// assert_eq!(y.len(), 18 * 1024);
/// assert!(y.iter().all(|z| z.norm() < 2.9));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt2_paprtr",
    summary = "DVB-T2 PAPR reduction by tone reservation as gr-dtv's dvbt2_paprtr_cc: T2 frames of OFDM symbols (FFT-size vectors) in, their peaks lowered on the reserved carriers out.",
    make = Self::new(&carriermode, &fftsize, &pilotpattern, &guardinterval, numdatasyms, &paprmode,
        &version, vclip, iterations, vlength)
        .map_err(Refused::from)
)]
#[param(carriermode: String = "normal", words = ["normal", "extended"], doc = "carrier mode (extended: 8K, 16K and 32K; the same as normal below)")]
#[param(
    fftsize: String = "16k",
    words = ["1k", "2k", "4k", "8k", "8k_t2gi", "16k", "16k_t2gi", "32k", "32k_t2gi"],
    doc = "FFT size (the _t2gi variants are the same here)"
)]
#[param(
    pilotpattern: String = "pp4",
    words = ["pp1", "pp2", "pp3", "pp4", "pp5", "pp6", "pp7", "pp8"],
    doc = "scattered pilot pattern (shifts the data symbols' reserved carriers)"
)]
#[param(
    guardinterval: String = "1/32",
    words = ["1/32", "1/16", "1/8", "1/4", "1/128", "19/128", "19/256"],
    doc = "guard interval (decides whether the frame has a closing symbol)"
)]
#[param(numdatasyms: usize = 100, min = 1, doc = "data symbols per T2 frame (the closing symbol among them)")]
#[param(
    paprmode: String = "off",
    words = ["off", "ace", "tr", "both"],
    doc = "PAPR reduction: tr and both reduce by tone reservation; ace is copied (gr-dtv's block has no ACE)"
)]
#[param(version: String = "1.1.1", words = ["1.1.1", "1.3.1"], doc = "specification version (1.3.1 with paprmode off reduces the P2 symbols)")]
#[param(vclip: f32 = 3.3, doc = "clipping level of the samples' magnitude")]
#[param(iterations: usize = 10, doc = "most rounds of reduction per symbol")]
#[param(vlength: usize = 0, doc = "samples per vector, an FFT of as many points (0: the FFT size)")]
pub struct Dvbt2Paprtr {
    /// OFDM symbols of T2 frames, one vector each.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The same symbols, peaks reduced.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    vlength: usize,
    reduction: ToneReservation,
}

impl std::fmt::Debug for Dvbt2Paprtr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbt2Paprtr")
            .field("vlength", &self.vlength)
            .field("symbols", &self.reduction.symbols())
            .finish()
    }
}

#[block(type_name = "dvbt2_paprtr")]
impl Dvbt2Paprtr {
    /// The PAPR reduction of T2 frames of these settings (the parameters' words).
    ///
    /// # Errors
    /// A word that is not one of a parameter's, `numdatasyms` 0, a pilot pattern the FFT
    /// size does not have (ETSI EN 302 755 clause 9.2.3.1), `vlength` not 0 nor an even
    /// number above the FFT size's carriers.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        carriermode: &str,
        fftsize: &str,
        pilotpattern: &str,
        guardinterval: &str,
        numdatasyms: usize,
        paprmode: &str,
        version: &str,
        vclip: f32,
        iterations: usize,
        vlength: usize,
    ) -> Result<Self, SettingsError> {
        let extended = params::parse_extended(BLOCK, "carriermode", carriermode)?;
        let fft = FftSize::parse(BLOCK, "fftsize", fftsize)?;
        let pp = params::parse_pilot_pattern(BLOCK, "pilotpattern", pilotpattern)?;
        let gi = GuardInterval::parse(BLOCK, "guardinterval", guardinterval)?;
        let tr = params::parse_tone_reservation(BLOCK, "paprmode", paprmode)?;
        let v131 = match version {
            "1.1.1" => false,
            "1.3.1" => true,
            other => {
                return Err(SettingsError::param(
                    BLOCK,
                    "version",
                    format!("must be one of 1.1.1, 1.3.1, not {other:?}"),
                ))
            }
        };
        params::require_data_symbols(BLOCK, numdatasyms)?;
        let cells = symbol_cells::require_cells(
            BLOCK,
            fftsize,
            pilotpattern,
            SymbolCells::new(fft, extended, pp, (gi.num, gi.den), tr, false),
        )?;
        let carriers = match (fft, extended) {
            (FftSize::K1, _) => 853,
            (FftSize::K2, _) => 1705,
            (FftSize::K4, _) => 3409,
            (FftSize::K8, false) => 6817,
            (FftSize::K8, true) => 6913,
            (FftSize::K16, false) => 13633,
            (FftSize::K16, true) => 13921,
            (FftSize::K32, false) => 27265,
            (FftSize::K32, true) => 27841,
        };
        let vlength = if vlength == 0 {
            1 << fft.log2()
        } else {
            vlength
        };
        if vlength <= carriers || !vlength.is_multiple_of(2) {
            return Err(SettingsError::param(
                BLOCK,
                "vlength",
                format!("{vlength}: must be even and above the {carriers} carriers of FFT size {fftsize}"),
            ));
        }
        let reduction = ToneReservation::new(
            fft,
            extended,
            pp,
            numdatasyms,
            cells.closing != 0,
            vlength,
            tr,
            v131 && paprmode == "off",
            vclip,
            iterations,
        );
        let frame = reduction.symbols() * vlength;
        Ok(Self {
            input: StreamInput::new().with_vlen(vlength).with_min_items(frame),
            output: StreamOutput::new().with_vlen(vlength).with_min_items(frame),
            vlength,
            reduction,
        })
    }

    /// The OFDM symbols (vectors) of a T2 frame.
    pub fn frame_symbols(&self) -> usize {
        self.reduction.symbols()
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let frame = self.reduction.symbols() * self.vlength;
        let n = (self.input.slice().len() / frame).min(self.output.slice().len() / frame);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let end = self.input.offset() + (n * frame / self.vlength) as u64;
        for t in self.input.tags().iter().take_while(|t| t.offset < end) {
            self.output.push_tag(t.clone());
        }
        let (x, y) = (self.input.slice(), self.output.slice());
        let symbols = x
            .chunks_exact(self.vlength)
            .zip(y.chunks_exact_mut(self.vlength))
            .take(n * self.reduction.symbols());
        for (k, (x, y)) in symbols.enumerate() {
            self.reduction.symbol(k % self.reduction.symbols(), x, y);
        }
        self.input.consume(n * frame);
        self.output.produce(n * frame);
        Ok(WorkStatus::Continue)
    }
}
