//! [`CosTable`]: GNU Radio gr-channels' cosine table (`sincostable`), sines and cosines by
//! lookup.

/// Entries of the table gr-channels' models make.
const TABLE: usize = 8 * 1024;

/// Cosines of `2π i / 8192` in `f32`, looked up at the truncated index as GNU Radio's
/// `sincostable` does for its fading and CFO models (error up to about 8e-4), so that they
/// give GNU Radio's numbers.
#[derive(Clone, Debug)]
pub(crate) struct CosTable {
    cos: Box<[f32]>,
    /// `TABLE / 2π`, as `f32`.
    scale: f32,
}

impl CosTable {
    pub(crate) fn new() -> Self {
        let pi = std::f64::consts::PI;
        Self {
            cos: (0..TABLE)
                .map(|i| (2.0 * pi * i as f64 / TABLE as f64).cos() as f32)
                .collect(),
            scale: (TABLE as f64 / (pi * 2.0)) as f32,
        }
    }

    /// The entry `shift` after the one of `x` (C's truncation of `x · scale`, wrapped).
    fn at(&self, x: f32, shift: usize) -> f32 {
        let i = ((x * self.scale) as i32 as i64 + shift as i64).rem_euclid(TABLE as i64);
        self.cos[i as usize]
    }

    /// `cos x` for `x` in about `[-2π, 2π]`.
    pub(crate) fn cos(&self, x: f32) -> f32 {
        self.at(x, TABLE)
    }

    /// `sin x` for `x` in about `[-2π, 2π]`: the cosine a quarter turn back.
    pub(crate) fn sin(&self, x: f32) -> f32 {
        self.at(x, TABLE - TABLE / 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_up_sines_and_cosines() {
        let t = CosTable::new();
        for x in [-6.2f32, -3.1, -1.0, 0.0, 0.5, 2.0, 3.1, 6.2] {
            assert!((t.cos(x) - x.cos()).abs() < 1e-3, "{x}");
            assert!((t.sin(x) - x.sin()).abs() < 1e-3, "{x}");
        }
    }
}
