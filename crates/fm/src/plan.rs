//! [`Plan`]: the receiver's rates, derived from the recording's rate and the station's offset.

use crate::error::FmError;
use radioflow_dsp::Num;

/// Half the channel an FM broadcast station occupies (Carson: ±(75 + 53) kHz, with the
/// 200 kHz channel spacing of ITU-R BS.412 as the practical width).
pub const CHANNEL_HALF_WIDTH: f64 = 100e3;

/// The lowest multiplex rate the receiver runs at: the multiplex reaches 60 kHz with RDS,
/// and the channel filter passes ±100 kHz.
pub const MIN_MPX_RATE: f64 = 200e3;

/// The highest recording rate the receiver takes: beyond any front end an FM station is
/// received from, and the channel filter stays in the tens of thousands of taps.
pub const MAX_SAMPLE_RATE: f64 = 1e9;

/// The audio rate the receiver aims at (the WAV file's rate when the multiplex rate allows
/// an exact rational conversion).
pub const AUDIO_RATE: u32 = 48_000;

/// The rates of the receiver's stages, and its channel filter.
///
/// ```
/// use radioflow_fm::Plan;
/// let plan = Plan::new(2.4e6, 200e3, false)?;
/// assert_eq!((plan.channel_decimation, plan.mpx_rate), (10, 240e3));
/// assert_eq!((plan.audio_decimation, plan.audio_rate), (5, 48e3));
/// assert_eq!((plan.resample, plan.wav_rate), (None, 48_000));
/// // Stereo: a 480 kHz multiplex.
/// let plan = Plan::new(2.4e6, 200e3, true)?;
/// assert_eq!((plan.channel_decimation, plan.audio_decimation), (5, 10));
/// // 2.048 Msps mono: 256 kHz multiplex, 51.2 kHz audio resampled by 15/16.
/// let plan = Plan::new(2.048e6, -300e3, false)?;
/// assert_eq!((plan.mpx_rate, plan.resample, plan.wav_rate), (256e3, Some((15, 16)), 48_000));
/// # Ok::<(), radioflow_fm::FmError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The recording's rate, samples/s.
    pub sample_rate: f64,
    /// The station's frequency relative to the recording's centre, Hz.
    pub offset: f64,
    /// Recording samples per multiplex sample (the channel filter's decimation).
    pub channel_decimation: usize,
    /// The channel filter's cutoff, Hz (its -6 dB point; Hamming window).
    pub channel_cutoff: f64,
    /// The channel filter's transition width, Hz: the stop band starts at cutoff +
    /// transition / 2, at most half the multiplex rate, so nothing aliases into the channel.
    pub channel_transition: f64,
    /// The demodulated multiplex's rate (where an RDS decoder attaches), samples/s.
    pub mpx_rate: f64,
    /// Multiplex samples per audio sample.
    pub audio_decimation: usize,
    /// The audio rate after the decimation.
    pub audio_rate: f64,
    /// `(interpolation, decimation)` from `audio_rate` to [`AUDIO_RATE`] when that rate is a
    /// whole number of Hz other than it (and the factors stay small).
    pub resample: Option<(usize, usize)>,
    /// The WAV file's rate: [`AUDIO_RATE`], or `audio_rate` rounded when it cannot be
    /// converted exactly.
    pub wav_rate: u32,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Plan {
    /// The rates for a recording at `sample_rate` with the station at `offset` Hz from its
    /// centre: the channel (±110 kHz mono, ±120 kHz stereo) decimated by
    /// `⌊sample_rate / 240 kHz⌋` for mono, `⌊sample_rate / 480 kHz⌋` for stereo (at least 1),
    /// then by the whole number that comes closest to 48 kHz of audio.
    ///
    /// Why 480 kHz for stereo: `L-R` sits at 23-53 kHz of the multiplex, where an FM
    /// channel truncated to the ±120 kHz a 240 kHz rate allows loses sidebands; on GNU
    /// Radio's stereo vector (`golden/make_vectors.py`) separation is ~35 dB at 240 kHz and
    /// ~62 dB at 480 kHz.
    ///
    /// # Errors
    /// [`FmError::Option`] naming `rate` if it is not finite, below [`MIN_MPX_RATE`] or above
    /// [`MAX_SAMPLE_RATE`], or
    /// `offset` if the station's ±100 kHz do not lie inside the recording's ±rate/2.
    pub fn new(sample_rate: f64, offset: f64, stereo: bool) -> Result<Self, FmError> {
        if !(sample_rate.is_finite() && sample_rate >= MIN_MPX_RATE) {
            return Err(FmError::option(
                "rate",
                format!(
                    "{} Hz is too low for FM broadcast (at least {MIN_MPX_RATE})",
                    Num(sample_rate)
                ),
            ));
        }
        if sample_rate > MAX_SAMPLE_RATE {
            return Err(FmError::option(
                "rate",
                format!(
                    "{} samples/s is more than the receiver takes (at most {})",
                    Num(sample_rate),
                    Num(MAX_SAMPLE_RATE)
                ),
            ));
        }
        if !offset.is_finite() || offset.abs() + CHANNEL_HALF_WIDTH > sample_rate / 2.0 {
            return Err(FmError::option(
                "offset",
                format!(
                    "a station at {} Hz does not fit a recording at {} samples/s: \
                     its ±{CHANNEL_HALF_WIDTH} Hz must lie within ±{} Hz (raise --rate or \
                     bring --offset closer to 0)",
                    Num(offset),
                    Num(sample_rate),
                    Num(sample_rate / 2.0)
                ),
            ));
        }
        let target = if stereo { 480e3 } else { 240e3 };
        let channel_decimation = ((sample_rate / target).floor() as usize).max(1);
        let mpx_rate = sample_rate / channel_decimation as f64;
        let (channel_cutoff, channel_transition) = if stereo {
            ((mpx_rate / 2.0 - 15e3).min(120e3), 30e3)
        } else {
            ((mpx_rate / 2.0 - 10e3).min(110e3), 20e3)
        };
        let audio_decimation = ((mpx_rate / f64::from(AUDIO_RATE)).round() as usize).max(1);
        let audio_rate = mpx_rate / audio_decimation as f64;
        let (mut resample, mut wav_rate) = (None, audio_rate.round() as u32);
        if audio_rate.fract() == 0.0 && audio_rate as u32 != AUDIO_RATE {
            let a = audio_rate as u64;
            let g = gcd(a, u64::from(AUDIO_RATE));
            let (i, d) = (u64::from(AUDIO_RATE) / g, a / g);
            if i <= 1000 && d <= 1000 {
                resample = Some((i as usize, d as usize));
                wav_rate = AUDIO_RATE;
            }
        } else if audio_rate as u32 == AUDIO_RATE {
            wav_rate = AUDIO_RATE;
        }
        Ok(Self {
            sample_rate,
            offset,
            channel_decimation,
            channel_cutoff,
            channel_transition,
            mpx_rate,
            audio_decimation,
            audio_rate,
            resample,
            wav_rate,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_too_low_for_the_offset_name_the_option() {
        let e = Plan::new(250e3, 50e3, false).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("invalid --offset: a station at 50000 Hz"),
            "{e}"
        );
        let e = Plan::new(100e3, 0.0, false).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("invalid --rate: 100000 Hz is too low"),
            "{e}"
        );
        assert!(Plan::new(f64::NAN, 0.0, true).is_err());
        assert!(Plan::new(1e6, f64::INFINITY, false).is_err());
        let p = Plan::new(250e3, 25e3, true).unwrap();
        assert_eq!((p.mpx_rate, p.audio_decimation), (250e3, 5));
        assert_eq!(
            p.channel_cutoff, 110e3,
            "stop band at half the multiplex rate"
        );
        assert_eq!((p.resample, p.wav_rate), (Some((24, 25)), 48_000));
    }

    #[test]
    fn absurd_rates_are_refused_with_the_number_as_given() {
        let e = Plan::new(1e300, 0.0, true).unwrap_err().to_string();
        assert_eq!(
            e,
            "invalid --rate: 1e300 samples/s is more than the receiver takes (at most 1000000000)"
        );
        // The highest rate taken still makes audio near 48 kHz.
        let p = Plan::new(MAX_SAMPLE_RATE, 0.0, true).unwrap();
        assert!((47_000..49_000).contains(&p.wav_rate), "{p:?}");
        let e = Plan::new(2.4e6, -1e300, true).unwrap_err().to_string();
        assert!(
            e.starts_with("invalid --offset: a station at -1e300 Hz"),
            "{e}"
        );
    }
}
