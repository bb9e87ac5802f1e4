//! User packets back from successive BBFRAME data fields (clause 5.1.4 in reverse): sync
//! bytes restored from their CRC-8 replacement, each packet's CRC-8 checked, TEI set on TS
//! packets that failed.

use super::bbheader::{BbHeader, BBHEADER_BYTES};
use crate::bbframe::{CRC8, TS_PACKET};

/// Largest user packet: UPL is a 16-bit count of bits.
const MAX_PACKET: usize = u16::MAX as usize / 8;

/// Counters of a [`Depacketizer`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DepacketizerStats {
    /// Packets emitted.
    pub packets: u64,
    /// Packets whose CRC-8 (carried in the next packet's sync position) did not match.
    pub crc_errors: u64,
    /// Packets emitted marked as errored (TEI set for TS): CRC mismatch or bytes from a
    /// frame that failed to decode.
    pub marked: u64,
    /// Bytes dropped while (re)synchronizing to packet boundaries.
    pub dropped_bytes: u64,
}

/// Reassembles the user packets (TS or generic packetized) or passes a generic continuous
/// stream through, one BBFRAME at a time, in order. Sequential by nature (packets span
/// frames); it allocates only at construction.
///
/// A packet is emitted when the next packet start brings its CRC-8, so output lags by one
/// packet; [`flush`](Self::flush) emits the last one unchecked.
#[derive(Debug, Clone)]
pub struct Depacketizer {
    /// Packet being assembled, `fill` bytes so far.
    cur: Vec<u8>,
    /// The last complete packet, waiting for its CRC.
    held: Vec<u8>,
    /// Packet length in bytes; 0 while not synchronized.
    plen: usize,
    fill: usize,
    sync: u8,
    transport: bool,
    cur_bad: bool,
    held_present: bool,
    held_bad: bool,
    stats: DepacketizerStats,
}

impl Default for Depacketizer {
    fn default() -> Self {
        Self::new()
    }
}

impl Depacketizer {
    /// A depacketizer waiting for its first packet start.
    pub fn new() -> Self {
        Depacketizer {
            cur: vec![0; MAX_PACKET],
            held: vec![0; MAX_PACKET],
            plen: 0,
            fill: 0,
            sync: 0,
            transport: false,
            cur_bad: false,
            held_present: false,
            held_bad: false,
            stats: DepacketizerStats::default(),
        }
    }

    /// The counters so far.
    pub fn stats(&self) -> DepacketizerStats {
        self.stats
    }

    /// Takes the next descrambled BBFRAME (header included). `header` is its parsed header,
    /// `None` if it was rejected: while synchronized, the frame is then assumed to continue
    /// the stream with a full data field, its packets marked. `ok` is false when the frame
    /// failed to decode (its packets are marked). Calls `out` with every packet completed
    /// (or, for a continuous stream, with the data field).
    pub fn push(
        &mut self,
        header: Option<&BbHeader>,
        bbframe: &[u8],
        ok: bool,
        out: &mut impl FnMut(&[u8]),
    ) {
        let Some(h) = header else {
            if self.plen > 0 {
                self.process(&bbframe[BBHEADER_BYTES..], false, out);
            }
            return;
        };
        let data = &bbframe[BBHEADER_BYTES..BBHEADER_BYTES + usize::from(h.dfl) / 8];
        if h.upl == 0 {
            self.lose_sync(out);
            out(data);
            return;
        }
        let plen = usize::from(h.upl) / 8;
        if plen != self.plen || h.sync != self.sync {
            self.lose_sync(out);
            self.sync = h.sync;
            // Only a 188-byte packet is a TS packet with a TEI bit to set (a header may
            // signal TS with any UPL).
            self.transport = h.is_transport() && plen == TS_PACKET;
        }
        let syncd = usize::from(h.syncd);
        if self.plen > 0
            && h.syncd != 0xFFFF
            && (syncd % 8 != 0 || syncd / 8 != (plen - self.fill) % plen)
        {
            // The header disagrees with the boundaries followed so far: trust the header.
            self.lose_sync(out);
        }
        if self.plen == 0 {
            if h.syncd == 0xFFFF || syncd % 8 != 0 {
                self.stats.dropped_bytes += data.len() as u64;
                return;
            }
            self.plen = plen;
            self.fill = 0;
            self.stats.dropped_bytes += (syncd / 8) as u64;
            self.process(&data[syncd / 8..], ok, out);
        } else {
            self.process(data, ok, out);
        }
    }

    /// Emits the packet waiting for its CRC, unchecked, and forgets the partial one.
    pub fn flush(&mut self, out: &mut impl FnMut(&[u8])) {
        if self.held_present {
            let bad = self.held_bad;
            self.emit(bad, out);
        }
        self.stats.dropped_bytes += self.fill as u64;
        self.fill = 0;
    }

    fn lose_sync(&mut self, out: &mut impl FnMut(&[u8])) {
        self.flush(out);
        self.plen = 0;
    }

    fn process(&mut self, data: &[u8], ok: bool, out: &mut impl FnMut(&[u8])) {
        let plen = self.plen;
        self.cur_bad |= !ok;
        let mut pos = 0;
        while pos < data.len() {
            if self.fill == 0 {
                // A packet start: this byte is the CRC-8 of the previous packet.
                if self.held_present {
                    let crc = CRC8.bytes(&self.held[1..plen]);
                    let mismatch = crc != data[pos];
                    self.stats.crc_errors += u64::from(mismatch);
                    let bad = self.held_bad || mismatch;
                    self.emit(bad, out);
                }
                self.cur[0] = self.sync;
                self.fill = 1;
                self.cur_bad = !ok;
                pos += 1;
            } else {
                let n = (plen - self.fill).min(data.len() - pos);
                self.cur[self.fill..self.fill + n].copy_from_slice(&data[pos..pos + n]);
                self.fill += n;
                pos += n;
            }
            // (A 1-byte packet is complete with its sync byte.)
            if self.fill == plen {
                std::mem::swap(&mut self.cur, &mut self.held);
                self.held_present = true;
                self.held_bad = self.cur_bad;
                self.fill = 0;
            }
        }
    }

    fn emit(&mut self, bad: bool, out: &mut impl FnMut(&[u8])) {
        let packet = &mut self.held[..self.plen];
        if bad {
            self.stats.marked += 1;
            if self.transport {
                // transport_error_indicator: the MSB of the TS header's second byte.
                packet[1] |= 0x80;
            }
        }
        self.stats.packets += 1;
        self.held_present = false;
        out(packet);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bbframe::{InputStream, ModeAdapter, RollOff};
    use crate::modcod::{CodeRate, FecParams, FrameSize};

    fn ts(n: usize) -> Vec<u8> {
        (0..n * 188)
            .map(|i| {
                if i % 188 == 0 {
                    0x47
                } else {
                    (i * 31 + i / 188) as u8 & 0x7F
                }
            })
            .collect()
    }

    /// BBFRAMEs of the transmitter's mode adaptation (no scrambling: not needed here).
    fn frames(input: &[u8], stream: InputStream) -> Vec<Vec<u8>> {
        let fec = FecParams::new(FrameSize::Short, CodeRate::R1_2).unwrap();
        let mut adapter = ModeAdapter::new(stream, RollOff::R020, true);
        let mut pos = 0;
        let mut out = Vec::new();
        while pos < input.len() {
            let mut f = vec![0u8; fec.kbch / 8];
            pos += adapter.build(&fec, &input[pos..], &mut f).unwrap();
            out.push(f);
        }
        out
    }

    fn run(
        frames: &[Vec<u8>],
        bad: &[usize],
        corrupt_header: &[usize],
    ) -> (Vec<u8>, DepacketizerStats) {
        let mut d = Depacketizer::new();
        let mut got = Vec::new();
        for (i, f) in frames.iter().enumerate() {
            let h = BbHeader::parse(f, f.len() * 8).unwrap();
            let h = (!corrupt_header.contains(&i)).then_some(&h);
            d.push(h, f, !bad.contains(&i), &mut |p: &[u8]| {
                got.extend_from_slice(p)
            });
        }
        d.flush(&mut |p: &[u8]| got.extend_from_slice(p));
        (got, d.stats())
    }

    #[test]
    fn ts_round_trips_through_mode_adaptation() {
        let input = ts(40);
        let f = frames(&input, InputStream::Transport);
        assert!(f.len() > 5);
        let (got, stats) = run(&f, &[], &[]);
        assert!(got == input);
        assert_eq!(
            stats,
            DepacketizerStats {
                packets: 40,
                ..Default::default()
            }
        );
    }

    #[test]
    fn packets_of_a_failed_frame_carry_tei_and_the_rest_is_intact() {
        let input = ts(40);
        let f = frames(&input, InputStream::Transport);
        // Frame 2 failed, frame 4's header was lost: the stream still has 40 packets.
        let (got, stats) = run(&f, &[2], &[4]);
        assert_eq!(got.len(), input.len());
        let per_frame = (7032 - 80) / 8;
        for (k, (g, i)) in got.chunks(188).zip(input.chunks(188)).enumerate() {
            let (start, end) = (k * 188, k * 188 + 188);
            let touches = |fr: usize| start < (fr + 1) * per_frame && end > fr * per_frame;
            if touches(2) || touches(4) {
                assert_eq!(g[1], i[1] | 0x80, "packet {k} must be marked");
                assert_eq!(g[2..], i[2..]);
            } else {
                assert!(g == i, "packet {k}");
            }
        }
        assert!(stats.marked > 0 && stats.crc_errors == 0);
    }

    #[test]
    fn a_wrong_byte_fails_the_packets_crc() {
        let input = ts(20);
        let mut f = frames(&input, InputStream::Transport);
        f[1][100] ^= 4;
        let (got, stats) = run(&f, &[], &[]);
        assert_eq!(stats.crc_errors, 1);
        assert_eq!(stats.marked, 1);
        let bad: Vec<usize> = got
            .chunks(188)
            .zip(input.chunks(188))
            .enumerate()
            .filter(|(_, (g, i))| g != i)
            .map(|(k, _)| k)
            .collect();
        // Frame 1 data starts at input byte 869; byte 100 of the frame is data byte 90.
        assert_eq!(bad, vec![(869 + 90) / 188]);
    }

    #[test]
    fn generic_continuous_stream_passes_through() {
        let input: Vec<u8> = (0..3000u32).map(|i| (i * 7) as u8).collect();
        let f = frames(&input, InputStream::GenericContinuous);
        let (got, stats) = run(&f, &[], &[]);
        assert!(got == input);
        assert_eq!(stats.packets, 0);
    }

    /// A header signalling a transport stream with 1-byte packets (fuzzing found it): the
    /// packets are reassembled at that length, marked bad without a TEI bit to set.
    #[test]
    fn a_transport_header_with_short_packets_marks_them_without_a_tei() {
        let kbch = 7032;
        let mut frame = vec![0x55u8; kbch / 8];
        // MATYPE TS/CCM, UPL 8 bits, DFL 64 bits, SYNC 0x47, SYNCD 0.
        frame[..9].copy_from_slice(&[0xF0, 0, 0, 8, 0, 64, 0x47, 0, 0]);
        frame[9] = CRC8.bytes(&frame[..9]);
        let h = BbHeader::parse(&frame, kbch).unwrap();
        assert!(h.is_transport());
        let mut d = Depacketizer::new();
        let mut got = Vec::new();
        for _ in 0..2 {
            d.push(Some(&h), &frame, false, &mut |p: &[u8]| {
                got.push(p.to_vec())
            });
        }
        d.flush(&mut |p: &[u8]| got.push(p.to_vec()));
        assert_eq!(got.len(), 16, "{:?}", d.stats());
        assert_eq!(d.stats().dropped_bytes, 0);
        assert!(got.iter().all(|p| p == &[0x47]));
        assert_eq!(d.stats().marked, 16);
    }
}
