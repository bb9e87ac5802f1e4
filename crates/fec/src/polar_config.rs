//! Polar channel construction as GNU Radio's `polar.load_frozen_bits_info` does it for a
//! binary erasure channel (GRC's `variable_polar_code_configurator`): Bhattacharyya
//! parameters by Arıkan's recursion, the least reliable positions frozen.

/// The frozen positions (ascending) of a code of `n` bits carrying `k` for a binary erasure
/// channel of design SNR `design_snr` dB: GNU Radio's `bhattacharyya_bounds` (erasure
/// probability `exp(-10^(snr/10))`, each step `2z - z²` then `z²` per parameter, in f64),
/// then the `n - k` largest parameters, the first of equal ones first, sorted.
///
/// # Errors
/// The parameter at fault and why, as GNU Radio's Python raises.
pub fn bec_frozen_positions(
    n: usize,
    k: usize,
    design_snr: f64,
) -> Result<Vec<usize>, (&'static str, String)> {
    if n < 2 || !n.is_power_of_two() || n > 1 << 20 {
        return Err((
            "block_size",
            format!("{n} is not a power of 2 from 2 to 2^20"),
        ));
    }
    if k == 0 || k > n {
        return Err(("num_info_bits", format!("{k} is not from 1 to {n}")));
    }
    if design_snr < -1.5917 || design_snr.is_nan() {
        return Err((
            "design_snr",
            format!("{design_snr} is below -1.5917 dB (GNU Radio refuses it)"),
        ));
    }
    let eta = (-(10f64.powf(design_snr / 10.0))).exp();
    let mut z = vec![eta];
    while z.len() < n {
        z = z
            .iter()
            .flat_map(|z| {
                let sq = z * z;
                [2.0 * z - sq, sq]
            })
            .collect();
    }
    let mut order: Vec<usize> = (0..n).collect();
    // Largest first; equal ones by position (numpy's argmax takes the first).
    order.sort_by(|a, b| z[*b].total_cmp(&z[*a]).then(a.cmp(b)));
    let mut frozen = order[..n - k].to_vec();
    frozen.sort_unstable();
    Ok(frozen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_reliable_positions_freeze_and_bad_values_are_named() {
        // N = 4 at eta 0.5: z = [0.9375, 0.5625, 0.4375, 0.0625].
        assert!(bec_frozen_positions(4, 2, -1.5917).is_ok());
        let f = bec_frozen_positions(8, 4, 0.0).unwrap();
        assert_eq!(f.len(), 4);
        assert!(f.contains(&0) && !f.contains(&7));
        assert_eq!(bec_frozen_positions(6, 2, 0.0).unwrap_err().0, "block_size");
        assert_eq!(
            bec_frozen_positions(8, 2, -2.0).unwrap_err().0,
            "design_snr"
        );
    }
}
