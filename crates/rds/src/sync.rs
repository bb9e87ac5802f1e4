//! [`BlockSync`]: data bits to blocks, with block synchronisation by the offset words
//! (EN 50067 Annex C) and burst error correction.

use crate::checkword::{syndrome, BurstCorrector, Offset, BLOCK_BITS};

/// Matches of two offset words this many bits apart or less, in the right order, acquire
/// synchronisation (two groups).
const ACQUIRE_SPAN: u64 = 8 * BLOCK_BITS as u64;

/// What the synchroniser reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SyncEvent {
    Gained,
    Lost,
    /// A block at group position `index` (0..=3): its information word if it was received
    /// (`corrected` if that needed correction), `None` if not; `offset` is the offset it
    /// was decoded with (C or C' for block 3).
    Block {
        index: usize,
        offset: Offset,
        info: Option<u16>,
        corrected: bool,
    },
}

/// Bits in, blocks out.
#[derive(Clone, Debug)]
pub(crate) struct BlockSync {
    corrector: BurstCorrector,
    /// Bad blocks in a row that lose synchronisation.
    loss_run: u32,
    /// The last 26 bits, newest in bit 0.
    reg: u32,
    /// Bits seen.
    bits: u64,
    /// Where each offset word (in [`Offset::ALL`] order) was last seen while searching.
    seen: [Option<u64>; 5],
    synced: bool,
    /// In sync: bits until the next block is complete, its group position, the group's
    /// version if block 2 told it (true for B), and the run of bad blocks.
    countdown: u32,
    index: usize,
    version_b: Option<bool>,
    bad_run: u32,
}

impl BlockSync {
    pub(crate) fn new(max_burst: u8, loss_run: u32) -> Self {
        Self {
            corrector: BurstCorrector::new(max_burst),
            loss_run: loss_run.max(1),
            reg: 0,
            bits: 0,
            seen: [None; 5],
            synced: false,
            countdown: 0,
            index: 0,
            version_b: None,
            bad_run: 0,
        }
    }

    pub(crate) fn is_synced(&self) -> bool {
        self.synced
    }

    /// Takes one data bit; reports through `emit`.
    pub(crate) fn push(&mut self, bit: u8, mut emit: impl FnMut(SyncEvent)) {
        self.reg = ((self.reg << 1) | u32::from(bit & 1)) & ((1 << BLOCK_BITS) - 1);
        self.bits += 1;
        if self.synced {
            self.countdown -= 1;
            if self.countdown == 0 {
                self.block(&mut emit);
            }
        } else if self.bits >= u64::from(BLOCK_BITS) {
            self.search(&mut emit);
        }
    }

    fn search(&mut self, emit: &mut impl FnMut(SyncEvent)) {
        let Some(found) = Offset::from_syndrome(syndrome(self.reg)) else {
            return;
        };
        let slot = |o: Offset| Offset::ALL.iter().position(|&a| a == o).unwrap_or(0);
        let consistent = Offset::ALL.iter().any(|&earlier| {
            self.seen[slot(earlier)].is_some_and(|at| {
                let gap = self.bits - at;
                gap > 0
                    && gap <= ACQUIRE_SPAN
                    && gap.is_multiple_of(u64::from(BLOCK_BITS))
                    && (earlier.index() + (gap / u64::from(BLOCK_BITS)) as usize) % 4
                        == found.index()
            })
        });
        self.seen[slot(found)] = Some(self.bits);
        if !consistent {
            return;
        }
        self.synced = true;
        self.seen = [None; 5];
        self.bad_run = 0;
        self.version_b = None;
        emit(SyncEvent::Gained);
        self.index = found.index();
        self.emit_block(found, Some((self.reg, false)), emit);
    }

    fn block(&mut self, emit: &mut impl FnMut(SyncEvent)) {
        let candidates: &[Offset] = match (self.index, self.version_b) {
            (0, _) => &[Offset::A],
            (1, _) => &[Offset::B],
            (2, Some(false)) => &[Offset::C],
            (2, Some(true)) => &[Offset::CPrime],
            (2, None) => &[Offset::C, Offset::CPrime],
            _ => &[Offset::D],
        };
        // An error-free match first, then a correction.
        let exact = candidates
            .iter()
            .find(|o| syndrome(self.reg) == o.syndrome());
        let (offset, result) = match exact {
            Some(&o) => (o, Some((self.reg, false))),
            None => candidates
                .iter()
                .find_map(|&o| self.corrector.correct(self.reg, o).map(|r| (o, Some(r))))
                .unwrap_or((candidates[0], None)),
        };
        self.emit_block(offset, result, emit);
        if result.is_none() {
            self.bad_run += 1;
            if self.bad_run >= self.loss_run {
                self.synced = false;
                self.seen = [None; 5];
                emit(SyncEvent::Lost);
            }
        } else {
            self.bad_run = 0;
        }
    }

    /// Reports the block at `self.index` and moves to the next.
    fn emit_block(
        &mut self,
        offset: Offset,
        result: Option<(u32, bool)>,
        emit: &mut impl FnMut(SyncEvent),
    ) {
        let info = result.map(|(block, _)| (block >> 10) as u16);
        if self.index == 1 {
            self.version_b = info.map(|b| b & 0x0800 != 0);
        }
        emit(SyncEvent::Block {
            index: self.index,
            offset,
            info,
            corrected: result.is_some_and(|(_, c)| c),
        });
        self.index = (self.index + 1) % 4;
        if self.index == 0 {
            self.version_b = None;
        }
        self.countdown = BLOCK_BITS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkword::encode_block;

    fn group_bits(pi: u16, b: u16, c: u16, d: u16) -> Vec<u8> {
        let blocks = [
            encode_block(pi, Offset::A),
            encode_block(b, Offset::B),
            encode_block(c, Offset::C),
            encode_block(d, Offset::D),
        ];
        blocks
            .iter()
            .flat_map(|&blk| (0..26).rev().map(move |i| ((blk >> i) & 1) as u8))
            .collect()
    }

    #[test]
    fn version_b_groups_take_offset_c_prime() {
        // Group 2B: block 2 has the version bit, block 3 repeats the PI with offset C'.
        let blocks = [
            encode_block(0x5678, Offset::A),
            encode_block(0x2800, Offset::B),
            encode_block(0x5678, Offset::CPrime),
            encode_block(0x4142, Offset::D),
        ];
        let bits: Vec<u8> = blocks
            .iter()
            .cycle()
            .take(12)
            .flat_map(|&blk| (0..26).rev().map(move |i| ((blk >> i) & 1) as u8))
            .collect();
        let mut sync = BlockSync::new(2, 10);
        let thirds: Vec<_> = run(&mut sync, &bits)
            .into_iter()
            .filter_map(|e| match e {
                SyncEvent::Block {
                    index: 2,
                    offset,
                    info,
                    ..
                } => Some((offset, info)),
                _ => None,
            })
            .collect();
        assert_eq!(thirds.len(), 3); // in sync from block 2 of the first group
        assert!(thirds.iter().all(|&t| t == (Offset::CPrime, Some(0x5678))));
    }

    fn run(sync: &mut BlockSync, bits: &[u8]) -> Vec<SyncEvent> {
        let mut out = Vec::new();
        for &b in bits {
            sync.push(b, |e| out.push(e));
        }
        out
    }

    #[test]
    fn acquires_after_two_blocks_in_order_and_reads_the_rest() {
        let mut bits = vec![1, 0, 1, 1, 0]; // a partial bit stream before the first group
        for k in 0..3 {
            bits.extend(group_bits(0xD393, 0x0400 | k, 0xABCD, 0x4142));
        }
        let mut sync = BlockSync::new(2, 10);
        let events = run(&mut sync, &bits);
        assert_eq!(events[0], SyncEvent::Gained);
        // Gained on block B of the first group (A was seen 26 bits before).
        let infos: Vec<_> = events[1..]
            .iter()
            .map(|e| match e {
                SyncEvent::Block { index, info, .. } => (*index, info.unwrap()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(infos[0], (1, 0x0400));
        assert_eq!(infos[1], (2, 0xABCD));
        assert_eq!(infos[2], (3, 0x4142));
        assert_eq!(infos[3], (0, 0xD393));
        assert_eq!(infos.len(), 11);
    }

    #[test]
    fn corrects_a_burst_and_loses_sync_on_garbage() {
        let mut bits = Vec::new();
        for _ in 0..2 {
            bits.extend(group_bits(0x1234, 0x0000, 0x5555, 0xAAAA));
        }
        // A two-bit burst in block C of the second group.
        bits[104 + 52 + 3] ^= 1;
        bits[104 + 52 + 4] ^= 1;
        let mut sync = BlockSync::new(2, 4);
        let events = run(&mut sync, &bits);
        let corrected: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                SyncEvent::Block {
                    info, corrected, ..
                } => Some((*info, *corrected)),
                _ => None,
            })
            .collect();
        assert!(corrected.contains(&(Some(0x5555), true)));
        assert!(corrected.iter().all(|(i, _)| i.is_some()));
        // A constant stream is no block: four bad blocks lose sync.
        let events = run(&mut sync, &[0; 26 * 4]);
        assert_eq!(events.last(), Some(&SyncEvent::Lost));
        assert!(!sync.is_synced());
    }
}
