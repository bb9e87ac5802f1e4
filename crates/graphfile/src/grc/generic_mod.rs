//! [`GenericMod`]: the modulator object a GRC expression makes (`digital.generic_mod`).

use radioflow_library::digital::Constellation;
use std::sync::Arc;

/// GNU Radio's `digital.generic_mod`: the parameters of a constellation modulator.
#[derive(Clone, Debug, PartialEq)]
pub struct GenericMod {
    pub(super) constellation: Arc<Constellation>,
    pub(super) differential: bool,
    pub(super) samples_per_symbol: f64,
    pub(super) excess_bw: f64,
    pub(super) truncate: bool,
}

impl std::fmt::Display for GenericMod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "generic_mod({}, differential={}, sps={}, excess_bw={}, truncate={})",
            self.constellation,
            self.differential,
            self.samples_per_symbol,
            self.excess_bw,
            self.truncate
        )
    }
}
