//! Model checks (run with `cargo test -p radioflow-runtime --release --features loom --lib
//! loom`): every interleaving of the atomics in the parker handshake and the buffer
//! positions, with loom detecting lost wake-ups as deadlocks.

use crate::activation::Activation;
use crate::atomics::{Arc, AtomicU64};
use crate::buffer::{Reader, StreamBuffer, Writer};
use crate::parker::Parker;
use loom::thread;
use std::sync::atomic::Ordering::{Acquire, Release};

/// A publisher that notifies after storing is always seen by a runner that resets, looks and
/// parks: the runner never sleeps through the last publication.
#[test]
fn loom_parker_never_loses_a_wakeup() {
    loom::model(|| {
        let parker = Arc::new(Parker::new());
        let value = Arc::new(AtomicU64::new(0));
        let (p, v) = (parker.clone(), value.clone());
        let publisher = thread::spawn(move || {
            for i in 1..=2 {
                v.store(i, Release);
                p.notify();
            }
        });
        loop {
            if value.load(Acquire) == 2 {
                break;
            }
            parker.reset();
            if value.load(Acquire) == 2 {
                break;
            }
            parker.park();
        }
        publisher.join().unwrap();
    });
}

/// Item size chosen so that the ring holds exactly two items (one page of 4096 bytes).
const ITEM: usize = 2048;

fn write_item(w: &mut Writer, value: u32) -> bool {
    if w.refresh(u64::MAX) == 0 {
        return false;
    }
    let (p, _) = w.window();
    // SAFETY: the window holds at least one item and belongs to the writer.
    unsafe { (p as *mut u32).write(value) };
    w.produce(1);
    w.commit();
    true
}

/// One writer and one reader over a two-item ring, wrapping once, with up to three
/// preemptions.
#[test]
fn loom_one_reader_wraps_around() {
    check_buffer(1, 3, 3);
}

/// The same wrapping twice, with up to two preemptions (loom's advice: most orderings that
/// matter need one or two). Twice with three took 81 s of the test suite's time (41 of them in
/// the kernel, mapping the threads' stacks), each of these two 7 s.
#[test]
fn loom_one_reader_wraps_twice() {
    check_buffer(1, 4, 2);
}

/// One writer and two readers sharing a two-item ring.
#[test]
fn loom_two_readers_share_the_ring() {
    check_buffer(2, 2, 2);
}

/// One writer, `readers` readers, `n` items over a two-item ring: every reader sees every
/// value in order, the writer never overwrites an unread item, and nobody sleeps forever.
fn check_buffer(readers: usize, n: u32, preemptions: usize) {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(preemptions);
    model.check(move || {
        let wa = Activation::alone(Arc::new(Parker::new()));
        let ra: Vec<Arc<Activation>> = (0..readers)
            .map(|_| Activation::alone(Arc::new(Parker::new())))
            .collect();
        let wp = wa.parker().clone();
        let rp: Vec<Arc<Parker>> = ra.iter().map(|a| a.parker().clone()).collect();
        let buf = StreamBuffer::new(ITEM, ITEM * 2, &wa, &ra).unwrap();
        assert_eq!(buf.capacity(), 2);
        let threads: Vec<_> = (0..readers)
            .map(|slot| {
                let mut r = Reader::new(buf.clone(), slot);
                let parker = rp[slot].clone();
                thread::spawn(move || {
                    let mut expect = 0u32;
                    loop {
                        let mut moved = false;
                        for attempt in 0..2 {
                            // After a fruitless look: reset the token, then look once more.
                            if attempt == 1 {
                                parker.reset();
                            }
                            r.refresh();
                            if r.available() > 0 {
                                let (p, _) = r.window();
                                // SAFETY: the window holds a published item.
                                let v = unsafe { (p as *const u32).read() };
                                assert_eq!(v, expect, "reader {slot} read out of order");
                                expect += 1;
                                r.consume(1);
                                r.commit();
                                moved = true;
                                break;
                            }
                            if r.writer_done() {
                                assert_eq!(expect, n);
                                r.finish();
                                return;
                            }
                        }
                        if !moved {
                            parker.park();
                        }
                    }
                })
            })
            .collect();
        let mut w = Writer::new(buf);
        let mut next = 0u32;
        while next < n {
            if write_item(&mut w, next) {
                next += 1;
                continue;
            }
            wp.reset();
            if write_item(&mut w, next) {
                next += 1;
                continue;
            }
            wp.park();
        }
        w.finish();
        for t in threads {
            t.join().unwrap();
        }
    });
}

/// A block handed from one thread to another (`scheduler/balance.rs`) while a neighbour
/// publishes to it: the neighbour may still read the old thread slot and wake the old thread,
/// but the new thread, which looks at the block after receiving it, then sees the publication
/// (the fences in `Activation::move_to`, `Activation::notify` and `Seat::receive`), so it never
/// sleeps through it.
#[test]
fn loom_hand_over_never_loses_a_wakeup() {
    use crate::activation::Wake;
    use crate::atomics::{fence, AtomicBool};
    use std::sync::atomic::Ordering::SeqCst;

    // Three threads: a bound on preemptions keeps the search to seconds (loom's advice; the
    // orderings that matter need one or two).
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(2);
    model.check(|| {
        // Threads: 0 = old owner (giver), 1 = new owner (receiver), 2 = the neighbour.
        let parkers: crate::activation::Parkers = (0..3)
            .map(|_| Arc::new(Parker::new()))
            .collect::<Vec<_>>()
            .into();
        let target = Activation::new(parkers.clone(), 0);
        let neighbour = Activation::new(parkers.clone(), 2);
        let wake = Wake::new(&target, &neighbour);
        let data = Arc::new(AtomicBool::new(false));
        let given = Arc::new(AtomicBool::new(false));

        let d = data.clone();
        let publisher = thread::spawn(move || {
            d.store(true, Release);
            wake.notify();
        });
        let (t, g, p) = (target.clone(), given.clone(), parkers.clone());
        let giver = thread::spawn(move || {
            t.move_to(1);
            g.store(true, Release);
            p[1].notify();
        });
        // The receiver: runs the block once it has it, sleeps while there is nothing to do.
        loop {
            parkers[1].reset();
            if given.load(Acquire) {
                fence(SeqCst);
                if data.load(Acquire) {
                    break;
                }
            }
            parkers[1].park();
        }
        publisher.join().unwrap();
        giver.join().unwrap();
    });
}
