//! Rows for gr-digital's modulators and burst shaping.

use super::common::{is_false, no_effect, only, param, row, ty};
use super::table::{GrBlock, GrParam, Mapped, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// psk_mod's `constellation_points`: a power of two (GNU Radio raises otherwise), kept
/// for [`psk_constellation`].
fn psk_points(v: &Pmt) -> Result<Pmt, String> {
    match v.as_i64() {
        Some(m) if (2..=1 << 16).contains(&m) && (m as u64).is_power_of_two() => Ok(Pmt::Int(m)),
        _ => Err(
            "not a power of two from 2 to 65536 (GNU Radio: \"Number of constellation \
                  points must be a power of two\")"
                .into(),
        ),
    }
}

/// psk_mod's `mod_code`: `"gray"` or `"none"`, kept for [`psk_constellation`].
fn psk_code(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Symbol(s) if matches!(&**s, "gray" | "none") => Ok(Pmt::symbol(&**s)),
        _ => Err("not \"gray\" or \"none\"".into()),
    }
}

/// GNU Radio's `psk.psk_constellation(m, mod_code, differential)` as the modulator's
/// constellation: the points `exp(2πi·k/m)`; with Gray coding, the Gray code as the
/// pre-differential code where differential, else the points reordered by its inverse.
fn psk_constellation(m: &mut Mapped) -> Result<(), String> {
    let mut take = |name: &str| {
        let at = m.params.iter().position(|(n, _)| n == name)?;
        Some(m.params.remove(at).1)
    };
    let n = take("constellation").and_then(|v| v.as_i64()).unwrap_or(8) as usize;
    let gray = take("mod_code").and_then(|v| v.as_symbol().map(|s| s == "gray")) != Some(false);
    let differential = m
        .param("differential")
        .and_then(Pmt::as_bool)
        .unwrap_or(true);
    let code: Vec<usize> = (0..n).map(|i| i ^ (i >> 1)).collect();
    let mut order: Vec<usize> = (0..n).collect();
    if gray && !differential {
        // `points[x] for x in invert_code(gray)`.
        for (i, &c) in code.iter().enumerate() {
            order[c] = i;
        }
    }
    let points: Vec<String> = order
        .iter()
        .map(|&k| {
            let a = 2.0 * std::f64::consts::PI * k as f64 / n as f64;
            format!("{},{}", a.cos() as f32, a.sin() as f32)
        })
        .collect();
    let mut text = format!("calcdist points={}", points.join(";"));
    if gray && differential {
        let map: Vec<String> = code.iter().map(usize::to_string).collect();
        text += &format!(" map={}", map.join(","));
    }
    text += &format!(" rot={n} dim=1 norm=amplitude");
    m.params.push(("constellation".into(), Pmt::symbol(&*text)));
    Ok(())
}

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "digital_constellation_modulator",
        "digital.generic_mod(constellation={constellation},differential={differential},samples_per_symbol={samples_per_symbol},pre_diff_code=True,excess_bw={excess_bw},verbose={verbose},log={log},truncate={truncate})",
        "constellation_modulator",
        &[],
        &[
            param("constellation", "constellation"),
            param("differential", "differential"),
            param("samples_per_symbol", "samples_per_symbol"),
            param("excess_bw", "excess_bw"),
            no_effect(
                "verbose",
                "GNU Radio prints the bits per symbol and the roll-off when it builds the block",
            ),
            only(
                "log",
                is_false,
                "radioflow's modulator writes no files of its stages (GNU Radio's log=True writes tx_bytes2chunks.8b and the like)",
            ),
            param("truncate", "truncate"),
        ],
    ),
    GrBlock {
        id: "digital_psk_mod",
        make: "digital.psk.psk_mod(constellation_points={constellation_points},mod_code={mod_code},differential={differential},samples_per_symbol={samples_per_symbol},excess_bw={excess_bw},verbose={verbose},log={log})",
        block: "constellation_modulator",
        types: &[],
        params: &[
            GrParam {
                key: "constellation_points",
                to: To::Convert("constellation", psk_points),
            },
            GrParam {
                key: "mod_code",
                to: To::Convert("mod_code", psk_code),
            },
            param("differential", "differential"),
            param("samples_per_symbol", "samples_per_symbol"),
            param("excess_bw", "excess_bw"),
            no_effect(
                "verbose",
                "GNU Radio prints the bits per symbol and the roll-off when it builds the block",
            ),
            only(
                "log",
                is_false,
                "radioflow's modulator writes no files of its stages (GNU Radio's log=True writes tx_bytes2chunks.8b and the like)",
            ),
        ],
        fixed: &[],
        extra: &[],
        choose: Some(psk_constellation),
    },
    row(
    "digital_burst_shaper_xx",
    "digital.burst_shaper_{type.fcn}({window},{pre_padding},{post_padding},{insert_phasing},{length_tag_name})",
    "burst_shaper",
    &[ty("float", Dtype::Float32), ty("complex", Dtype::Complex32)],
    &[
        param("window", "window"),
        param("pre_padding", "pre_padding"),
        param("post_padding", "post_padding"),
        param("insert_phasing", "insert_phasing"),
        param("length_tag_name", "length_tag_name"),
    ],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn constellation(n: i64, code: &str, differential: bool) -> String {
        let mut m = Mapped {
            block: "constellation_modulator",
            dtype: None,
            params: vec![
                ("constellation".into(), psk_points(&Pmt::Int(n)).unwrap()),
                ("mod_code".into(), psk_code(&Pmt::symbol(code)).unwrap()),
                ("differential".into(), Pmt::Bool(differential)),
            ],
            notes: Vec::new(),
        };
        psk_constellation(&mut m).unwrap();
        assert_eq!(m.params.len(), 2, "mod_code is taken: {:?}", m.params);
        m.param("constellation")
            .and_then(Pmt::as_symbol)
            .unwrap()
            .to_owned()
    }

    #[test]
    fn psk_constellations_are_gnu_radio_s() {
        // GNU Radio 3.10: psk_constellation(4, 'gray', True) has the points in order and the
        // Gray code [0, 1, 3, 2] to apply.
        assert_eq!(
            constellation(4, "gray", true),
            "calcdist points=1,0;0.00000000000000006123234,1;-1,0.00000000000000012246469;\
             -0.00000000000000018369701,-1 map=0,1,3,2 rot=4 dim=1 norm=amplitude"
        );
        // Without differential coding the points are reordered instead: angles 0, 1, 3, 2,
        // 7, 6, 4, 5 eighths of a turn (GNU Radio's psk_constellation(8, 'gray', False)).
        let c = constellation(8, "gray", false);
        let angles: Vec<i64> = c["calcdist points=".len()..]
            .split(' ')
            .next()
            .unwrap()
            .split(';')
            .map(|p| {
                let (re, im) = p.split_once(',').unwrap();
                let a = im.parse::<f64>().unwrap().atan2(re.parse().unwrap());
                (a / (std::f64::consts::PI / 4.0)).round().rem_euclid(8.0) as i64
            })
            .collect();
        assert_eq!(angles, [0, 1, 3, 2, 7, 6, 4, 5]);
        assert!(!c.contains("map="));
        assert!(!constellation(8, "none", true).contains("map="));
        assert!(psk_points(&Pmt::Int(6)).is_err());
        assert!(psk_code(&Pmt::symbol("natural")).is_err());
    }
}
