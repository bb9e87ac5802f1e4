//! [`Dvbs2Tx`]: the DVB-S2 transmitter (ETSI EN 302 307-1) as one block, bytes to samples.

use crate::{
    BbFramer, FecEncoder, FrameSize, FrameSpec, PlFramer, Schedule, Shaper, Shaping, TxConfig,
    TxError, MAX_BBFRAME_BYTES, MAX_FECFRAME_BITS, MAX_PLFRAME,
};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::FromMessage;

/// Encodes a TS (or generic) byte stream into DVB-S2 PLFRAMEs and pulse-shapes them
/// ([the crate](crate): BBFRAME, BCH, LDPC, interleaving, mapping, PL framing, RRC), bit-exact
/// with GNU Radio's gr-dtv chain followed by `interp_fir_filter_ccf`. The MODCOD may change
/// from one frame to the next (VCM/ACM) by a [`Schedule`] or by a message.
///
/// One work call encodes as many whole frames as the input and the output room allow. The
/// block declares the largest frame's input bytes and output samples as its windows, so the
/// runtime always offers a whole frame; when the input ends, the bytes left (less than a
/// frame) go into a last, padded BBFRAME, so nothing is lost, and the RRC filter's ringing
/// follows the last frame (`2·span·sps` samples, [`Shaper::tail`]) so that its last symbols
/// are whole.
///
/// From Rust, [`new`](Self::new) takes the first frame's settings ([`TxConfig`]: MODCOD,
/// frame size, pilots, roll-off, Gold code, stream type, CCM/ACM signalling) and the
/// [`Shaping`] (RRC with roll-off and samples per symbol, or none);
/// [`with_schedule`](Self::with_schedule) changes the MODCOD by frame index.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::Dvbs2Tx;
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_dvbs2::{FrameSize, RollOff, Shaping, TxConfig};
///
/// let mut ts = vec![0u8; 20 * 188];
/// for p in ts.chunks_mut(188) {
///     p[..4].copy_from_slice(&[0x47, 0x1F, 0xFF, 0x10]); // null packets
/// }
/// let cfg = TxConfig::new("qpsk-8/9".parse()?, FrameSize::Short, true);
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(ts));
/// let tx = fg.add(Dvbs2Tx::new(cfg, Shaping::rrc(RollOff::R020, 2))?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, tx)?;
/// fg.connect(tx, sink)?;
/// fg.run()?;
/// // 20 packets (3760 bytes): two full BBFRAMEs of 1769 bytes and a padded one of 222;
/// // 8370 symbols each, 2 samples per symbol; then the RRC filter's tail (±10 symbols: 40).
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data().len(), 3 * 8370 * 2 + 40);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbs2_tx",
    summary = "The DVB-S2 transmitter (EN 302 307-1): MPEG-TS bytes in, PLFRAMEs of RRC-shaped (or unshaped) complex samples out; the MODCOD can change per frame by a 'modcod' message.",
    make = {
        let mut cfg = TxConfig::new(modcod, frame, pilots);
        cfg.roll_off = match rolloff.as_str() {
            "0.35" => crate::RollOff::R035,
            "0.25" => crate::RollOff::R025,
            _ => crate::RollOff::R020,
        };
        cfg.gold = gold;
        let shaping = match shaping.as_str() {
            "rrc" => Shaping::rrc(cfg.roll_off, sps),
            _ => Shaping::None { sps },
        };
        Self::new(cfg, shaping).map_err(Refused::other)
    }
)]
#[param(
    modcod: crate::Modcod = "qpsk-8/9",
    doc = "the first frames' MODCOD (qpsk-1/4 ... 32apsk-9/10)"
)]
#[param(frame: FrameSize = "normal", words = ["normal", "short"], doc = "FECFRAME size")]
#[param(pilots: bool = true, doc = "pilot blocks")]
#[param(
    rolloff: String = "0.2",
    words = ["0.35", "0.25", "0.2"],
    doc = "RRC roll-off, signalled in the BBHEADER"
)]
#[param(sps: usize = 2, min = 1, doc = "samples per symbol")]
#[param(
    shaping: String = "rrc",
    words = ["rrc", "none"],
    doc = "RRC pulse shaping, or one symbol then sps-1 zeros"
)]
#[param(gold: u32 = 0, doc = "PL scrambling Gold code index")]
#[message_input(
    name = "modcod",
    doc = "a symbol `MODCOD[:FRAME[:PILOTS]]`, e.g. `8psk-3/5` or `16apsk-3/4:short:on`, used \
           from the next frame on (frame size and pilots default to the current ones); an unknown \
           or undefined MODCOD is an error naming the port"
)]
pub struct Dvbs2Tx {
    /// TS packets (188 bytes starting with 0x47) or a generic stream.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// `sps` samples per symbol (the RRC filter's delay of `span · sps` samples included, as
    /// GNU Radio's filter has it), then the filter's tail.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    framer: BbFramer,
    fec: FecEncoder,
    pl: PlFramer,
    shaper: Shaper,
    bb: Vec<u8>,
    bits: Vec<u8>,
    symbols: Vec<Complex32>,
    frames: u64,
    /// The filter's tail has been written after the last frame.
    tail_written: bool,
}

impl std::fmt::Debug for Dvbs2Tx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbs2Tx")
            .field("shaping", &self.shaper.shaping())
            .field("frames", &self.frames)
            .finish()
    }
}

/// Why a [`Dvbs2Tx`] could not be built.
#[derive(Debug, thiserror::Error)]
pub enum Dvbs2TxError {
    /// Bad transmitter settings (MODCOD/frame pair, Gold code).
    #[error("dvbs2_tx: {0}")]
    Tx(#[from] TxError),
    /// Bad shaping settings.
    #[error("dvbs2_tx: {0}")]
    Shaping(#[from] crate::ShapingError),
}

#[block(type_name = "dvbs2_tx")]
impl Dvbs2Tx {
    /// A transmitter starting with `cfg`, shaping with `shaping`.
    ///
    /// # Errors
    /// A MODCOD/frame pair the standard does not define, a Gold code out of range, or bad
    /// shaping settings.
    pub fn new(cfg: TxConfig, shaping: Shaping) -> Result<Self, Dvbs2TxError> {
        let shaper = Shaper::new(shaping)?;
        // The largest input a frame takes and the largest frame of samples, whatever MODCOD
        // later frames use.
        let max_in = MAX_BBFRAME_BYTES - 10;
        let max_out = MAX_PLFRAME * shaping.sps();
        Ok(Self {
            input: StreamInput::new().with_min_items(max_in),
            output: StreamOutput::new().with_min_items(max_out),
            framer: BbFramer::new(&cfg)?,
            fec: FecEncoder::new(),
            pl: PlFramer::new(cfg.gold)?,
            shaper,
            bb: vec![0; MAX_BBFRAME_BYTES],
            bits: vec![0; MAX_FECFRAME_BITS],
            symbols: vec![Complex32::new(0.0, 0.0); MAX_PLFRAME],
            frames: 0,
            tail_written: false,
        })
    }

    /// Follows `schedule` (frame indices from the block's first frame).
    pub fn with_schedule(mut self, schedule: Schedule) -> Self {
        self.framer.set_schedule(schedule);
        self
    }

    /// PLFRAMEs written so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The settings of the next frame.
    pub fn next_frame(&mut self) -> FrameSpec {
        self.framer.next_spec()
    }

    /// The `modcod` message input: `MODCOD[:FRAME[:PILOTS]]`.
    #[message_input(name = "modcod")]
    fn set_modcod(&mut self, request: ModcodRequest) -> Result<(), BlockError> {
        let cur = self.framer.next_spec();
        let spec = request
            .spec(cur.frame, cur.pilots)
            .map_err(|e| BlockError::msg(format!("dvbs2_tx: message port 'modcod': {e}")))?;
        self.framer
            .set_next(spec)
            .map_err(|e| BlockError::msg(format!("dvbs2_tx: message port 'modcod': {e}")))
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let sps = self.shaper.sps();
        let finished = self.input.is_finished();
        let base = self.input.offset();
        let i = self.input.slice();
        let o = self.output.slice();
        let (mut used, mut made) = (0, 0);
        loop {
            let avail = i.len() - used;
            let need = self.framer.max_input();
            // A whole frame's input, or the stream's last bytes.
            if avail == 0 || (avail < need && !finished) {
                break;
            }
            let spec = self.framer.next_spec();
            let n = spec.plframe_len()? * sps;
            if o.len() - made < n {
                break;
            }
            let (spec, u) = match self.framer.frame(&i[used..], &mut self.bb) {
                Ok(x) => x,
                Err(TxError::TsSync(e)) => {
                    return Err(BlockError::msg(format!(
                        "dvbs2_tx: input 'in': TS sync byte 0x47 missing at stream byte {} \
                         (packet {}, found {:#04x})",
                        base + (used + e.offset) as u64,
                        (base + (used + e.offset) as u64) / 188,
                        e.found
                    )))
                }
                Err(e) => return Err(e.into()),
            };
            self.fec.encode(&spec, &self.bb, &mut self.bits)?;
            let len = self.pl.frame(&spec, &self.bits, &mut self.symbols)?;
            self.shaper
                .process(&self.symbols[..len], &mut o[made..made + len * sps]);
            used += u;
            made += len * sps;
            self.frames += 1;
        }
        let all = used == i.len();
        let tail = self.shaper.tail();
        // After the last frame (none: nothing to ring), the filter's ringing.
        if finished && all && !self.tail_written && o.len() - made >= tail {
            if self.frames > 0 {
                made += self.shaper.finish(&mut o[made..made + tail]);
            }
            self.tail_written = true;
        }
        self.input.consume(used);
        self.output.produce(made);
        Ok(if finished && all && self.tail_written {
            WorkStatus::Done
        } else {
            WorkStatus::Continue
        })
    }
}

/// A `modcod` message: a symbol `MODCOD[:FRAME[:PILOTS]]` naming a MODCOD defined for its
/// frame size, or for one of them when the frame size is left to the current one (the only
/// request the block can still refuse: `qpsk-9/10` while sending short frames). Checked when
/// the message is made, so a control port refuses a bad one before it reaches the block.
struct ModcodRequest(String);

impl ModcodRequest {
    /// The frame it asks for, the frame size and pilots not named taken from `frame`, `pilots`.
    fn spec(&self, frame: FrameSize, pilots: bool) -> Result<FrameSpec, TxError> {
        let spec = Schedule::parse(&format!("0:{}", self.0), frame, pilots)?.entries()[0].1;
        spec.fec()?;
        Ok(spec)
    }
}

impl FromMessage for ModcodRequest {
    const EXPECTS: &'static str =
        "a symbol MODCOD[:FRAME[:PILOTS]] naming a defined MODCOD, like \"8psk-3/5\" or \"8psk-3/5:normal:on\"";

    fn from_message(msg: &Pmt) -> Option<Self> {
        let request = ModcodRequest(msg.as_symbol()?.to_owned());
        [FrameSize::Normal, FrameSize::Short]
            .into_iter()
            .any(|f| request.spec(f, true).is_ok())
            .then_some(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FrameSize, RollOff, Transmitter};
    use radioflow_runtime::testing::Harness;

    fn ts(npackets: usize) -> Vec<u8> {
        (0..npackets * 188)
            .map(|i| {
                if i % 188 == 0 {
                    0x47
                } else {
                    (i * 11 + 1) as u8
                }
            })
            .collect()
    }

    /// Transmitter + streaming shaper over the whole input, with `switch(frame)` applied
    /// before each frame, then the shaper's tail; and each frame's length.
    fn reference(
        cfg: TxConfig,
        shaping: Shaping,
        input: &[u8],
        switch: impl Fn(u64) -> Option<(&'static str, FrameSize)>,
    ) -> (Vec<Complex32>, Vec<usize>) {
        let mut tx = Transmitter::new(cfg).unwrap();
        let mut sh = Shaper::new(shaping).unwrap();
        let (mut pos, mut out, mut lens, mut k) = (0, Vec::new(), Vec::new(), 0);
        while pos < input.len() {
            if let Some((m, f)) = switch(k) {
                tx.set_modcod(m.parse().unwrap(), f).unwrap();
            }
            let mut f = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
            pos += tx.encode_frame(&input[pos..], &mut f).unwrap().consumed;
            let mut y = vec![Complex32::new(0.0, 0.0); f.len() * sh.sps()];
            sh.process(&f, &mut y);
            lens.push(y.len());
            out.extend(y);
            k += 1;
        }
        let mut tail = vec![Complex32::new(0.0, 0.0); sh.tail()];
        sh.finish(&mut tail);
        out.extend(tail);
        (out, lens)
    }

    #[test]
    fn encodes_whole_frames_as_far_as_the_output_allows_then_pads_the_last() {
        let cfg = TxConfig::new("8psk-3/5".parse().unwrap(), FrameSize::Short, true);
        let shaping = Shaping::rrc(RollOff::R020, 2);
        let input = ts(30); // 5640 bytes: 4 frames of 1184 bytes and 904 left
        let (want, lens) = reference(cfg, shaping, &input, |_| None);
        assert_eq!(lens.len(), 5);
        let mut h = Harness::new(Dvbs2Tx::new(cfg, shaping).unwrap());
        assert_eq!(h.block().type_name(), "dvbs2_tx");
        h.push("in", &input[..1000]);
        h.work().unwrap();
        assert_eq!(
            (h.consumed("in"), h.produced("out")),
            (0, 0),
            "less than a frame"
        );
        h.push("in", &input[1000..]);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        assert_eq!(
            h.consumed("in"),
            4 * 1184,
            "the last 904 bytes wait for more"
        );
        assert_eq!(h.produced("out"), 4 * lens[0] as u64);
        h.finish_input("in");
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert_eq!(h.consumed("in"), input.len() as u64);
        let got = h.take_output::<Complex32>("out");
        // The frames, then the RRC filter's tail: ±10 symbols at 2 samples each.
        assert_eq!(got.len(), lens.iter().sum::<usize>() + 40);
        assert_eq!(got, want);
        assert_eq!(h.block().frames(), 5);
    }

    #[test]
    fn modcod_message_and_schedule_switch_frames_exactly_where_asked() {
        let mut cfg = TxConfig::new("qpsk-8/9".parse().unwrap(), FrameSize::Short, true);
        cfg.ccm = false;
        let shaping = Shaping::None { sps: 1 };
        let input = ts(200);
        let switch = |k: u64| match k {
            2 => Some(("8psk-3/5", FrameSize::Short)),
            4 => Some(("32apsk-9/10", FrameSize::Normal)),
            _ => None,
        };
        let (want, lens) = reference(cfg, shaping, &input, switch);
        let schedule = Schedule::parse("4:32apsk-9/10:normal", FrameSize::Short, true).unwrap();
        let mut h = Harness::new(Dvbs2Tx::new(cfg, shaping).unwrap().with_schedule(schedule));
        let mut got = Vec::new();
        let mut pos = 0;
        for (k, &len) in lens.iter().enumerate().take(6) {
            if k == 2 {
                h.post("modcod", Pmt::symbol("8psk-3/5")).unwrap();
            }
            // Exactly the next frame's input, so each call makes one frame.
            let need = h.block_mut().framer.max_input();
            h.push("in", &input[pos..pos + need]);
            pos += need;
            h.work().unwrap();
            let frame = h.take_output::<Complex32>("out");
            assert_eq!(frame.len(), len, "frame {k}");
            got.extend(frame);
        }
        assert_eq!(got, want[..got.len()]);
        let err = h
            .post("modcod", Pmt::symbol("qpsk-9/10:short"))
            .unwrap_err();
        assert!(err.to_string().contains("'modcod'"), "{err}");
        assert!(err.to_string().contains("9/10"), "{err}");
        assert!(h.post("modcod", Pmt::Int(3)).is_err());
        // What a control port checks before sending: a MODCOD defined for some frame size.
        let t = radioflow_runtime::MessageType::of::<ModcodRequest>();
        for ok in ["8psk-3/5", "qpsk-9/10", "16apsk-3/4:short:off"] {
            assert!(t.accepts(&Pmt::symbol(ok)), "{ok}");
        }
        for bad in [
            "qpsk-9/10:short",
            "8psk-1/4",
            "qpsk",
            "8psk-3/5:normal:maybe",
        ] {
            assert!(!t.accepts(&Pmt::symbol(bad)), "{bad}");
        }
        assert!(!t.accepts(&Pmt::Int(3)));
    }

    #[test]
    fn every_scheduler_delivers_every_frame_in_a_flowgraph() {
        use radioflow_blocks::{VectorSink, VectorSource};
        use radioflow_runtime::{FlowScheduler, Flowgraph};
        let cfg = TxConfig::new("8psk-3/5".parse().unwrap(), FrameSize::Short, true);
        let shaping = Shaping::rrc(RollOff::R035, 2);
        let input = ts(30); // 4 whole frames and a padded fifth
        let (want, lens) = reference(cfg, shaping, &input, |_| None);
        assert_eq!(lens.len(), 5);
        let schedulers: Vec<Box<dyn Scheduler>> = vec![
            Box::new(ThreadPerBlock::new()),
            Box::new(SingleThread::new()),
            Box::new(FlowScheduler::new().workers(2)),
            // Chunks and buffers far smaller than a frame: the declared windows must hold.
            Box::new(
                FlowScheduler::new()
                    .workers(2)
                    .chunk_bytes(256)
                    .buffer_bytes(4096),
            ),
        ];
        for s in schedulers {
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(input.clone()));
            let tx = fg.add(Dvbs2Tx::new(cfg, shaping).unwrap());
            let sink = fg.add(VectorSink::<Complex32>::new());
            fg.connect(src, tx).unwrap();
            fg.connect(tx, sink).unwrap();
            fg.run_with(s.as_ref())
                .unwrap_or_else(|e| panic!("{}: {e}", s.name()));
            let got = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
            assert!(
                got == want.as_slice(),
                "{}: {} samples of {}",
                s.name(),
                got.len(),
                want.len()
            );
        }
    }

    #[test]
    fn a_missing_sync_byte_names_the_stream_offset_and_packet() {
        let cfg = TxConfig::new("qpsk-1/2".parse().unwrap(), FrameSize::Short, false);
        let mut input = ts(40);
        input[17 * 188] = 0;
        let mut h = Harness::new(Dvbs2Tx::new(cfg, Shaping::None { sps: 1 }).unwrap());
        h.push("in", &input);
        let err = h.work().unwrap_err().to_string();
        assert!(err.contains("stream byte 3196 (packet 17"), "{err}");
        assert!(Dvbs2Tx::new(
            TxConfig::new("qpsk-9/10".parse().unwrap(), FrameSize::Short, false),
            Shaping::None { sps: 1 }
        )
        .is_err());
    }
}
