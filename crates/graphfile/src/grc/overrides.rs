//! [`Overrides`]: the variables of a `.grc` file set while it runs.

use super::value::Value;
use std::collections::HashMap;

/// The variables set while running: a value, or (a `raw` entry widget's) an expression
/// evaluated with the file's other variables.
#[derive(Clone, Debug, Default)]
pub(crate) struct Overrides {
    pub(crate) values: HashMap<String, Value>,
    pub(crate) expressions: HashMap<String, String>,
}
