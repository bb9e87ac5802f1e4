//! The Reed-Solomon code both DVB-T Reed-Solomon blocks take from their GRC parameters.

use crate::error::SettingsError;
use crate::reed_solomon::ReedSolomon;

/// RS(`n`, `k`) over the field of `gfpoly`, shortened by `s`, `blocks` codewords a vector, as
/// block `block` takes it.
///
/// # Errors
/// `n` not 255, `k` not below `n`, `s` not below `k`, `blocks` 0, a polynomial GNU Radio
/// refuses (not generating the field), each naming `block` and the parameter.
pub(super) fn rs_code(
    block: &'static str,
    gfpoly: i64,
    n: usize,
    k: usize,
    s: usize,
    blocks: usize,
) -> Result<ReedSolomon, SettingsError> {
    if n != 255 {
        return Err(SettingsError::param(
            block,
            "n",
            format!(
                "= {n} is not supported: GF(256)'s codes are 255 bytes long (shorten with s); \
                 gr-dtv encodes 255 - (n - k) bytes of a k-byte buffer"
            ),
        ));
    }
    if k == 0 || k >= n {
        return Err(SettingsError::param(
            block,
            "k",
            format!("= {k}: must be 1 to n - 1"),
        ));
    }
    if s >= k {
        return Err(SettingsError::param(
            block,
            "s",
            format!("= {s}: must be below k = {k}"),
        ));
    }
    if blocks == 0 {
        return Err(SettingsError::param(block, "blocks", "must be at least 1"));
    }
    let poly = u32::try_from(gfpoly).map_err(|_| {
        SettingsError::param(block, "gfpoly", format!("= {gfpoly} is not a polynomial"))
    })?;
    ReedSolomon::new(poly, n - k).map_err(|e| SettingsError::param(block, "gfpoly", e))
}
