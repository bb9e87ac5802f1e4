//! Cutting a `flow` chain in two while it runs, when one worker has a single chain left and
//! another has nothing to do: where to cut, whether it pays, and whether it paid.
//!
//! The placement keeps a chain on one worker: right for chains of cheap blocks, whose chunks
//! then go down the chain in L1 (a memory-bound copy chain cut in two at start ran up to 20
//! times slower per item, its workers handing chunks to each other and sleeping). A chain of
//! costly blocks (filters) on one worker leaves the other cores idle, though: the FM receiver's
//! chain ran no faster on `flow` than on one thread. The costs are not known before the run,
//! so the worker measures them: while another worker is hungry and this one has a single chain
//! of two or more unfinished blocks, it waits [`SETTLE_NS`], then reads the clock around its
//! steps for at least [`MEASURE_PASSES`] passes and [`WINDOW_NS`]
//! ([`BlockTask::cost`](crate::task::BlockTask)),
//! then cuts where the two parts' times per chunk (each charged its side of the chunk's
//! crossing at the cut, as measured on this machine: `crossing.rs`) are closest, if that pays
//! ([`Cut::pays`]): the chain's time per chunk shortens by at least [`MIN_GAIN_SHARE`] of it
//! and by more than the measured wake-up of a sleeping worker (which a chunk handed over may
//! cost), and the chain is bounded by its blocks' work, not by memory ([`MIN_NS_PER_BYTE`]).
//! Blocks whose steps moved nothing while measured count as free.
//!
//! The prediction is then checked ([`keeps`]): the chain's throughput (items its first block
//! writes per second) measured over the same window before the cut is compared with the same
//! count over a window after it ([`SETTLE_NS`] after the tail left, so the connection at the
//! cut has filled). A cut that did not raise it by [`KEEP_MARGIN`] is undone: the worker that
//! took the tail hands it back, the chain runs on one worker again and is not measured again
//! for [`retry_passes`] passes, longer after each undo and never after [`MAX_UNDOS`], so that a
//! chain whose cut does not pay does not flap. `RADIOFLOW_LOG=debug` prints each decision with
//! its numbers.
//!
//! Before the tail moves, the chain's buffers stop borrowing the chain's regions (a region is
//! used by one thread at a time, `buffer/region.rs`) and the worker waits until no region
//! holds items; then the tail becomes a chain of its own and goes to the hungry worker like a
//! whole chain would (`balance.rs`). A chain put together again keeps its items in its rings.

use super::crossing::Crossing;

/// Passes (of the worker over its chain) timed before a cut is decided (at least).
pub(crate) const MEASURE_PASSES: u32 = 16;

/// The shortest window over which a chain's throughput is measured, before and after a cut
/// (nanoseconds).
pub(crate) const WINDOW_NS: f64 = 10e6;

/// Time before a window starts: before the cut, so that the chain's start (first reads of its
/// file, first touches of its buffers) is not counted; after it, so that the connection at the
/// cut fills and the chain runs at the pace of its slower part (nanoseconds).
pub(crate) const SETTLE_NS: f64 = 10e6;

/// A cut is kept when the chain's throughput after it exceeds the throughput before by at
/// least this share (against noise: a cut that gains less is not worth a core).
pub(crate) const KEEP_MARGIN: f64 = 0.05;

/// Undos after which a worker does not cut its chain again in this run.
pub(crate) const MAX_UNDOS: u32 = 3;

/// Passes after a cut was found not to pay before the chain is measured again (its costs may
/// change: a source that was slow to start, a filter retuned).
pub(crate) const RETRY_PASSES: u32 = 4096;

/// Passes to wait for the chain's regions to empty before giving the cut up.
pub(crate) const DRAIN_PASSES: u32 = 1024;

/// A cut must save at least this share of the chain's time per chunk (the times measured
/// over a few passes on a shared machine are not closer than that).
pub(crate) const MIN_GAIN_SHARE: f64 = 0.125;

/// A chain whose blocks spend less than this per byte they write is bounded by memory, not by
/// its blocks' work: its buffers keep their chunks in cache only while the chain runs on one
/// worker (through its regions), and a cut would make every buffer miss. `buf` 1x10 (ten
/// copies, ~0.025 ns/B) cut in two ran 1.47x longer; the `fm` chain spends ~0.3 ns/B.
pub(crate) const MIN_NS_PER_BYTE: f64 = 0.1;

/// Where to cut a chain whose blocks take `ns` nanoseconds and write `bytes` per chunk each
/// (`(ns, bytes)` in chain order; an iterator, so that deciding allocates nothing): a
/// [`Cut`] at the best place.
/// A cut's head is charged what writing its last block's chunk costs when another core reads
/// it, the tail what reading it costs ([`Crossing`]), so between two cuts of about equal
/// balance the one where less data flows wins. `None` for fewer than two blocks.
pub(crate) fn best_cut(
    blocks: impl Iterator<Item = (f64, f64)> + Clone,
    crossing: &Crossing,
) -> Option<Cut> {
    let total: f64 = blocks.clone().map(|(ns, _)| ns).sum();
    let bytes: f64 = blocks.clone().map(|(_, b)| b).sum();
    let mut head = 0.0;
    let mut best: Option<Cut> = None;
    let mut blocks = blocks.peekable();
    let mut k = 0;
    while let Some((ns, bytes_here)) = blocks.next() {
        if blocks.peek().is_none() {
            break;
        }
        head += ns;
        k += 1;
        let head_part = head + bytes_here * crossing.write_ns_per_byte;
        let tail_part = total - head + bytes_here * crossing.read_ns_per_byte;
        let gain = total - head_part.max(tail_part);
        if best.is_none_or(|b| gain > b.gain) {
            best = Some(Cut {
                at: k,
                gain,
                total,
                bytes,
                head: head_part,
                tail: tail_part,
            });
        }
    }
    best
}

/// A place to cut a chain, per chunk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Cut {
    /// Index of the tail's first block.
    pub(crate) at: usize,
    /// Nanoseconds the cut saves: the whole chain's time minus its longer part's.
    pub(crate) gain: f64,
    /// The whole chain's nanoseconds.
    pub(crate) total: f64,
    /// Bytes the chain's blocks write.
    pub(crate) bytes: f64,
    /// The head's nanoseconds, its side of the crossing included.
    pub(crate) head: f64,
    /// The tail's nanoseconds, its side of the crossing included.
    pub(crate) tail: f64,
}

impl Cut {
    /// Whether the cut pays on a machine with these `crossing` costs: it saves at least
    /// [`MIN_GAIN_SHARE`] of the chain's time and more than a wake-up of the worker the tail
    /// goes to, and the chain spends at least [`MIN_NS_PER_BYTE`] per byte it writes.
    pub(crate) fn pays(&self, crossing: &Crossing) -> bool {
        self.gain > crossing.wake_ns
            && self.gain >= MIN_GAIN_SHARE * self.total
            && self.total >= MIN_NS_PER_BYTE * self.bytes
    }
}

/// Whether a cut is kept, the chain having moved `before` items per second through its first
/// block before the cut and `after` since: only a gain of [`KEEP_MARGIN`] keeps it.
pub(crate) fn keeps(before: f64, after: f64) -> bool {
    after >= before * (1.0 + KEEP_MARGIN)
}

/// Passes to wait before measuring a chain again whose cut was undone `undos` times (the
/// first undo waits [`RETRY_PASSES`], each further one twice as long); `None` when the chain
/// is not to be cut again in this run.
pub(crate) fn retry_passes(undos: u32) -> Option<u32> {
    (undos < MAX_UNDOS).then(|| RETRY_PASSES << undos.saturating_sub(1).min(8))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Intel Xeon guest's costs: 0.15 ns/B each side, a wake-up 10 us.
    const XEON: Crossing = Crossing::FALLBACK;

    /// The FM receiver's chain on flow (us per chunk): head, channel filter, demodulator,
    /// audio filter, de-emphasis, sink; and the bytes each writes per chunk.
    const FM_NS: [f64; 6] = [19e3, 57e3, 6.6e3, 10e3, 3.4e3, 0.0];
    const FM_BYTES: [f64; 6] = [262144.0, 26214.0, 13107.0, 2621.0, 2621.0, 0.0];

    fn free(ns: &[f64]) -> Vec<(f64, f64)> {
        ns.iter().map(|&t| (t, 0.0)).collect()
    }

    #[test]
    fn the_cut_balances_the_parts() {
        // The channel filter alone is most of the chain: the cut goes right after it.
        // Cutting before the channel filter would balance about as well, but 256 KiB would
        // cross per chunk instead of the filter's 26 KiB.
        let cut = best_cut(FM_NS.into_iter().zip(FM_BYTES), &XEON).unwrap();
        assert_eq!(cut.at, 2);
        let gain = 20e3 - 26214.0 * 0.15;
        assert!((cut.gain - gain).abs() < 1.0, "{cut:?}");
        assert!((cut.total - 96e3).abs() < 1.0, "{cut:?}");
        assert!((cut.head - (76e3 + 26214.0 * 0.15)).abs() < 1.0, "{cut:?}");
        assert!(cut.pays(&XEON));
        // Equal blocks: the middle.
        assert_eq!(best_cut(free(&[1.0; 6]).into_iter(), &XEON).unwrap().at, 3);
        let lopsided = [5.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        assert_eq!(best_cut(free(&lopsided).into_iter(), &XEON).unwrap().at, 1);
        let lopsided = [1.0, 1.0, 1.0, 1.0, 1.0, 5.0];
        assert_eq!(best_cut(free(&lopsided).into_iter(), &XEON).unwrap().at, 5);
    }

    #[test]
    fn each_part_pays_its_own_side_of_the_crossing() {
        // Two equal blocks, 1000 bytes at the cut: reading it costs 2 ns/B on the tail's
        // side, writing it 0.5 ns/B on the head's.
        let crossing = Crossing {
            read_ns_per_byte: 2.0,
            write_ns_per_byte: 0.5,
            wake_ns: 0.0,
        };
        let cut = best_cut([(10e3, 1000.0), (10e3, 0.0)].into_iter(), &crossing).unwrap();
        assert_eq!((cut.head, cut.tail), (10.5e3, 12e3));
        assert_eq!(cut.gain, 8e3);
        // Where the tail pays more, the cut moves to where less crosses.
        let blocks = [(10e3, 4000.0), (10e3, 100.0), (10e3, 0.0)];
        let cut = best_cut(blocks.into_iter(), &crossing).unwrap();
        assert_eq!(cut.at, 2, "{cut:?}");
    }

    #[test]
    fn the_machines_costs_decide_whether_the_fm_chain_is_cut() {
        // Where a byte crossing costs 1 ns/B on each side (a slow interconnect), the chunk
        // that crosses after the channel filter costs the head 26 us more: 102 us, longer
        // than the whole chain; the best place saves under a microsecond.
        let slow = Crossing {
            read_ns_per_byte: 1.0,
            write_ns_per_byte: 1.0,
            wake_ns: 10e3,
        };
        let cut = best_cut(FM_NS.into_iter().zip(FM_BYTES), &slow).unwrap();
        assert!(cut.gain < MIN_GAIN_SHARE * cut.total, "{cut:?}");
        assert!(!cut.pays(&slow));
        // Where waking a sleeping worker costs more than the cut saves, no cut either.
        let cut = best_cut(FM_NS.into_iter().zip(FM_BYTES), &XEON).unwrap();
        let sleepy = Crossing {
            wake_ns: cut.gain + 1.0,
            ..XEON
        };
        assert!(!cut.pays(&sleepy));
        // A machine whose cores share lines for free: the same chain is cut, and gains more.
        let free_crossing = Crossing {
            read_ns_per_byte: 0.0,
            write_ns_per_byte: 0.0,
            wake_ns: 2e3,
        };
        let cheap = best_cut(FM_NS.into_iter().zip(FM_BYTES), &free_crossing).unwrap();
        assert!(cheap.pays(&free_crossing));
        assert!(cheap.gain > cut.gain);
    }

    #[test]
    fn small_or_lopsided_gains_do_not_pay() {
        assert_eq!(best_cut([(1.0, 0.0)].into_iter(), &XEON), None);
        assert_eq!(best_cut(std::iter::empty(), &XEON), None);
        // Cheap blocks: a few microseconds per chunk in all.
        assert!(!best_cut([(2e3, 0.0); 4].into_iter(), &XEON)
            .unwrap()
            .pays(&XEON));
        // One block takes nearly everything: cutting saves a few percent.
        let cut = best_cut([(500e3, 0.0), (20e3, 0.0)].into_iter(), &XEON).unwrap();
        assert_eq!(cut.at, 1);
        assert!(!cut.pays(&XEON));
        // A chain of ten copies of 256 KiB chunks (as `buf` 1x10 measured them): the halves
        // would balance, but crossing the chunk costs more than half the chain.
        let copy = (256.0 * 1024.0 * 0.025, 256.0 * 1024.0);
        let cut = best_cut([copy; 10].into_iter(), &XEON).unwrap();
        assert_eq!(cut.at, 5);
        assert!(!cut.pays(&XEON), "{cut:?}");
        // Bounded by memory: however much the cut would save, a chain that spends less than
        // MIN_NS_PER_BYTE per byte it writes stays whole.
        let memory_bound = Cut {
            at: 5,
            gain: 30e3,
            total: 65e3,
            bytes: 65e3 / MIN_NS_PER_BYTE * 1.01,
            head: 35e3,
            tail: 35e3,
        };
        assert!(!memory_bound.pays(&XEON));
        let compute_bound = Cut {
            bytes: 65e3 / MIN_NS_PER_BYTE * 0.99,
            ..memory_bound
        };
        assert!(compute_bound.pays(&XEON));
    }

    #[test]
    fn a_cut_is_kept_only_if_the_chain_ran_faster_after_it() {
        // Items per second through the chain's first block, before and after.
        assert!(keeps(300e6, 420e6));
        assert!(keeps(300e6, 300e6 * (1.0 + KEEP_MARGIN)));
        // Within the margin: noise, or a gain not worth a core.
        assert!(!keeps(300e6, 310e6));
        assert!(!keeps(300e6, 300e6));
        // Slower: the FM chain cut on a host where crossing costs more than it saves.
        assert!(!keeps(320e6, 290e6));
        // Nothing moved after the cut (a source that stalled): undone.
        assert!(!keeps(300e6, 0.0));
    }

    #[test]
    fn undone_cuts_wait_longer_each_time_then_stop() {
        assert_eq!(retry_passes(1), Some(RETRY_PASSES));
        assert_eq!(retry_passes(2), Some(2 * RETRY_PASSES));
        assert_eq!(retry_passes(MAX_UNDOS), None);
        assert_eq!(retry_passes(MAX_UNDOS + 10), None);
    }
}
