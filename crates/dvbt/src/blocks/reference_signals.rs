//! [`DvbtReferenceSignals`]: gr-dtv's `dvbt_reference_signals`, pilots, TPS and the OFDM
//! symbol's inverse FFT.

use crate::error::SettingsError;
use crate::params::{CodeRate, Constellation, GuardInterval, Hierarchy, Mode};
use crate::reference_signals::ReferenceSignals;
use crate::tps::TpsSettings;
use radioflow_fftplan::Fft;
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;
use std::sync::Arc;

const BLOCK: &str = "dvbt_reference_signals";

/// Pilots, TPS and OFDM modulation (ETSI EN 300 744 clauses 4.4 to 4.6) as gr-dtv's
/// `dvbt_reference_signals`: vectors of a symbol's data cells (1512 in 2K, 6048 in 8K) in;
/// the scattered and continual pilots (clause 4.5) and the TPS carriers (clause 4.6: the
/// settings below, the frame number, the cell identifier, BCH-protected, DBPSK from symbol
/// to symbol) placed around them on carriers 0 to K_max, centred in an FFT of 2048 or 8192
/// points, and the inverse FFT scaled by 1/√(27 · N_max) out, one vector of samples a
/// symbol (the guard interval is the cyclic prefixer's; it is only signalled here).
/// Symbols are counted from the first: 68 a frame, 4 frames a super-frame. Tags keep their
/// offsets.
///
/// The samples are gr-dtv's to within the rounding of the FFTs (FFTW's there, rustfft's
/// here: about 1e-7 of the largest sample).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::DvbtReferenceSignals;
///
/// let cells = vec![Complex32::new(0.0, 0.0); 1512];
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(cells).with_vlen(1512)?);
/// let rs = fg.add(DvbtReferenceSignals::new("64qam", "nh", "2/3", "2/3", "1/32", "2k", true, 0)?);
/// let sink = fg.add(VectorSink::<Complex32>::new().with_vlen(2048));
/// fg.connect(src, rs)?;
/// fg.connect(rs, sink)?;
/// fg.run()?;
/// // 176 pilots of amplitude 4/3 and 17 TPS carriers of 1 (Parseval: times the FFT size).
/// let energy: f32 = fg.block::<VectorSink<Complex32>>(sink).unwrap().data().iter().map(|z| z.norm_sqr()).sum();
/// let expected = (176.0 * 16.0 / 9.0 + 17.0) * 2048.0 / (27.0 * 1512.0);
/// assert!((energy - expected).abs() < 1e-3 * expected, "{energy} {expected}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_reference_signals",
    summary = "DVB-T pilots, TPS and OFDM modulation as gr-dtv's dvbt_reference_signals: a symbol's data cells among the scattered and continual pilots and TPS carriers, inverse FFT out.",
    dtypes = [Complex32],
    make = Self::new(&constellation, &hierarchy, &code_rate_hp, &code_rate_lp, &guard_interval,
        &transmission_mode, include_cell_id, cell_id).map_err(Refused::from)
)]
#[param(constellation: String = "64qam", words = ["qpsk", "16qam", "64qam"], doc = "the constellation the TPS signal")]
#[param(hierarchy: String = "nh", words = ["nh", "alpha1", "alpha2", "alpha4"], doc = "the hierarchy the TPS signal")]
#[param(code_rate_hp: String = "2/3", words = ["1/2", "2/3", "3/4", "5/6", "7/8"], doc = "the high priority code rate the TPS signal")]
#[param(code_rate_lp: String = "2/3", words = ["1/2", "2/3", "3/4", "5/6", "7/8"], doc = "the low priority code rate the TPS signal")]
#[param(guard_interval: String = "1/32", words = ["1/32", "1/16", "1/8", "1/4"], doc = "the guard interval the TPS signal")]
#[param(transmission_mode: String = "2k", words = ["2k", "8k"], doc = "transmission mode: 1705 carriers in 2048 points, or 6817 in 8192")]
#[param(include_cell_id: bool = true, doc = "whether the TPS length indicator counts the cell identifier")]
#[param(cell_id: i64 = 0, doc = "the cell identifier, its 16 low bits (its high byte sent in even frames, low byte in odd ones)")]
pub struct DvbtReferenceSignals {
    /// Vectors of a symbol's data cells.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// Vectors of a symbol's samples (the FFT size).
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    signals: ReferenceSignals,
    fft: Arc<dyn Fft<f32>>,
    /// The carriers, centred (FFT size), then the transform's input and output.
    spectrum: Vec<Complex32>,
    scratch: Vec<Complex32>,
    payload: usize,
    fft_len: usize,
    /// Zero carriers below carrier 0.
    left: usize,
    normalization: f32,
}

impl std::fmt::Debug for DvbtReferenceSignals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtReferenceSignals")
            .field("payload", &self.payload)
            .field("fft_len", &self.fft_len)
            .finish()
    }
}

#[block(type_name = "dvbt_reference_signals")]
impl DvbtReferenceSignals {
    /// Symbols of `transmission_mode` whose TPS signal these settings (the parameters' words).
    ///
    /// # Errors
    /// A word not one of a parameter's.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        constellation: &str,
        hierarchy: &str,
        code_rate_hp: &str,
        code_rate_lp: &str,
        guard_interval: &str,
        transmission_mode: &str,
        include_cell_id: bool,
        cell_id: i64,
    ) -> Result<Self, SettingsError> {
        let mode = Mode::parse(BLOCK, "transmission_mode", transmission_mode)?;
        let settings = TpsSettings {
            constellation: Constellation::parse(BLOCK, "constellation", constellation)?,
            hierarchy: Hierarchy::parse(BLOCK, "hierarchy", hierarchy)?,
            rate_hp: CodeRate::parse(BLOCK, "code_rate_hp", code_rate_hp)?,
            rate_lp: CodeRate::parse(BLOCK, "code_rate_lp", code_rate_lp)?,
            guard: GuardInterval::parse(BLOCK, "guard_interval", guard_interval)?,
            mode,
            include_cell_id,
            // gr-dtv sends bits 0 to 15 and ignores the others.
            cell_id: (cell_id & 0xffff) as u16,
        };
        let (payload, fft_len) = (mode.payload(), mode.fft_len());
        let fft = radioflow_fftplan::inverse(fft_len);
        let scratch = vec![Complex32::new(0.0, 0.0); fft.get_inplace_scratch_len()];
        let carriers = mode.kmax() + 1;
        Ok(Self {
            input: StreamInput::new().with_vlen(payload),
            output: StreamOutput::new().with_vlen(fft_len),
            signals: ReferenceSignals::new(settings),
            fft,
            spectrum: vec![Complex32::new(0.0, 0.0); fft_len],
            scratch,
            payload,
            fft_len,
            left: (fft_len - carriers).div_ceil(2),
            normalization: (1.0 / f64::sqrt(27.0 * payload as f64)) as f32,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (p, f) = (self.payload, self.fft_len);
        let n = (self.input.slice().len() / p).min(self.output.slice().len() / f);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let carriers = self.signals.carriers();
        for j in 0..n {
            let cells = &self.input.slice()[j * p..(j + 1) * p];
            let out = &mut self.output.slice()[j * f..(j + 1) * f];
            out.fill(Complex32::new(0.0, 0.0));
            self.signals
                .next_symbol(cells, &mut out[self.left..self.left + carriers]);
            // The carriers are centred; the transform wants carrier 0 (of the FFT) first.
            let half = f / 2;
            self.spectrum[half..].copy_from_slice(&out[..half]);
            self.spectrum[..half].copy_from_slice(&out[half..]);
            self.fft
                .process_with_scratch(&mut self.spectrum, &mut self.scratch);
            let g = self.normalization;
            for (y, x) in out.iter_mut().zip(&self.spectrum) {
                *y = Complex32::new(x.re * g, x.im * g);
            }
        }
        propagate_tags_at_rate(&self.input, &mut self.output, n, 1, 1);
        self.input.consume(n * p);
        self.output.produce(n * f);
        Ok(WorkStatus::Continue)
    }
}
