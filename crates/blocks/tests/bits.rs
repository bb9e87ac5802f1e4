//! The bit blocks (unpack_k_bits, pack_k_bits, repack_bits) and stream_to_tagged_stream
//! against naive references, under every scheduler; GNU Radio's outputs for the same inputs
//! are compared in `gnuradio_bits.rs`.

use radioflow_blocks::{
    BitOrder, PackKBits, RepackBits, StreamToTaggedStream, UnpackKBits, VectorSink, VectorSource,
};
use radioflow_runtime::{
    Block, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use std::time::Duration;

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
        // Tiny chunks and buffers: many calls with partial windows.
        Box::new(FlowScheduler::new().chunk_bytes(64).buffer_bytes(4096)),
    ]
}

/// `input` through `block` on `s`: the output and its tags.
fn run(
    block: impl Block,
    input: Vec<u8>,
    tags: Vec<Tag>,
    s: &dyn Scheduler,
) -> (Vec<u8>, Vec<Tag>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input).tags(tags));
    let b = fg.add(block);
    let sink = fg.add(VectorSink::<u8>::new());
    fg.connect(src, b).unwrap();
    fg.connect(b, sink).unwrap();
    fg.start(s).unwrap();
    // A hang guard only: the graph ends by itself.
    fg.wait_timeout(Duration::from_secs(120)).unwrap();
    let out = fg.block::<VectorSink<u8>>(sink).unwrap();
    (out.data().to_vec(), out.tags().to_vec())
}

/// Deterministic bytes (an LCG: no dependency for test data).
pub fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 56) as u8
        })
        .collect()
}

/// The bits of `k`-bit bytes, one per element, in `order`.
fn bits_of(input: &[u8], k: usize, order: BitOrder) -> Vec<u8> {
    let mut bits = Vec::new();
    for b in input {
        for i in 0..k {
            let shift = match order {
                BitOrder::LsbFirst => i,
                BitOrder::MsbFirst => k - 1 - i,
            };
            bits.push((b >> shift) & 1);
        }
    }
    bits
}

/// Bits regrouped `l` to a byte in `order`; a short last group dropped.
fn bytes_of(bits: &[u8], l: usize, order: BitOrder) -> Vec<u8> {
    bits.chunks_exact(l)
        .map(|g| {
            g.iter().enumerate().fold(0u8, |acc, (i, b)| {
                let shift = match order {
                    BitOrder::LsbFirst => i,
                    BitOrder::MsbFirst => l - 1 - i,
                };
                acc | (b << shift)
            })
        })
        .collect()
}

#[test]
fn repack_bits_equals_regrouping_the_bits_for_every_k_l_and_order() {
    let s = FlowScheduler::new().chunk_bytes(64).buffer_bytes(4096);
    for order in [BitOrder::LsbFirst, BitOrder::MsbFirst] {
        for k in 1..=8 {
            for l in 1..=8 {
                let mask = ((1u16 << k) - 1) as u8;
                let input: Vec<u8> = bytes(k as u64 * 10 + l as u64, 999)
                    .iter()
                    .map(|b| b & mask)
                    .collect();
                let want = bytes_of(&bits_of(&input, k, order), l, order);
                let (got, _) = run(RepackBits::new(k, l, order).unwrap(), input, vec![], &s);
                assert_eq!(got, want, "k {k} l {l} {order:?}");
            }
        }
    }
}

#[test]
fn packets_are_repacked_one_by_one_padded_or_cut_under_every_scheduler() {
    // Packets of 0 to 12 bytes; each packet's bits regrouped on their own: padded with zero
    // bits to a whole byte out, or with align_output cut to whole bytes (then only packets
    // whose bits divide evenly, where GNU Radio's carried bit index plays no part: its quirk
    // is checked against GNU Radio itself in tests/gnuradio_bits.rs).
    for s in schedulers() {
        for (k, l) in [(8, 1), (1, 8), (8, 3), (3, 5), (6, 4)] {
            for (order, align) in [
                (BitOrder::LsbFirst, false),
                (BitOrder::MsbFirst, false),
                (BitOrder::MsbFirst, true),
            ] {
                let mask = ((1u16 << k) - 1) as u8;
                let lens: Vec<usize> = bytes(k as u64 + 7 * l as u64, 40)
                    .iter()
                    .map(|&b| b as usize % 13)
                    .map(|n| if align { n - n % l } else { n })
                    .collect();
                let input: Vec<u8> = bytes(k as u64, lens.iter().sum())
                    .iter()
                    .map(|b| b & mask)
                    .collect();
                let (mut tags, mut want, mut want_tags, mut at) = (vec![], vec![], vec![], 0);
                for &n in &lens {
                    tags.push(Tag::new(at as u64, Pmt::symbol("len"), Pmt::Int(n as i64)));
                    let mut bits = bits_of(&input[at..at + n], k, order);
                    bits.resize(bits.len().next_multiple_of(l), 0);
                    let out = bytes_of(&bits, l, order);
                    if !out.is_empty() {
                        want_tags.push((want.len() as u64, out.len() as i64));
                    }
                    want.extend(out);
                    at += n;
                }
                // An empty packet at the end has no item to carry its tag.
                tags.retain(|t| t.offset < at as u64);
                let block = RepackBits::new(k, l, order).unwrap().packets("len", align);
                let (got, got_tags) = run(block, input, tags, s.as_ref());
                let what = format!("k {k} l {l} {order:?} align {align} on {}", s.name());
                assert_eq!(got, want, "{what}");
                let got_tags: Vec<(u64, i64)> = got_tags
                    .iter()
                    .map(|t| (t.offset, t.value.as_i64().unwrap()))
                    .collect();
                assert_eq!(got_tags, want_tags, "{what}: length tags");
            }
        }
    }
    // An item that no length tag puts in a packet: the error names the item.
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![1u8, 2, 3]));
    let b = fg.add(
        RepackBits::new(8, 1, BitOrder::LsbFirst)
            .unwrap()
            .packets("len", false),
    );
    let sink = fg.add(VectorSink::<u8>::new());
    fg.connect(src, b).unwrap();
    fg.connect(b, sink).unwrap();
    let e = format!("{:#}", fg.run().unwrap_err());
    assert!(e.contains("repack_bits in: item 0 is in no packet"), "{e}");
}

#[test]
fn bit_blocks_are_the_same_under_every_scheduler() {
    let input = bytes(1, 5000);
    for s in schedulers() {
        for k in [1, 3, 8] {
            let mask = ((1u16 << k) - 1) as u8;
            let packed: Vec<u8> = input.iter().map(|b| b & mask).collect();
            let (bits, tags) = run(
                UnpackKBits::new(k).unwrap(),
                packed.clone(),
                vec![Tag::new(7, "seven", Pmt::Int(7))],
                s.as_ref(),
            );
            assert_eq!(bits, bits_of(&packed, k, BitOrder::MsbFirst), "unpack {k}");
            assert_eq!(
                tags,
                [Tag::new(7 * k as u64, "seven", Pmt::Int(7))],
                "unpack {k}"
            );
            let (back, _) = run(PackKBits::new(k).unwrap(), bits, vec![], s.as_ref());
            assert_eq!(back, packed, "pack {k}");
        }
        let (got, _) = run(
            RepackBits::new(8, 3, BitOrder::MsbFirst).unwrap(),
            input.clone(),
            vec![],
            s.as_ref(),
        );
        assert_eq!(
            got,
            bytes_of(
                &bits_of(&input, 8, BitOrder::MsbFirst),
                3,
                BitOrder::MsbFirst
            )
        );
    }
}

#[test]
fn stream_to_tagged_stream_tags_each_packet_start_under_every_scheduler() {
    let input = bytes(2, 10_000);
    for s in schedulers() {
        let (out, tags) = run(
            StreamToTaggedStream::<u8>::new(96, "len"),
            input.clone(),
            vec![Tag::new(5, "other", Pmt::Int(1))],
            s.as_ref(),
        );
        assert_eq!(out, input);
        let mut want: Vec<Tag> = (0..input.len() as u64)
            .step_by(96)
            .map(|o| Tag::new(o, "len", Pmt::Int(96)))
            .collect();
        want.insert(1, Tag::new(5, "other", Pmt::Int(1)));
        assert_eq!(tags, want);
    }
}

#[test]
fn widths_beyond_a_byte_are_refused_naming_the_parameter() {
    assert!(UnpackKBits::new(9).is_err());
    assert!(PackKBits::new(0).is_err());
    assert_eq!(
        RepackBits::new(8, 9, BitOrder::LsbFirst).unwrap_err().0,
        "l"
    );
}

/// GNU Radio's byte streams are untyped: a `u8` stream (GRC's `byte`) feeds a block reading
/// signed bytes, which reads them as two's complement, under every scheduler.
#[test]
fn unsigned_bytes_feed_a_block_reading_signed_ones() {
    use radioflow_blocks::CharToFloat;
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(vec![0u8, 1, 127, 128, 255]));
        let op = fg.add(CharToFloat::new(1.0));
        let sink = fg.add(VectorSink::<f32>::new());
        fg.connect(src, op).unwrap();
        fg.connect(op, sink).unwrap();
        fg.start(s.as_ref()).unwrap();
        fg.wait_timeout(Duration::from_secs(120)).unwrap();
        let got = fg.block::<VectorSink<f32>>(sink).unwrap().data().to_vec();
        assert_eq!(got, [0.0, 1.0, 127.0, -128.0, -1.0]);
    }
    // Other types of one size still do not connect.
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![0i16]));
    let sink = fg.add(VectorSink::<u16>::new());
    assert!(fg.connect(src, sink).is_err());
}

/// packed_to_unpacked and unpacked_to_packed on bytes against the bits regrouped by hand, a
/// chunk split over two bytes and bits left over at the end included, with a tag moved by the
/// rate, under every scheduler.
#[test]
fn packed_and_unpacked_bytes_equal_the_bits_regrouped_under_every_scheduler() {
    use radioflow_blocks::{PackedToUnpacked, UnpackedToPacked};
    let input = bytes(4, 3001);
    for s in schedulers() {
        for c in [1, 3, 7, 8] {
            for order in [BitOrder::MsbFirst, BitOrder::LsbFirst] {
                let (chunks, tags) = run(
                    PackedToUnpacked::<u8>::new(c, order).unwrap(),
                    input.clone(),
                    vec![Tag::new(100, "t", Pmt::Int(1))],
                    s.as_ref(),
                );
                // GNU Radio's: bits read in `order`, each chunk's first bit its highest.
                let want = bytes_of(&bits_of(&input, 8, order), c, BitOrder::MsbFirst);
                assert_eq!(chunks, want, "packed_to_unpacked {c} {order:?}");
                let at = (2 * 100 * 8 + c as u64) / (2 * c as u64);
                assert_eq!(tags, [Tag::new(at, "t", Pmt::Int(1))], "{c} {order:?}");
                // Every bit of each byte set: only the low c are read, highest first.
                let (packed, _) = run(
                    UnpackedToPacked::<u8>::new(c, order).unwrap(),
                    input.clone(),
                    vec![],
                    s.as_ref(),
                );
                let want = bytes_of(&bits_of(&input, c, BitOrder::MsbFirst), 8, order);
                assert_eq!(packed, want, "unpacked_to_packed {c} {order:?}");
            }
        }
    }
}

/// Shorts and ints cut into chunks and packed back are the items they were (those whose bits
/// all made whole chunks), under every scheduler.
#[test]
fn shorts_and_ints_round_trip_through_chunks_under_every_scheduler() {
    use radioflow_blocks::{BitWord, PackedToUnpacked, UnpackedToPacked};
    fn round_trip<T: BitWord + PartialEq + std::fmt::Debug>(
        input: &[T],
        c: usize,
        order: BitOrder,
        s: &dyn Scheduler,
    ) {
        let mut fg = Flowgraph::new();
        let src = fg.add(VectorSource::new(input.to_vec()));
        let cut = fg.add(PackedToUnpacked::<T>::new(c, order).unwrap());
        let pack = fg.add(UnpackedToPacked::<T>::new(c, order).unwrap());
        let sink = fg.add(VectorSink::<T>::new());
        fg.connect(src, cut).unwrap();
        fg.connect(cut, pack).unwrap();
        fg.connect(pack, sink).unwrap();
        fg.start(s).unwrap();
        fg.wait_timeout(Duration::from_secs(120)).unwrap();
        let chunks = input.len() * T::BITS as usize / c;
        let whole = chunks * c / T::BITS as usize;
        let out = fg.block::<VectorSink<T>>(sink).unwrap().data().to_vec();
        assert_eq!(out, input[..whole], "{c} bits, {order:?}");
    }
    let raw = bytes(5, 4000);
    let shorts: Vec<i16> = raw
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    let ints: Vec<i32> = raw
        .chunks_exact(4)
        .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    for s in schedulers() {
        for order in [BitOrder::MsbFirst, BitOrder::LsbFirst] {
            for c in [1, 5, 16] {
                round_trip(&shorts, c, order, s.as_ref());
            }
            for c in [3, 13, 32] {
                round_trip(&ints, c, order, s.as_ref());
            }
        }
    }
}

#[test]
fn chunks_wider_than_the_item_are_refused() {
    use radioflow_blocks::{PackedToUnpacked, UnpackedToPacked};
    let e = PackedToUnpacked::<u8>::new(9, BitOrder::MsbFirst).unwrap_err();
    assert!(e.contains("9 bits") && e.contains("8 bits"), "{e}");
    assert!(PackedToUnpacked::<i16>::new(16, BitOrder::MsbFirst).is_ok());
    assert!(UnpackedToPacked::<i16>::new(17, BitOrder::LsbFirst).is_err());
    assert!(UnpackedToPacked::<i32>::new(0, BitOrder::LsbFirst).is_err());
    assert!(UnpackedToPacked::<i32>::new(32, BitOrder::LsbFirst).is_ok());
}
