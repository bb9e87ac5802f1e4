//! [`RxStats`]: what a receiver did, whichever way it ran.

use crate::modcod::{FrameSize, Modcod};

/// What a receiver did: [`Receiver::stats`](crate::Receiver::stats), the framed receiver's
/// [`run_rx`](crate::framed::run_rx) and the dvbs2_rx block count the same things.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RxStats {
    /// Input samples read.
    pub samples: u64,
    /// PLFRAMEs synchronised.
    pub frames: u64,
    /// Frames decoded (BCH and BBHEADER good).
    pub decoded: u64,
    /// Frames that failed to decode (their packets carry TEI).
    pub failed: u64,
    /// Frames synchronised but left undecoded: not of the frame size / pilots asked for.
    pub skipped: u64,
    /// TS packets delivered.
    pub packets: u64,
    /// Information bits (Kbch) of the frames decoded.
    pub info_bits: u64,
    /// The last frame's MODCOD, frame size and pilots.
    pub last_modcod: Option<(Modcod, FrameSize, bool)>,
    /// The last Es/N0 estimate (dB, smoothed over frames).
    pub esn0_db: Option<f32>,
    /// Frame synchronisation held at the end.
    pub locked: bool,
    /// Wall time of the run, seconds (a framed run: its calibration included); 0 where
    /// nobody timed it.
    pub seconds: f64,
}
