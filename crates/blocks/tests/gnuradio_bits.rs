//! The bit blocks and stream_to_tagged_stream against GNU Radio 3.10's own
//! (`repack_bits_bb`, `unpack_k_bits_bb`, `pack_k_bits_bb`, `packed_to_unpacked_bb/ss/ii`,
//! `unpacked_to_packed_bb/ss/ii`, `stream_to_tagged_stream`) on the
//! same input, run by `gnuradio/run_blocks.py` in one GNU Radio process: outputs and tags
//! equal. SKIPPED where GNU Radio is not installed.

use radioflow_blocks::{
    BitOrder, BitWord, PackKBits, PackedToUnpacked, RepackBits, StreamToTaggedStream, UnpackKBits,
    UnpackedToPacked, VectorSink, VectorSource,
};
use radioflow_runtime::{Block, Flowgraph, Item, Pmt, Tag};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.blocks"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Deterministic bytes (an LCG).
fn bytes(seed: u64, n: usize) -> Vec<u8> {
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

/// radioflow's output and tags (offset, key, value) for `input` through `block`.
fn ours(block: impl Block, input: &[u8]) -> (Vec<u8>, Vec<(u64, String, Pmt)>) {
    ours_tagged(block, input, &[])
}

/// As [`ours`], the input with tags (offset, key, integer value).
fn ours_tagged(
    block: impl Block,
    input: &[u8],
    tags: &[(u64, String, i64)],
) -> (Vec<u8>, Vec<(u64, String, Pmt)>) {
    ours_items(block, input, tags)
}

/// As [`ours_tagged`] on items of any type, the output as its items' bytes.
fn ours_items<T: Item>(
    block: impl Block,
    input: &[T],
    tags: &[(u64, String, i64)],
) -> (Vec<u8>, Vec<(u64, String, Pmt)>) {
    let mut fg = Flowgraph::new();
    let tags = tags
        .iter()
        .map(|(o, k, v)| Tag::new(*o, Pmt::symbol(k.as_str()), Pmt::Int(*v)))
        .collect();
    let src = fg.add(VectorSource::new(input.to_vec()).tags(tags));
    let b = fg.add(block);
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect(src, b).unwrap();
    fg.connect(b, sink).unwrap();
    fg.run().unwrap();
    let out = fg.block::<VectorSink<T>>(sink).unwrap();
    let tags = out
        .tags()
        .iter()
        .map(|t| (t.offset, t.key.to_string(), t.value.clone()))
        .collect();
    (bytemuck::cast_slice(out.data()).to_vec(), tags)
}

/// The input's bytes as little-endian items of `T`, each ANDed with `mask`, through `block`
/// (its input tagged as `tags` says).
fn ours_words<T: BitWord>(
    block: impl Block,
    raw: &[u8],
    mask: u32,
    tags: &[(u64, String, i64)],
) -> (Vec<u8>, Vec<(u64, String, Pmt)>) {
    let items: Vec<T> = raw
        .chunks_exact(T::BITS as usize / 8)
        .map(|c| {
            let v = c
                .iter()
                .enumerate()
                .fold(0u32, |v, (i, &b)| v | u32::from(b) << (8 * i));
            T::from_bits(v & mask)
        })
        .collect();
    ours_items(block, &items, tags)
}

/// The cases of `packed_to_unpacked_XX` and `unpacked_to_packed_XX` for items `T` (GNU
/// Radio's `fcn` and vector source kind), every chunk size in `chunks`, both orders, the
/// input tagged: (name, GNU Radio's constructor, kind, mask, input tags, radioflow's run).
fn word_cases<T: BitWord>(fcn: &str, kind: &str, chunks: &[usize], n: usize) -> Vec<WordCase> {
    let tags: Vec<(u64, String, i64)> = (3..n as u64)
        .step_by(7)
        .map(|o| (o, "x".to_owned(), o as i64))
        .collect();
    let mut cases = Vec::new();
    for &c in chunks {
        for (order, gr) in [
            (BitOrder::LsbFirst, "GR_LSB_FIRST"),
            (BitOrder::MsbFirst, "GR_MSB_FIRST"),
        ] {
            let t = tags.clone();
            cases.push(WordCase {
                name: format!("p2u_{fcn}_{c}_{gr}"),
                make: format!("blocks.packed_to_unpacked_{fcn}({c}, gr.{gr})"),
                kind: kind.to_owned(),
                tags: tags.clone(),
                run: Box::new(move |raw| {
                    ours_words::<T>(PackedToUnpacked::<T>::new(c, order).unwrap(), raw, !0, &t)
                }),
            });
            let t = tags.clone();
            // All bits set: the block reads only each item's low `c` bits.
            cases.push(WordCase {
                name: format!("u2p_{fcn}_{c}_{gr}"),
                make: format!("blocks.unpacked_to_packed_{fcn}({c}, gr.{gr})"),
                kind: kind.to_owned(),
                tags: tags.clone(),
                run: Box::new(move |raw| {
                    ours_words::<T>(UnpackedToPacked::<T>::new(c, order).unwrap(), raw, !0, &t)
                }),
            });
        }
    }
    cases
}

type Run = Box<dyn Fn(&[u8]) -> (Vec<u8>, Vec<(u64, String, Pmt)>)>;

/// A case on items of any bit width.
struct WordCase {
    name: String,
    make: String,
    kind: String,
    tags: Vec<(u64, String, i64)>,
    run: Run,
}

/// GNU Radio's tags of case `name`, as written by the script.
fn gr_tags(dir: &std::path::Path, name: &str) -> Vec<(u64, String, Pmt)> {
    let want_tags: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("{name}.tags.json"))).unwrap(),
    )
    .unwrap();
    want_tags
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t[0].as_u64().unwrap(),
                t[1].as_str().unwrap().to_owned(),
                Pmt::Int(t[2].as_i64().unwrap()),
            )
        })
        .collect()
}

#[test]
fn bit_blocks_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.blocks)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = bytes(3, 4001);
    std::fs::write(dir.path().join("input.bin"), &input).unwrap();
    // (name, GNU Radio's constructor, input mask, radioflow's block)
    type Make = Box<dyn Fn() -> Box<dyn FnOnce(&[u8]) -> (Vec<u8>, Vec<(u64, String, Pmt)>)>>;
    let mut cases: Vec<(String, String, u8, Make)> = Vec::new();
    for (k, l) in [(8, 1), (1, 8), (8, 2), (2, 8), (3, 5), (8, 3), (7, 4)] {
        for (order, gr) in [
            (BitOrder::LsbFirst, "GR_LSB_FIRST"),
            (BitOrder::MsbFirst, "GR_MSB_FIRST"),
        ] {
            cases.push((
                format!("repack_{k}_{l}_{gr}"),
                format!("blocks.repack_bits_bb({k}, {l}, '', False, gr.{gr})"),
                ((1u16 << k) - 1) as u8,
                Box::new(move || {
                    Box::new(move |x: &[u8]| ours(RepackBits::new(k, l, order).unwrap(), x))
                }),
            ));
        }
    }
    for k in [1, 3, 8] {
        cases.push((
            format!("unpack_{k}"),
            format!("blocks.unpack_k_bits_bb({k})"),
            ((1u16 << k) - 1) as u8,
            Box::new(move || Box::new(move |x: &[u8]| ours(UnpackKBits::new(k).unwrap(), x))),
        ));
        // Pack reads one bit per byte; GNU Radio's masks each with 1 as radioflow's does.
        cases.push((
            format!("pack_{k}"),
            format!("blocks.pack_k_bits_bb({k})"),
            0xff,
            Box::new(move || Box::new(move |x: &[u8]| ours(PackKBits::new(k).unwrap(), x))),
        ));
    }
    // Packet mode: packets of pseudo-random lengths (0 to 40 bytes) marked by "len" tags,
    // every (k, l), order and alignment; the last packet's bits a multiple of l (GNU Radio's
    // scheduler never runs a last packet whose bytes out it cannot compute from the bytes in,
    // and the run ends with it unread). Where every packet's bits are a multiple of l (8 -> 2,
    // 2 -> 8 on packets of multiples of 4), the input also has "x" tags, which GNU Radio
    // places at their offset times k/l.
    // (name, the input's tags, bytes of the input used)
    type PacketJob = (String, Vec<(u64, String, i64)>, usize);
    let mut packet_jobs: Vec<PacketJob> = Vec::new();
    for (k, l, tagged) in [
        (8, 1, false),
        (1, 8, false),
        (8, 3, false),
        (3, 2, false),
        (2, 8, false),
        (7, 4, false),
        (8, 2, true),
        (2, 8, true),
    ] {
        for (order, gr) in [
            (BitOrder::LsbFirst, "GR_LSB_FIRST"),
            (BitOrder::MsbFirst, "GR_MSB_FIRST"),
        ] {
            for align in [false, true] {
                let name = format!("packets_{k}_{l}_{gr}_{align}_{tagged}");
                let lens: Vec<usize> = bytes(k as u64 * 10 + l as u64, 60)
                    .iter()
                    .map(|&b| {
                        if tagged {
                            4 * (b as usize % 10)
                        } else {
                            b as usize % 41
                        }
                    })
                    .chain([8 * l])
                    .collect();
                let mut tags = Vec::new();
                let mut at = 0u64;
                for &n in &lens {
                    tags.push((at, "len".to_owned(), n as i64));
                    at += n as u64;
                }
                let total = at as usize;
                if tagged {
                    tags.extend((3..at).step_by(7).map(|o| (o, "x".to_owned(), o as i64)));
                }
                let py = if align { "True" } else { "False" };
                packet_jobs.push((name.clone(), tags.clone(), total));
                cases.push((
                    name,
                    format!("blocks.repack_bits_bb({k}, {l}, 'len', {py}, gr.{gr})"),
                    ((1u16 << k) - 1) as u8,
                    Box::new(move || {
                        let tags = tags.clone();
                        Box::new(move |x: &[u8]| {
                            let block = RepackBits::new(k, l, order).unwrap().packets("len", align);
                            ours_tagged(block, &x[..total], &tags)
                        })
                    }),
                ));
            }
        }
    }
    cases.push((
        "tagged".into(),
        "blocks.stream_to_tagged_stream(gr.sizeof_char, 1, 96, 'len')".into(),
        0xff,
        Box::new(|| Box::new(|x: &[u8]| ours(StreamToTaggedStream::<u8>::new(96, "len"), x))),
    ));
    let mut words = word_cases::<u8>("bb", "b", &[1, 2, 3, 5, 7, 8], input.len());
    words.extend(word_cases::<i16>(
        "ss",
        "s",
        &[1, 3, 8, 11, 16],
        input.len() / 2,
    ));
    words.extend(word_cases::<i32>(
        "ii",
        "i",
        &[1, 5, 13, 32],
        input.len() / 4,
    ));
    let mut job_cases: Vec<Value> = cases
        .iter()
        .map(|(name, make, mask, _)| {
            let mut case = json!({"name": name, "make": make, "mask": mask});
            if let Some((_, tags, total)) = packet_jobs.iter().find(|(n, _, _)| n == name) {
                case["tags"] = json!(tags);
                case["n"] = json!(total);
            }
            case
        })
        .collect();
    job_cases.extend(words.iter().map(|w| {
        json!({"name": w.name, "make": w.make, "kind": w.kind, "mask": u32::MAX, "tags": w.tags})
    }));
    let job = json!({
        "input": dir.path().join("input.bin"),
        "out": dir.path(),
        "cases": job_cases,
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/run_blocks.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.to_string().as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success(), "GNU Radio's script failed");
    for (name, make, mask, block) in &cases {
        let masked: Vec<u8> = input.iter().map(|b| b & mask).collect();
        let (got, tags) = block()(&masked);
        let want = std::fs::read(dir.path().join(format!("{name}.bin"))).unwrap();
        assert_eq!(got.len(), want.len(), "{make}: output lengths");
        assert!(got == want, "{make}: outputs differ");
        assert_eq!(tags, gr_tags(dir.path(), name), "{make}: tags");
    }
    for w in &words {
        let (got, tags) = (w.run)(&input);
        let want = std::fs::read(dir.path().join(format!("{}.bin", w.name))).unwrap();
        assert_eq!(got.len(), want.len(), "{}: output lengths", w.make);
        assert!(got == want, "{}: outputs differ", w.make);
        // GNU Radio's scheduler now and then loses a tag whose moved offset falls behind
        // what its previous work call wrote (seen once in 3,500 items through
        // unpacked_to_packed_bb(7)): every tag of GNU Radio's is ours, at the same item, and
        // ours has at most two more.
        let want_tags = gr_tags(dir.path(), &w.name);
        let missing: Vec<_> = want_tags.iter().filter(|t| !tags.contains(t)).collect();
        assert!(missing.is_empty(), "{}: tags {missing:?} not ours", w.make);
        assert!(
            tags.len() <= want_tags.len() + 2,
            "{}: {} tags, GNU Radio's {}",
            w.make,
            tags.len(),
            want_tags.len()
        );
    }
    println!("{} GNU Radio cases equal", cases.len() + words.len());
}
