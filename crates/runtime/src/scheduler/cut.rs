//! Cutting a `flow` chain in two while it runs, when one worker has a single chain left and
//! another has nothing to do: where to cut, and whether it pays.
//!
//! The placement keeps a chain on one worker: right for chains of cheap blocks, whose chunks
//! then go down the chain in L1 (a memory-bound copy chain cut in two at start ran up to 20
//! times slower per item, its workers handing chunks to each other and sleeping). A chain of
//! costly blocks (filters) on one worker leaves the other cores idle, though: the FM receiver's
//! chain ran no faster on `flow` than on one thread. The costs are not known before the run,
//! so the worker measures them: while another worker is hungry and this one has a single chain
//! of two or more unfinished blocks, it reads the clock around its steps for
//! [`MEASURE_PASSES`] passes ([`BlockTask::cost`](crate::task::BlockTask)), then cuts where the
//! two parts' times per chunk (each charged the crossing of the chunk at the cut) are closest,
//! if that pays ([`Cut::pays`]): the chain's time per chunk shortens by at least
//! [`MIN_GAIN_SHARE`] of it and [`MIN_GAIN_NS`] (a chunk that crosses cores costs a wake-up
//! and cache misses, which a small gain would not repay), and the chain is bounded by its
//! blocks' work, not by memory ([`MIN_NS_PER_BYTE`]). Blocks whose steps moved nothing while
//! measured count as free.
//!
//! Before the tail moves, the chain's buffers stop borrowing the chain's regions (a region is
//! used by one thread at a time, `buffer/region.rs`) and the worker waits until no region
//! holds items; then the tail becomes a chain of its own and goes to the hungry worker like a
//! whole chain would (`balance.rs`). A cut is for good: the two parts never join again.

/// What a byte written on one core costs to read on another: the `fm` chain's head block,
/// reading what the file source's thread wrote, took 40.9 us per 256 KiB chunk on `flow`
/// against 4.8 us on one thread (Intel Xeon guest, 2026-11-25): 0.14 ns/B, rounded up.
/// Charged to both parts of a cut (the writer's side pays for lines taken back).
pub(crate) const CROSSING_NS_PER_BYTE: f64 = 0.15;

/// Passes (of the worker over its chain) timed before a cut is decided.
pub(crate) const MEASURE_PASSES: u32 = 16;

/// Passes after a cut was found not to pay before the chain is measured again (its costs may
/// change: a source that was slow to start, a filter retuned).
pub(crate) const RETRY_PASSES: u32 = 4096;

/// Passes to wait for the chain's regions to empty before giving the cut up.
pub(crate) const DRAIN_PASSES: u32 = 1024;

/// A cut must save at least this share of the chain's time per chunk...
pub(crate) const MIN_GAIN_SHARE: f64 = 0.125;

/// ... and at least this many nanoseconds per chunk.
pub(crate) const MIN_GAIN_NS: f64 = 10_000.0;

/// A chain whose blocks spend less than this per byte they write is bounded by memory, not by
/// its blocks' work: its buffers keep their chunks in cache only while the chain runs on one
/// worker (through its regions), and a cut would make every buffer miss. `buf` 1x10 (ten
/// copies, ~0.025 ns/B) cut in two ran 1.47x longer; the `fm` chain spends ~0.3 ns/B.
pub(crate) const MIN_NS_PER_BYTE: f64 = 0.1;

/// Where to cut a chain whose blocks take `ns` nanoseconds and write `bytes` per chunk each
/// (`(ns, bytes)` in chain order; an iterator, so that deciding allocates nothing): a
/// [`Cut`] at the best place.
/// A cut's parts are charged what their chunk costs to cross ([`CROSSING_NS_PER_BYTE`] for
/// each byte the last block of the head writes), so between two cuts of about equal balance
/// the one where less data flows wins. `None` for fewer than two blocks.
pub(crate) fn best_cut(blocks: impl Iterator<Item = (f64, f64)> + Clone) -> Option<Cut> {
    let total: f64 = blocks.clone().map(|(ns, _)| ns).sum();
    let bytes: f64 = blocks.clone().map(|(_, b)| b).sum();
    let mut head = 0.0;
    let mut best: Option<(usize, f64)> = None;
    let mut blocks = blocks.peekable();
    let mut k = 0;
    while let Some((ns, bytes)) = blocks.next() {
        if blocks.peek().is_none() {
            break;
        }
        head += ns;
        k += 1;
        let crossing = bytes * CROSSING_NS_PER_BYTE;
        let gain = total - (head + crossing).max(total - head + crossing);
        if best.is_none_or(|(_, g)| gain > g) {
            best = Some((k, gain));
        }
    }
    best.map(|(at, gain)| Cut {
        at,
        gain,
        total,
        bytes,
    })
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
}

impl Cut {
    /// Whether the cut pays: it saves at least [`MIN_GAIN_SHARE`] of the chain's time and
    /// [`MIN_GAIN_NS`], and the chain spends at least [`MIN_NS_PER_BYTE`] per byte it writes.
    pub(crate) fn pays(&self) -> bool {
        self.gain >= MIN_GAIN_NS
            && self.gain >= MIN_GAIN_SHARE * self.total
            && self.total >= MIN_NS_PER_BYTE * self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_balances_the_parts() {
        // The FM receiver's chain on flow (us per chunk): head, channel filter, demodulator,
        // audio filter, de-emphasis, sink. The channel filter alone is most of it: the cut
        // goes right after it.
        // Cutting before the channel filter would balance about as well, but 256 KiB would
        // cross per chunk instead of the filter's 26 KiB.
        let ns = [19e3, 57e3, 6.6e3, 10e3, 3.4e3, 0.0];
        let bytes = [262144.0, 26214.0, 13107.0, 2621.0, 2621.0, 0.0];
        let cut = best_cut(ns.into_iter().zip(bytes)).unwrap();
        assert_eq!(cut.at, 2);
        let gain = 20e3 - 26214.0 * CROSSING_NS_PER_BYTE;
        assert!((cut.gain - gain).abs() < 1.0, "{cut:?}");
        assert!((cut.total - 96e3).abs() < 1.0, "{cut:?}");
        assert!(cut.pays());
        // Equal blocks: the middle.
        let free = |ns: &[f64]| ns.iter().map(|&t| (t, 0.0)).collect::<Vec<_>>();
        assert_eq!(best_cut(free(&[1.0; 6]).into_iter()).unwrap().at, 3);
        let lopsided = [5.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        assert_eq!(best_cut(free(&lopsided).into_iter()).unwrap().at, 1);
        let lopsided = [1.0, 1.0, 1.0, 1.0, 1.0, 5.0];
        assert_eq!(best_cut(free(&lopsided).into_iter()).unwrap().at, 5);
    }

    #[test]
    fn small_or_lopsided_gains_do_not_pay() {
        assert_eq!(best_cut([(1.0, 0.0)].into_iter()), None);
        assert_eq!(best_cut(std::iter::empty()), None);
        // Cheap blocks: a few microseconds per chunk in all.
        assert!(!best_cut([(2e3, 0.0); 4].into_iter()).unwrap().pays());
        // One block takes nearly everything: cutting saves a few percent.
        let cut = best_cut([(500e3, 0.0), (20e3, 0.0)].into_iter()).unwrap();
        assert_eq!(cut.at, 1);
        assert!(!cut.pays());
        // A chain of ten copies of 256 KiB chunks (as `buf` 1x10 measured them): the halves
        // would balance, but crossing the chunk costs more than half the chain.
        let copy = (256.0 * 1024.0 * 0.025, 256.0 * 1024.0);
        let cut = best_cut([copy; 10].into_iter()).unwrap();
        assert_eq!(cut.at, 5);
        assert!(!cut.pays(), "{cut:?}");
        // Bounded by memory: however much the cut would save, a chain that spends less than
        // MIN_NS_PER_BYTE per byte it writes stays whole.
        let memory_bound = Cut {
            at: 5,
            gain: 30e3,
            total: 65e3,
            bytes: 65e3 / MIN_NS_PER_BYTE * 1.01,
        };
        assert!(!memory_bound.pays());
        let compute_bound = Cut {
            bytes: 65e3 / MIN_NS_PER_BYTE * 0.99,
            ..memory_bound
        };
        assert!(compute_bound.pays());
    }
}
