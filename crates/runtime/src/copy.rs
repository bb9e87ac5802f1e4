//! The work of blocks that pass items on unchanged (head, copy, throttle): a copy that, when
//! the output is read on another core, writes with non-temporal stores.
//!
//! Overwriting a cache line that another core has read makes the writing core wait for that
//! core to give the line up, line by line: on the dev machine (docs/notes/benchmarks-history.md, "What moved
//! `buf`", item 4) a 64 KiB copy into a ring another core reads took 13-15 us instead of
//! 2.2 us. Non-temporal stores skip the ownership request: 4 us, and the other core reads the
//! lines no slower than it fetched them from the writer's cache. The writer's own readers lose
//! what they would have found in its cache, so this is only for outputs read elsewhere, which
//! the scheduler knows ([`StreamOutput::read_elsewhere`]). `std`'s copy has no such mode and no
//! crate offers one for a copy of this size, so it is written here (SSE2, on every x86_64).

use crate::item::Item;
use crate::port::{one_to_one_work, StreamInput, StreamOutput};

/// Copies below this many bytes are plain: the fence and the partial lines at both ends would
/// cost more than the stores save.
const STREAMING_MIN_BYTES: usize = 4096;

/// Copies up to `limit` items from `input` to `output` (with their tags), as [`one_to_one_work`] with
/// a copy, and returns how many. When the output is read on another core and the copy is large,
/// the items are written with non-temporal stores, ordered before they are published.
#[inline]
pub fn copy_work<T: Item>(
    input: &mut StreamInput<T>,
    output: &mut StreamOutput<T>,
    limit: usize,
) -> usize {
    let streaming = output.read_elsewhere();
    one_to_one_work(input, output, limit, |i, o| {
        let (from, to): (&[u8], &mut [u8]) = (bytemuck::cast_slice(i), bytemuck::cast_slice_mut(o));
        if streaming && from.len() >= STREAMING_MIN_BYTES {
            copy_streaming(to, from);
        } else {
            to.copy_from_slice(from);
        }
    })
}

/// Copies `from` into `to` (same length) with non-temporal stores where the target has them,
/// then fences them, so that a later release store publishes them to other cores.
///
/// # Panics
/// If the lengths differ.
pub(crate) fn copy_streaming(to: &mut [u8], from: &[u8]) {
    assert_eq!(
        to.len(),
        from.len(),
        "copy between slices of different lengths"
    );
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_sfence, _mm_stream_si128};
        // Plain stores up to the first 16-byte boundary of the target, streaming stores for its
        // whole 16-byte blocks, plain stores for the rest.
        let head = to.as_ptr().align_offset(16).min(to.len());
        to[..head].copy_from_slice(&from[..head]);
        let blocks = (to.len() - head) / 16;
        let body = head..head + blocks * 16;
        let (src, dst) = (from[body.clone()].as_ptr(), to[body.clone()].as_mut_ptr());
        for k in 0..blocks {
            // SAFETY: block k lies inside `from[body]` and `to[body]` (16 bytes at 16k); SSE2
            // is part of x86_64; `dst` is 16-byte aligned (it starts at `head`), as the
            // streaming store needs; the unaligned load needs no alignment.
            unsafe {
                let v = _mm_loadu_si128(src.add(16 * k).cast::<__m128i>());
                _mm_stream_si128(dst.add(16 * k).cast::<__m128i>(), v);
            }
        }
        to[body.end..].copy_from_slice(&from[body.end..]);
        // Non-temporal stores are not ordered with later stores: fence them before the
        // writer's release store publishes the items.
        // SAFETY: SSE is part of x86_64; a fence has no memory operands.
        unsafe { _mm_sfence() };
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    to.copy_from_slice(from);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streaming_copy_matches_a_plain_one_at_every_alignment_and_length() {
        let source: Vec<u8> = (0..20_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
        let mut target = vec![0u8; 20_100];
        for len in [
            0, 1, 15, 16, 17, 63, 64, 65, 4095, 4096, 4097, 8191, 12_345, 19_000,
        ] {
            for from_at in [0, 1, 8, 15] {
                for to_at in [0, 1, 3, 16, 33] {
                    target.fill(0xAA);
                    copy_streaming(
                        &mut target[to_at..to_at + len],
                        &source[from_at..from_at + len],
                    );
                    // The naive reference: byte by byte.
                    for k in 0..len {
                        assert_eq!(
                            target[to_at + k],
                            source[from_at + k],
                            "len {len} from +{from_at} to +{to_at}: byte {k}"
                        );
                    }
                    // Nothing written outside the target.
                    assert!(target[..to_at].iter().all(|&b| b == 0xAA));
                    assert!(target[to_at + len..].iter().all(|&b| b == 0xAA));
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "different lengths")]
    fn slices_of_different_lengths_are_refused() {
        copy_streaming(&mut [0u8; 4], &[0u8; 5]);
    }
}
