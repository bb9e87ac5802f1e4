//! The quantizer against GNU Radio 3.10's `channels.quantizer` on the same input (ties, values
//! beyond the range, 1 to 20 bits), in one GNU Radio process: outputs bit for bit (the same
//! float products, rounding and saturation), under each scheduler. SKIPPED where GNU Radio
//! is not installed.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_channels::Quantizer;
use radioflow_runtime::{FlowScheduler, Flowgraph, Scheduler, SingleThread, ThreadPerBlock};
use std::process::Command;

const PYTHON: &str = "/usr/bin/python3";
const BITS: [i64; 6] = [1, 3, 8, 16, 17, 20];

fn input() -> Vec<f32> {
    // A ramp through ±1.5 in steps that land on ties of the coarse grids, and a few values
    // between.
    (0..=96)
        .map(|i| (i as f32 - 48.0) / 32.0)
        .chain([0.123_456_7, -0.987_654_3, 1e-6, -0.499_99, 0.500_01])
        .collect()
}

#[test]
fn the_quantizer_equals_gnu_radio_s() {
    let x = input();
    let data: Vec<String> = x.iter().map(|v| format!("{v:e}")).collect();
    let script = format!(
        "from gnuradio import blocks, channels, gr\n\
         import numpy\n\
         x = numpy.array([{}], dtype=numpy.float32).tolist()\n\
         for bits in {BITS:?}:\n\
         \x20   tb = gr.top_block()\n\
         \x20   src = blocks.vector_source_f(x)\n\
         \x20   q = channels.quantizer(bits)\n\
         \x20   snk = blocks.vector_sink_f()\n\
         \x20   tb.connect(src, q, snk)\n\
         \x20   tb.run()\n\
         \x20   print(' '.join(numpy.array(snk.data(), dtype=numpy.float32).view(numpy.uint32).astype(str)))\n",
        data.join(", ")
    );
    let out = match Command::new(PYTHON).args(["-c", &script]).output() {
        Ok(o) if o.status.success() => o,
        _ => {
            println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot run channels.quantizer)");
            return;
        }
    };
    let text = String::from_utf8(out.stdout).unwrap();
    let theirs: Vec<Vec<f32>> = text
        .lines()
        .map(|l| {
            l.split(' ')
                .map(|b| f32::from_bits(b.parse().unwrap()))
                .collect()
        })
        .collect();
    assert_eq!(theirs.len(), BITS.len());
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(FlowScheduler::new().chunk_bytes(24).buffer_bytes(4096)),
    ];
    for (bits, want) in BITS.iter().zip(&theirs) {
        for s in &schedulers {
            let mut fg = Flowgraph::new();
            let src = fg.add(VectorSource::new(x.clone()));
            let q = fg.add(Quantizer::new(*bits).unwrap());
            let sink = fg.add(VectorSink::<f32>::new());
            fg.connect(src, q).unwrap();
            fg.connect(q, sink).unwrap();
            fg.run_with(s.as_ref()).unwrap();
            let got = fg.block::<VectorSink<f32>>(sink).unwrap().data().to_vec();
            let bits_of = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits_of(&got),
                bits_of(want),
                "{bits} bits under {}: ours {got:?}, GNU Radio's {want:?}",
                s.name()
            );
        }
    }
    assert!(Quantizer::new(0).is_err() && Quantizer::new(33).is_err());
}
