//! SigMF's `core:datatype`: the sample format of a recording, and the conversions between its
//! bytes and `f32` scalars (a complex sample is two scalars, I then Q).
//!
//! Integers are scaled to about ±1 as [`radioflow_dsp::sample_format`] does: signed `v / 2^(b-1)`,
//! unsigned `(v - m) / m` with `m = (2^b - 1) / 2` (so `cu8` is rtl_sdr's `(v - 127.5) / 127.5`);
//! writing rounds to nearest and saturates. Floats are taken as they are (`f64` rounded to `f32`).

use std::fmt;

/// The scalar type of a SigMF datatype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarFormat {
    /// `f64`.
    F64,
    /// `f32`.
    F32,
    /// `i32`.
    I32,
    /// `i16`.
    I16,
    /// `i8`.
    I8,
    /// `u32`.
    U32,
    /// `u16`.
    U16,
    /// `u8`.
    U8,
}

impl ScalarFormat {
    const NAMES: [(&'static str, ScalarFormat); 8] = [
        ("f64", ScalarFormat::F64),
        ("f32", ScalarFormat::F32),
        ("i32", ScalarFormat::I32),
        ("i16", ScalarFormat::I16),
        ("i8", ScalarFormat::I8),
        ("u32", ScalarFormat::U32),
        ("u16", ScalarFormat::U16),
        ("u8", ScalarFormat::U8),
    ];

    /// Bytes of one scalar.
    pub fn bytes(self) -> usize {
        match self {
            ScalarFormat::F64 => 8,
            ScalarFormat::F32 | ScalarFormat::I32 | ScalarFormat::U32 => 4,
            ScalarFormat::I16 | ScalarFormat::U16 => 2,
            ScalarFormat::I8 | ScalarFormat::U8 => 1,
        }
    }

    fn name(self) -> &'static str {
        Self::NAMES.iter().find(|(_, f)| *f == self).unwrap().0
    }
}

/// A SigMF datatype such as `cf32_le`, `ci16_le`, `cu8` or `rf32_be`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Datatype {
    /// Complex (`c`: I and Q interleaved) or real (`r`).
    pub complex: bool,
    /// The scalar type.
    pub format: ScalarFormat,
    /// `_be`; always `false` for one-byte formats, which have no byte order.
    pub big_endian: bool,
}

/// A `core:datatype` string that is not a SigMF datatype (or names several channels'
/// formats, which are not read).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a SigMF datatype (c or r, then f64, f32, i32, i16, i8, u32, u16 or u8, then \
     _le or _be unless 8-bit: cf32_le, ci16_le, cu8, ...)"
)]
pub struct UnknownDatatype(pub String);

impl Datatype {
    /// `cf32_le`.
    pub const CF32_LE: Datatype = Datatype {
        complex: true,
        format: ScalarFormat::F32,
        big_endian: false,
    };

    /// Parses `cf32_le`, `ri16_be`, `cu8`, ...
    ///
    /// # Errors
    /// Not a datatype this reads.
    pub fn parse(text: &str) -> Result<Self, UnknownDatatype> {
        let bad = || UnknownDatatype(text.to_owned());
        let complex = match text.as_bytes().first() {
            Some(b'c') => true,
            Some(b'r') => false,
            _ => return Err(bad()),
        };
        let rest = &text[1..];
        let (scalar, order) = rest.split_once('_').unwrap_or((rest, ""));
        let format = ScalarFormat::NAMES
            .iter()
            .find(|(n, _)| *n == scalar)
            .ok_or_else(bad)?
            .1;
        let big_endian = match (order, format.bytes()) {
            ("", 1) => false,
            ("le", b) if b > 1 => false,
            ("be", b) if b > 1 => true,
            _ => return Err(bad()),
        };
        Ok(Self {
            complex,
            format,
            big_endian,
        })
    }

    /// Scalars per sample: 2 for complex, 1 for real.
    pub fn scalars(self) -> usize {
        if self.complex {
            2
        } else {
            1
        }
    }

    /// Bytes of one sample.
    pub fn sample_bytes(self) -> usize {
        self.scalars() * self.format.bytes()
    }

    /// Converts `bytes` (whole scalars of this datatype) to scalars in `out`.
    ///
    /// # Panics
    /// `bytes` does not hold exactly `out.len()` scalars.
    pub fn decode(self, bytes: &[u8], out: &mut [f32]) {
        let size = self.format.bytes();
        assert_eq!(bytes.len(), out.len() * size, "decode: lengths differ");
        macro_rules! each {
            ($t:ty, $n:literal, $f:expr) => {{
                let f = $f;
                for (o, b) in out.iter_mut().zip(bytes.chunks_exact($n)) {
                    let b: [u8; $n] = b.try_into().unwrap();
                    let v = if self.big_endian {
                        <$t>::from_be_bytes(b)
                    } else {
                        <$t>::from_le_bytes(b)
                    };
                    *o = f(v);
                }
            }};
        }
        match self.format {
            ScalarFormat::F64 => each!(f64, 8, |v: f64| v as f32),
            ScalarFormat::F32 => each!(f32, 4, |v: f32| v),
            ScalarFormat::I32 => each!(i32, 4, |v: i32| (f64::from(v) / 2147483648.0) as f32),
            ScalarFormat::I16 => each!(i16, 2, |v: i16| f32::from(v) / 32768.0),
            ScalarFormat::I8 => each!(i8, 1, |v: i8| f32::from(v) / 128.0),
            ScalarFormat::U32 => each!(u32, 4, |v: u32| {
                ((f64::from(v) - 2147483647.5) / 2147483647.5) as f32
            }),
            ScalarFormat::U16 => each!(u16, 2, |v: u16| (f32::from(v) - 32767.5) / 32767.5),
            ScalarFormat::U8 => each!(u8, 1, |v: u8| (f32::from(v) - 127.5) / 127.5),
        }
    }

    /// Converts scalars to this datatype's bytes, appended to `out` (rounding to nearest and
    /// saturating for integers).
    pub fn encode(self, input: &[f32], out: &mut Vec<u8>) {
        out.reserve(input.len() * self.format.bytes());
        macro_rules! each {
            ($f:expr) => {{
                let f = $f;
                for &v in input {
                    let x = f(v);
                    if self.big_endian {
                        out.extend_from_slice(&x.to_be_bytes());
                    } else {
                        out.extend_from_slice(&x.to_le_bytes());
                    }
                }
            }};
        }
        // `as` from a float saturates at the integer type's range (NaN becomes 0).
        match self.format {
            ScalarFormat::F64 => each!(f64::from),
            ScalarFormat::F32 => each!(|v: f32| v),
            ScalarFormat::I32 => each!(|v: f32| (f64::from(v) * 2147483648.0).round() as i32),
            ScalarFormat::I16 => each!(|v: f32| (v * 32768.0).round() as i16),
            ScalarFormat::I8 => each!(|v: f32| (v * 128.0).round() as i8),
            ScalarFormat::U32 => {
                each!(|v: f32| (f64::from(v) * 2147483647.5 + 2147483647.5).round() as u32)
            }
            ScalarFormat::U16 => each!(|v: f32| (v * 32767.5 + 32767.5).round() as u16),
            ScalarFormat::U8 => each!(|v: f32| (v * 127.5 + 127.5).round() as u8),
        }
    }
}

impl fmt::Display for Datatype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.complex { "c" } else { "r" };
        write!(f, "{kind}{}", self.format.name())?;
        match (self.format.bytes(), self.big_endian) {
            (1, _) => Ok(()),
            (_, true) => f.write_str("_be"),
            (_, false) => f.write_str("_le"),
        }
    }
}

impl std::str::FromStr for Datatype {
    type Err = UnknownDatatype;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl serde::Serialize for Datatype {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Datatype {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Self::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "cf32_le", "cf32_be", "cf64_le", "ci32_le", "ci16_le", "ci16_be", "ci8", "cu8",
            "cu16_le", "cu32_be", "rf32_le", "rf64_be", "ri16_le", "ri8", "ru8",
        ] {
            assert_eq!(Datatype::parse(name).unwrap().to_string(), name);
        }
        for bad in [
            "",
            "cf32",
            "ci8_le",
            "xf32_le",
            "cf16_le",
            "cf32_le_x",
            "cf32_le,cf32_le",
        ] {
            assert!(Datatype::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn conversions_match_the_documented_scales() {
        let cases: [(&str, &[u8], f32); 7] = [
            ("ri16_le", &[0x00, 0x40], 0.5),
            ("ri16_be", &[0x40, 0x00], 0.5),
            ("ri8", &[0x80], -1.0),
            ("ru8", &[255], 1.0),
            ("ru16_le", &[0, 0], -1.0),
            ("rf32_be", &[0x3f, 0x00, 0x00, 0x00], 0.5),
            ("rf64_le", &0.25f64.to_le_bytes(), 0.25),
        ];
        for (name, bytes, want) in cases {
            let d = Datatype::parse(name).unwrap();
            let mut out = [0.0f32];
            d.decode(bytes, &mut out);
            assert_eq!(out[0], want, "{name}");
            let mut back = Vec::new();
            d.encode(&out, &mut back);
            assert_eq!(back, bytes, "{name}");
        }
    }

    #[test]
    fn every_format_round_trips_within_its_step_and_saturates() {
        let values: Vec<f32> = (0..201).map(|i| (i as f32 - 100.0) / 101.0).collect();
        for name in [
            "cf64_le", "ci32_be", "ci16_le", "ci8", "cu8", "cu16_be", "cu32_le",
        ] {
            let d = Datatype::parse(name).unwrap();
            let mut bytes = Vec::new();
            d.encode(&values, &mut bytes);
            assert_eq!(bytes.len(), values.len() * d.format.bytes());
            let mut back = vec![0.0; values.len()];
            d.decode(&bytes, &mut back);
            let step = 1.0 / (1u64 << (8 * d.format.bytes() - 1).min(24)) as f32;
            for (a, b) in values.iter().zip(&back) {
                assert!((a - b).abs() <= step, "{name}: {a} -> {b}");
            }
            let mut big = Vec::new();
            d.encode(&[4.0, -4.0], &mut big);
            let mut clipped = [0.0; 2];
            d.decode(&big, &mut clipped);
            assert!(
                clipped[0] > 0.99 && clipped[1] < -0.99,
                "{name}: {clipped:?}"
            );
        }
    }
}
