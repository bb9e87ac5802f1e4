//! [`DiffCoding`]: the differential encoder's and decoder's kind of coding.

use std::str::FromStr;

/// The coding of [`DiffEncoder`](crate::DiffEncoder) and [`DiffDecoder`](crate::DiffDecoder)
/// (GNU Radio's `digital.DIFF_DIFFERENTIAL`, `digital.DIFF_NRZI`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffCoding {
    /// Sums (differences) modulo the modulus.
    Differential,
    /// NRZI: a 0 bit toggles the level, a 1 keeps it (modulus 2).
    Nrzi,
}

impl FromStr for DiffCoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "differential" => Ok(DiffCoding::Differential),
            "nrzi" => Ok(DiffCoding::Nrzi),
            other => Err(format!("'{other}' is not a coding (differential or nrzi)")),
        }
    }
}

/// `Ok` if `modulus` works with `coding` (GNU Radio refuses NRZI but with 2; a modulus of 0
/// would divide by zero there).
pub(super) fn check_modulus(modulus: u32, coding: DiffCoding) -> Result<(), String> {
    if modulus == 0 {
        return Err("must be >= 1".into());
    }
    if coding == DiffCoding::Nrzi && modulus != 2 {
        return Err(format!("is {modulus}: NRZI codes bits (modulus 2)"));
    }
    Ok(())
}
