//! Inter-frame layered min-sum: a batch of frames of one code decoded together, one frame
//! per SIMD lane, each frame's result bit-identical to [`LdpcDecoder`](super::LdpcDecoder)'s.

use super::ldpc_code::{LdpcCode, Z};
use super::ldpc_decoder::{LdpcStatus, MAX_DEGREE, MAX_EDGES};
use super::ldpc_inter_frame_kernel::{
    iteration, load_llrs, pack_info, syndrome_ok, LaneMask, Messages, Posteriors, State, LANES,
};
use super::ldpc_kernel::Isa;

/// Layered min-sum decoder for batches of up to [`LANES`](Self::LANES) frames of the same
/// code, one frame per SIMD lane (inter-frame parallelism), for throughput.
///
/// Per frame it computes exactly what [`LdpcDecoder`](super::LdpcDecoder) computes
/// (i16 posteriors, i8 messages, the same check rule and layer order, the same early
/// termination): decisions, iteration counts and convergence are bit-identical. A frame
/// that has stopped is masked while the others go on; the batch ends when every frame has
/// stopped or at the iteration limit, so with early termination a batch costs the
/// iterations of its slowest frame; a partial batch costs as much as a full one. Latency is
/// that of the whole batch.
///
/// Measured against `LdpcDecoder` (AVX2, `examples/rx_throughput.rs`, crate README):
/// 1.37–1.65× the throughput at fixed iterations; with early termination 1.17–1.44×, but
/// 0.97–0.99× for QPSK 8/9 short at 8 dB, where most frames stop after 2 iterations and a
/// batch of 32 usually holds one that needs 3.
///
/// Layout, chosen by measurement: 32 frames, a variable's i16 posteriors in two AVX2
/// registers, messages, extrinsics and the check node update in i8, one register per edge.
/// A first version with 16 frames and the update on i16 (no widening or narrowing but that
/// of the messages, half the working set: QPSK 8/9 short's 1.3 MB fit the 2 MB L2) ran
/// 1.13–1.33× `LdpcDecoder` at fixed iterations and 0.96–1.18× with early termination
/// (1.06–1.09× where 32 frames give 0.96–0.99×) in alternate runs against the 32-frame
/// version's 1.37–1.56× and 1.18–1.41×; the i8 update executes 0.70× the
/// instructions per frame, which outweighs the widening of the messages and a working set
/// that leaves L2 (2.6 MB for QPSK 8/9 short, 13 MB for 8PSK 3/5 normal).
///
/// Scratch for the largest code is allocated at construction (about 14 MB); decoding does
/// not allocate. Cloning gives an independent decoder.
///
/// ```
/// use radioflow_dvbs2::rx::{InterFrameLdpcDecoder, LdpcCode, LdpcDecoder};
/// use radioflow_dvbs2::{CodeRate, FrameSize};
///
/// let code = LdpcCode::new(FrameSize::Short, CodeRate::R1_2)?;
/// // Three all-zero codewords (a positive LLR means 0), about 1 % of the decisions wrong.
/// let frames: Vec<Vec<i8>> = (0..3)
///     .map(|f| (0..16_200).map(|i| if (i * 7 + f) % 97 == 0 { -10 } else { 20 }).collect())
///     .collect();
/// let batch: Vec<&[i8]> = frames.iter().map(|f| &f[..]).collect();
/// let mut dec = InterFrameLdpcDecoder::new();
/// let statuses = dec.decode(&code, &batch, 30).to_vec();
/// let mut single = LdpcDecoder::new();
/// for (llr, status) in frames.iter().zip(&statuses) {
///     assert!(status.converged);
///     assert_eq!(*status, single.decode(&code, llr, 30)); // as if decoded alone
/// }
/// let mut info = vec![0xFF; 3 * 1000]; // Kldpc / 8 = 900 bytes per frame
/// dec.pack_info_all(&code, &mut info, 1000);
/// assert!(info.chunks(1000).all(|f| f[..900].iter().all(|&b| b == 0)));
/// # Ok::<(), radioflow_dvbs2::ModcodError>(())
/// ```
#[derive(Clone)]
pub struct InterFrameLdpcDecoder {
    isa: Isa,
    /// Posteriors in the code's layout ([`LdpcCode::position`]), all frames of a variable
    /// together.
    l: Vec<Posteriors>,
    /// Check-to-variable messages, 360 rows per circulant.
    r: Vec<Messages>,
    /// New messages of a layer's circulants that share their block with another.
    deferred: Vec<Messages>,
    status: [LdpcStatus; LANES],
    /// Frames in the last batch.
    frames: usize,
    early_termination: bool,
}

impl Default for InterFrameLdpcDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl InterFrameLdpcDecoder {
    /// Frames per batch.
    pub const LANES: usize = LANES;

    /// A decoder using the best instruction set of this CPU.
    pub fn new() -> Self {
        Self::with_isa(Isa::detect())
    }

    /// A decoder using `isa`, or the portable code if this CPU lacks it.
    pub fn with_isa(isa: Isa) -> Self {
        InterFrameLdpcDecoder {
            isa: if isa.is_supported() {
                isa
            } else {
                Isa::Portable
            },
            l: vec![Posteriors([0; LANES]); 64_800],
            r: vec![Messages([0; LANES]); MAX_EDGES * Z],
            deferred: vec![Messages([0; LANES]); MAX_DEGREE * Z],
            status: [LdpcStatus {
                iterations: 0,
                converged: false,
            }; LANES],
            frames: 0,
            early_termination: true,
        }
    }

    /// With `false`, every frame runs `max_iterations` (for measurements); on by default.
    pub fn set_early_termination(&mut self, on: bool) {
        self.early_termination = on;
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Decodes a batch: `llrs[f]` holds frame f's Nldpc LLRs in FECFRAME order; each frame
    /// gets at most `max_iterations` iterations and stops as
    /// [`LdpcDecoder::decode`](super::LdpcDecoder::decode) would stop it. Returns one status
    /// per frame; the decisions are then read with [`hard_bits`](Self::hard_bits) or
    /// [`pack_info`](Self::pack_info).
    ///
    /// # Panics
    /// If there are more than [`LANES`](Self::LANES) frames or one is shorter than Nldpc.
    pub fn decode(
        &mut self,
        code: &LdpcCode,
        llrs: &[&[i8]],
        max_iterations: u32,
    ) -> &[LdpcStatus] {
        let frames = llrs.len();
        assert!(
            frames <= LANES,
            "{frames} frames, at most {LANES} per batch"
        );
        let n = code.fec().nldpc;
        let llrs: [&[i8]; LANES] =
            std::array::from_fn(|f| llrs.get(f).map_or(&[][..], |l| &l[..n]));
        load_llrs(self.isa, code, &llrs[..frames], &mut self.l);
        self.frames = frames;
        let mut active: [bool; LANES] = std::array::from_fn(|f| f < frames);
        let mut status = [LdpcStatus {
            iterations: 0,
            converged: false,
        }; LANES];
        let few = n / 2000;
        let mut iterations = 0;
        while iterations < max_iterations && active.contains(&true) {
            iterations += 1;
            let mut state = State {
                l: &mut self.l,
                r: &mut self.r,
                deferred: &mut self.deferred,
            };
            let sweep = iteration(self.isa, code, &mut state, &active, iterations == 1);
            let mut check: LaneMask = 0;
            for f in 0..LANES {
                if !active[f] {
                    continue;
                }
                status[f].iterations = iterations;
                if !self.early_termination {
                    continue;
                }
                // As LdpcDecoder::decode: a clean sweep, or few failing checks and H·c = 0.
                if sweep.unsatisfied[f] == 0 && sweep.flips[f] >= 0 {
                    status[f].converged = true;
                    active[f] = false;
                } else if usize::from(sweep.unsatisfied[f]) <= few {
                    check |= 1 << f;
                }
            }
            if check != 0 {
                let ok = syndrome_ok(self.isa, code, &self.l, check);
                for f in (0..LANES).filter(|&f| ok & (1 << f) != 0) {
                    status[f].converged = true;
                    active[f] = false;
                }
            }
        }
        let rest = (0..LANES)
            .filter(|&f| active[f])
            .fold(0 as LaneMask, |m, f| m | (1 << f));
        if rest != 0 {
            let ok = syndrome_ok(self.isa, code, &self.l, rest);
            for f in (0..LANES).filter(|&f| ok & (1 << f) != 0) {
                status[f].converged = true;
            }
        }
        self.status = status;
        &self.status[..frames]
    }

    /// Writes the hard decisions of frame `frame` of the last batch, the whole codeword in
    /// FECFRAME order, one bit per byte.
    ///
    /// # Panics
    /// If `frame` is not in the last batch or `out` is shorter than Nldpc.
    pub fn hard_bits(&self, code: &LdpcCode, frame: usize, out: &mut [u8]) {
        assert!(frame < self.frames, "frame {frame} of {}", self.frames);
        for (i, o) in out[..code.fec().nldpc].iter_mut().enumerate() {
            *o = u8::from(self.l[code.position(i)].0[frame] < 0);
        }
    }

    /// Writes the first Kldpc decisions (the BCH codewords) of every frame of the last batch
    /// packed MSB first, frame f's into `out[f * stride..][..Kldpc / 8]`; much faster than
    /// [`pack_info`](Self::pack_info) frame by frame.
    ///
    /// # Panics
    /// If `stride` < Kldpc / 8 or `out` is too short for the last frame.
    pub fn pack_info_all(&self, code: &LdpcCode, out: &mut [u8], stride: usize) {
        pack_info(self.isa, code, &self.l, self.frames, out, stride);
    }

    /// Writes the first Kldpc decisions (the BCH codeword) of frame `frame` of the last
    /// batch packed MSB first into `out[..Kldpc / 8]`.
    ///
    /// # Panics
    /// If `frame` is not in the last batch or `out` is shorter than Kldpc / 8.
    pub fn pack_info(&self, code: &LdpcCode, frame: usize, out: &mut [u8]) {
        assert!(frame < self.frames, "frame {frame} of {}", self.frames);
        let k = code.fec().kldpc();
        for (o, bits) in out[..k / 8].iter_mut().zip(self.l[..k].chunks_exact(8)) {
            *o = bits
                .iter()
                .fold(0u8, |acc, b| (acc << 1) | u8::from(b.0[frame] < 0));
        }
    }
}
