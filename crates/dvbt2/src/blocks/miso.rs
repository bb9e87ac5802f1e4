//! [`Dvbt2Miso`]: gr-dtv's `dvbt2_miso_cc`, DVB-T2's MISO (modified Alamouti) cells of the
//! second transmitter.

use crate::error::SettingsError;
use crate::params::{self, FftSize, GuardInterval};
use crate::symbol_cells::{self, SymbolCells};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt2_miso";

/// DVB-T2's MISO processing (ETSI EN 302 755 clause 9.1) as gr-dtv's `dvbt2_miso_cc`: the
/// cells of T2 frames in; out on `tx1` as they are, out on `tx2` in pairs (e0, e1) made
/// (-e1*, e0*), a modified Alamouti code; one T2 frame at a time (P2 symbols with MISO's cell
/// counts, `numdatasyms` data symbols, the last a closing symbol where the pilot pattern has
/// one; gr-dtv takes the guard interval and drops no closing symbol by it). Tags keep their
/// offsets on both outputs. A frame cut by the end of the stream makes no output.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt2::Dvbt2Miso;
///
/// let miso = Dvbt2Miso::new("normal", "1k", "pp1", "1/8", 2, "off")?;
/// let n = miso.frame_cells(); // 16 P2 symbols of 546 cells, a data symbol of 764, the closing 568
/// let cells: Vec<Complex32> = (0..n).map(|k| Complex32::new(k as f32, 1.0)).collect();
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(cells));
/// let miso = fg.add(miso);
/// let (a, b) = (fg.add(VectorSink::<Complex32>::new()), fg.add(VectorSink::<Complex32>::new()));
/// fg.connect(src, miso)?;
/// fg.connect((miso, "tx1"), a)?;
/// fg.connect((miso, "tx2"), b)?;
/// fg.run()?;
/// let tx2 = fg.block::<VectorSink<Complex32>>(b).unwrap().data();
/// assert_eq!(&tx2[..2], &[Complex32::new(-1.0, 1.0), Complex32::new(0.0, -1.0)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt2_miso",
    summary = "DVB-T2 MISO as gr-dtv's dvbt2_miso_cc: T2 frames' cells out as they are (tx1) and Alamouti-coded in pairs (tx2).",
    make = Self::new(&carriermode, &fftsize, &pilotpattern, &guardinterval, numdatasyms, &paprmode)
        .map_err(Refused::from)
)]
#[param(carriermode: String = "normal", words = ["normal", "extended"], doc = "carrier mode (extended: 8K, 16K and 32K)")]
#[param(
    fftsize: String = "16k",
    words = ["1k", "2k", "4k", "8k", "8k_t2gi", "16k", "16k_t2gi", "32k", "32k_t2gi"],
    doc = "FFT size"
)]
#[param(
    pilotpattern: String = "pp4",
    words = ["pp1", "pp2", "pp3", "pp4", "pp5", "pp6", "pp7", "pp8"],
    doc = "scattered pilot pattern"
)]
#[param(
    guardinterval: String = "1/32",
    words = ["1/32", "1/16", "1/8", "1/4", "1/128", "19/128", "19/256"],
    doc = "guard interval (checked; gr-dtv's MISO cell counts do not depend on it)"
)]
#[param(numdatasyms: usize = 100, min = 1, doc = "data symbols per T2 frame (the closing symbol among them)")]
#[param(paprmode: String = "off", words = ["off", "ace", "tr", "both"], doc = "PAPR reduction (tone reservation reserves carriers)")]
pub struct Dvbt2Miso {
    /// Cells of T2 frames.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The first transmitter's cells: the input.
    #[output(name = "tx1")]
    tx1: StreamOutput<Complex32>,
    /// The second transmitter's cells: (e0, e1) as (-e1*, e0*).
    #[output(name = "tx2")]
    tx2: StreamOutput<Complex32>,
    frame: usize,
}

impl std::fmt::Debug for Dvbt2Miso {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbt2Miso")
            .field("frame", &self.frame)
            .finish()
    }
}

#[block(type_name = "dvbt2_miso")]
impl Dvbt2Miso {
    /// MISO for T2 frames of these settings (the parameters' words).
    ///
    /// # Errors
    /// A word that is not one of a parameter's, `numdatasyms` 0, a pilot pattern the FFT
    /// size does not have (ETSI EN 302 755 clause 9.2.3.1).
    pub fn new(
        carriermode: &str,
        fftsize: &str,
        pilotpattern: &str,
        guardinterval: &str,
        numdatasyms: usize,
        paprmode: &str,
    ) -> Result<Self, SettingsError> {
        let extended = params::parse_extended(BLOCK, "carriermode", carriermode)?;
        let fft = FftSize::parse(BLOCK, "fftsize", fftsize)?;
        let pp = params::parse_pilot_pattern(BLOCK, "pilotpattern", pilotpattern)?;
        let gi = GuardInterval::parse(BLOCK, "guardinterval", guardinterval)?;
        let tr = params::parse_tone_reservation(BLOCK, "paprmode", paprmode)?;
        params::require_data_symbols(BLOCK, numdatasyms)?;
        let cells = symbol_cells::require_cells(
            BLOCK,
            fftsize,
            pilotpattern,
            SymbolCells::new(fft, extended, pp, (gi.num, gi.den), tr, true),
        )?;
        // Every count of cells is even (so are the frames): the pairs never straddle two.
        let frame = cells.frame_cells(numdatasyms);
        debug_assert!(frame.is_multiple_of(2));
        Ok(Self {
            input: StreamInput::new().with_min_items(frame),
            tx1: StreamOutput::new().with_min_items(frame),
            tx2: StreamOutput::new().with_min_items(frame),
            frame,
        })
    }

    /// The cells of a T2 frame, in and out.
    pub fn frame_cells(&self) -> usize {
        self.frame
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let frame = self.frame;
        let room = self.tx1.slice().len().min(self.tx2.slice().len());
        let n = (self.input.slice().len() / frame).min(room / frame) * frame;
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let end = self.input.offset() + n as u64;
        for t in self.input.tags().iter().take_while(|t| t.offset < end) {
            self.tx1.push_tag(t.clone());
            self.tx2.push_tag(t.clone());
        }
        let x = &self.input.slice()[..n];
        self.tx1.slice()[..n].copy_from_slice(x);
        for (y, e) in self.tx2.slice()[..n]
            .chunks_exact_mut(2)
            .zip(x.chunks_exact(2))
        {
            y[0] = -e[1].conj();
            y[1] = e[0].conj();
        }
        self.input.consume(n);
        self.tx1.produce(n);
        self.tx2.produce(n);
        Ok(WorkStatus::Continue)
    }
}
