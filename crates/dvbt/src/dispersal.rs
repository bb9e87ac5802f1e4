//! Energy dispersal (ETSI EN 300 744 clause 4.3.1): the PRBS 1 + x^14 + x^15 that scrambles
//! a group of eight transport packets.

/// Transport packet length, sync byte included.
pub(crate) const PACKET: usize = 188;
/// Packets a PRBS period covers.
pub(crate) const PACKETS: usize = 8;
/// The sync byte of MPEG-2 transport packets.
pub(crate) const SYNC: u8 = 0x47;
/// The inverted sync byte that starts each group of eight packets.
pub(crate) const INVERTED_SYNC: u8 = 0xB8;

/// The bytes XORed onto a group of eight packets (`PACKETS · PACKET` bytes): the PRBS loaded
/// with 100101010000000 at the group's first packet, eight bits a byte, first bit the most
/// significant; it runs during the sync bytes (whose places hold 0 here) without scrambling
/// them (figure 2).
pub fn sequence() -> Vec<u8> {
    // The register's bits 1 to 15 as bits 0 to 14: the initial 100101010000000 read from
    // bit 1 on.
    let mut reg: u16 = 0b000_0000_1010_1001;
    let mut byte = || {
        let mut b = 0u8;
        for _ in 0..8 {
            let bit = ((reg >> 13) ^ (reg >> 14)) & 1;
            reg = ((reg << 1) | bit) & 0x7fff;
            b = (b << 1) | bit as u8;
        }
        b
    };
    let mut out = vec![0u8; PACKETS * PACKET];
    for packet in out.chunks_exact_mut(PACKET) {
        for b in &mut packet[1..] {
            *b = byte();
        }
        // The sync byte's eight clocks.
        byte();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_starts_as_the_standard_says() {
        // Clause 4.3.1: the first output bits after loading 100101010000000 are 00000011
        // (the same register as DVB-S2's BB scrambler, EN 302 307-1 clause 5.2.2).
        let s = sequence();
        assert_eq!(s[0], 0);
        assert_eq!(s[1], 0b0000_0011);
        // The period is 2^15 - 1 bits; a group takes 1504 · 8 = 12032 clocks: never repeats
        // inside one.
        assert_ne!(s[1..188], s[189..376]);
    }
}
