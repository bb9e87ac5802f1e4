//! The channel and fading models against GNU Radio 3.10's `channels.channel_model` and
//! `channels.fading_model` on the same input, run by `gnuradio/run_channels.py` in one GNU Radio process: the same outputs within float
//! rounding (GNU Radio's oscillator is a table lookup, its interpolation filters a printed
//! table; the noise is the same numbers for the same seed) and tags at the same offsets, with
//! radioflow's block run under each scheduler (one small chunk size among them, so that
//! state carries across work calls). SKIPPED where GNU Radio is not installed.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_channels::{
    CfoModel, ChannelModel, DynamicChannelModel, FadingModel, SelectiveFadingModel, SroModel,
};
use radioflow_runtime::{
    Block, Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.channels"])
        .output()
        .is_ok_and(|o| o.status.success())
}

type Tags = Vec<(u64, String)>;

/// radioflow's run of a case: the input and its tags through the block, by a scheduler.
type Run = Box<dyn Fn(&[Complex32], &[(u64, &str)], &dyn Scheduler) -> (Vec<Complex32>, Tags)>;

/// One block on the input, in GNU Radio's words (`make`) and in radioflow's (`run`).
struct Case {
    name: String,
    make: String,
    run: Run,
    /// How much later than GNU Radio's a tag may be: where the sample rate offset makes the
    /// outputs run ahead of the inputs, a tag whose offset is out already when its input is
    /// read goes on the next output (GNU Radio's scheduler puts it behind the writer).
    tag_slack: u64,
}

/// `input` (tagged `tags`) through the block `make` makes, by `scheduler`.
fn through<B: Block + 'static>(make: impl Fn() -> B + 'static) -> Run {
    Box::new(move |input, tags, scheduler| {
        let mut fg = Flowgraph::new();
        let tags = tags
            .iter()
            .map(|&(o, k)| Tag::new(o, k, Pmt::Bool(true)))
            .collect();
        let src = fg.add(VectorSource::new(input.to_vec()).tags(tags));
        let b = fg.add(make());
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.connect(src, b).unwrap();
        fg.connect(b, sink).unwrap();
        fg.run_with(scheduler).unwrap();
        let out = fg.block::<VectorSink<Complex32>>(sink).unwrap();
        let tags = out
            .tags()
            .iter()
            .map(|t| (t.offset, t.key.to_string()))
            .collect();
        (out.data().to_vec(), tags)
    })
}

fn c(re: f32, im: f32) -> Complex32 {
    Complex32::new(re, im)
}

/// A channel model case.
fn channel(
    name: &str,
    noise_voltage: f32,
    frequency_offset: f64,
    epsilon: f64,
    taps: &[Complex32],
    seed: i64,
    block_tags: bool,
) -> Case {
    let py: Vec<String> = taps
        .iter()
        .map(|t| format!("complex({:?}, {:?})", t.re, t.im))
        .collect();
    let taps = taps.to_vec();
    Case {
        name: format!("channel_{name}"),
        make: format!(
            "channels.channel_model({noise_voltage:?}, {frequency_offset:?}, {epsilon:?}, [{}], {seed}, {})",
            py.join(", "),
            if block_tags { "True" } else { "False" }
        ),
        tag_slack: 0,
        run: through(move || {
            ChannelModel::<Complex32>::new(noise_voltage, frequency_offset, epsilon, &taps, seed, block_tags)
                .unwrap()
        }),
    }
}

/// A fading model case.
fn fading(name: &str, sinusoids: u32, doppler: f32, los: bool, k: f32, seed: u32) -> Case {
    Case {
        name: format!("fading_{name}"),
        make: format!(
            "channels.fading_model({sinusoids}, {doppler:?}, {}, {k:?}, {seed})",
            if los { "True" } else { "False" }
        ),
        tag_slack: 0,
        run: through(move || FadingModel::new(sinusoids, doppler, los, k, seed).unwrap()),
    }
}

/// A CFO model case.
fn cfo(name: &str, sample_rate: f64, std_dev: f32, max_dev: f64, seed: i64) -> Case {
    Case {
        name: format!("cfo_{name}"),
        make: format!("channels.cfo_model({sample_rate:?}, {std_dev:?}, {max_dev:?}, {seed})"),
        tag_slack: 0,
        run: through(move || CfoModel::new(sample_rate, std_dev, max_dev, seed).unwrap()),
    }
}

/// An SRO model case.
fn sro(name: &str, sample_rate: f32, std_dev: f32, max_dev: f32, seed: i64) -> Case {
    Case {
        name: format!("sro_{name}"),
        make: format!("channels.sro_model({sample_rate:?}, {std_dev:?}, {max_dev:?}, {seed})"),
        tag_slack: 64,
        run: through(move || SroModel::new(sample_rate, std_dev, max_dev, seed).unwrap()),
    }
}

/// A selective fading model case.
fn selective(
    name: &str,
    los: bool,
    seed: i64,
    delays: &'static [f32],
    mags: &'static [f32],
    ntaps: usize,
) -> Case {
    Case {
        name: format!("selective_{name}"),
        make: format!(
            "channels.selective_fading_model(8, 0.02, {}, 3.0, {seed}, {delays:?}, {mags:?}, {ntaps})",
            if los { "True" } else { "False" }
        ),
        tag_slack: 0,
        run: through(move || {
            SelectiveFadingModel::new(8, 0.02, los, 3.0, seed, delays, mags, ntaps).unwrap()
        }),
    }
}

/// A dynamic channel model case.
fn dynamic(name: &str, noise_amp: f32, los: bool, seed: i64) -> Case {
    const DELAYS: [f32; 3] = [0.0, 0.1, 1.3];
    const MAGS: [f32; 3] = [1.0, 0.99, 0.97];
    Case {
        name: format!("dynamic_{name}"),
        make: format!(
            "channels.dynamic_channel_model(1e3, 5.0, 50.0, 3.0, 40.0, 8, 20.0, {}, 2.0, {DELAYS:?}, {MAGS:?}, 8, {noise_amp:?}, {seed})",
            if los { "True" } else { "False" }
        ),
        tag_slack: 64,
        run: through(move || {
            DynamicChannelModel::new(
                1e3, 5.0, 50.0, 3.0, 40.0, noise_amp, 8, 20.0, los, 2.0, seed, &DELAYS, &MAGS, 8,
            )
            .unwrap()
        }),
    }
}

fn cases() -> Vec<Case> {
    let multipath = [
        c(1.0, 1.0),
        c(0.0, 0.0),
        c(0.0, 0.0),
        c(0.0, 0.0),
        c(0.63, -0.22),
        c(-0.1, 0.07),
    ];
    vec![
        channel("identity", 0.0, 0.0, 1.0, &[c(1.0, 0.0)], 0, false),
        channel("multipath_offset", 0.0, 0.013, 1.0, &multipath, 0, false),
        channel("slow_clock", 0.0, -0.002, 1.0001, &[c(1.0, 1.0)], 0, false),
        channel("fast_clock_no_tags", 0.0, 0.0, 0.9993, &multipath, 0, true),
        channel(
            "decimating",
            0.0,
            0.1,
            1.37,
            &[c(0.5, 0.0), c(0.25, 0.1)],
            0,
            false,
        ),
        channel("noise", 0.1, 0.0, 1.0, &[c(1.0, 0.0)], 42, false),
        channel(
            "everything",
            0.3,
            0.05,
            1.0002,
            &multipath,
            -44982235,
            false,
        ),
        fading("rayleigh", 8, 0.01, false, 4.0, 0),
        fading("rician", 5, 0.2, true, 2.5, 77),
        fading("fast_one", 1, 0.45, false, 4.0, 4_000_000_000),
        cfo("slow", 32e3, 0.5, 1e3, 0),
        cfo("bounded", 1e3, 20.0, 30.0, -7),
        sro("slow", 32e3, 0.5, 1e3, 0),
        sro("bounded", 1e3, 20.0, 100.0, 11),
        selective("three", false, 0, &[0.0, 0.1, 1.3], &[1.0, 0.99, 0.97], 8),
        selective("rician", true, -3, &[0.5, 2.0], &[0.7, 0.2], 4),
        dynamic("quiet", 0.0, false, 1),
        dynamic("noisy", 0.2, true, 5),
    ]
}

/// Deterministic numbers in [-1, 1) (an LCG).
fn input(n: usize) -> Vec<Complex32> {
    let mut s = 35u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    };
    (0..n).map(|_| c(next(), next())).collect()
}

/// GNU Radio's outputs and tags for every case, from one Python process.
fn gnu_radio(
    cases: &[Case],
    input: &[Complex32],
    tags: &[(u64, &str)],
    dir: &Path,
) -> Vec<(Vec<Complex32>, Tags)> {
    let path = dir.join("input.bin");
    let bytes: Vec<u8> = input
        .iter()
        .flat_map(|c| c.re.to_le_bytes().into_iter().chain(c.im.to_le_bytes()))
        .collect();
    std::fs::write(&path, bytes).unwrap();
    let tags: Vec<String> = tags
        .iter()
        .map(|(o, k)| format!("[{o}, \"{k}\"]"))
        .collect();
    let job_cases: Vec<String> = cases
        .iter()
        .map(|c| {
            format!(
                "{{\"name\": \"{}\", \"make\": {:?}, \"input\": {:?}, \"tags\": [{}]}}",
                c.name,
                c.make,
                path.display().to_string(),
                tags.join(", ")
            )
        })
        .collect();
    let job = format!(
        "{{\"out\": {:?}, \"cases\": [{}]}}",
        dir.display().to_string(),
        job_cases.join(", ")
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gnuradio/run_channels.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success(), "run_channels.py failed");
    cases
        .iter()
        .map(|c| {
            let out = std::fs::read(dir.join(format!("{}.bin", c.name))).unwrap();
            let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
            let out = out
                .chunks_exact(8)
                .map(|b| Complex32::new(f(&b[..4]), f(&b[4..])))
                .collect();
            let tags = std::fs::read_to_string(dir.join(format!("{}.tags.json", c.name))).unwrap();
            (out, parse_tags(&tags))
        })
        .collect()
}

/// `[[offset, "key"], ...]` as the script writes it.
fn parse_tags(json: &str) -> Tags {
    json.trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split("], [")
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            let t = t.trim_matches(|c| c == '[' || c == ']');
            let (o, k) = t.split_once(", ").unwrap();
            (o.parse().unwrap(), k.trim_matches('"').to_owned())
        })
        .collect()
}

#[test]
fn every_block_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.channels)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("radioflow-channels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let x = input(3000);
    let tags = [(0, "a"), (5, "b"), (1000, "c"), (2995, "d")];
    let cases = cases();
    let theirs = gnu_radio(&cases, &x, &tags, &dir);
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        // Small chunks: many work calls, the block's state carried across them.
        Box::new(FlowScheduler::new().chunk_bytes(64).buffer_bytes(4096)),
    ];
    for (case, (want, want_tags)) in cases.iter().zip(&theirs) {
        for s in &schedulers {
            let (got, got_tags) = (case.run)(&x, &tags, s.as_ref());
            let at = format!("{} under {}", case.name, s.name());
            // GNU Radio's scheduler stops a few samples sooner (its forecast asks for more
            // input than the interpolator reads), by how much depends on its buffers.
            assert!(
                (want.len()..=want.len() + 16).contains(&got.len()),
                "{at}: ours {} samples, GNU Radio's {}",
                got.len(),
                want.len()
            );
            for (i, (a, b)) in got.iter().zip(want).enumerate() {
                assert!(
                    (a - b).norm() <= 5e-5 * b.norm().max(1.0),
                    "{at}: sample {i}: ours {a}, GNU Radio's {b}"
                );
            }
            // Tag "d" is on one of the last inputs, which GNU Radio's scheduler may leave
            // unconsumed (and so its tag unpropagated) where radioflow reads them.
            let got_tags: Tags = got_tags
                .into_iter()
                .filter(|t| t.1 != "d" || want_tags.contains(t))
                .collect();
            assert_eq!(
                got_tags.len(),
                want_tags.len(),
                "{at}: tags {got_tags:?}, GNU Radio's {want_tags:?}"
            );
            for (g, w) in got_tags.iter().zip(want_tags) {
                assert!(
                    g.1 == w.1 && (w.0..=w.0 + case.tag_slack).contains(&g.0),
                    "{at}: tags {got_tags:?}, GNU Radio's {want_tags:?}"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
