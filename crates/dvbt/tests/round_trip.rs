//! The receiver's bytes side undoes the transmitter's: a transport stream through energy
//! dispersal, RS(204, 188), the outer interleaver and the inner coder (64QAM, rate 2/3),
//! a wrong bit every 331 coded bytes, then the Viterbi decoder, the outer deinterleaver, the
//! Reed-Solomon decoder and the descrambler, under every scheduler, gives the transport
//! stream back from its first packet (gr-dtv's chain, block for block: each block is
//! compared with gr-dtv's in `gnuradio.rs`).

use radioflow_blocks::{VectorSink, VectorSource, VectorToStream};
use radioflow_dvbt::{
    DvbtConvolutionalDeinterleaver, DvbtConvolutionalInterleaver, DvbtEnergyDescramble,
    DvbtEnergyDispersal, DvbtInnerCoder, DvbtReedSolomonDec, DvbtReedSolomonEnc,
    DvbtViterbiDecoder,
};
use radioflow_runtime::{FlowScheduler, Flowgraph, Scheduler, SingleThread, ThreadPerBlock};

/// Groups of eight packets sent.
const GROUPS: usize = 20;

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(
            FlowScheduler::new()
                .workers(2)
                .chunk_bytes(4096)
                .buffer_bytes(1 << 16),
        ),
    ]
}

/// Packets of a sync byte and 187 bytes of all sorts, and the eight bytes dispersal's search
/// needs after the last group.
fn transport_stream() -> Vec<u8> {
    let mut ts: Vec<u8> = (0..GROUPS * 1504)
        .map(|k| {
            if k % 188 == 0 {
                0x47
            } else {
                ((k * 7919) ^ (k >> 9)) as u8
            }
        })
        .collect();
    ts.extend([0x47; 8]);
    ts
}

/// The transmitter up to the inner coder: bytes of six coded bits.
fn transmit(ts: Vec<u8>) -> Vec<u8> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(ts));
    let chain = [
        fg.add(DvbtEnergyDispersal::new(1).unwrap()),
        fg.add(DvbtReedSolomonEnc::new(0x11d, 255, 239, 51, 8).unwrap()),
        fg.add(DvbtConvolutionalInterleaver::new(136, 12, 17).unwrap()),
        fg.add(DvbtInnerCoder::new(1, 1512, "64qam", "nh", "2/3").unwrap()),
        fg.add(VectorToStream::<u8>::new(1512, 1).unwrap()),
    ];
    let sink = fg.add(VectorSink::<u8>::new());
    let mut from = src;
    for b in chain {
        fg.connect(from, b).unwrap();
        from = b;
    }
    fg.connect(from, sink).unwrap();
    fg.run().unwrap();
    fg.block::<VectorSink<u8>>(sink).unwrap().data().to_vec()
}

fn receive(coded: Vec<u8>, scheduler: &dyn Scheduler) -> Vec<u8> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(coded));
    let chain = [
        fg.add(DvbtViterbiDecoder::new("64qam", "nh", "2/3", 768).unwrap()),
        fg.add(DvbtConvolutionalDeinterleaver::new(136, 12, 17).unwrap()),
        fg.add(DvbtReedSolomonDec::new(0x11d, 255, 239, 51, 8).unwrap()),
        fg.add(DvbtEnergyDescramble::new(8).unwrap()),
    ];
    let sink = fg.add(VectorSink::<u8>::new());
    let mut from = src;
    for b in chain {
        fg.connect(from, b).unwrap();
        from = b;
    }
    fg.connect(from, sink).unwrap();
    fg.run_with(scheduler).unwrap();
    fg.block::<VectorSink<u8>>(sink).unwrap().data().to_vec()
}

#[test]
fn the_receiver_recovers_the_transport_stream() {
    let ts = transport_stream();
    let mut coded = transmit(ts.clone());
    for b in coded.iter_mut().step_by(331).skip(1) {
        *b ^= 0b100;
    }
    for s in schedulers() {
        let out = receive(coded.clone(), &*s);
        // The outer interleaver's 11 packets of delay hold back a group; the descrambler
        // keeps 14 or 15 vectors of eight packets.
        assert!(
            out.len() >= (GROUPS - 17) * 1504,
            "{}: {} bytes out",
            s.name(),
            out.len()
        );
        if let Some(k) = (0..out.len()).find(|&k| out[k] != ts[k]) {
            panic!(
                "{}: byte {k} (packet {}): {} where {} was sent",
                s.name(),
                k / 188,
                out[k],
                ts[k]
            );
        }
    }
}
