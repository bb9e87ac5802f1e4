//! GF(2^m) arithmetic by log and antilog tables, for the BCH decoder.

use crate::modcod::FrameSize;

/// Log/antilog tables of GF(2^m) built from a primitive polynomial.
#[derive(Debug)]
pub(crate) struct Gf {
    /// 2^m − 1, the multiplicative order.
    order: usize,
    /// exp[i] = α^i for i in 0..2·order (doubled so that sums of two logs need no reduction).
    exp: Vec<u16>,
    /// log[x] for x ≠ 0; log[0] unused.
    log: Vec<u16>,
}

impl Gf {
    /// The field of a frame size's BCH code: the primitive polynomial is g1 of Table 6a
    /// (x^16 + x^5 + x^3 + x^2 + 1) or 6b (x^14 + x^5 + x^3 + x + 1).
    pub(crate) fn for_frame(frame: FrameSize) -> Self {
        match frame {
            FrameSize::Normal => Self::new(16, 0x1_002D),
            FrameSize::Short => Self::new(14, 0x402B),
        }
    }

    /// # Panics
    /// If `poly` (with its x^m term) is not primitive of degree `m`.
    pub(crate) fn new(m: u32, poly: u32) -> Self {
        let order = (1usize << m) - 1;
        let mut exp = vec![0u16; 2 * order];
        let mut log = vec![0u16; order + 1];
        let mut x = 1u32;
        for i in 0..order {
            exp[i] = x as u16;
            exp[i + order] = x as u16;
            assert!(i == 0 || x != 1, "polynomial {poly:#x} is not primitive");
            log[x as usize] = i as u16;
            x <<= 1;
            if x >> m != 0 {
                x ^= poly;
            }
        }
        Gf { order, exp, log }
    }

    pub(crate) fn order(&self) -> usize {
        self.order
    }

    /// α^e for any e ≥ 0.
    #[inline]
    pub(crate) fn pow(&self, e: usize) -> u16 {
        self.exp[e % self.order]
    }

    /// log_α(x), x ≠ 0.
    #[inline]
    pub(crate) fn log(&self, x: u16) -> usize {
        debug_assert!(x != 0);
        usize::from(self.log[usize::from(x)])
    }

    #[inline]
    pub(crate) fn mul(&self, a: u16, b: u16) -> u16 {
        if a == 0 || b == 0 {
            0
        } else {
            self.exp[self.log(a) + self.log(b)]
        }
    }

    /// a / b, b ≠ 0.
    #[inline]
    pub(crate) fn div(&self, a: u16, b: u16) -> u16 {
        if a == 0 {
            0
        } else {
            self.exp[self.log(a) + self.order - self.log(b)]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_a_field() {
        for frame in [FrameSize::Short, FrameSize::Normal] {
            let gf = Gf::for_frame(frame);
            // Carry-less multiplication modulo the polynomial, bit by bit.
            let (m, poly) = match frame {
                FrameSize::Normal => (16, 0x1002Du32),
                FrameSize::Short => (14, 0x402Bu32),
            };
            let slow = |a: u16, b: u16| {
                let mut r = 0u32;
                let mut a = u32::from(a);
                for k in 0..m {
                    if (b >> k) & 1 == 1 {
                        r ^= a;
                    }
                    a <<= 1;
                    if a >> m != 0 {
                        a ^= poly;
                    }
                }
                r as u16
            };
            for (a, b) in [
                (1u16, 1u16),
                (2, 3),
                (0x1234, 0x0FED),
                (0x3FFF, 0x2001),
                (7, 0),
            ] {
                assert_eq!(gf.mul(a, b), slow(a, b));
                if b != 0 {
                    assert_eq!(gf.mul(gf.div(a, b), b), a);
                }
            }
        }
    }
}
