//! [`DvbBbheader`]: gr-dtv's `dvb_bbheader_bb`, TS bytes to BBFRAMEs of unpacked bits.

use super::settings::{fec_params, DtvSettingsError, Standard};
use crate::bbframe::{unpack, CRC8, TS_PACKET, TS_SYNC};
use crate::modcod::FrameSize;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Bits of a BBHEADER (EN 302 307-1 clause 5.1.6, EN 302 755 clause 5.1.7).
const HEADER_BITS: usize = 80;
/// Bits of in-band type B signalling (EN 302 755 clause 5.2.3.2).
const INBAND_B_BITS: usize = 104;

/// Mode adaptation as gr-dtv's `dvb_bbheader_bb` does it: 188-byte transport stream packets
/// in, BBFRAMEs of Kbch bits out, one bit per byte, MSB first. Each frame is a BBHEADER and
/// (Kbch − 80) / 8 bytes of packets, never padded: the block waits for them.
///
/// In normal mode each packet's sync byte carries the CRC-8 of the previous packet (0 before
/// the first), as EN 302 307-1 clause 5.1.4 says. In DVB-T2's high efficiency mode
/// (EN 302 755 clause 5.1.5) the sync bytes are dropped, UPL and SYNC are 0 and the header's
/// CRC-8 is XORed with the MODE bit. The header signals TS, single input stream, CCM, no
/// ISSY, no null packet deletion, the roll-off for DVB-S2 (for DVB-S2X's 0.15, 0.10 and 0.05
/// it alternates, as EN 302 307-2 clause 5.1.6 says, between `11` and the value) and 0 for
/// DVB-T2. SYNCD counts the bits before the next packet's first byte.
///
/// With `inband` on, the first frame of every `fecblocks` carries in-band type B signalling
/// (EN 302 755 clause 5.2.3.2) in its last 104 bits, as gr-dtv writes it: padding type `01`,
/// the transport stream rate `tsrate` in TS_RATE and zeros elsewhere; its DFL is 104 bits
/// shorter. gr-dtv applies it whatever the standard, and so does this block.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::{DvbBbheader, FrameSize};
///
/// let ts: Vec<u8> = (0..20 * 188_usize).map(|i| if i.is_multiple_of(188) { 0x47 } else { i as u8 }).collect();
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(ts));
/// let bb = fg.add(DvbBbheader::dvbs2(FrameSize::Short, "1/2")?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, bb)?;
/// fg.connect(bb, sink)?;
/// fg.run()?;
/// // 3760 bytes make four BBFRAMEs of 7032 bits (869 bytes each); the rest waits.
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data().len(), 4 * 7032);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvb_bbheader",
    summary = "DVB-S2/T2 mode adaptation as gr-dtv's dvb_bbheader_bb: TS bytes in, BBFRAMEs (BBHEADER and packets, CRC-8 in the sync bytes) out as one bit per byte.",
    make = Self::new(
        Standard::parse("dvb_bbheader", &standard)?,
        frame,
        &rate,
        &rolloff,
        high_efficiency,
        inband.then_some(InbandB { fecblocks, tsrate }),
    )
    .map_err(Refused::from)
)]
#[param(standard: String = "dvb-s2", words = ["dvb-s2", "dvb-t2"], doc = "the standard")]
#[param(frame: FrameSize = "normal", words = ["normal", "short"], doc = "FECFRAME size")]
#[param(
    rate: String = "1/2",
    words = ["1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10"],
    doc = "LDPC code rate (its Kbch is the frame's length)"
)]
#[param(
    rolloff: String = "0.35",
    words = ["0.35", "0.25", "0.20", "0.15", "0.10", "0.05"],
    doc = "roll-off signalled in MATYPE (DVB-S2; DVB-T2 signals 0)"
)]
#[param(high_efficiency: bool = false, doc = "DVB-T2 high efficiency mode (sync bytes dropped)")]
#[param(inband: bool = false, doc = "in-band type B signalling")]
#[param(fecblocks: i64 = 168, doc = "FEC blocks per interleaving frame (in-band signalling's period)")]
#[param(tsrate: i64 = 4_000_000, doc = "transport stream rate signalled in-band, bit/s")]
pub struct DvbBbheader {
    /// Transport stream packets: 188 bytes, each starting with 0x47.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// BBFRAMEs, Kbch bits each, one bit per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    framing: Framing,
}

/// The header writer's settings and the input's position in its packets.
#[derive(Debug)]
struct Framing {
    kbch: usize,
    high_efficiency: bool,
    /// MATYPE-1 without its roll-off bits.
    matype: u8,
    rolloff: u8,
    /// DVB-S2X roll-off: frames alternate between `11` and `rolloff`.
    alternate: bool,
    /// The next frame's roll-off field is `11` (DVB-S2X).
    marker_next: bool,
    inband: Option<InbandB>,
    /// Frames since the last in-band signalling, 0..fecblocks.
    fec_block: i64,
    /// Bytes of the current packet already read, 0..188.
    count: usize,
    /// CRC-8 of the current packet so far.
    crc: u8,
}

/// In-band type B signalling settings (EN 302 755 clause 5.2.3.2).
#[derive(Debug, Clone, Copy)]
pub(crate) struct InbandB {
    /// Its period in FEC blocks (at least 1).
    pub(crate) fecblocks: i64,
    /// TS_RATE, bit/s (27 bits).
    pub(crate) tsrate: i64,
}

impl std::fmt::Debug for DvbBbheader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbBbheader")
            .field("kbch", &self.framing.kbch)
            .field("high_efficiency", &self.framing.high_efficiency)
            .finish()
    }
}

#[block(type_name = "dvb_bbheader")]
impl DvbBbheader {
    /// A DVB-S2 header writer (normal mode, roll-off 0.35, no in-band signalling).
    ///
    /// # Errors
    /// A rate the frame size does not have (9/10 short).
    pub fn dvbs2(frame: FrameSize, rate: &str) -> Result<Self, DtvSettingsError> {
        Self::new(Standard::DvbS2, frame, rate, "0.35", false, None)
    }

    /// A header writer for `standard`'s `frame` and `rate` (`1/4` .. `9/10`).
    ///
    /// # Errors
    /// A rate the standard does not define for the frame size, an unknown roll-off, or
    /// in-band signalling with fewer than one FEC block per period or a rate beyond 27 bits.
    pub(crate) fn new(
        standard: Standard,
        frame: FrameSize,
        rate: &str,
        rolloff: &str,
        high_efficiency: bool,
        inband: Option<InbandB>,
    ) -> Result<Self, DtvSettingsError> {
        let fec = fec_params("dvb_bbheader", standard, frame, rate)?;
        // gr-dtv's dvbs2_rolloff_factor_t: 0.35, 0.25, 0.20 are 0, 1, 2; DVB-S2X's 0.15,
        // 0.10, 0.05 are 4, 5, 6 (bit 2 set: alternate with `11`).
        let code = match rolloff {
            "0.35" => 0,
            "0.25" => 1,
            "0.20" | "0.2" => 2,
            "0.15" => 4,
            "0.10" | "0.1" => 5,
            "0.05" => 6,
            _ => {
                return Err(DtvSettingsError::param(
                    "dvb_bbheader",
                    "rolloff",
                    format!("must be 0.35, 0.25, 0.20, 0.15, 0.10 or 0.05, not {rolloff:?}"),
                ))
            }
        };
        let (rolloff, alternate) = match standard {
            Standard::DvbS2 => (code & 3, code & 4 != 0),
            Standard::DvbT2 => (0, false),
        };
        // gr-dtv takes the input mode only for DVB-T2 and in-band signalling for both.
        let high_efficiency = high_efficiency && standard == Standard::DvbT2;
        if let Some(b) = inband {
            if b.fecblocks < 1 {
                return Err(DtvSettingsError::param(
                    "dvb_bbheader",
                    "fecblocks",
                    format!(
                        "must be at least 1 with in-band signalling, not {}",
                        b.fecblocks
                    ),
                ));
            }
            if !(0..1 << 27).contains(&b.tsrate) {
                return Err(DtvSettingsError::param(
                    "dvb_bbheader",
                    "tsrate",
                    format!("must fit TS_RATE's 27 bits, not {}", b.tsrate),
                ));
            }
        }
        // TS/GS = 11 (transport stream), SIS, CCM, no ISSY, no NPD.
        let matype = 0b1111_0000;
        let kbch = fec.kbch;
        // What gr-dtv's forecast asks before a frame: its data field's bytes, and in high
        // efficiency mode as many again as sync bytes may be dropped among them.
        let data = (kbch - HEADER_BITS) / 8;
        let max_in = if high_efficiency {
            data + data / (TS_PACKET - 1) + 1
        } else {
            data
        };
        Ok(Self {
            input: StreamInput::new().with_min_items(max_in),
            output: StreamOutput::new().with_min_items(kbch),
            framing: Framing {
                kbch,
                high_efficiency,
                matype,
                rolloff,
                alternate,
                marker_next: alternate,
                inband,
                fec_block: 0,
                count: 0,
                crc: 0,
            },
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let need = self.input.min_items();
        let f = &mut self.framing;
        let (mut used, mut made) = (0, 0);
        while i.len() - used >= need && o.len() - made >= f.kbch {
            used += f.frame(&i[used..], &mut o[made..made + f.kbch]);
            made += f.kbch;
        }
        propagate_tags_at_rate(&self.input, &mut self.output, used, 1, 1);
        self.input.consume(used);
        self.output.produce(made);
        Ok(WorkStatus::Continue)
    }
}

impl Framing {
    /// Writes the 80 header bits for a data field of `dfl` bits.
    fn header(&mut self, dfl: usize, out: &mut [u8]) {
        let ro = if self.marker_next { 0b11 } else { self.rolloff };
        if self.alternate {
            self.marker_next = !self.marker_next;
        }
        let (upl, sync): (u16, u8) = if self.high_efficiency {
            (0, 0)
        } else {
            ((TS_PACKET * 8) as u16, TS_SYNC)
        };
        // SYNCD: bits from the data field's start to the first byte of the next packet.
        let syncd = if self.count == 0 {
            0
        } else {
            ((TS_PACKET - self.count) * 8) as u16
        };
        let mut h = [0u8; 10];
        h[0] = self.matype | ro;
        h[2..4].copy_from_slice(&upl.to_be_bytes());
        h[4..6].copy_from_slice(&(dfl as u16).to_be_bytes());
        h[6] = sync;
        h[7..9].copy_from_slice(&syncd.to_be_bytes());
        // EN 302 755 clause 5.1.7: CRC-8 XOR MODE (1 in high efficiency mode).
        h[9] = CRC8.bytes(&h[..9]) ^ u8::from(self.high_efficiency);
        unpack(&h, out);
    }

    /// Writes one frame from `input` into `out` (Kbch bits); returns the bytes read.
    fn frame(&mut self, input: &[u8], out: &mut [u8]) -> usize {
        let inband = self.inband.filter(|_| self.fec_block == 0);
        let padding = if inband.is_some() { INBAND_B_BITS } else { 0 };
        let dfl = self.kbch - HEADER_BITS - padding;
        self.header(dfl, &mut out[..HEADER_BITS]);
        let mut read = 0;
        let mut bits = out[HEADER_BITS..HEADER_BITS + dfl].chunks_exact_mut(8);
        while bits.len() > 0 {
            let b = input[read];
            read += 1;
            let at_sync = self.count == 0;
            self.count = (self.count + 1) % TS_PACKET;
            let byte = if at_sync {
                if self.high_efficiency {
                    continue;
                }
                std::mem::take(&mut self.crc)
            } else {
                self.crc = CRC8.update(self.crc, b);
                b
            };
            let o = bits.next().expect("checked by the loop");
            unpack(&[byte], o);
        }
        if let Some(b) = inband {
            inband_type_b(b.tsrate, &mut out[HEADER_BITS + dfl..self.kbch]);
        }
        if let Some(b) = self.inband {
            self.fec_block = (self.fec_block + 1) % b.fecblocks;
        }
        read
    }
}

/// The 104 bits of in-band type B signalling as gr-dtv writes them (EN 302 755 clause
/// 5.2.3.2): PADDING_TYPE `01`, TTO, first ISCR, BUFS_UNIT and BUFS zero, TS_RATE (27 bits),
/// reserved zeros.
fn inband_type_b(tsrate: i64, out: &mut [u8]) {
    out.fill(0);
    out[1] = 1;
    // 2 + 31 (TTO) + 22 (first ISCR) + 2 (BUFS_UNIT) + 10 (BUFS) bits before TS_RATE.
    let at = 2 + 31 + 22 + 2 + 10;
    for (k, o) in out[at..at + 27].iter_mut().enumerate() {
        *o = ((tsrate >> (26 - k)) & 1) as u8;
    }
}
