//! [`Receiver`]: the receive steps put together, from complex samples to TS packets. Each
//! step is also a type of its own ([`FrameSelect`], [`Decode`], [`Deliver`]) for a pipeline
//! that runs them on different threads (the framed receiver, [`crate::framed::run_rx`]): the
//! steps are written once, here.

use num_complex::Complex32;

use crate::modcod::{FrameSize, Modcod};
use crate::rx::decode::{BbHeader, Depacketizer, FrameDecoder, StageProfile};
use crate::rx::stats::RxStats;
use crate::rx::sync::{SyncConfig, SyncError, SyncFrame, Synchronizer};

/// Which synchronised frames to decode; the default decodes every frame.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrameFilter {
    /// Only frames of this size; `None`: every size.
    pub frame: Option<FrameSize>,
    /// Only frames with (true) or without (false) pilots; `None`: both.
    pub pilots: Option<bool>,
}

impl FrameFilter {
    /// `frame` is of the size and pilots asked for.
    pub fn admits(&self, frame: FrameSize, pilots: bool) -> bool {
        self.frame.is_none_or(|w| w == frame) && self.pilots.is_none_or(|w| w == pilots)
    }
}

/// The first step after synchronisation: counts the frames, keeps the last one's MODCOD and
/// Es/N0, and lets through those the [`FrameFilter`] admits.
#[derive(Debug, Clone, Default)]
pub struct FrameSelect {
    filter: FrameFilter,
    frames: u64,
    skipped: u64,
    last: Option<((Modcod, FrameSize, bool), f32)>,
}

impl FrameSelect {
    /// Selects the frames `filter` admits.
    pub fn new(filter: FrameFilter) -> Self {
        Self {
            filter,
            ..Self::default()
        }
    }

    /// Counts `frame`; true when it is to be decoded.
    pub fn admit(&mut self, frame: &SyncFrame<'_>) -> bool {
        self.frames += 1;
        self.last = Some(((frame.modcod, frame.frame, frame.pilots), frame.esn0_db));
        let admitted = self.filter.admits(frame.frame, frame.pilots);
        self.skipped += u64::from(!admitted);
        admitted
    }

    /// Writes the frames counted, skipped, and the last MODCOD and Es/N0 into `stats`.
    pub fn report(&self, stats: &mut RxStats) {
        stats.frames = self.frames;
        stats.skipped = self.skipped;
        stats.last_modcod = self.last.map(|l| l.0);
        stats.esn0_db = self.last.map(|l| l.1);
    }
}

/// What decoding one frame gave, as [`Deliver`] takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoded {
    /// The decoder refused the frame (a symbol count or noise estimate it cannot use):
    /// counted as failed, nothing delivered.
    Refused,
    /// The frame went through the decoder; its BBFRAME is in [`Decode::bbframe`].
    Frame {
        /// BCH and BBHEADER good.
        ok: bool,
        /// The BBHEADER, when its CRC holds.
        header: Option<BbHeader>,
        /// Information bits (Kbch) of the frame.
        info_bits: u64,
    },
}

/// The decoding step: demapping with the frame's own noise estimate, deinterleaving, LDPC,
/// BCH, BB descrambling and BBHEADER. It keeps no state between frames, so clones decode
/// frames in parallel.
#[derive(Clone, Default)]
pub struct Decode {
    dec: FrameDecoder,
}

impl std::fmt::Debug for Decode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decode").finish_non_exhaustive()
    }
}

impl Decode {
    /// A decoder for every MODCOD.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decodes a frame's `data` symbols (the last `erased` of them unknown) with the noise
    /// variance that the synchroniser's Es/N0 estimate `esn0_db` gives at unit symbol
    /// energy. With `profile`, the time of each decoding stage is added to it.
    pub fn frame(
        &mut self,
        data: &[Complex32],
        erased: usize,
        modcod: Modcod,
        frame: FrameSize,
        esn0_db: f32,
        profile: Option<&mut StageProfile>,
    ) -> Decoded {
        let n0 = 10f32.powf(-esn0_db / 10.0);
        let status = match profile {
            Some(p) => self
                .dec
                .decode_erased_profiled(data, erased, modcod, frame, n0, p),
            None => self.dec.decode_erased(data, erased, modcod, frame, n0),
        };
        match status {
            Ok(st) => Decoded::Frame {
                ok: st.ok(),
                header: st.header.ok(),
                info_bits: st.info_bits() as u64,
            },
            Err(_) => Decoded::Refused,
        }
    }

    /// The BBFRAME of the last frame decoded (Kbch / 8 bytes), even when decoding failed.
    pub fn bbframe(&self) -> &[u8] {
        self.dec.bbframe()
    }
}

/// The last step, sequential: TS packets out of the BBFRAMEs in frame order (packets span
/// frames; those of failed frames marked with TEI), and the counts of frames and packets.
#[derive(Debug, Clone, Default)]
pub struct Deliver {
    depack: Depacketizer,
    decoded: u64,
    failed: u64,
    packets: u64,
    info_bits: u64,
}

impl Deliver {
    /// Nothing delivered yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the next frame, `decoded` with its `bbframe`, and calls `emit` with every
    /// packet it completes.
    pub fn push(&mut self, decoded: &Decoded, bbframe: &[u8], emit: &mut impl FnMut(&[u8])) {
        let Decoded::Frame {
            ok,
            header,
            info_bits,
        } = *decoded
        else {
            self.failed += 1;
            return;
        };
        if ok {
            self.decoded += 1;
            self.info_bits += info_bits;
        } else {
            self.failed += 1;
        }
        let packets = &mut self.packets;
        self.depack.push(header.as_ref(), bbframe, ok, &mut |p| {
            *packets += 1;
            emit(p);
        });
    }

    /// At the end of the input: emits the packet still waiting for its CRC.
    pub fn flush(&mut self, emit: &mut impl FnMut(&[u8])) {
        let packets = &mut self.packets;
        self.depack.flush(&mut |p| {
            *packets += 1;
            emit(p);
        });
    }

    /// Frames decoded (BCH and BBHEADER good).
    pub fn decoded(&self) -> u64 {
        self.decoded
    }

    /// Frames that failed to decode.
    pub fn failed(&self) -> u64 {
        self.failed
    }

    /// Writes the frames decoded and failed, the packets and the information bits into
    /// `stats`.
    pub fn report(&self, stats: &mut RxStats) {
        stats.decoded = self.decoded;
        stats.failed = self.failed;
        stats.packets = self.packets;
        stats.info_bits = self.info_bits;
    }
}

/// The DVB-S2 receiver on one thread, from complex samples to TS packets: synchronisation
/// ([`Synchronizer`]: resampling when the input is not at 2 samples per symbol, AGC, matched
/// RRC, timing, SOF/PLS, carrier, PL descrambling), then per frame [`FrameSelect`],
/// [`Decode`] and [`Deliver`]. Each frame is decoded with the MODCOD its PLS code announces
/// (CCM, VCM and ACM alike). The mirror of [`Transmitter`](crate::Transmitter); the dvbs2_rx
/// block wraps it, and the framed receiver runs its steps as tasks.
///
/// ```
/// use num_complex::Complex32;
/// use radioflow_dvbs2::rx::sync::SyncConfig;
/// use radioflow_dvbs2::{FrameSize, Receiver, RollOff, Shaper, Shaping, Transmitter, TxConfig};
///
/// let cfg = TxConfig::new("qpsk-8/9".parse()?, FrameSize::Short, true);
/// let mut tx = Transmitter::new(cfg)?;
/// let ts: Vec<u8> = (0..60 * 188).map(|i| if i % 188 == 0 { 0x47 } else { i as u8 }).collect();
/// let (mut pos, mut symbols) = (0, Vec::new());
/// let mut frame = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
/// for _ in 0..6 {
///     pos += tx.encode_frame(&ts[pos..], &mut frame)?.consumed;
///     symbols.extend_from_slice(&frame);
/// }
/// let mut shaper = Shaper::new(Shaping::rrc(RollOff::R020, 2))?;
/// let mut samples = vec![Complex32::new(0.0, 0.0); 2 * symbols.len() + shaper.tail()];
/// let (body, tail) = samples.split_at_mut(2 * symbols.len());
/// shaper.process(&symbols, body);
/// shaper.finish(tail);
///
/// let mut rx = Receiver::new(SyncConfig::default())?;
/// let mut got = Vec::new();
/// rx.process(&samples, &mut |p: &[u8]| got.extend_from_slice(p));
/// rx.finish(&mut |p: &[u8]| got.extend_from_slice(p));
/// rx.flush(&mut |p: &[u8]| got.extend_from_slice(p));
/// // After lock (the first frame goes to acquisition), the packets sent, in order.
/// assert!(got.len() >= 30 * 188);
/// assert!(ts.windows(got.len()).any(|w| w == got));
/// assert_eq!(rx.stats().failed, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Receiver {
    sync: Synchronizer,
    select: FrameSelect,
    decode: Decode,
    deliver: Deliver,
    samples: u64,
}

impl Receiver {
    /// A receiver for `cfg`'s roll-off, Gold code and input rate that decodes every frame.
    ///
    /// # Errors
    /// A roll-off, Gold code, timing bandwidth or input rate out of range.
    pub fn new(cfg: SyncConfig) -> Result<Self, SyncError> {
        Self::with_filter(cfg, FrameFilter::default())
    }

    /// A receiver that decodes only the frames `filter` admits (the others are counted as
    /// skipped).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn with_filter(cfg: SyncConfig, filter: FrameFilter) -> Result<Self, SyncError> {
        Ok(Self {
            sync: Synchronizer::new(cfg)?,
            select: FrameSelect::new(filter),
            decode: Decode::new(),
            deliver: Deliver::new(),
            samples: 0,
        })
    }

    /// Receives `samples`, calling `emit` with every TS packet completed. The packets of a
    /// frame come out when the next frame's header is found.
    pub fn process(&mut self, samples: &[Complex32], emit: &mut impl FnMut(&[u8])) {
        let Self {
            sync,
            select,
            decode,
            deliver,
            ..
        } = self;
        self.samples += samples.len() as u64;
        sync.process(samples, |f| receive(f, select, decode, deliver, emit));
    }

    /// At the end of the input: flushes the filters with zeros and delivers the last frame
    /// without waiting for a next header ([`Synchronizer::finish`]). The depacketizer may
    /// still hold a packet: [`flush`](Self::flush).
    pub fn finish(&mut self, emit: &mut impl FnMut(&[u8])) {
        let Self {
            sync,
            select,
            decode,
            deliver,
            ..
        } = self;
        sync.finish(|f| receive(f, select, decode, deliver, emit));
    }

    /// After [`finish`](Self::finish): emits the packet still waiting for its CRC. Apart
    /// from `finish` so that a caller short of room can write the last frame's packets first.
    pub fn flush(&mut self, emit: &mut impl FnMut(&[u8])) {
        self.deliver.flush(emit);
    }

    /// Frame synchronisation holds.
    pub fn locked(&self) -> bool {
        self.sync.stats().locked
    }

    /// What the receiver did so far (`seconds` 0: nobody timed it).
    pub fn stats(&self) -> RxStats {
        let mut stats = RxStats {
            samples: self.samples,
            locked: self.locked(),
            ..RxStats::default()
        };
        self.select.report(&mut stats);
        self.deliver.report(&mut stats);
        stats
    }
}

/// One synchronised frame through the steps after synchronisation.
fn receive(
    f: &SyncFrame<'_>,
    select: &mut FrameSelect,
    decode: &mut Decode,
    deliver: &mut Deliver,
    emit: &mut impl FnMut(&[u8]),
) {
    if !select.admit(f) {
        return;
    }
    let decoded = decode.frame(f.data, f.erased, f.modcod, f.frame, f.esn0_db, None);
    deliver.push(&decoded, decode.bbframe(), emit);
}
