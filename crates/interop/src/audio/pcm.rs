//! Opening and setting up an ALSA PCM as GNU Radio's ALSA blocks do: interleaved frames, the
//! rate exactly, periods of 10 ms, 32 of them in the buffer (`period_time` and `nperiods` of
//! GNU Radio 3.10's /etc/gnuradio/conf.d/gr-audio-alsa.conf), a sample format the device takes.

use super::error::AudioError;
use alsa::pcm::{Access, Format, HwParams, PCM};
use alsa::{Direction, ValueOr};

/// The device used where none is named: `RADIOFLOW_AUDIO_DEVICE`, else ALSA's `default` (GNU
/// Radio reads its own preferences file instead; ALSA's configuration can redirect `default`).
pub(super) fn device_or_default(name: &str) -> String {
    if !name.is_empty() {
        return name.to_owned();
    }
    std::env::var("RADIOFLOW_AUDIO_DEVICE")
        .ok()
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "default".to_owned())
}

/// The sample format chosen: floats where the device takes them (no conversion), else 32- or
/// 16-bit integers (the formats GNU Radio's ALSA blocks try), full scale at ±1.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SampleFormat {
    F32,
    S32,
    S16,
}

/// An open, set-up PCM.
pub(super) struct Pcm {
    pub(super) pcm: PCM,
    pub(super) format: SampleFormat,
    /// Channels of a frame (at least the block's streams; see [`open`]).
    pub(super) channels: usize,
    /// Frames per period: the block moves at most this many at a time.
    pub(super) period: usize,
}

/// Opens `device` in `direction` for `streams` streams at `rate` Hz; `nonblock` for
/// GNU Radio's `ok_to_block = False`. A device that needs more channels than the block has
/// streams gets the last stream again in the others (mono on a stereo card plays on both).
pub(super) fn open(
    block: &'static str,
    device: &str,
    direction: Direction,
    streams: usize,
    rate: u32,
    nonblock: bool,
) -> Result<Pcm, AudioError> {
    let err = |what: &str, e: alsa::Error| AudioError {
        block,
        device: device.to_owned(),
        message: format!("{what}: {e}"),
    };
    let refuse = |message: String| AudioError {
        block,
        device: device.to_owned(),
        message,
    };
    let pcm = PCM::new(device, direction, nonblock).map_err(|e| err("cannot open it", e))?;
    let (format, channels, period) = {
        let hw = HwParams::any(&pcm).map_err(|e| err("its parameters", e))?;
        hw.set_access(Access::RWInterleaved)
            .map_err(|e| err("interleaved access", e))?;
        let format = [
            (Format::FloatLE, SampleFormat::F32),
            (Format::S32LE, SampleFormat::S32),
            (Format::S16LE, SampleFormat::S16),
        ]
        .into_iter()
        .find(|(f, _)| hw.test_format(*f).is_ok())
        .ok_or_else(|| refuse("takes none of FLOAT_LE, S32_LE, S16_LE".into()))?;
        hw.set_format(format.0)
            .map_err(|e| err("sample format", e))?;
        let (min, max) = (
            hw.get_channels_min().map_err(|e| err("channels", e))?,
            hw.get_channels_max().map_err(|e| err("channels", e))?,
        );
        let want = u32::try_from(streams).unwrap_or(u32::MAX);
        if want > max {
            return Err(refuse(format!(
                "{streams} streams, but the device has at most {max} channels"
            )));
        }
        let channels = want.max(min);
        hw.set_channels(channels)
            .map_err(|e| err(&format!("{channels} channels"), e))?;
        let got = hw
            .set_rate_near(rate, ValueOr::Nearest)
            .map_err(|e| err(&format!("sample rate {rate}"), e))?;
        if got != rate {
            return Err(refuse(format!(
                "cannot run at {rate} Hz (the nearest it offers is {got} Hz); a `plughw:` or \
                 `default` device resamples"
            )));
        }
        hw.set_period_time_near(10_000, ValueOr::Nearest)
            .map_err(|e| err("period time", e))?;
        hw.set_periods_near(32, ValueOr::Nearest)
            .map_err(|e| err("periods", e))?;
        pcm.hw_params(&hw).map_err(|e| err("setting it up", e))?;
        let cur = pcm
            .hw_params_current()
            .map_err(|e| err("its parameters", e))?;
        let period = cur.get_period_size().map_err(|e| err("period size", e))?;
        (format.1, channels as usize, period.max(1) as usize)
    };
    Ok(Pcm {
        pcm,
        format,
        channels,
        period,
    })
}

/// Full scale of the integer formats: ±1.0 maps to ±`max`, beyond it clips.
pub(super) fn to_int<const BITS: u32>(x: f32) -> i64 {
    // In f64: 2^31 - 1 is not a float32 (it rounds up, and would wrap at +1.0).
    let max = ((1i64 << (BITS - 1)) - 1) as f64;
    (f64::from(x) * max).clamp(-max - 1.0, max) as i64
}

/// An integer sample back to ±1.0 full scale.
pub(super) fn from_int<const BITS: u32>(x: i64) -> f32 {
    (x as f64 / ((1i64 << (BITS - 1)) - 1) as f64) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_samples_are_full_scale_at_one_and_clip_beyond() {
        assert_eq!(to_int::<16>(1.0), 32767);
        assert_eq!(to_int::<16>(-1.0), -32767);
        assert_eq!(to_int::<16>(0.5), 16383);
        assert_eq!(to_int::<16>(3.0), 32767);
        assert_eq!(to_int::<16>(-3.0), -32768);
        assert_eq!(to_int::<32>(-5.0), -(1i64 << 31));
        assert_eq!(to_int::<32>(5.0), (1i64 << 31) - 1);
        for x in [-1.0f32, -0.25, 0.0, 0.125, 1.0] {
            assert!((from_int::<16>(to_int::<16>(x)) - x).abs() < 1e-4, "{x}");
            assert!((from_int::<32>(to_int::<32>(x)) - x).abs() < 1e-6, "{x}");
        }
    }

    #[test]
    fn a_named_device_is_kept_and_an_empty_one_is_the_default() {
        assert_eq!(device_or_default("hw:1,0"), "hw:1,0");
        // The variable is not set in the tests (nor by anything they run).
        if std::env::var_os("RADIOFLOW_AUDIO_DEVICE").is_none() {
            assert_eq!(device_or_default(""), "default");
        }
    }
}
