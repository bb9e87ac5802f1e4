//! [`Encoder`]: a station's PI, PS and RadioText to an RDS subcarrier signal, to be added to
//! an FM multiplex (for tests and demonstration signals).

use crate::checkword::{encode_block, Offset, BLOCK_BITS};
use crate::demod::{MIN_RATE_HZ, SUBCARRIER_HZ};
use crate::error::RdsError;
use crate::shaping::{pulse, HALF_SYMBOL_RATE, SPAN};
use radioflow_dsp::Nco;

/// Pulse table resolution: entries per half-symbol period.
const TABLE_RES: usize = 128;

/// Samples generated per pass (the carrier scratch buffer's size).
const CHUNK: usize = 1024;

/// The default [`Encoder`] level: 0.05 of a multiplex whose full scale (±1) is the peak
/// deviation, about the usual RDS injection of 3.75 kHz at ±75 kHz.
pub const DEFAULT_LEVEL: f32 = 0.05;

/// What an [`Encoder`] transmits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StationInfo {
    /// Programme identification code.
    pub pi: u16,
    /// Programme service name, padded with spaces to 8 characters.
    pub ps: [u8; 8],
    /// RadioText, up to 64 characters; shorter texts are ended by a carriage return.
    pub radiotext: Vec<u8>,
    /// Programme type (0..=31).
    pub pty: u8,
    /// Traffic programme and traffic announcement flags.
    pub tp: bool,
    /// Traffic announcement flag.
    pub ta: bool,
}

impl StationInfo {
    /// A station with PTY 0 and TP/TA clear.
    ///
    /// # Errors
    /// [`RdsError::TextLength`] if `ps` is longer than 8 or `radiotext` than 64 bytes.
    pub fn new(pi: u16, ps: &str, radiotext: &str) -> Result<Self, RdsError> {
        let too_long = |field, len, max| RdsError::TextLength { field, len, max };
        if ps.len() > 8 {
            return Err(too_long("ps", ps.len(), 8));
        }
        if radiotext.len() > 64 {
            return Err(too_long("radiotext", radiotext.len(), 64));
        }
        let mut name = [b' '; 8];
        name[..ps.len()].copy_from_slice(ps.as_bytes());
        Ok(Self {
            pi,
            ps: name,
            radiotext: radiotext.as_bytes().to_vec(),
            pty: 0,
            tp: false,
            ta: false,
        })
    }

    /// The groups transmitted, in order, repeated: 0A (PS segment k mod 4) and 2A
    /// (RadioText segment k mod n) alternating until both have cycled a whole number of
    /// times.
    pub fn groups(&self) -> Vec<[u16; 4]> {
        let mut text = [b' '; 64];
        text[..self.radiotext.len()].copy_from_slice(&self.radiotext);
        let mut text_len = self.radiotext.len();
        if text_len < 64 {
            text[text_len] = 0x0d;
            text_len += 1;
        }
        let rt_segments = text_len.div_ceil(4);
        let common = (u16::from(self.tp) << 10) | (u16::from(self.pty & 0x1f) << 5);
        let mut groups = Vec::new();
        for k in 0..4 * rt_segments {
            let seg = k % 4;
            // 0A: TA, music, DI bit 0, segment; block 3 "no AF" (224) and filler (205).
            let b = common | (u16::from(self.ta) << 4) | (1 << 3) | seg as u16;
            let ps = u16::from_be_bytes([self.ps[2 * seg], self.ps[2 * seg + 1]]);
            groups.push([self.pi, b, 0xE0CD, ps]);
            let seg = k % rt_segments;
            let c = u16::from_be_bytes([text[4 * seg], text[4 * seg + 1]]);
            let d = u16::from_be_bytes([text[4 * seg + 2], text[4 * seg + 3]]);
            groups.push([self.pi, (2 << 12) | common | seg as u16, c, d]);
        }
        groups
    }
}

/// An RDS encoder: groups 0A and 2A from a [`StationInfo`], checkwords and offset words,
/// differential encoding, biphase symbols shaped with the transmitter half of the standard's
/// data shaping (EN 50067 §1.7: `√cos(π·f·t_d/4)` up to `2/t_d`), on a 57 kHz carrier, at any
/// sample rate of at least 128 kHz. Allocates only in `new`.
#[derive(Clone, Debug)]
pub struct Encoder {
    /// The group sequence's bits, repeated forever.
    bits: Vec<u8>,
    /// The shaping pulse sampled at `1/TABLE_RES` half-symbols over `±SPAN`.
    table: Vec<f32>,
    carrier: Nco,
    scratch: Vec<f32>,
    /// Half-symbols per output sample.
    step: f64,
    /// Output samples produced.
    n: u64,
    /// Half-symbol amplitudes, by index modulo the ring's length, up to `made` (exclusive).
    ring: [f32; 32],
    made: u64,
    /// The last differentially encoded bit.
    prev: u8,
    level: f32,
}

impl Encoder {
    /// An encoder for `info` at `sample_rate_hz`, at [`DEFAULT_LEVEL`].
    ///
    /// # Errors
    /// [`RdsError::SampleRate`] if the rate is not finite or below 128 kHz.
    pub fn new(sample_rate_hz: f64, info: &StationInfo) -> Result<Self, RdsError> {
        if !(sample_rate_hz.is_finite() && sample_rate_hz >= MIN_RATE_HZ) {
            return Err(RdsError::SampleRate(sample_rate_hz));
        }
        let bits = info
            .groups()
            .iter()
            .flat_map(|g| {
                let offsets = [Offset::A, Offset::B, Offset::C, Offset::D];
                (0..4).flat_map(move |i| {
                    let block = encode_block(g[i], offsets[i]);
                    (0..BLOCK_BITS).rev().map(move |b| ((block >> b) & 1) as u8)
                })
            })
            .collect();
        let peak = pulse(0.0);
        let reach = SPAN as usize * TABLE_RES;
        let table = (0..=2 * reach)
            .map(|k| (pulse((k as f64 - reach as f64) / TABLE_RES as f64) / peak) as f32)
            .collect();
        Ok(Self {
            bits,
            table,
            carrier: Nco::new(SUBCARRIER_HZ, sample_rate_hz),
            scratch: vec![0.0; CHUNK],
            step: HALF_SYMBOL_RATE / sample_rate_hz,
            n: 0,
            ring: [0.0; 32],
            made: 0,
            prev: 0,
            level: DEFAULT_LEVEL,
        })
    }

    /// Sets the level: the peak of one isolated shaped biphase impulse on the carrier.
    ///
    /// # Errors
    /// [`RdsError::Level`] if `level` is not finite and positive.
    pub fn with_level(mut self, level: f32) -> Result<Self, RdsError> {
        if !(level.is_finite() && level > 0.0) {
            return Err(RdsError::Level(level));
        }
        self.level = level;
        Ok(self)
    }

    /// Moves the subcarrier to `hz` (57 kHz nominal), keeping the bit rate, to test a
    /// receiver's carrier recovery.
    pub fn with_carrier_hz(mut self, hz: f64, sample_rate_hz: f64) -> Self {
        self.carrier.set_frequency(hz, sample_rate_hz);
        self
    }

    /// Adds the next `mpx.len()` samples of the RDS signal to `mpx`.
    pub fn add_to(&mut self, mpx: &mut [f32]) {
        let mut scratch = std::mem::take(&mut self.scratch);
        for chunk in mpx.chunks_mut(CHUNK) {
            let carrier = &mut scratch[..chunk.len()];
            self.carrier.fill_cos(carrier, self.level, 0.0);
            for (out, &c) in chunk.iter_mut().zip(carrier.iter()) {
                let u = self.n as f64 * self.step;
                self.n += 1;
                // Half-symbols h with |u - h| < SPAN contribute.
                let first = (u - SPAN).floor().max(-1.0) as i64 + 1;
                let last = (u + SPAN).ceil() as i64 - 1;
                let mut sum = 0.0f32;
                for h in first..=last {
                    let pos = (u - h as f64 + SPAN) * TABLE_RES as f64;
                    let k = pos as usize;
                    let frac = (pos - k as f64) as f32;
                    let (a, b) = (self.table[k], *self.table.get(k + 1).unwrap_or(&0.0));
                    sum += self.half_symbol(h as u64) * (a + (b - a) * frac);
                }
                *out += sum * c;
            }
        }
        self.scratch = scratch;
    }

    /// The amplitude (±1) of half-symbol `h`, generating bits as needed. Only the last 32
    /// are kept, which covers the pulse's span.
    fn half_symbol(&mut self, h: u64) -> f32 {
        while self.made <= h {
            let bit_index = (self.made / 2) as usize % self.bits.len();
            if self.made.is_multiple_of(2) {
                // Differential encoding: e[i] = d[i] ⊕ e[i−1] (EN 50067 §1.6).
                self.prev ^= self.bits[bit_index];
            }
            // Biphase: a 1 is a positive then a negative impulse, a 0 the reverse.
            let first_half = if self.prev == 1 { 1.0 } else { -1.0 };
            let sign = if self.made.is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
            self.ring[(self.made % 32) as usize] = first_half * sign;
            self.made += 1;
        }
        self.ring[(h % 32) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_dsp::{firdes::Window, Complex32, Spectrum};

    /// Fractions of the encoder's power within `±2.4 kHz` and beyond `±4 kHz` of 57 kHz.
    fn band_fractions(rate: f64) -> (f64, f64) {
        let info = StationInfo::new(0x1234, "SPECTRUM", "The quick brown fox").unwrap();
        let mut encoder = Encoder::new(rate, &info).unwrap();
        let size = 4096;
        let mut spectrum = Spectrum::new(size, Window::Blackman, false).unwrap();
        let (mut frame, mut db) = (vec![0.0f32; size], vec![0.0f32; size]);
        let mut power = vec![0.0f64; size / 2];
        for _ in 0..40 {
            frame.iter_mut().for_each(|x| *x = 0.0);
            encoder.add_to(&mut frame);
            let complex: Vec<Complex32> = frame.iter().map(|&x| Complex32::new(x, 0.0)).collect();
            spectrum.process(&complex, &mut db);
            for (p, &d) in power.iter_mut().zip(&db) {
                *p += 10f64.powf(f64::from(d) / 10.0);
            }
        }
        let total: f64 = power.iter().sum();
        let offset = |k: usize| (k as f64 * rate / size as f64 - SUBCARRIER_HZ).abs();
        let within = |lo: f64, hi: f64| {
            (0..size / 2)
                .filter(|&k| (lo..hi).contains(&offset(k)))
                .map(|k| power[k])
                .sum::<f64>()
                / total
        };
        (within(0.0, 2_400.0), within(4_000.0, f64::INFINITY))
    }

    /// Measured: 0.99999 within ±2.4 kHz, 6e-10 (-92 dB) beyond ±4 kHz at both rates.
    #[test]
    fn spectrum_stays_within_the_rds_band() {
        for rate in [240e3, 250e3] {
            let (inside, far) = band_fractions(rate);
            assert!(
                inside > 0.9999,
                "{rate}: {inside} of the power within ±2.4 kHz"
            );
            assert!(far < 1e-7, "{rate}: {far} of the power beyond ±4 kHz");
        }
    }

    #[test]
    fn groups_carry_ps_and_radiotext_with_a_carriage_return() {
        let info = StationInfo::new(0xABCD, "PS", "Hi").unwrap();
        let groups = info.groups();
        // "Hi\r" fits one segment: 0A segments 0..3 interleaved with 2A segment 0.
        assert_eq!(groups.len(), 8);
        assert_eq!(groups[0][3], u16::from_be_bytes(*b"PS"));
        assert_eq!(groups[2][1] & 3, 1);
        assert_eq!(groups[1][1] >> 12, 2);
        assert_eq!(groups[1][2..], [u16::from_be_bytes(*b"Hi"), 0x0d20]);
        assert!(groups.iter().all(|g| g[0] == 0xABCD));
    }
}
