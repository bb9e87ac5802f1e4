//! The channel model against GNU Radio 3.10's `channels.channel_model` on the same input,
//! run by `gnuradio/run_channels.py` in one GNU Radio process: the same outputs within float
//! rounding (GNU Radio's oscillator is a table lookup, its interpolation filters a printed
//! table; the noise is the same numbers for the same seed) and tags at the same offsets, with
//! radioflow's block run under each scheduler (one small chunk size among them, so that
//! state carries across work calls). SKIPPED where GNU Radio is not installed.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_channels::ChannelModel;
use radioflow_runtime::{
    Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
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

/// One channel on one input, in GNU Radio's words and in radioflow's.
struct Case {
    name: &'static str,
    noise_voltage: f32,
    frequency_offset: f64,
    epsilon: f64,
    taps: Vec<Complex32>,
    seed: i64,
    block_tags: bool,
}

impl Case {
    fn gnu_radio(&self) -> String {
        let taps: Vec<String> = self
            .taps
            .iter()
            .map(|t| format!("complex({:?}, {:?})", t.re, t.im))
            .collect();
        format!(
            "channels.channel_model({:?}, {:?}, {:?}, [{}], {}, {})",
            self.noise_voltage,
            self.frequency_offset,
            self.epsilon,
            taps.join(", "),
            self.seed,
            if self.block_tags { "True" } else { "False" }
        )
    }

    fn ours(
        &self,
        input: &[Complex32],
        tags: &[(u64, &str)],
        s: &dyn Scheduler,
    ) -> (Vec<Complex32>, Tags) {
        let mut fg = Flowgraph::new();
        let tags = tags
            .iter()
            .map(|&(o, k)| Tag::new(o, k, Pmt::Bool(true)))
            .collect();
        let src = fg.add(VectorSource::new(input.to_vec()).tags(tags));
        let block = ChannelModel::new(
            self.noise_voltage,
            self.frequency_offset,
            self.epsilon,
            &self.taps,
            self.seed,
            self.block_tags,
        )
        .unwrap();
        let b = fg.add(block);
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.connect(src, b).unwrap();
        fg.connect(b, sink).unwrap();
        fg.run_with(s).unwrap();
        let out = fg.block::<VectorSink<Complex32>>(sink).unwrap();
        let tags = out
            .tags()
            .iter()
            .map(|t| (t.offset, t.key.to_string()))
            .collect();
        (out.data().to_vec(), tags)
    }
}

fn c(re: f32, im: f32) -> Complex32 {
    Complex32::new(re, im)
}

fn cases() -> Vec<Case> {
    let multipath = vec![
        c(1.0, 1.0),
        c(0.0, 0.0),
        c(0.0, 0.0),
        c(0.0, 0.0),
        c(0.63, -0.22),
        c(-0.1, 0.07),
    ];
    let case =
        |name, noise_voltage, frequency_offset, epsilon, taps: &[Complex32], seed, block_tags| {
            Case {
                name,
                noise_voltage,
                frequency_offset,
                epsilon,
                taps: taps.to_vec(),
                seed,
                block_tags,
            }
        };
    vec![
        case("identity", 0.0, 0.0, 1.0, &[c(1.0, 0.0)], 0, false),
        case("multipath_offset", 0.0, 0.013, 1.0, &multipath, 0, false),
        case("slow_clock", 0.0, -0.002, 1.0001, &[c(1.0, 1.0)], 0, false),
        case("fast_clock_no_tags", 0.0, 0.0, 0.9993, &multipath, 0, true),
        case(
            "decimating",
            0.0,
            0.1,
            1.37,
            &[c(0.5, 0.0), c(0.25, 0.1)],
            0,
            false,
        ),
        case("noise", 0.1, 0.0, 1.0, &[c(1.0, 0.0)], 42, false),
        case(
            "everything",
            0.3,
            0.05,
            1.0002,
            &multipath,
            -44982235,
            false,
        ),
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
                c.gnu_radio(),
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
fn the_channel_model_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.channels)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("radioflow-channels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let x = input(3000);
    let tags = [(0, "a"), (5, "b"), (1000, "c"), (2990, "d")];
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
            let (got, got_tags) = case.ours(&x, &tags, s.as_ref());
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
            let end = want.len() as u64;
            let got_tags: Tags = got_tags.into_iter().filter(|t| t.0 < end).collect();
            assert_eq!(&got_tags, want_tags, "{at}: tags");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
