//! The decoding path allocates nothing per frame once built: `FrameDecoder::decode` and
//! `Depacketizer::push`, counted by a global allocator for this test binary only.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use num_complex::Complex32;
use radioflow_dvbs2::rx::{Depacketizer, FrameDecoder, IdealSync};
use radioflow_dvbs2::{FrameSize, Modcod, Transmitter, TxConfig};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter has no
// effect on the memory returned.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
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
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed), 0);
    assert!(packets > 20, "{packets} packets");
}
