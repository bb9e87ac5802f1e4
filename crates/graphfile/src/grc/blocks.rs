//! A GRC block's evaluated parameters as the values the GNU Radio table
//! ([`radioflow_library::gnuradio`]) maps onto a radioflow block.

use super::expr::Value;
use radioflow_library::gnuradio::GrValues;
use radioflow_runtime::echo::cut_display;
use radioflow_runtime::Pmt;
use std::collections::HashMap;

/// A GNU Radio block's evaluated parameters, by GRC key: each one's value, or why it could not
/// be evaluated (an error only if the table uses it).
pub(crate) struct GrcParams<'a>(pub(crate) &'a HashMap<String, Result<Value, String>>);

impl GrValues for GrcParams<'_> {
    fn value(&self, key: &str) -> Option<Result<Pmt, String>> {
        self.0
            .get(key)
            .map(|v| v.as_ref().map(Value::to_pmt).map_err(Clone::clone))
    }

    fn keys(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }

    fn show(&self, key: &str) -> String {
        match self.0.get(key) {
            Some(Ok(v)) => cut_display(v),
            Some(Err(e)) => e.clone(),
            None => "(not given)".into(),
        }
    }
}
