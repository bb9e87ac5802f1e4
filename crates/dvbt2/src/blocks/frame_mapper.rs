//! [`Dvbt2FrameMapper`]: gr-dtv's `dvbt2_framemapper_cc`, DVB-T2's frame builder with L1
//! signalling.

use crate::error::SettingsError;
use crate::frame_builder::FrameBuilder;
use crate::l1_coding::{L1Coding, L1Mod};
use crate::l1_signalling::L1Fields;
use crate::params::{self, GuardInterval};
use crate::symbol_cells::{self, SymbolCells};
use crate::FftSize;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt2_framemapper";

/// DVB-T2's frame builder (ETSI EN 302 755 clause 8.3) as gr-dtv's `dvbt2_framemapper_cc`:
/// the cells of one interleaving frame of one PLP in (`fecblocks` FEC blocks of
/// `framesize` and `constellation`), the cells of a T2 frame out: L1-pre and L1-post
/// (clause 7.2.3, coded as clause 7.3 says) spread over the P2 symbols, the PLP's cells,
/// dummy cells up to the frame's end, zeros for the closing symbol's inactive cells; see
/// [`FrameBuilder`]. L1 says what the settings say (code rate, constellation, rotation, FEC
/// and TI blocks, FFT size, guard interval, pilot pattern, PAPR, T2 frames per super-frame,
/// data symbols, version, preamble) and gr-dtv's constants for the rest (one PLP of
/// type 1, network 0x3085, system 0x8001, 729 833 333 Hz); L1-post's FRAME_IDX counts the
/// T2 frames of the super-frame from 0.
///
/// Version 1.1.1 sends `inputmode`, `reservedbiasbits`, `l1scrambled` and `inband` as
/// 1.1.1 has them (normal mode, zeros, not scrambled, no in-band signalling), whatever
/// they say, as gr-dtv does. Tags keep their offsets where those are not yet written, else
/// go on the first cell of the call (gr-dtv keeps the offset). An interleaving frame cut by
/// the end of the stream makes no output.
///
/// gr-dtv consumes one interleaving frame per call of its work however many T2 frames the
/// call made, so where a call holds several its output repeats input; this block maps each
/// interleaving frame once, as gr-dtv does when each call holds one frame.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt2::Dvbt2FrameMapper;
///
/// // 2 short 16-QAM FEC blocks in a 1K frame of 16 P2 symbols and 4 data symbols.
/// let fm = Dvbt2FrameMapper::new(
///     "short", "1/2", "16qam", false, 2, 1, "normal", "1k", "1/8", "bpsk", "pp1", 2, 4,
///     "off", "1.1.1", "t2_siso", "normal", false, false, false,
/// )?;
/// assert_eq!((fm.data_cells(), fm.frame_cells()), (2 * 4050, 16 * 558 + 3 * 764 + 568));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(0.5, 0.5); 2 * 8100]));
/// let fm = fg.add(fm);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, fm)?;
/// fg.connect(fm, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// assert_eq!(out.len(), 2 * (16 * 558 + 3 * 764 + 568));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt2_framemapper",
    summary = "DVB-T2 frame mapper as gr-dtv's dvbt2_framemapper_cc: one PLP's cells of each interleaving frame with L1-pre, L1-post and dummy cells as the cells of a T2 frame.",
    make = Self::new(
        &framesize, &rate, &constellation, rotation, fecblocks, tiblocks, &carriermode,
        &fftsize, &guardinterval, &l1constellation, &pilotpattern, t2frames, numdatasyms,
        &paprmode, &version, &preamble, &inputmode, reservedbiasbits, l1scrambled, inband,
    )
    .map_err(Refused::from)
)]
#[param(framesize: String = "normal", words = ["normal", "short"], doc = "FECFRAME size (64800 or 16200 bits)")]
#[param(
    rate: String = "1/3",
    words = ["1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6"],
    doc = "the PLP's code rate (L1-post's PLP_COD)"
)]
#[param(constellation: String = "qpsk", words = ["qpsk", "16qam", "64qam", "256qam"], doc = "the PLP's constellation")]
#[param(rotation: bool = false, doc = "the PLP's constellation rotation (L1-post's PLP_ROTATION)")]
#[param(fecblocks: usize = 1, min = 1, doc = "FEC blocks per interleaving frame, one per T2 frame")]
#[param(tiblocks: usize = 3, doc = "TI blocks per interleaving frame (L1-post's TIME_IL_LENGTH)")]
#[param(carriermode: String = "normal", words = ["normal", "extended"], doc = "carrier mode (extended: 8K, 16K and 32K)")]
#[param(
    fftsize: String = "16k",
    words = ["1k", "2k", "4k", "8k", "8k_t2gi", "16k", "16k_t2gi", "32k", "32k_t2gi"],
    doc = "FFT size"
)]
#[param(
    guardinterval: String = "1/32",
    words = ["1/32", "1/16", "1/8", "1/4", "1/128", "19/128", "19/256"],
    doc = "guard interval"
)]
#[param(l1constellation: String = "bpsk", words = ["bpsk", "qpsk", "16qam", "64qam"], doc = "L1-post's constellation")]
#[param(
    pilotpattern: String = "pp4",
    words = ["pp1", "pp2", "pp3", "pp4", "pp5", "pp6", "pp7", "pp8"],
    doc = "scattered pilot pattern"
)]
#[param(t2frames: usize = 2, min = 1, doc = "T2 frames per super-frame")]
#[param(numdatasyms: usize = 100, min = 1, doc = "data symbols per T2 frame (the closing symbol among them)")]
#[param(paprmode: String = "off", words = ["off", "ace", "tr", "both"], doc = "PAPR reduction (tone reservation reserves carriers)")]
#[param(version: String = "1.1.1", words = ["1.1.1", "1.3.1"], doc = "the standard's version L1 follows")]
#[param(
    preamble: String = "t2_siso",
    words = ["t2_siso", "t2_miso", "t2_lite_siso", "t2_lite_miso"],
    doc = "preamble (SISO or MISO P2 symbols; L1-pre's S1)"
)]
#[param(inputmode: String = "normal", words = ["normal", "hieff"], doc = "baseband framing mode (1.3.1's PLP_MODE)")]
#[param(reservedbiasbits: bool = false, doc = "reserved fields all ones (1.3.1)")]
#[param(l1scrambled: bool = false, doc = "L1-post scrambled (1.3.1)")]
#[param(inband: bool = false, doc = "in-band signalling type B flag (1.3.1)")]
pub struct Dvbt2FrameMapper {
    /// The PLP's cells, one interleaving frame after another.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The T2 frames' cells, symbol after symbol.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    builder: FrameBuilder,
    /// The next T2 frame's index in its super-frame.
    frame_index: usize,
}

impl std::fmt::Debug for Dvbt2FrameMapper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbt2FrameMapper")
            .field("data_cells", &self.builder.data_cells())
            .field("frame_cells", &self.builder.frame_cells())
            .finish()
    }
}

/// Reads `word` of parameter `name` as the index of one of `words`.
fn index_of(name: &str, word: &str, words: &[&str]) -> Result<usize, SettingsError> {
    words.iter().position(|w| *w == word).ok_or_else(|| {
        SettingsError::param(
            BLOCK,
            name,
            format!("must be one of {}, not {word:?}", words.join(", ")),
        )
    })
}

/// Refuses `value` of parameter `name` outside `min..=max`, saying `why`.
fn check_range(
    name: &str,
    value: usize,
    min: usize,
    max: usize,
    why: &str,
) -> Result<u32, SettingsError> {
    if (min..=max).contains(&value) {
        Ok(value as u32)
    } else {
        Err(SettingsError::param(
            BLOCK,
            name,
            format!("{value} is outside {min}..={max}: {why}"),
        ))
    }
}

#[block(type_name = "dvbt2_framemapper")]
impl Dvbt2FrameMapper {
    /// The frame mapper of these settings (the parameters' words).
    ///
    /// # Errors
    /// A word that is not one of a parameter's; `fecblocks` 0 or above 1023, `tiblocks`
    /// above 255, `t2frames` 0 or above 255, `numdatasyms` 0 or above 4095 (L1's fields'
    /// widths); a pilot pattern the FFT size does not have (ETSI EN 302 755 clause
    /// 9.2.3.1); more FEC blocks than the T2 frame holds with L1 (gr-dtv warns and writes
    /// beyond its frame).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        framesize: &str,
        rate: &str,
        constellation: &str,
        rotation: bool,
        fecblocks: usize,
        tiblocks: usize,
        carriermode: &str,
        fftsize: &str,
        guardinterval: &str,
        l1constellation: &str,
        pilotpattern: &str,
        t2frames: usize,
        numdatasyms: usize,
        paprmode: &str,
        version: &str,
        preamble: &str,
        inputmode: &str,
        reservedbiasbits: bool,
        l1scrambled: bool,
        inband: bool,
    ) -> Result<Self, SettingsError> {
        let short = index_of("framesize", framesize, &["normal", "short"])? == 1;
        // PLP_COD's codes in the order of the words (clause 7.2.3.2).
        let cod = [6, 7, 0, 1, 2, 3, 4, 5][index_of(
            "rate",
            rate,
            &["1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6"],
        )?];
        let plp_mod = index_of(
            "constellation",
            constellation,
            &["qpsk", "16qam", "64qam", "256qam"],
        )?;
        let fec_blocks = check_range(
            "fecblocks",
            fecblocks,
            1,
            1023,
            "PLP_NUM_BLOCKS has 10 bits and a frame carries a block",
        )?;
        let ti_blocks = check_range("tiblocks", tiblocks, 0, 255, "TIME_IL_LENGTH has 8 bits")?;
        let extended = params::parse_extended(BLOCK, "carriermode", carriermode)?;
        let fft = FftSize::parse(BLOCK, "fftsize", fftsize)?;
        // gr-dtv's FFT size numbers, whose 3 low bits it sends as S2.
        let s2 = [3, 0, 2, 1, 6, 4, 11, 5, 7][index_of("fftsize", fftsize, &crate::FFT_WORDS)?];
        let gi = GuardInterval::parse(BLOCK, "guardinterval", guardinterval)?;
        let gi_code = index_of(
            "guardinterval",
            guardinterval,
            &["1/32", "1/16", "1/8", "1/4", "1/128", "19/128", "19/256"],
        )?;
        let l1_mod = [L1Mod::Bpsk, L1Mod::Qpsk, L1Mod::Qam16, L1Mod::Qam64][index_of(
            "l1constellation",
            l1constellation,
            &["bpsk", "qpsk", "16qam", "64qam"],
        )?];
        let pp = params::parse_pilot_pattern(BLOCK, "pilotpattern", pilotpattern)?;
        let t2_frames = check_range(
            "t2frames",
            t2frames,
            1,
            255,
            "NUM_T2_FRAMES has 8 bits and a super-frame has a frame",
        )?;
        let data_symbols = check_range(
            "numdatasyms",
            numdatasyms,
            1,
            4095,
            "NUM_DATA_SYMBOLS has 12 bits and a frame has a data symbol",
        )?;
        let papr = index_of("paprmode", paprmode, &["off", "ace", "tr", "both"])?;
        let tr = params::parse_tone_reservation(BLOCK, "paprmode", paprmode)?;
        let v131 = index_of("version", version, &["1.1.1", "1.3.1"])? == 1;
        let s1 = params::parse_s1(BLOCK, "preamble", preamble)?;
        let miso = params::parse_miso(BLOCK, "preamble", preamble)?;
        let hieff = index_of("inputmode", inputmode, &["normal", "hieff"])? == 1;
        let cells = symbol_cells::require_cells(
            BLOCK,
            fftsize,
            pilotpattern,
            SymbolCells::new(fft, extended, pp, (gi.num, gi.den), tr, miso),
        )?;
        let scrambled = v131 && l1scrambled;
        let mut coding = L1Coding::new(l1_mod, cells.p2_symbols, scrambled);
        let fields = L1Fields {
            extended,
            s1: s1.into(),
            s2: s2 & 7,
            guard_interval: gi_code as u32,
            papr: papr as u32,
            l1_mod: l1_mod.code(),
            l1_post_size: coding.post_cells() as u32,
            pilot_pattern: u32::from(pp) - 1,
            t2_frames,
            data_symbols,
            version: if v131 { 2 } else { 0 },
            post_scrambled: scrambled,
            reserved_ones: v131 && reservedbiasbits,
            plp_cod: cod,
            plp_mod: plp_mod as u32,
            plp_rotation: rotation,
            plp_fec_type: if short { 0 } else { 1 },
            fec_blocks,
            ti_blocks,
            in_band_b: v131 && inband,
            plp_mode: match (v131, hieff) {
                (false, _) => 0,
                (true, false) => 1,
                (true, true) => 2,
            },
        };
        let pre = coding.pre(&fields.pre_bits());
        let posts = (0..t2_frames)
            .map(|k| coding.post(&fields.post_bits(k)))
            .collect();
        let block_cells = [64800, 16200][usize::from(short)] / [2, 4, 6, 8][plp_mod];
        let builder = FrameBuilder::new(cells, numdatasyms, block_cells * fecblocks, pre, posts)
            .map_err(|e| {
                SettingsError::param(
                    BLOCK,
                    "fecblocks",
                    format!(
                        "{fecblocks} FEC blocks and L1 need {} cells, more than the T2 frame's {} \
                     (fewer blocks, or more data symbols)",
                        e.needed, e.frame
                    ),
                )
            })?;
        Ok(Self {
            input: StreamInput::new().with_min_items(builder.data_cells()),
            output: StreamOutput::new().with_min_items(builder.frame_cells()),
            builder,
            frame_index: 0,
        })
    }

    /// The PLP's cells of a T2 frame (in).
    pub fn data_cells(&self) -> usize {
        self.builder.data_cells()
    }

    /// The cells of a T2 frame (out).
    pub fn frame_cells(&self) -> usize {
        self.builder.frame_cells()
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (inf, outf) = (self.builder.data_cells(), self.builder.frame_cells());
        let n = (self.input.slice().len() / inf).min(self.output.slice().len() / outf);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let end = self.input.offset() + (n * inf) as u64;
        let first = self.output.offset();
        for t in self.input.tags().iter().take_while(|t| t.offset < end) {
            self.output.push_tag(Tag {
                offset: t.offset.max(first),
                ..t.clone()
            });
        }
        let (x, y) = (self.input.slice(), self.output.slice());
        for (x, y) in x.chunks_exact(inf).zip(y.chunks_exact_mut(outf)).take(n) {
            self.builder.build(self.frame_index, x, y);
            self.frame_index = (self.frame_index + 1) % self.builder.frames();
        }
        self.input.consume(n * inf);
        self.output.produce(n * outf);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frame mapper of the doc example but for one setting.
    fn with(
        fecblocks: usize,
        fft: &str,
        pp: &str,
        t2frames: usize,
        syms: usize,
    ) -> Result<Dvbt2FrameMapper, SettingsError> {
        Dvbt2FrameMapper::new(
            "short", "1/2", "16qam", false, fecblocks, 1, "normal", fft, "1/8", "bpsk", pp,
            t2frames, syms, "off", "1.1.1", "t2_siso", "normal", false, false, false,
        )
    }

    #[test]
    fn settings_gr_dtv_cannot_frame_are_refused_by_name() {
        assert!(with(2, "1k", "pp1", 2, 4).is_ok());
        for (made, says) in [
            (
                with(3, "1k", "pp1", 2, 4),
                "fecblocks 3 FEC blocks and L1 need",
            ),
            (
                with(0, "1k", "pp1", 2, 4),
                "fecblocks 0 is outside 1..=1023",
            ),
            (with(1024, "1k", "pp1", 2, 4), "fecblocks 1024 is outside"),
            (
                with(2, "1k", "pp7", 2, 4),
                "pilotpattern pp7 is not one of FFT size 1k's",
            ),
            (
                with(2, "32k", "pp1", 2, 4),
                "pilotpattern pp1 is not one of FFT size 32k's",
            ),
            (with(2, "1k", "pp1", 0, 4), "t2frames 0 is outside 1..=255"),
            (with(2, "1k", "pp1", 256, 4), "t2frames 256 is outside"),
            (
                with(2, "1k", "pp1", 2, 3),
                "fecblocks 2 FEC blocks and L1 need",
            ),
            (
                with(2, "1k", "pp1", 2, 4096),
                "numdatasyms 4096 is outside 1..=4095",
            ),
        ] {
            let e = made.unwrap_err();
            assert_eq!(e.block, "dvbt2_framemapper");
            assert!(e.message.starts_with(says), "{}", e.message);
        }
    }
}
