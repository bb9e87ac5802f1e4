//! GNU Radio's filter-taps variables (`variable_rrc_filter_taps`,
//! `variable_low_pass_filter_taps`, `variable_high_pass_filter_taps`,
//! `variable_band_pass_filter_taps`, `variable_band_reject_filter_taps`): each is the `firdes`
//! call its GRC definition's `value` template makes, evaluated like any expression.

use std::collections::HashMap;

/// The expression GNU Radio's filter-taps variable `id` evaluates to, from its parameters as
/// written (GRC's defaults for those left out); `None` for other blocks.
pub(super) fn variable_value(id: &str, params: &HashMap<String, String>) -> Option<String> {
    let p = |key: &str, default: &str| {
        let text = params.get(key).map_or(default, String::as_str);
        format!("({text})")
    };
    let (gain, fs) = (p("gain", "1.0"), p("samp_rate", "samp_rate"));
    Some(match id {
        "variable_rrc_filter_taps" => format!(
            "firdes.root_raised_cosine({gain}, {fs}, {}, {}, {})",
            p("sym_rate", "None"),
            p("alpha", "0.35"),
            p("ntaps", "11*sps")
        ),
        "variable_low_pass_filter_taps" | "variable_high_pass_filter_taps" => format!(
            "firdes.{}({gain}, {fs}, {}, {}, {}, {})",
            if id.contains("low") {
                "low_pass"
            } else {
                "high_pass"
            },
            p("cutoff_freq", "None"),
            p("width", "None"),
            p("win", "window.WIN_HAMMING"),
            p("beta", "6.76")
        ),
        "variable_band_pass_filter_taps" | "variable_band_reject_filter_taps" => {
            // `type` picks the design (`band_pass` or `complex_band_pass`, the first the
            // default); a complex design is refused by the evaluator with why.
            let design = match params.get("type").map(|t| t.trim()) {
                Some(t) if !t.is_empty() => t.to_owned(),
                _ if id.contains("reject") => "band_reject".to_owned(),
                _ => "band_pass".to_owned(),
            };
            format!(
                "firdes.{design}({gain}, {fs}, {}, {}, {}, {}, {})",
                p("low_cutoff_freq", "None"),
                p("high_cutoff_freq", "None"),
                p("width", "None"),
                p("win", "window.WIN_HAMMING"),
                p("beta", "6.76")
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(id: &str, params: &[(&str, &str)]) -> Option<String> {
        let params = params
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        variable_value(id, &params)
    }

    #[test]
    fn each_variable_is_its_firdes_call_with_grc_defaults() {
        assert_eq!(
            value(
                "variable_rrc_filter_taps",
                &[("sym_rate", "sps*1000"), ("ntaps", "45")]
            )
            .unwrap(),
            "firdes.root_raised_cosine((1.0), (samp_rate), (sps*1000), (0.35), (45))"
        );
        assert_eq!(
            value(
                "variable_high_pass_filter_taps",
                &[
                    ("cutoff_freq", "100"),
                    ("width", "10"),
                    ("win", "window.WIN_KAISER")
                ]
            )
            .unwrap(),
            "firdes.high_pass((1.0), (samp_rate), (100), (10), (window.WIN_KAISER), (6.76))"
        );
        assert_eq!(
            value(
                "variable_band_reject_filter_taps",
                &[
                    ("low_cutoff_freq", "1e3"),
                    ("high_cutoff_freq", "2e3"),
                    ("width", "100")
                ]
            )
            .unwrap(),
            "firdes.band_reject((1.0), (samp_rate), (1e3), (2e3), (100), (window.WIN_HAMMING), \
             (6.76))"
        );
        assert_eq!(
            value(
                "variable_band_pass_filter_taps",
                &[("type", "complex_band_pass"), ("width", "5")]
            )
            .unwrap(),
            "firdes.complex_band_pass((1.0), (samp_rate), (None), (None), (5), \
             (window.WIN_HAMMING), (6.76))"
        );
        assert_eq!(value("variable", &[("value", "1")]), None);
    }
}
