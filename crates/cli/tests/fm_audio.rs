//! `radioflow fm --audio DEVICE` plays the station on an ALSA device, tested without a sound
//! card: ALSA's `file` plugin over its `null` device (defined in an ALSA configuration the
//! test writes and gives the child through `XDG_CONFIG_HOME`) writes what is played to a file,
//! and every frame played must be the one written to the WAV file beside it (the WAV holds
//! them as 16-bit PCM, the device as floats: equal within the WAV's rounding).

use std::path::Path;
use std::process::Command;

fn floats(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

#[test]
fn the_station_is_played_on_the_sound_device_as_written_to_the_wav_file() {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("alsa");
    std::fs::create_dir_all(&conf).unwrap();
    let played = dir.path().join("played.raw");
    std::fs::write(
        conf.join("asoundrc"),
        format!(
            "pcm.rf_play {{ type file slave.pcm null file \"{}\" format raw }}\n",
            played.display()
        ),
    )
    .unwrap();
    let wav = dir.path().join("station.wav");
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args(["fm", "--demo", "--audio", "rf_play", "--wav"])
        .arg(&wav)
        .env("XDG_CONFIG_HOME", dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("played the audio on ALSA device 'rf_play' at 48000 Hz"),
        "{stdout}"
    );
    // Stereo, interleaved as in the WAV file.
    let mut reader = hound::WavReader::open(&wav).unwrap();
    assert_eq!(reader.spec().channels, 2);
    let written: Vec<i16> = reader.samples::<i16>().map(Result::unwrap).collect();
    let sound = floats(&played);
    assert_eq!(sound.len(), written.len(), "every frame played, none twice");
    assert!(sound.len() > 48_000 * 2 * 4, "the demo's 5 s");
    for (i, (&f, &w)) in sound.iter().zip(&written).enumerate() {
        let scaled = (f.clamp(-1.0, 1.0) * 32767.0).round();
        assert!(
            (scaled - f32::from(w)).abs() <= 1.0,
            "sample {i}: played {f}, written {w}"
        );
    }
    // The sound is the station's tones, not silence.
    assert!(sound.iter().any(|x| x.abs() > 0.1));
}
