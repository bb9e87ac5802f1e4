//! Rows for gr-digital's adaptive equalizers (the algorithm object is a GRC variable: see
//! radioflow_graphfile's `grc/adaptive_algorithm.rs`).

use super::common::{param, row};
use super::table::GrBlock;

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "digital_linear_equalizer",
        "digital.linear_equalizer({num_taps},{sps},{alg},{adapt_after_training},{training_sequence},{training_start_tag})",
        "linear_equalizer",
        &[],
        &[
            param("num_taps", "num_taps"),
            param("sps", "sps"),
            param("alg", "alg"),
            param("adapt_after_training", "adapt_after_training"),
            param("training_sequence", "training_sequence"),
            param("training_start_tag", "training_start_tag"),
        ],
    ),
    row(
        "digital_decision_feedback_equalizer",
        "digital.decision_feedback_equalizer({num_taps_fwd},{num_taps_rev},{sps},{alg},{adapt_after_training},{training_sequence},{training_start_tag})",
        "decision_feedback_equalizer",
        &[],
        &[
            param("num_taps_fwd", "num_taps_fwd"),
            param("num_taps_rev", "num_taps_rev"),
            param("sps", "sps"),
            param("alg", "alg"),
            param("adapt_after_training", "adapt_after_training"),
            param("training_sequence", "training_sequence"),
            param("training_start_tag", "training_start_tag"),
        ],
    ),
];
