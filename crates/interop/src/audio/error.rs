//! [`AudioError`]: a sound device that cannot be opened, configured or used.

/// A sound device that cannot be opened, set up or used: the message names the block and the
/// ALSA device.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{block} (ALSA device '{device}'): {message}")]
pub struct AudioError {
    pub(super) block: &'static str,
    pub(super) device: String,
    pub(super) message: String,
}

impl AudioError {
    /// The ALSA device, as opened (`default` where the block was given none).
    pub fn device(&self) -> &str {
        &self.device
    }
}
