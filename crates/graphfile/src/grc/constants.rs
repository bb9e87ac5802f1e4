//! The constants of the Python modules GRC parameters name (`math.pi`, `analog.GR_COS_WAVE`).
//!
//! GNU Radio's constants are enumerations of its Python bindings (pybind11 enums). Each is
//! a [`Value::Constant`] holding a word, the one a radioflow block takes for that choice
//! (`cosine`, `gaussian`, `hamming`), or else GNU Radio's own name in lower case without
//! its module (`fec.CC_TERMINATED` is `cc_terminated`); every word names one constant. Like
//! Python's, a constant converts with `int`/`float` to its number in GNU Radio and compares
//! equal to that number, but takes no arithmetic.

use super::value::Value;
use radioflow_runtime::Pmt;

/// GNU Radio's enumeration constants: (Python names, word, value). The values are GNU Radio
/// 3.10.5's, read from its bindings with `/usr/bin/python3 -c "from gnuradio import analog;
/// print(int(analog.GR_GAUSSIAN))"` and the like (`window` is `gnuradio.fft.window`).
const GNU_RADIO: &[(&[&str], &str, i64)] = &[
    // analog.gr_waveform_t
    (&["analog.GR_CONST_WAVE"], "constant", 100),
    (&["analog.GR_SIN_WAVE"], "sine", 101),
    (&["analog.GR_COS_WAVE"], "cosine", 102),
    (&["analog.GR_SQR_WAVE"], "square", 103),
    (&["analog.GR_TRI_WAVE"], "triangle", 104),
    (&["analog.GR_SAW_WAVE"], "sawtooth", 105),
    // analog.noise_type_t
    (&["analog.GR_UNIFORM"], "uniform", 200),
    (&["analog.GR_GAUSSIAN"], "gaussian", 201),
    (&["analog.GR_LAPLACIAN"], "laplacian", 202),
    (&["analog.GR_IMPULSE"], "impulse", 203),
    // fft.window.win_type (GRC files name it `window.` and `fft.window.`)
    (&["window.WIN_HAMMING"], "hamming", 0),
    (&["window.WIN_HANN", "window.WIN_HANNING"], "hann", 1),
    (&["window.WIN_BLACKMAN"], "blackman", 2),
    (&["window.WIN_RECTANGULAR"], "rectangular", 3),
    (&["window.WIN_KAISER"], "kaiser", 4),
    (
        &["window.WIN_BLACKMAN_HARRIS", "window.WIN_BLACKMAN_hARRIS"],
        "blackman_harris",
        5,
    ),
    (&["window.WIN_BARTLETT"], "bartlett", 6),
    (&["window.WIN_FLATTOP"], "flattop", 7),
    (
        &["window.WIN_NUTTALL", "window.WIN_BLACKMAN_NUTTALL"],
        "nuttall",
        8,
    ),
    (&["window.WIN_NUTTALL_CFD"], "nuttall_cfd", 9),
    (&["window.WIN_WELCH"], "welch", 10),
    (&["window.WIN_PARZEN"], "parzen", 11),
    (&["window.WIN_EXPONENTIAL"], "exponential", 12),
    (&["window.WIN_RIEMANN"], "riemann", 13),
    // `gaussian` is the noise type's.
    (&["window.WIN_GAUSSIAN"], "gaussian_window", 14),
    (&["window.WIN_TUKEY"], "tukey", 15),
    // fec._cc_mode_t
    (&["fec.CC_STREAMING"], "cc_streaming", 0),
    (&["fec.CC_TERMINATED"], "cc_terminated", 1),
    (&["fec.CC_TRUNCATED"], "cc_truncated", 2),
    (&["fec.CC_TAILBITING"], "cc_tailbiting", 3),
    // digital.diff_coding_type
    (&["digital.DIFF_DIFFERENTIAL"], "differential", 0),
    (&["digital.DIFF_NRZI"], "nrzi", 1),
    // digital.ted_type
    (&["digital.TED_NONE"], "ted_none", -1),
    (
        &["digital.TED_MUELLER_AND_MULLER"],
        "ted_mueller_and_muller",
        0,
    ),
    (
        &["digital.TED_MOD_MUELLER_AND_MULLER"],
        "ted_mod_mueller_and_muller",
        1,
    ),
    (&["digital.TED_ZERO_CROSSING"], "ted_zero_crossing", 2),
    (&["digital.TED_GARDNER"], "ted_gardner", 4),
    (&["digital.TED_EARLY_LATE"], "ted_early_late", 5),
    (
        &["digital.TED_DANDREA_AND_MENGALI_GEN_MSK"],
        "ted_dandrea_and_mengali_gen_msk",
        6,
    ),
    (
        &["digital.TED_SIGNAL_TIMES_SLOPE_ML"],
        "ted_signal_times_slope_ml",
        7,
    ),
    (
        &["digital.TED_SIGNUM_TIMES_SLOPE_ML"],
        "ted_signum_times_slope_ml",
        8,
    ),
    (
        &["digital.TED_MENGALI_AND_DANDREA_GMSK"],
        "ted_mengali_and_dandrea_gmsk",
        9,
    ),
    // digital.ir_type
    (&["digital.IR_NONE"], "ir_none", -1),
    (&["digital.IR_MMSE_8TAP"], "ir_mmse_8tap", 0),
    (&["digital.IR_PFB_NO_MF"], "ir_pfb_no_mf", 1),
    (&["digital.IR_PFB_MF"], "ir_pfb_mf", 2),
    // digital.tm_type
    (&["digital.THRESHOLD_DYNAMIC"], "threshold_dynamic", 0),
    (&["digital.THRESHOLD_ABSOLUTE"], "threshold_absolute", 1),
    // digital.trellis_metric_type_t
    (&["digital.TRELLIS_EUCLIDEAN"], "trellis_euclidean", 200),
    (&["digital.TRELLIS_HARD_SYMBOL"], "trellis_hard_symbol", 201),
    (&["digital.TRELLIS_HARD_BIT"], "trellis_hard_bit", 202),
    // digital.constellation.normalization
    (
        &["digital.constellation.NO_NORMALIZATION"],
        "no_normalization",
        0,
    ),
    (
        &["digital.constellation.POWER_NORMALIZATION"],
        "power_normalization",
        1,
    ),
    (
        &["digital.constellation.AMPLITUDE_NORMALIZATION"],
        "amplitude_normalization",
        2,
    ),
    // digital.evm_measurement_t
    (
        &[
            "digital.evm_measurement_t_EVM_PERCENT",
            "digital.evm_measurement_t.EVM_PERCENT",
        ],
        "evm_percent",
        0,
    ),
    (
        &[
            "digital.evm_measurement_t_EVM_DB",
            "digital.evm_measurement_t.EVM_DB",
        ],
        "evm_db",
        1,
    ),
    // gr.endianness_t
    (&["gr.GR_MSB_FIRST"], "gr_msb_first", 0),
    (&["gr.GR_LSB_FIRST"], "gr_lsb_first", 1),
    // gr.tag_propagation_policy_t
    (&["gr.TPP_DONT"], "tpp_dont", 0),
    (&["gr.TPP_ALL_TO_ALL"], "tpp_all_to_all", 1),
    (&["gr.TPP_ONE_TO_ONE"], "tpp_one_to_one", 2),
    (&["gr.TPP_CUSTOM"], "tpp_custom", 3),
    // trellis.siso_type_t
    (&["trellis.TRELLIS_MIN_SUM"], "trellis_min_sum", 200),
    (&["trellis.TRELLIS_SUM_PRODUCT"], "trellis_sum_product", 201),
    // blocks.message_strobe_random_distribution_t
    (&["blocks.STROBE_POISSON"], "strobe_poisson", 1),
    (&["blocks.STROBE_GAUSSIAN"], "strobe_gaussian", 2),
    (&["blocks.STROBE_UNIFORM"], "strobe_uniform", 3),
    (&["blocks.STROBE_EXPONENTIAL"], "strobe_exponential", 4),
    // pdu.early_pdu_behavior_t
    (&["pdu.EARLY_BURST_APPEND"], "early_burst_append", 0),
    (&["pdu.EARLY_BURST_DROP"], "early_burst_drop", 1),
    (&["pdu.EARLY_BURST_BALK"], "early_burst_balk", 2),
    // qtgui's trigger modes, slopes and graph layouts
    (&["qtgui.TRIG_MODE_FREE"], "trig_mode_free", 0),
    (&["qtgui.TRIG_MODE_AUTO"], "trig_mode_auto", 1),
    (&["qtgui.TRIG_MODE_NORM"], "trig_mode_norm", 2),
    (&["qtgui.TRIG_MODE_TAG"], "trig_mode_tag", 3),
    (&["qtgui.TRIG_SLOPE_POS"], "trig_slope_pos", 0),
    (&["qtgui.TRIG_SLOPE_NEG"], "trig_slope_neg", 1),
    (&["qtgui.NUM_GRAPH_NONE"], "num_graph_none", 0),
    (&["qtgui.NUM_GRAPH_HORIZ"], "num_graph_horiz", 1),
    (&["qtgui.NUM_GRAPH_VERT"], "num_graph_vert", 2),
];

/// GNU Radio's enumeration constants as (Python names, radioflow's word, GNU Radio's number),
/// for front ends that define them (the Python package's `radioflow.gnuradio`).
pub fn gnuradio_constants() -> &'static [(&'static [&'static str], &'static str, i64)] {
    GNU_RADIO
}

/// The constants of the modules GRC parameters use.
pub(super) fn constant(name: &str) -> Option<Value> {
    let base = ["math.", "cmath.", "numpy.", "np."]
        .iter()
        .find_map(|m| name.strip_prefix(m))
        .unwrap_or(name);
    Some(match base {
        "pi" => Value::Float(std::f64::consts::PI),
        "e" => Value::Float(std::f64::consts::E),
        "tau" => Value::Float(std::f64::consts::TAU),
        "inf" => Value::Float(f64::INFINITY),
        "nan" => Value::Float(f64::NAN),
        "pmt.PMT_T" => Value::Pmt(Pmt::Bool(true)),
        "pmt.PMT_F" => Value::Pmt(Pmt::Bool(false)),
        "pmt.PMT_NIL" => Value::Pmt(Pmt::Null),
        // GNU Radio 3.10's gnuradio/digital/packet_utils.py.
        "digital.packet_utils.default_access_code" => {
            Value::Str("1010110011011101101001001110001011110010100011000010000011111100".into())
        }
        _ => {
            let name = name.strip_prefix("fft.").unwrap_or(name);
            let (_, word, _) = GNU_RADIO.iter().find(|(names, ..)| names.contains(&name))?;
            Value::Constant(word)
        }
    })
}

/// GNU Radio's number for the constant `word` (a [`Value::Constant`]'s).
pub(super) fn number(word: &str) -> Option<i64> {
    GNU_RADIO
        .iter()
        .find(|(_, w, _)| *w == word)
        .map(|&(.., v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_word_names_one_constant_and_every_name_one_word() {
        let mut words = HashSet::new();
        let mut names = HashSet::new();
        for (n, word, _) in GNU_RADIO {
            assert!(words.insert(word), "{word} twice");
            for name in *n {
                assert!(names.insert(name), "{name} twice");
                assert_eq!(constant(name), Some(Value::Constant(word)));
            }
        }
        assert_eq!(number("cc_terminated"), Some(1));
        assert_eq!(
            constant("fft.window.WIN_BLACKMAN_hARRIS"),
            Some(Value::Constant("blackman_harris"))
        );
    }

    /// The values are GNU Radio's, where its Python bindings are installed.
    #[test]
    fn the_values_are_gnu_radio_s() {
        let names: Vec<&str> = GNU_RADIO
            .iter()
            .flat_map(|(n, ..)| n.iter().copied())
            .collect();
        let script = format!(
            "from gnuradio import analog, blocks, digital, fec, gr, pdu, qtgui, trellis\n\
             from gnuradio.fft import window\n\
             digital.evm_measurement_t_EVM_PERCENT = digital.evm_measurement_t.EVM_PERCENT\n\
             digital.evm_measurement_t_EVM_DB = digital.evm_measurement_t.EVM_DB\n\
             for n in {names:?}: print(int(eval(n)))"
        );
        // GNU Radio installs its bindings for the system Python.
        let Ok(out) = std::process::Command::new("/usr/bin/python3")
            .args(["-c", &script])
            .output()
        else {
            eprintln!("SKIPPED: no /usr/bin/python3");
            return;
        };
        if !out.status.success() {
            eprintln!(
                "SKIPPED: GNU Radio's Python bindings are not installed ({})",
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            );
            return;
        }
        let got: Vec<i64> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.parse().expect("an integer"))
            .collect();
        let want: Vec<i64> = names
            .iter()
            .map(|n| match constant(n) {
                Some(Value::Constant(w)) => number(w).expect("a number"),
                other => panic!("{n}: {other:?}"),
            })
            .collect();
        assert_eq!(got, want, "{names:?}");
    }
}
