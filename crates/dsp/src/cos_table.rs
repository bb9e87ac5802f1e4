//! [`CosTable`]: GNU Radio gr-channels' cosine table (`sincostable`), sines and cosines by
//! lookup.

/// Entries of the table gr-channels' fading and CFO models make.
const TABLE: usize = 8 * 1024;

/// Cosines of `2π i / size` in `f32`, looked up at the truncated index as GNU Radio's
/// `sincostable` does for its fading and CFO models (8192 entries: error up to about 8e-4)
/// and the selective fading model's sinc (1024), so that they give GNU Radio's numbers.
#[derive(Clone, Debug)]
pub(crate) struct CosTable {
    cos: Box<[f32]>,
    /// `size / 2π`, as `f32`.
    scale: f32,
}

impl CosTable {
    /// The 8192-entry table.
    pub(crate) fn new() -> Self {
        Self::with_size(TABLE)
    }

    /// A table of `size` entries (a multiple of 4).
    pub(crate) fn with_size(size: usize) -> Self {
        let pi = std::f64::consts::PI;
        Self {
            cos: (0..size)
                .map(|i| (2.0 * pi * i as f64 / size as f64).cos() as f32)
                .collect(),
            scale: (size as f64 / (pi * 2.0)) as f32,
        }
    }

    /// The entry `shift` after the one of `x` (C's truncation of `x · scale`, wrapped).
    fn at(&self, x: f32, shift: usize) -> f32 {
        let n = self.cos.len() as i64;
        let i = ((x * self.scale) as i32 as i64 + shift as i64).rem_euclid(n);
        self.cos[i as usize]
    }

    /// `cos x`.
    pub(crate) fn cos(&self, x: f32) -> f32 {
        self.at(x, self.cos.len())
    }

    /// `sin x`: the cosine a quarter turn back.
    pub(crate) fn sin(&self, x: f32) -> f32 {
        self.at(x, self.cos.len() - self.cos.len() / 4)
    }

    /// `sin x / x`, 1 at 0.
    pub(crate) fn sinc(&self, x: f32) -> f32 {
        if x == 0.0 {
            1.0
        } else {
            self.sin(x) / x
        }
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
