//! [`CcEncoder`]: GNU Radio's convolutional encoder (`fec.cc_encoder_make`), and the
//! [`CcMode`]s its frames end in.

use crate::code::Encoder;
use std::fmt;
use std::str::FromStr;

/// How a convolutional code's frames begin and end (GNU Radio's `fec.CC_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CcMode {
    /// The register runs on from frame to frame (`CC_STREAMING`).
    Streaming,
    /// Each frame starts in the start state and `k - 1` tail bits bring it back there
    /// (`CC_TERMINATED`: `rate · (k - 1)` more bits per frame, plus the padding).
    Terminated,
    /// Each frame starts with its own last `k - 1` bits in the register (`CC_TAILBITING`).
    Tailbiting,
    /// Each frame starts in the start state and simply stops (`CC_TRUNCATED`).
    Truncated,
}

impl CcMode {
    /// GNU Radio's name (`fec.CC_STREAMING`).
    pub fn gr_name(self) -> &'static str {
        match self {
            CcMode::Streaming => "fec.CC_STREAMING",
            CcMode::Terminated => "fec.CC_TERMINATED",
            CcMode::Tailbiting => "fec.CC_TAILBITING",
            CcMode::Truncated => "fec.CC_TRUNCATED",
        }
    }
}

impl fmt::Display for CcMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.gr_name())
    }
}

impl FromStr for CcMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        // GNU Radio's name, or it in lower case without the module (GRC's constants).
        let name = s.trim().trim_start_matches("fec.").to_ascii_uppercase();
        Ok(match name.trim_start_matches("CC_") {
            "STREAMING" => CcMode::Streaming,
            "TERMINATED" => CcMode::Terminated,
            "TAILBITING" => CcMode::Tailbiting,
            "TRUNCATED" => CcMode::Truncated,
            _ => {
                return Err(format!(
                    "'{s}' is not a convolutional code mode (fec.CC_STREAMING, \
                     fec.CC_TERMINATED, fec.CC_TAILBITING or fec.CC_TRUNCATED)"
                ))
            }
        })
    }
}

/// A convolutional code's parameters, checked (GNU Radio's arguments to `cc_encoder_make`
/// and `cc_decoder.make`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CcCode {
    /// Bits of data per frame.
    pub frame_bits: usize,
    /// Constraint length: the register holds the current bit and `k - 1` before it.
    pub k: u32,
    /// One polynomial per output bit (`1/rate` code); a negative one gives the inverted
    /// parity of its absolute value.
    pub polys: Vec<i32>,
    /// The register's state at the start of the first frame (and of every frame but in
    /// streaming mode), below `2^(k-1)`.
    pub start_state: u32,
    /// How frames begin and end.
    pub mode: CcMode,
    /// Terminated frames are padded with zero bits to a whole number of bytes.
    pub padding: bool,
}

impl CcCode {
    /// Checks the parameters GNU Radio's objects take.
    ///
    /// # Errors
    /// Naming the parameter: `k` outside 2..=8 (GNU Radio's encoder keeps its register in one
    /// byte), a polynomial wider than `k` bits or zero, no polynomial, `start_state` of more
    /// than `k - 1` bits, a frame shorter than a tailbiting code needs.
    pub fn new(
        frame_bits: usize,
        k: i64,
        rate: i64,
        polys: Vec<i32>,
        start_state: i64,
        mode: CcMode,
        padding: bool,
    ) -> Result<Self, (&'static str, String)> {
        if !(2..=8).contains(&k) {
            return Err((
                "k",
                format!(
                    "{k} is not a supported constraint length (2 to 8: GNU Radio's encoder \
                     keeps its register in one byte)"
                ),
            ));
        }
        let k = k as u32;
        if rate < 1 || rate as usize != polys.len() {
            return Err((
                "rate",
                format!(
                    "{rate} is not the number of polynomials ({}), as GNU Radio requires",
                    polys.len()
                ),
            ));
        }
        if let Some(p) = polys
            .iter()
            .find(|p| **p == 0 || p.unsigned_abs() >= 1 << k)
        {
            return Err((
                "polys",
                format!(
                    "{p} is not a polynomial of a constraint length {k} code (1 to {})",
                    (1 << k) - 1
                ),
            ));
        }
        if start_state < 0 || start_state >= 1 << (k - 1) {
            return Err((
                "state_start",
                format!("{start_state} is not a state of a {}-bit register", k - 1),
            ));
        }
        if frame_bits == 0 {
            return Err(("framebits", "a frame needs at least one bit".into()));
        }
        if mode == CcMode::Tailbiting && frame_bits < 6 * (k as usize - 1) {
            return Err((
                "framebits",
                format!(
                    "{frame_bits} bits are fewer than a tailbiting decoder reads again \
                     (6 · (k - 1) = {})",
                    6 * (k - 1)
                ),
            ));
        }
        Ok(Self {
            frame_bits,
            k,
            polys,
            start_state: start_state as u32,
            mode,
            padding,
        })
    }

    /// Bits per data bit.
    pub fn rate(&self) -> usize {
        self.polys.len()
    }

    /// Zero bits a terminated, padded frame ends with (to fill its last byte).
    pub fn padding_bits(&self) -> usize {
        let tail = self.rate() * (self.k as usize - 1);
        if self.padding && self.mode == CcMode::Terminated {
            tail.div_ceil(8) * 8 - tail
        } else {
            0
        }
    }

    /// Code bits per frame.
    pub fn encoded_bits(&self) -> usize {
        match self.mode {
            CcMode::Terminated => {
                self.rate() * (self.frame_bits + self.k as usize - 1) + self.padding_bits()
            }
            _ => self.rate() * self.frame_bits,
        }
    }

    /// The code bit of polynomial `poly` for register `state` (newest bit lowest).
    pub(crate) fn parity(poly: i32, state: u32) -> u8 {
        let p = (state & poly.unsigned_abs()).count_ones() as u8 & 1;
        p ^ u8::from(poly < 0)
    }
}

/// GNU Radio's convolutional encoder: the register shifts each data bit in at the bottom and
/// each polynomial's parity of it is one code bit (`fec.cc_encoder_make(frame_bits, k, rate,
/// polys, start_state, mode, padding)`).
#[derive(Debug, Clone)]
pub struct CcEncoder {
    code: CcCode,
    max_bits: usize,
    /// The register (a byte, as GNU Radio's, so its high bits are older data).
    state: u8,
}

impl CcEncoder {
    /// An encoder of `code`.
    pub fn new(code: CcCode) -> Self {
        let state = code.start_state as u8;
        Self {
            max_bits: code.frame_bits,
            code,
            state,
        }
    }

    fn emit(&self, state: u8, out: &mut [u8]) {
        for (o, p) in out.iter_mut().zip(&self.code.polys) {
            *o = CcCode::parity(*p, u32::from(state));
        }
    }
}

impl Encoder for CcEncoder {
    fn input_size(&self) -> usize {
        self.code.frame_bits
    }
    fn output_size(&self) -> usize {
        self.code.encoded_bits()
    }
    fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        let (k, rate, n) = (self.code.k as usize, self.code.rate(), self.code.frame_bits);
        let mut state = self.state;
        if self.code.mode == CcMode::Tailbiting {
            for b in &input[n - (k - 1)..] {
                state = (state << 1) | (b & 1);
            }
        }
        for (b, out) in input.iter().zip(output.chunks_exact_mut(rate)) {
            state = (state << 1) | (b & 1);
            self.emit(state, out);
        }
        if self.code.mode == CcMode::Terminated {
            let start = self.state;
            let tail = &mut output[n * rate..];
            for (i, out) in tail.chunks_exact_mut(rate).take(k - 1).enumerate() {
                state = (state << 1) | ((start >> (k - 2 - i)) & 1);
                self.emit(state, out);
            }
            // GNU Radio leaves the padding unwritten; zeros here.
            tail[(k - 1) * rate..].fill(0);
        }
        if self.code.mode != CcMode::Truncated {
            // GNU Radio keeps the whole byte as the next frame's start state (its low k - 1
            // bits are the start state again after a terminated frame).
            self.state = state;
        }
    }
    fn set_frame_size(&mut self, bits: usize) -> bool {
        // A tailbiting frame shorter than the register has no tail to start from.
        if bits == 0 || (self.code.mode == CcMode::Tailbiting && bits < self.code.k as usize) {
            return false;
        }
        crate::dummy::clamp_frame(&mut self.code.frame_bits, self.max_bits, bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(mode: CcMode) -> CcCode {
        CcCode::new(40, 7, 2, vec![109, 79], 0, mode, false).unwrap()
    }

    #[test]
    fn impulse_gives_the_polynomials() {
        let mut e = CcEncoder::new(code(CcMode::Truncated));
        let mut input = vec![0u8; 40];
        input[0] = 1;
        let mut out = vec![0u8; 80];
        e.encode(&input, &mut out);
        // The impulse walks up the register: output j at step t is bit t of poly j.
        for t in 0..7 {
            assert_eq!(out[2 * t], ((109 >> t) & 1) as u8, "{t}");
            assert_eq!(out[2 * t + 1], ((79 >> t) & 1) as u8, "{t}");
        }
        assert!(out[14..].iter().all(|b| *b == 0));
    }

    #[test]
    fn terminated_frames_end_in_the_start_state_and_pad() {
        let c = CcCode::new(40, 7, 2, vec![109, 79], 0, CcMode::Terminated, true).unwrap();
        assert_eq!(c.padding_bits(), 4);
        assert_eq!(c.encoded_bits(), 2 * 46 + 4);
        let mut e = CcEncoder::new(c);
        let mut out = vec![9u8; 96];
        e.encode(&[1; 40], &mut out);
        assert_eq!(e.state & 0x3f, 0);
        assert_eq!(&out[92..], &[0; 4]);
    }

    #[test]
    fn bad_parameters_are_named() {
        fn err(r: Result<CcCode, (&'static str, String)>) -> &'static str {
            r.unwrap_err().0
        }
        let m = CcMode::Streaming;
        assert_eq!(err(CcCode::new(8, 9, 2, vec![1, 3], 0, m, false)), "k");
        assert_eq!(
            err(CcCode::new(8, 7, 3, vec![109, 79], 0, m, false)),
            "rate"
        );
        assert_eq!(
            err(CcCode::new(8, 7, 2, vec![109, 200], 0, m, false)),
            "polys"
        );
        assert_eq!(
            err(CcCode::new(8, 7, 2, vec![109, 79], 64, m, false)),
            "state_start"
        );
        assert_eq!(
            err(CcCode::new(0, 7, 2, vec![109, 79], 0, m, false)),
            "framebits"
        );
        let t = CcMode::Tailbiting;
        assert_eq!(
            err(CcCode::new(35, 7, 2, vec![109, 79], 0, t, false)),
            "framebits"
        );
    }
}
