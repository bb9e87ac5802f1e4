//! Rows for GNU Radio's `audio` module (gr-audio): radioflow-interop's ALSA blocks, the
//! sound system GNU Radio's audio blocks use on Linux (their device names are ALSA's).

use super::common::{param, row};
use super::table::GrBlock;

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "audio_sink",
        "audio.sink({samp_rate},{device_name},{ok_to_block})",
        "audio_sink",
        &[],
        &[
            param("samp_rate", "sample_rate"),
            param("device_name", "device"),
            param("ok_to_block", "ok_to_block"),
            param("num_inputs", "num_inputs"),
        ],
    ),
    row(
        "audio_source",
        "audio.source({samp_rate},{device_name},{ok_to_block})",
        "audio_source",
        &[],
        &[
            param("samp_rate", "sample_rate"),
            param("device_name", "device"),
            param("ok_to_block", "ok_to_block"),
            param("num_outputs", "num_outputs"),
        ],
    ),
];
