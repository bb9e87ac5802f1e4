//! The audio blocks against real ALSA devices without a sound card: ALSA's `file` plugin over
//! its `null` device writes what is played to a file and reads what is recorded from one, so
//! the samples that reach the device (and come from it) are checked one by one. The devices
//! are defined in an ALSA configuration file this test writes (`$XDG_CONFIG_HOME/alsa/asoundrc`,
//! which alsa-lib reads when the first device opens): one test function, so that it is set
//! before anything opens a device.

use radioflow_blocks::runtime::{
    FlowScheduler, Flowgraph, Scheduler, SingleThread, ThreadPerBlock,
};
use radioflow_blocks::{Head, VectorSink, VectorSource};
use radioflow_interop::{AudioSink, AudioSource};
use std::path::Path;

fn play(device: &str, streams: &[Vec<f32>], s: &dyn Scheduler) {
    let mut fg = Flowgraph::new();
    let sink = fg.add(AudioSink::new(48_000, device, true, streams.len()));
    for (i, x) in streams.iter().enumerate() {
        let src = fg.add(VectorSource::new(x.clone()));
        fg.connect(src, (sink, i)).unwrap();
    }
    fg.run_with(s).unwrap();
}

fn record(device: &str, channels: usize, n: usize, s: &dyn Scheduler) -> Vec<Vec<f32>> {
    let mut fg = Flowgraph::new();
    let src = fg.add(AudioSource::new(48_000, device, true, channels));
    let sinks: Vec<_> = (0..channels)
        .map(|c| {
            let head = fg.add(Head::<f32>::new(n as u64));
            let sink = fg.add(VectorSink::<f32>::new());
            fg.connect((src, c), head).unwrap();
            fg.connect(head, sink).unwrap();
            sink
        })
        .collect();
    fg.run_with(s).unwrap();
    sinks
        .iter()
        .map(|&k| fg.block::<VectorSink<f32>>(k).unwrap().data().to_vec())
        .collect()
}

fn floats(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

#[test]
fn sink_and_source_move_every_sample_through_alsa() {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("alsa");
    std::fs::create_dir_all(&conf).unwrap();
    let out = dir.path().join("played.raw");
    let input = dir.path().join("recorded.raw");
    std::fs::write(
        conf.join("asoundrc"),
        format!(
            "pcm.rf_play {{ type file slave.pcm null file \"{}\" format raw }}\n\
             pcm.rf_record {{ type file slave.pcm null file \"/dev/null\" infile \"{}\" format raw }}\n",
            out.display(),
            input.display()
        ),
    )
    .unwrap();
    // SAFETY: set before any thread of this test binary opens an ALSA device (the only test).
    unsafe { std::env::set_var("XDG_CONFIG_HOME", dir.path()) };

    let schedulers: [Box<dyn Scheduler>; 3] = [
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ];
    // Two streams (several periods of the device and a part of one): the file holds them
    // interleaved, as floats (the null device takes FLOAT_LE), in order, none lost.
    let left: Vec<f32> = (0..2000).map(|i| (i as f32 * 0.01).sin()).collect();
    let right: Vec<f32> = (0..2000).map(|i| -(i as f32) / 2000.0).collect();
    let want: Vec<f32> = left
        .iter()
        .zip(&right)
        .flat_map(|(&l, &r)| [l, r])
        .collect();
    for s in &schedulers {
        play("rf_play", &[left.clone(), right.clone()], s.as_ref());
        assert_eq!(floats(&out), want, "played through {}", s.name());
    }
    // Recorded: the file's interleaved floats back as two streams.
    let recorded: Vec<f32> = (0..3000).map(|i| i as f32 / 3000.0).collect();
    std::fs::write(&input, bytemuck::cast_slice(&recorded)).unwrap();
    for s in &schedulers {
        let got = record("rf_record", 2, 1500, s.as_ref());
        let even: Vec<f32> = recorded.iter().step_by(2).copied().collect();
        let odd: Vec<f32> = recorded.iter().skip(1).step_by(2).copied().collect();
        assert_eq!(got, vec![even, odd], "recorded through {}", s.name());
    }

    // A device that does not exist: the error names the block and the device.
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![0f32; 10]));
    let sink = fg.add(AudioSink::new(48_000, "rf_no_such_device", true, 1));
    fg.connect(src, sink).unwrap();
    let e = format!("{:#}", fg.run().unwrap_err());
    assert!(
        e.contains("audio_sink (ALSA device 'rf_no_such_device'): cannot open it"),
        "{e}"
    );
}
