//! GNU Radio's polar codes: [`PolarCode`] (block size, information bits, frozen bits, as
//! `fec.polar_encoder.make` and the decoders take them) and its encoders, [`PolarEncoder`]
//! (`fec.polar_encoder.make(N, K, positions, values, False)`) and the systematic one
//! (`fec.polar_encoder_systematic.make(N, K, positions)`).
//!
//! GNU Radio's code is Arıkan's `x = u B F⊗ⁿ`: the bits `u` (data at the positions not
//! frozen, in order; frozen bits their values) put in bit-reversed order, then the butterfly
//! `v[j] ^= v[j + h]` for `h = 1, 2, …, N/2`. Its systematic encoder codes the data, keeps
//! the code bits at the bit-reversed information positions, zeroes the rest and codes again:
//! the data then stand in the codeword at those positions.

use crate::code::Encoder;

/// A polar code as GNU Radio's objects take it.
#[derive(Debug, Clone, PartialEq)]
pub struct PolarCode {
    /// Code bits (a power of 2) and its exponent.
    n: usize,
    power: u32,
    /// Data bits.
    k: usize,
    /// Frozen positions (ascending) and their values (zeros where not given).
    frozen: Vec<usize>,
    values: Vec<u8>,
    /// Per position, whether it is frozen.
    is_frozen: Vec<bool>,
    /// The positions not frozen, ascending, and each bit reversed.
    info: Vec<usize>,
    info_reversed: Vec<usize>,
}

/// `i`'s lowest `bits` bits reversed.
pub(crate) fn bit_reverse(i: usize, bits: u32) -> usize {
    if bits == 0 {
        0
    } else {
        i.reverse_bits() >> (usize::BITS - bits)
    }
}

/// GNU Radio's polar transform in place: `v` in bit-reversed order, then the butterfly.
pub(crate) fn transform(v: &mut [u8], power: u32) {
    let n = v.len();
    for i in 0..n {
        let r = bit_reverse(i, power);
        if r > i {
            v.swap(i, r);
        }
    }
    let mut h = 1;
    while h < n {
        for start in (0..n).step_by(2 * h) {
            for j in start..start + h {
                v[j] ^= v[j + h];
            }
        }
        h *= 2;
    }
}

impl PolarCode {
    /// The code of `n` bits (a power of 2, at least 2) carrying `k` data bits, frozen at
    /// `frozen` (ascending, `n - k` of them) to `values` (zeros for those not given).
    ///
    /// # Errors
    /// The parameter at fault (`block_size`, `num_info_bits`, `frozen_bit_positions`,
    /// `frozen_bit_values`) and why, where GNU Radio throws or would read out of bounds.
    pub fn new(
        n: usize,
        k: usize,
        frozen: Vec<usize>,
        mut values: Vec<u8>,
    ) -> Result<Self, (&'static str, String)> {
        if n < 2 || !n.is_power_of_two() || n > 1 << 20 {
            return Err((
                "block_size",
                format!("{n} is not a power of 2 from 2 to 2^20"),
            ));
        }
        if k == 0 || k > n {
            return Err(("num_info_bits", format!("{k} is not from 1 to {n}")));
        }
        if frozen.len() != n - k {
            return Err((
                "frozen_bit_positions",
                format!(
                    "{} positions, not block_size - num_info_bits = {}",
                    frozen.len(),
                    n - k
                ),
            ));
        }
        if frozen.windows(2).any(|w| w[0] >= w[1]) || frozen.last().is_some_and(|p| *p >= n) {
            return Err((
                "frozen_bit_positions",
                format!("not ascending positions below {n} (GNU Radio walks them in order)"),
            ));
        }
        if values.len() > frozen.len() {
            return Err((
                "frozen_bit_values",
                format!("{} values for {} frozen bits", values.len(), frozen.len()),
            ));
        }
        if values.iter().any(|v| *v > 1) {
            return Err(("frozen_bit_values", "values other than 0 and 1".into()));
        }
        values.resize(frozen.len(), 0);
        let power = n.trailing_zeros();
        let mut is_frozen = vec![false; n];
        for p in &frozen {
            is_frozen[*p] = true;
        }
        let info: Vec<usize> = (0..n).filter(|i| !is_frozen[*i]).collect();
        let info_reversed = info.iter().map(|i| bit_reverse(*i, power)).collect();
        Ok(Self {
            n,
            power,
            k,
            frozen,
            values,
            is_frozen,
            info,
            info_reversed,
        })
    }

    /// Code bits per block.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Data bits per block.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The frozen positions, ascending.
    pub fn frozen(&self) -> &[usize] {
        &self.frozen
    }

    /// The frozen bits' values.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    pub(crate) fn power(&self) -> u32 {
        self.power
    }

    /// The frozen value of position `i`, `None` for a data position.
    pub(crate) fn frozen_value(&self, i: usize) -> Option<u8> {
        if self.is_frozen[i] {
            let j = self.frozen.partition_point(|p| *p < i);
            Some(self.values[j])
        } else {
            None
        }
    }

    pub(crate) fn info(&self) -> &[usize] {
        &self.info
    }

    pub(crate) fn info_reversed(&self) -> &[usize] {
        &self.info_reversed
    }

    /// `u`: the data at the information positions, the frozen values elsewhere.
    fn place(&self, data: &[u8], u: &mut [u8]) {
        for (p, v) in self.frozen.iter().zip(&self.values) {
            u[*p] = *v;
        }
        for (p, d) in self.info.iter().zip(data) {
            u[*p] = d & 1;
        }
    }
}

/// GNU Radio's polar encoders: `fec.polar_encoder.make(N, K, positions, values, False)` and
/// (`systematic`) `fec.polar_encoder_systematic.make(N, K, positions)`, one block of `K`
/// data bits per frame, always.
#[derive(Debug, Clone)]
pub struct PolarEncoder {
    code: PolarCode,
    systematic: bool,
    scratch: Vec<u8>,
}

impl PolarEncoder {
    /// An encoder of `code`, systematic or not.
    pub fn new(code: PolarCode, systematic: bool) -> Self {
        Self {
            scratch: vec![0; code.n],
            code,
            systematic,
        }
    }
}

impl Encoder for PolarEncoder {
    fn input_size(&self) -> usize {
        self.code.k
    }
    fn output_size(&self) -> usize {
        self.code.n
    }
    fn encode(&mut self, input: &[u8], output: &mut [u8]) {
        let c = &self.code;
        self.code.place(input, output);
        transform(output, c.power);
        if self.systematic {
            self.scratch.fill(0);
            for (i, r) in c.info.iter().zip(&c.info_reversed) {
                self.scratch[*i] = output[*r];
            }
            output.copy_from_slice(&self.scratch);
            transform(output, c.power);
        }
    }
    /// Refused (`false`) whatever `bits` is: one block per frame, as GNU Radio's.
    fn set_frame_size(&mut self, _bits: usize) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transform_is_its_own_inverse_and_systematic_codes_carry_the_data() {
        let code = PolarCode::new(8, 4, vec![0, 1, 2, 4], vec![]).unwrap();
        let mut v: Vec<u8> = vec![1, 0, 1, 1, 0, 0, 1, 0];
        let w = v.clone();
        transform(&mut v, 3);
        transform(&mut v, 3);
        assert_eq!(v, w);
        let mut enc = PolarEncoder::new(code.clone(), true);
        let mut x = [0u8; 8];
        enc.encode(&[1, 0, 1, 1], &mut x);
        let data: Vec<u8> = code.info_reversed().iter().map(|r| x[*r]).collect();
        assert_eq!(data, [1, 0, 1, 1]);
    }

    #[test]
    fn bad_parameters_are_named() {
        assert_eq!(
            PolarCode::new(12, 4, vec![], vec![]).unwrap_err().0,
            "block_size"
        );
        assert_eq!(
            PolarCode::new(8, 4, vec![0, 2, 1, 4], vec![])
                .unwrap_err()
                .0,
            "frozen_bit_positions"
        );
        assert_eq!(
            PolarCode::new(8, 4, vec![0, 1, 2, 4], vec![0; 5])
                .unwrap_err()
                .0,
            "frozen_bit_values"
        );
    }
}
