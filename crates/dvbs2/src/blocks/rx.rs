//! [`Dvbs2Rx`]: the DVB-S2 receiver (ETSI EN 302 307-1) as one block, samples to TS bytes.

use crate::rx::sync::{SyncConfig, SyncError};
use crate::rx::{Receiver, RxStats};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Samples given to the synchroniser at a time: at most one PLFRAME completes per block (the
/// shortest, a dummy frame, is 6 660 samples at 2 samples per symbol, 4 162 at the lowest
/// rate, 1.25), so the bytes waiting for output room stay under one frame's worth.
const STEP: usize = 4096;
/// Room for the TS bytes of one frame (58 192 bits of BBFRAME at most) and a packet split
/// across frames.
const PENDING: usize = 58_192 / 8 + 2 * 188;

/// Receives DVB-S2 (a [`Receiver`]: resampling to 2 samples per symbol when the input
/// is at another rate, AGC, matched RRC, Gardner timing, SOF/PLS frame synchronisation,
/// carrier recovery, PL descrambling, soft demapping, LDPC, BCH, BBHEADER) on one thread, from
/// complex samples to the TS packets the frames carry (sync bytes restored; packets of frames
/// that failed carry TEI). Each frame is decoded with the MODCOD its PLS code announces (CCM,
/// VCM and ACM alike).
///
/// The packets of a frame wait inside the block until the output has room: nothing is
/// dropped when the output is short, the input is simply not read further meanwhile. When
/// the input ends, the last frame is delivered without waiting for a next header (the
/// filters flushed with zeros; see [`Receiver::finish`]). For the receiver on several cores,
/// see [`framed::run_rx`](crate::framed::run_rx) (`radioflow dvbs2 rx`).
///
/// From Rust, [`new`](Self::new) takes a [`SyncConfig`]: the roll-off of the matched filter,
/// the PL scrambling Gold code and the input's samples per symbol.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::{Dvbs2Rx, Dvbs2Tx};
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_dvbs2::rx::sync::SyncConfig;
/// use radioflow_dvbs2::{FrameSize, RollOff, Shaping, TxConfig};
///
/// let ts: Vec<u8> = (0..300 * 188).map(|i| if i % 188 == 0 { 0x47 } else { i as u8 }).collect();
/// let cfg = TxConfig::new("qpsk-8/9".parse()?, FrameSize::Short, true);
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(ts.clone()));
/// let tx = fg.add(Dvbs2Tx::new(cfg, Shaping::rrc(RollOff::R020, 2))?);
/// let rx = fg.add(Dvbs2Rx::new(SyncConfig::default())?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, tx)?;
/// fg.connect(tx, rx)?;
/// fg.connect(rx, sink)?;
/// fg.run()?;
/// let got = fg.block::<VectorSink<u8>>(sink).unwrap().data();
/// // After lock (the first frame goes to acquisition), the packets sent, in order.
/// assert!(got.len() >= 200 * 188);
/// assert!(ts.windows(got.len()).any(|w| w == got));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbs2_rx",
    summary = "The DVB-S2 receiver (EN 302 307-1) on one thread: complex samples in (2 samples per symbol, or another rate resampled to 2), the TS packets of every frame out (MODCOD per frame from its PLS code; packets of failed frames marked with TEI).",
    make = Self::new(SyncConfig {
        roll_off: rolloff,
        gold,
        samples_per_symbol: sps,
        ..SyncConfig::default()
    })
    .map_err(Refused::other)
)]
#[param(
    rolloff: f64 = "0.2",
    words = ["0.35", "0.25", "0.2"],
    doc = "RRC roll-off of the matched filter"
)]
#[param(gold: u32 = 0, doc = "PL scrambling Gold code index")]
// The lowest for the smallest roll-off; the roll-off's own bound is checked by Dvbs2Rx::new.
#[param(
    sps: f64 = 2.0,
    at_least = 1.25,
    at_most = 64.0,
    doc = "samples per symbol of the input: 2, or 1 + roll-off + 0.05 to 64 (resampled to 2)"
)]
pub struct Dvbs2Rx {
    /// The samples at `sps` samples per symbol (2, or from just over 1 + roll-off to 64).
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// TS packets (188 bytes, 0x47 first).
    #[output(name = "out")]
    output: StreamOutput<u8>,
    rx: Receiver,
    /// TS bytes decoded, not yet written; `pending[sent..]` is left.
    pending: Vec<u8>,
    sent: usize,
    /// The synchroniser has been told the input ended.
    ended: bool,
    /// The depacketizer has been flushed.
    flushed: bool,
}

impl std::fmt::Debug for Dvbs2Rx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbs2Rx")
            .field("decoded", &self.decoded())
            .field("failed", &self.failed())
            .finish()
    }
}

#[block(type_name = "dvbs2_rx")]
impl Dvbs2Rx {
    /// A receiver for `cfg`'s roll-off, Gold code and input rate.
    ///
    /// # Errors
    /// A roll-off, Gold code, timing bandwidth or input rate out of range.
    pub fn new(cfg: SyncConfig) -> Result<Self, SyncError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            rx: Receiver::new(cfg)?,
            pending: Vec::with_capacity(PENDING),
            sent: 0,
            ended: false,
            flushed: false,
        })
    }

    /// Frames decoded (BCH and BBHEADER good).
    pub fn decoded(&self) -> u64 {
        self.rx.stats().decoded
    }

    /// Frames that failed to decode.
    pub fn failed(&self) -> u64 {
        self.rx.stats().failed
    }

    /// Frame synchronisation holds.
    pub fn locked(&self) -> bool {
        self.rx.locked()
    }

    /// What the receiver did so far (the packets counted as decoded, whether or not the
    /// output took them yet).
    pub fn stats(&self) -> RxStats {
        self.rx.stats()
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let finished = self.input.is_finished();
        let i = self.input.slice();
        let o = self.output.slice();
        let (mut used, mut made) = (0, 0);
        let Self {
            rx,
            pending,
            sent,
            ended,
            flushed,
            ..
        } = self;
        while drain(pending, sent, o, &mut made) && used < i.len() {
            let chunk = &i[used..(used + STEP).min(i.len())];
            rx.process(chunk, &mut |p: &[u8]| pending.extend_from_slice(p));
            used += chunk.len();
        }
        let all = used == i.len();
        if finished && all && drain(pending, sent, o, &mut made) && !*ended {
            rx.finish(&mut |p: &[u8]| pending.extend_from_slice(p));
            *ended = true;
        }
        if finished && all && *ended && drain(pending, sent, o, &mut made) && !*flushed {
            rx.flush(&mut |p: &[u8]| pending.extend_from_slice(p));
            *flushed = true;
        }
        let done = finished && all && *flushed && drain(pending, sent, o, &mut made);
        self.input.consume(used);
        self.output.produce(made);
        Ok(if done {
            WorkStatus::Done
        } else {
            WorkStatus::Continue
        })
    }
}

/// Copies what waits (`pending[*sent..]`) into `o[*made..]`; true when nothing waits any more.
fn drain(pending: &mut Vec<u8>, sent: &mut usize, o: &mut [u8], made: &mut usize) -> bool {
    let n = (pending.len() - *sent).min(o.len() - *made);
    o[*made..*made + n].copy_from_slice(&pending[*sent..*sent + n]);
    *made += n;
    *sent += n;
    if *sent == pending.len() {
        pending.clear();
        *sent = 0;
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::Dvbs2Tx;
    use crate::{FrameSize, RollOff, Shaping, TxConfig};
    use radioflow_runtime::testing::Harness;

    /// `n` TS packets with their index after the header.
    fn ts(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| {
                let mut p = vec![0u8; 188];
                p[..4].copy_from_slice(&[0x47, 0x01, 0x00, 0x10 | (i % 16) as u8]);
                p[4..8].copy_from_slice(&(i as u32).to_be_bytes());
                p
            })
            .collect()
    }

    /// The transmitter block's output for `input` at `sps` samples per symbol.
    fn transmit(input: &[u8], modcod: &str, sps: usize) -> Vec<Complex32> {
        let cfg = TxConfig::new(modcod.parse().unwrap(), FrameSize::Short, true);
        let mut h = Harness::new(Dvbs2Tx::new(cfg, Shaping::rrc(RollOff::R020, sps)).unwrap());
        let mut out = Vec::new();
        for c in input.chunks(30_000) {
            h.push("in", c);
            let target = h.consumed("in") + c.len() as u64;
            // Whole frames only: up to a frame's bytes wait for the next chunk.
            for _ in 0..100 {
                h.work().unwrap();
                out.extend(h.take_output::<Complex32>("out"));
                if target - h.consumed("in") < 8000 {
                    break;
                }
            }
        }
        h.finish_input("in");
        while h.work().unwrap() != WorkStatus::Done {
            out.extend(h.take_output::<Complex32>("out"));
        }
        out.extend(h.take_output::<Complex32>("out"));
        out
    }

    fn assert_contiguous(got: &[u8], sent: &[u8], min_packets: usize) {
        assert_eq!(got.len() % 188, 0);
        assert!(
            got.len() >= min_packets * 188,
            "{} packets",
            got.len() / 188
        );
        let first = u32::from_be_bytes(got[4..8].try_into().unwrap()) as usize;
        assert_eq!(got, &sent[first * 188..first * 188 + got.len()]);
    }

    /// Runs a receiver for `cfg` over `samples`, pushed 30 000 at a time, with `space` bytes
    /// of output room per call (unlimited when `None`).
    fn receive(samples: &[Complex32], cfg: SyncConfig, space: Option<usize>) -> Vec<u8> {
        let mut h = Harness::new(Dvbs2Rx::new(cfg).unwrap());
        let mut got = Vec::new();
        let mut chunks = samples.chunks(30_000);
        let (mut calls, mut pushed, mut ended) = (0, 0u64, false);
        loop {
            if h.consumed("in") == pushed && !ended {
                match chunks.next() {
                    Some(c) => {
                        h.push("in", c);
                        pushed += c.len() as u64;
                    }
                    None => {
                        h.finish_input("in");
                        ended = true;
                    }
                }
            }
            if let Some(n) = space {
                h.set_space("out", n);
            }
            let status = h.work().unwrap();
            got.extend(h.take_output::<u8>("out"));
            if status == WorkStatus::Done {
                assert_eq!(h.block().failed(), 0);
                return got;
            }
            calls += 1;
            assert!(calls < 1_000_000, "no end");
        }
    }

    #[test]
    fn a_short_output_holds_the_packets_back_and_loses_none() {
        let sent = ts(400);
        let samples = transmit(&sent, "8psk-3/5", 2);
        let cfg = SyncConfig::default();
        let whole = receive(&samples, cfg, None);
        assert_contiguous(&whole, &sent, 300);
        // 100 bytes of output room per call: the same bytes.
        assert_eq!(receive(&samples, cfg, Some(100)), whole);
    }

    #[test]
    fn input_at_another_rate_is_resampled() {
        let sent = ts(300);
        // Every other sample at 5 samples per symbol: 2.5.
        let samples: Vec<Complex32> = transmit(&sent, "qpsk-3/4", 5)
            .into_iter()
            .step_by(2)
            .collect();
        let cfg = SyncConfig {
            samples_per_symbol: 2.5,
            ..SyncConfig::default()
        };
        assert_contiguous(&receive(&samples, cfg, None), &sent, 200);
    }

    #[test]
    fn bad_settings_are_refused() {
        let cfg = SyncConfig {
            gold: 300_000,
            ..SyncConfig::default()
        };
        assert!(Dvbs2Rx::new(cfg).unwrap_err().to_string().contains("Gold"));
        let cfg = SyncConfig {
            samples_per_symbol: 1.0,
            ..SyncConfig::default()
        };
        let e = Dvbs2Rx::new(cfg).unwrap_err().to_string();
        assert!(e.contains("samples per symbol out of range"), "{e}");
    }
}
