//! [`RdsError`]: parameters the decoder or encoder cannot work with.

/// A parameter given to the [`Decoder`](crate::Decoder) or [`Encoder`](crate::Encoder) is out
/// of range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RdsError {
    /// The multiplex sample rate (parameter `mpx_rate_hz` / `sample_rate_hz`) is not finite or
    /// below 128 kHz, too low to carry the 57 kHz subcarrier.
    #[error(
        "invalid sample rate {0} Hz: must be finite and at least 128000 Hz (RDS is at 57 kHz)"
    )]
    SampleRate(f64),
    /// The encoder's `level` is not finite or not positive.
    #[error("invalid level {0}: must be finite and positive")]
    Level(f32),
    /// A text field of the encoder's station is too long: which one, its length, its limit.
    #[error("invalid {field}: {len} characters, at most {max}")]
    TextLength {
        /// `ps` or `radiotext`.
        field: &'static str,
        /// Its length in bytes.
        len: usize,
        /// The most the standard allows.
        max: usize,
    },
    /// A filter could not be designed for this rate (the filter design's own message).
    #[error("filter design for this sample rate failed: {0}")]
    Design(String),
}
