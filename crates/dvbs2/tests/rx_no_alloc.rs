//! The decoding path allocates nothing per frame once built: `FrameDecoder::decode`,
//! `Depacketizer::push` and `InterFrameLdpcDecoder::decode`, counted by a global allocator
//! for this test binary only (per thread: the tests run in parallel).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use num_complex::Complex32;
use radioflow_dvbs2::rx::{Depacketizer, FrameDecoder, IdealSync, InterFrameLdpcDecoder, LdpcCode};
use radioflow_dvbs2::{CodeRate, FrameSize, Modcod, Transmitter, TxConfig};

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_allocation() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter has no
// effect on the memory returned.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_allocation();
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn decoding_frames_does_not_allocate() {
    let plan = [
        ("qpsk-8/9", FrameSize::Short),
        ("8psk-3/5", FrameSize::Normal),
        ("32apsk-9/10", FrameSize::Normal),
    ];
    let mut dec = FrameDecoder::new();
    let mut depack = Depacketizer::new();
    let sync = IdealSync::new(0);
    let ts: Vec<u8> = (0..30_000)
        .map(|i| if i % 188 == 0 { 0x47 } else { i as u8 & 0x7F })
        .collect();
    let mut frames = Vec::new();
    let mut pos = 0;
    for (name, frame) in plan {
        let m: Modcod = name.parse().unwrap();
        let mut tx = Transmitter::new(TxConfig::new(m, frame, false)).unwrap();
        // Every transmitter starts a new packet stream: give each its own packets.
        let mut pl = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        pos += tx
            .encode_frame(&ts[pos - pos % 188..], &mut pl)
            .unwrap()
            .consumed;
        let mut sym = vec![Complex32::new(0.0, 0.0); pl.len()];
        let n = sync.data_symbols(&pl, false, &mut sym);
        sym.truncate(n);
        frames.push((m, frame, sym));
    }
    let mut packets = 0;
    COUNTING.with(|c| c.set(true));
    for (m, frame, sym) in &frames {
        let status = dec.decode(sym, *m, *frame, 0.01).unwrap();
        let ok = status.ok();
        let header = status.header.ok();
        depack.push(header.as_ref(), dec.bbframe(), ok, &mut |_: &[u8]| {
            packets += 1
        });
        assert!(ok);
    }
    COUNTING.with(|c| c.set(false));
    assert_eq!(ALLOCATIONS.with(Cell::get), 0);
    assert!(packets > 20, "{packets} packets");
}

#[test]
fn decoding_an_inter_frame_batch_does_not_allocate() {
    let mut dec = InterFrameLdpcDecoder::new();
    let codes = [
        LdpcCode::new(FrameSize::Short, CodeRate::R8_9).unwrap(),
        LdpcCode::new(FrameSize::Normal, CodeRate::R3_5).unwrap(),
    ];
    // The all-zero codeword with every 500th decision wrong, differently in each frame.
    let frames: Vec<Vec<i8>> = (0..InterFrameLdpcDecoder::LANES)
        .map(|f| {
            (0..64_800)
                .map(|i| if (i + 7 * f) % 500 == 0 { -20 } else { 20 })
                .collect()
        })
        .collect();
    let batch: Vec<&[i8]> = frames.iter().map(|f| &f[..]).collect();
    let mut bits = vec![0u8; 64_800];
    let mut packed = vec![0u8; 64_800 / 8];
    COUNTING.with(|c| c.set(true));
    for code in &codes {
        for frames in [&batch[..], &batch[..3]] {
            let converged = dec.decode(code, frames, 30).iter().all(|s| s.converged);
            assert!(converged);
            for f in 0..frames.len() {
                dec.hard_bits(code, f, &mut bits);
                dec.pack_info(code, f, &mut packed);
            }
        }
    }
    COUNTING.with(|c| c.set(false));
    assert_eq!(ALLOCATIONS.with(Cell::get), 0);
    assert!(bits.iter().all(|&b| b == 0) && packed.iter().all(|&b| b == 0));
}

#[test]
fn decoding_a_frame_batch_allocates_only_the_first_time() {
    let m: Modcod = "qpsk-8/9".parse().unwrap();
    let mut tx = Transmitter::new(TxConfig::new(m, FrameSize::Short, false)).unwrap();
    let sync = IdealSync::new(0);
    let ts: Vec<u8> = (0..20_000)
        .map(|i| if i % 188 == 0 { 0x47 } else { i as u8 & 0x7F })
        .collect();
    let mut pos = 0;
    let mut frames = Vec::new();
    for _ in 0..3 {
        let mut pl = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        pos += tx.encode_frame(&ts[pos..], &mut pl).unwrap().consumed;
        let mut sym = vec![Complex32::new(0.0, 0.0); pl.len()];
        let n = sync.data_symbols(&pl, false, &mut sym);
        sym.truncate(n);
        frames.push(sym);
    }
    let symbols: Vec<&[Complex32]> = frames.iter().map(|f| &f[..]).collect();
    let n0 = [0.01; 3];
    let mut dec = FrameDecoder::new();
    let mut status = vec![dec.decode(symbols[0], m, FrameSize::Short, 0.01).unwrap(); 3];
    dec.decode_batch(&symbols, &n0, m, FrameSize::Short, &mut status)
        .unwrap();
    COUNTING.with(|c| c.set(true));
    dec.decode_batch(&symbols, &n0, m, FrameSize::Short, &mut status)
        .unwrap();
    COUNTING.with(|c| c.set(false));
    assert_eq!(ALLOCATIONS.with(Cell::get), 0);
    assert!(status.iter().all(|s| s.ok()), "{status:?}");
}
