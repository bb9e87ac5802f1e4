//! [`NoiseType`] and [`NoiseItem`]: the distributions and item types of the noise sources
//! ([`NoiseSource`](crate::NoiseSource), [`FastNoiseSource`](crate::FastNoiseSource)).

use radioflow_dsp::GrRandom;
use radioflow_runtime::prelude::*;
use radioflow_runtime::FromMessage;

/// The distribution of a noise source (GNU Radio's `noise_type_t`), each scaled by the
/// source's amplitude `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoiseType {
    /// Uniform in `[-a, a)` (`GR_UNIFORM`, 200).
    Uniform,
    /// Gaussian with mean 0 and standard deviation `a` (`GR_GAUSSIAN`, 201).
    Gaussian,
    /// Laplacian with density `e^{-|x|/a} / 2a`: mean 0, variance `2a²` (`GR_LAPLACIAN`,
    /// 202).
    Laplacian,
    /// Mostly 0; with probability `e^{-9/√2}` (one in about 580) an impulse above `9a`,
    /// exponentially distributed (`a · z` for `z = -√2 ln u` where `z > 9`; `GR_IMPULSE`,
    /// 203).
    Impulse,
}

impl NoiseType {
    /// The names [`FromStr`](std::str::FromStr) takes.
    pub const WORDS: [&'static str; 4] = ["uniform", "gaussian", "laplacian", "impulse"];

    /// The name ([`WORDS`](Self::WORDS)).
    pub fn name(self) -> &'static str {
        Self::WORDS[self as usize]
    }
}

impl std::fmt::Display for NoiseType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for NoiseType {
    type Err = String;

    /// `uniform`, `gaussian`, `laplacian` or `impulse`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match Self::WORDS.iter().position(|w| *w == s) {
            Some(0) => Ok(Self::Uniform),
            Some(1) => Ok(Self::Gaussian),
            Some(2) => Ok(Self::Laplacian),
            Some(_) => Ok(Self::Impulse),
            None => Err(format!("no noise type '{s}' ({})", Self::WORDS.join(", "))),
        }
    }
}

impl FromMessage for NoiseType {
    const EXPECTS: &'static str = "a noise type (uniform, gaussian, laplacian, impulse)";

    /// A name ([`NoiseType::WORDS`]).
    fn from_message(msg: &Pmt) -> Option<Self> {
        msg.as_symbol().and_then(|s| s.parse().ok())
    }
}

/// A noise type an item type does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "complex noise is uniform or gaussian, not {0} (GNU Radio 3.10's complex noise sources \
     have no other)"
)]
pub struct UnsupportedNoise(pub NoiseType);

/// The impulse threshold of GNU Radio's noise sources (in units of the amplitude).
const IMPULSE_FACTOR: f32 = 9.0;

/// An item type the noise sources make: `Complex32`, `f32`, `i32` or `i16`, drawn as GNU
/// Radio 3.10 draws them (the same numbers for the same seed, see [`GrRandom`]).
///
/// Real items are `a · x` for the variate `x` of the type: `f32` as computed, `i32` and `i16`
/// truncated toward zero (C++'s conversion, as in GNU Radio: Gaussian noise of amplitude 1
/// is mostly 0 and ±1), saturating at the type's range where GNU Radio's conversion is
/// undefined. Complex items split the amplitude between the parts, `(a/√2)·x + j(a/√2)·y`,
/// so the power is `a²` for Gaussian noise and `a²/3` for uniform.
pub trait NoiseItem: Item {
    /// Why this item type has no noise of `kind`, if it has not.
    fn check(kind: NoiseType) -> Result<(), UnsupportedNoise> {
        let _ = kind;
        Ok(())
    }

    /// The scale of each real component for amplitude `amplitude`.
    fn scale(amplitude: f32) -> f32 {
        amplitude
    }

    /// Fills `out` with noise of `kind` times `scale` (from [`scale`](Self::scale)).
    fn fill(rng: &mut GrRandom, kind: NoiseType, scale: f32, out: &mut [Self]);
}

macro_rules! real_noise {
    ($($t:ty),*) => {$(
        impl NoiseItem for $t {
            fn fill(rng: &mut GrRandom, kind: NoiseType, a: f32, out: &mut [Self]) {
                // GNU Radio computes the uniform case in double, the others in float.
                match kind {
                    NoiseType::Uniform => out.iter_mut().for_each(|o| {
                        *o = (f64::from(a) * (f64::from(rng.uniform()) * 2.0 - 1.0)) as $t
                    }),
                    NoiseType::Gaussian => {
                        out.iter_mut().for_each(|o| *o = (a * rng.gaussian()) as $t)
                    }
                    NoiseType::Laplacian => {
                        out.iter_mut().for_each(|o| *o = (a * rng.laplacian()) as $t)
                    }
                    NoiseType::Impulse => out
                        .iter_mut()
                        .for_each(|o| *o = (a * rng.impulse(IMPULSE_FACTOR)) as $t),
                }
            }
        }
    )*};
}

real_noise!(f32, i32, i16);

impl NoiseItem for Complex32 {
    fn check(kind: NoiseType) -> Result<(), UnsupportedNoise> {
        match kind {
            NoiseType::Uniform | NoiseType::Gaussian => Ok(()),
            other => Err(UnsupportedNoise(other)),
        }
    }

    fn scale(amplitude: f32) -> f32 {
        amplitude / std::f32::consts::SQRT_2
    }

    fn fill(rng: &mut GrRandom, kind: NoiseType, a: f32, out: &mut [Self]) {
        let mut uniform = || (f64::from(a) * (f64::from(rng.uniform()) * 2.0 - 1.0)) as f32;
        match kind {
            NoiseType::Uniform => out.iter_mut().for_each(|o| {
                // GNU Radio's build evaluates the imaginary part's draw first.
                let im = uniform();
                *o = Complex32::new(uniform(), im);
            }),
            NoiseType::Gaussian => out.iter_mut().for_each(|o| {
                let im = rng.gaussian();
                *o = Complex32::new(a * rng.gaussian(), a * im);
            }),
            // Refused by `check` (GNU Radio's complex sources throw); parts drawn apart, so
            // the function is total.
            NoiseType::Laplacian => out
                .iter_mut()
                .for_each(|o| *o = Complex32::new(a * rng.laplacian(), a * rng.laplacian())),
            NoiseType::Impulse => out.iter_mut().for_each(|o| {
                let re = a * rng.impulse(IMPULSE_FACTOR);
                *o = Complex32::new(re, a * rng.impulse(IMPULSE_FACTOR))
            }),
        }
    }
}
