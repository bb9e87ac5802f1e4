//! WAV files (any recording a user hands `radioflow run` or the FM receiver's `wav_source`):
//! any bytes open as a WAV file hound reads or are an error naming the file, never a panic;
//! what opens is read to its end in small windows, every sample a finite value in [-1, 1]
//! for integer formats (float files pass their values through), and the channels stay in step.
#![no_main]

use libfuzzer_sys::fuzz_target;
use radioflow_interop::WavSource;
use radioflow_runtime::testing::Harness;
use radioflow_runtime::WorkStatus;
use std::path::PathBuf;

fuzz_target!(|data: &[u8]| {
    let path: PathBuf = std::env::temp_dir().join(format!("radioflow-fuzz-{}.wav", std::process::id()));
    std::fs::write(&path, data).expect("a temporary file");
    let source = match WavSource::new(&path) {
        Ok(s) => s,
        Err(e) => {
            assert!(e.to_string().contains(&*path.to_string_lossy()), "{e}");
            return;
        }
    };
    let channels = source.channels();
    assert!(channels > 0);
    let integer = hound::WavReader::new(data)
        .is_ok_and(|r| r.spec().sample_format == hound::SampleFormat::Int);
    let mut h = Harness::new(source);
    let ports: Vec<String> = (0..channels).map(|c| format!("out{c}")).collect();
    let mut produced = vec![0usize; channels];
    // A bounded number of calls: a valid header may declare far more data than the file holds.
    for _ in 0..64 {
        for p in &ports {
            h.set_space(p, 7);
        }
        let status = match h.work() {
            Ok(s) => s,
            Err(e) => {
                assert!(e.to_string().contains(&*path.to_string_lossy()), "{e}");
                break;
            }
        };
        for (c, p) in ports.iter().enumerate() {
            let out = h.take_output::<f32>(p);
            if integer {
                assert!(out.iter().all(|x| x.is_finite() && x.abs() <= 1.0), "{out:?}");
            }
            produced[c] += out.len();
        }
        assert!(produced.iter().all(|&n| n == produced[0]), "{produced:?}");
        if status == WorkStatus::Done {
            break;
        }
    }
});
