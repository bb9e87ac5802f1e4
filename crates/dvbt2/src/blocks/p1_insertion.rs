//! [`Dvbt2P1Insertion`]: gr-dtv's `dvbt2_p1insertion_cc`, the P1 preamble before each T2
//! frame.

use crate::error::SettingsError;
use crate::p1::{p1_symbol, P1_LEN};
use crate::params::{self, FftSize, GuardInterval};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt2_p1insertion";

/// DVB-T2's P1 preamble symbol (ETSI EN 302 755 clause 7.2.2) before each T2 frame, as
/// gr-dtv's `dvbt2_p1insertion_cc`: the samples of a T2 frame's N_P2 + `numdatasyms` OFDM
/// symbols with their guard intervals in, the 2048 samples of P1 and the frame out. P1's S1
/// field says the preamble, its S2 field the FFT size (gr-dtv's code: `16k_t2gi` sends 1K's
/// code, as gr-dtv does). Tags keep their offsets where those are not yet written, else go on
/// the first sample of the call (gr-dtv keeps the offset). A frame cut by the end of the
/// stream makes no output.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt2::Dvbt2P1Insertion;
///
/// // 16 P2 symbols and 2 data symbols of 1024 + 1024/4 samples.
/// let frame = 18 * 1280;
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(0.5, 0.0); frame]));
/// let p1 = fg.add(Dvbt2P1Insertion::new("1k", "1/4", 2, "t2_siso")?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, p1)?;
/// fg.connect(p1, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// assert_eq!(out.len(), 2048 + frame);
/// assert_eq!(out[2048], Complex32::new(0.5, 0.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt2_p1insertion",
    summary = "DVB-T2 P1 preamble as gr-dtv's dvbt2_p1insertion_cc: the 2048 samples of P1 (S1: the preamble, S2: the FFT size) before each T2 frame's samples.",
    make = Self::new(&fftsize, &guardinterval, numdatasyms, &preamble).map_err(Refused::from)
)]
#[param(
    fftsize: String = "32k",
    words = ["1k", "2k", "4k", "8k", "8k_t2gi", "16k", "16k_t2gi", "32k", "32k_t2gi"],
    doc = "FFT size (S2; the number of P2 symbols)"
)]
#[param(
    guardinterval: String = "1/128",
    words = ["1/32", "1/16", "1/8", "1/4", "1/128", "19/128", "19/256"],
    doc = "guard interval"
)]
#[param(numdatasyms: usize = 100, min = 1, doc = "data symbols per T2 frame")]
#[param(
    preamble: String = "t2_siso",
    words = ["t2_siso", "t2_miso", "t2_lite_siso", "t2_lite_miso"],
    doc = "preamble (S1)"
)]
pub struct Dvbt2P1Insertion {
    /// Samples of T2 frames after P1.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// Each frame after its P1.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    p1: Box<[Complex32; P1_LEN]>,
    /// Samples of a T2 frame after P1.
    frame: usize,
}

impl std::fmt::Debug for Dvbt2P1Insertion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbt2P1Insertion")
            .field("frame", &self.frame)
            .finish()
    }
}

#[block(type_name = "dvbt2_p1insertion")]
impl Dvbt2P1Insertion {
    /// The insertion of P1 before T2 frames of these settings (the parameters' words).
    ///
    /// # Errors
    /// A word that is not one of a parameter's, `numdatasyms` 0.
    pub fn new(
        fftsize: &str,
        guardinterval: &str,
        numdatasyms: usize,
        preamble: &str,
    ) -> Result<Self, SettingsError> {
        let fft = FftSize::parse(BLOCK, "fftsize", fftsize)?;
        let gi = GuardInterval::parse(BLOCK, "guardinterval", guardinterval)?;
        let s1 = params::parse_s1(BLOCK, "preamble", preamble)?;
        if numdatasyms == 0 {
            return Err(SettingsError::param(
                BLOCK,
                "numdatasyms",
                "0: a T2 frame has data symbols",
            ));
        }
        // S2 field 1: gr-dtv's FFT size enumeration, its low three bits.
        let s2 = match fftsize {
            "2k" => 0,
            "8k" => 1,
            "4k" => 2,
            "1k" | "16k_t2gi" => 3,
            "16k" => 4,
            "32k" => 5,
            "8k_t2gi" => 6,
            _ => 7,
        };
        let size = 1usize << fft.log2();
        let p2 = match fft {
            FftSize::K1 => 16,
            FftSize::K2 => 8,
            FftSize::K4 => 4,
            FftSize::K8 => 2,
            FftSize::K16 | FftSize::K32 => 1,
        };
        let guard = size * gi.num as usize / gi.den as usize;
        let frame = (numdatasyms + p2) * (size + guard);
        Ok(Self {
            input: StreamInput::new().with_min_items(frame),
            output: StreamOutput::new().with_min_items(frame + P1_LEN),
            p1: Box::new(p1_symbol(s1, s2)),
            frame,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (frame, out_frame) = (self.frame, self.frame + P1_LEN);
        let n = (self.input.slice().len() / frame).min(self.output.slice().len() / out_frame);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let end = self.input.offset() + (n * frame) as u64;
        let first = self.output.offset();
        for t in self.input.tags().iter().take_while(|t| t.offset < end) {
            self.output.push_tag(Tag {
                offset: t.offset.max(first),
                ..t.clone()
            });
        }
        let (x, y) = (self.input.slice(), self.output.slice());
        for (x, y) in x
            .chunks_exact(frame)
            .zip(y.chunks_exact_mut(out_frame))
            .take(n)
        {
            y[..P1_LEN].copy_from_slice(&self.p1[..]);
            y[P1_LEN..].copy_from_slice(x);
        }
        self.input.consume(n * frame);
        self.output.produce(n * out_frame);
        Ok(WorkStatus::Continue)
    }
}
