//! The DVB-S2 blocks at the end of the input, under every scheduler (issue 32, item 4):
//! `dvbs2_tx` writes its RRC filter's tail after the last frame, and `dvbs2_rx` decodes the
//! last PLFRAME of its input (the input ending mid-frame or exactly at a frame's end): every
//! packet from lock to the last one sent comes out, none failed.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_dvbs2::rx::sync::SyncConfig;
use radioflow_dvbs2::{Dvbs2Rx, Dvbs2Tx};
use radioflow_dvbs2::{FrameSize, RollOff, Shaping, TxConfig};
use radioflow_runtime::{
    Complex32, FlowScheduler, Flowgraph, Scheduler, SingleThread, ThreadPerBlock,
};

/// Every scheduler.
fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new().workers(2)),
        // Chunks and buffers far smaller than a frame.
        Box::new(
            FlowScheduler::new()
                .workers(2)
                .chunk_bytes(256)
                .buffer_bytes(4096),
        ),
    ]
}

/// `n` TS packets, the packet's index in bytes 4..8.
fn ts(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let mut p = vec![0u8; 188];
            p[..4].copy_from_slice(&[0x47, 0x01, 0x00, 0x10 | (i % 16) as u8]);
            p[4..8].copy_from_slice(&(i as u32).to_be_bytes());
            for (j, b) in p[8..].iter_mut().enumerate() {
                *b = (i * 11 + j * 3) as u8;
            }
            p
        })
        .collect()
}

/// 8PSK 3/5 short frames with pilots (1184 bytes of TS each, 5598 symbols), RRC 0.2 at 2
/// samples per symbol.
fn dvbs2_tx() -> Dvbs2Tx {
    let cfg = TxConfig::new("8psk-3/5".parse().unwrap(), FrameSize::Short, true);
    Dvbs2Tx::new(cfg, Shaping::rrc(RollOff::R020, 2)).unwrap()
}

/// White noise at Es/N0 `esn0_db` (2 samples per symbol, unit-energy symbols) from a fixed
/// seed: a xorshift generator and Box–Muller.
fn add_noise(x: &mut [Complex32], esn0_db: f64) {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut uniform = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    };
    let sigma = (2.0 * 10f64.powf(-esn0_db / 10.0) / 2.0).sqrt();
    for s in x {
        let (u, v) = (uniform(), uniform());
        let r = sigma * (-2.0 * u.ln()).sqrt();
        let a = std::f64::consts::TAU * v;
        *s += Complex32::new((r * a.cos()) as f32, (r * a.sin()) as f32);
    }
}

/// `got` is `sent`'s packets from one of the first three frames' on to the last one sent.
fn assert_to_the_last(got: &[u8], sent: &[u8], label: &str) {
    assert_eq!(got.len() % 188, 0, "{label}");
    let first = got
        .get(4..8)
        .map(|b| u32::from_be_bytes(b.try_into().unwrap()) as usize)
        .unwrap_or_else(|| panic!("{label}: no packet"));
    assert!(
        first < 3 * 1184 / 188,
        "{label}: the first packet out is {first}"
    );
    let last = first + got.len() / 188 - 1;
    assert_eq!(last, sent.len() / 188 - 1, "{label}: the last packet out");
    assert!(got == &sent[first * 188..], "{label}: packets changed");
}

#[test]
fn dvbs2_tx_to_dvbs2_rx_delivers_every_packet_to_the_last_under_every_scheduler() {
    // 296 packets end exactly at the 47th frame's end, 295 inside it (padded), 150 halfway.
    for packets in [296, 295, 150] {
        let sent = ts(packets);
        for s in schedulers() {
            let label = format!("{packets} packets, {}", s.name());
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(sent.clone()));
            let tx = fg.add(dvbs2_tx());
            let rx = fg.add(Dvbs2Rx::new(SyncConfig::default()).unwrap());
            let sink = fg.add(VectorSink::<u8>::new());
            fg.connect(src, tx).unwrap();
            fg.connect(tx, rx).unwrap();
            fg.connect(rx, sink).unwrap();
            fg.run_with(s.as_ref())
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            assert_eq!(fg.block::<Dvbs2Rx>(rx).unwrap().failed(), 0, "{label}");
            let got = fg.block::<VectorSink<u8>>(sink).unwrap().data();
            assert_to_the_last(got, &sent, &label);
        }
    }
}

#[test]
fn dvbs2_rx_decodes_the_last_frame_of_a_noisy_recording_under_every_scheduler() {
    let sent = ts(296);
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(sent.clone()));
    let tx = fg.add(dvbs2_tx());
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, tx).unwrap();
    fg.connect(tx, sink).unwrap();
    fg.run().unwrap();
    let mut x = fg
        .block::<VectorSink<Complex32>>(sink)
        .unwrap()
        .data()
        .to_vec();
    // 47 frames, then the filter's tail: ±10 symbols.
    assert_eq!(x.len(), 47 * 5598 * 2 + 40);
    add_noise(&mut x, 12.0);
    // With the tail, without it (GNU Radio's filters do not write it), and with zeros after
    // the signal (which must not stand in for a next header).
    let without_tail = x[..x.len() - 40].to_vec();
    let mut zeros = x.clone();
    zeros.resize(x.len() + 20_000, Complex32::new(0.0, 0.0));
    for (what, rec) in [("tail", &x), ("no tail", &without_tail), ("zeros", &zeros)] {
        for s in schedulers() {
            let label = format!("{what}, {}", s.name());
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(rec.to_vec()));
            let rx = fg.add(Dvbs2Rx::new(SyncConfig::default()).unwrap());
            let sink = fg.add(VectorSink::<u8>::new());
            fg.connect(src, rx).unwrap();
            fg.connect(rx, sink).unwrap();
            fg.run_with(s.as_ref())
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            assert_eq!(fg.block::<Dvbs2Rx>(rx).unwrap().failed(), 0, "{label}");
            let got = fg.block::<VectorSink<u8>>(sink).unwrap().data();
            assert_to_the_last(got, &sent, &label);
        }
    }
}
