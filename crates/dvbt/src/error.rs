//! [`SettingsError`]: a DVB-T block refused at construction.

use radioflow_runtime::registry::prelude::Refused;
use std::fmt::Display;

/// A block's settings refused: which block, and what is wrong, naming the parameter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{block}: {message}")]
pub struct SettingsError {
    /// The block's registry id (`dvbt_map`).
    pub block: &'static str,
    /// What is wrong, starting with the parameter's name.
    pub message: String,
}

impl SettingsError {
    /// Parameter `name` of `block` refused: `problem` follows its name.
    pub(crate) fn param(block: &'static str, name: &str, problem: impl Display) -> Self {
        Self {
            block,
            message: format!("{name} {problem}"),
        }
    }
}

/// The registry names the block itself.
impl From<SettingsError> for Refused {
    fn from(e: SettingsError) -> Self {
        Refused::other(e.message)
    }
}
