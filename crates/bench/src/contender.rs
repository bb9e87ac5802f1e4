//! What one invocation measures: radioflow's schedulers and the peers' configurations, each a
//! [`Contender`]; the peers' programs built on first use, a peer that cannot be built left out
//! saying why.

use crate::measurement::{BenchError, Measurement};
use crate::peers::Peer;
use std::path::PathBuf;

/// Runs one measured run with parameters `P`.
pub type RunFn<P> = Box<dyn Fn(&P) -> Result<Measurement, BenchError>>;

/// Something measured: a radioflow scheduler or a peer configuration.
pub struct Contender<P> {
    /// `radioflow`, `gnuradio` or `futuresdr`.
    pub runtime: String,
    /// The scheduler or configuration.
    pub label: String,
    /// One measured run.
    pub run: RunFn<P>,
}

impl<P> Contender<P> {
    /// `runtime label`, as tables and plots name it.
    pub fn name(&self) -> String {
        format!("{} {}", self.runtime, self.label)
    }
}

/// A peer that is left out of a comparison, and why.
#[derive(Debug)]
pub struct Skipped(pub String);

/// The peers' binaries, built on first use; a peer that cannot be built is left out, saying
/// why (`radioflow: <why>; comparing without it`).
pub fn built_peers(peers: &[Peer], skipped: &mut Vec<Skipped>) -> Vec<(Peer, PathBuf)> {
    peers
        .iter()
        .filter_map(|&peer| match peer.ensure_built() {
            Ok(bin) => Some((peer, bin)),
            Err(e) => {
                skipped.push(Skipped(format!("{e}; comparing without it")));
                None
            }
        })
        .collect()
}

/// `--flag value` pairs as a peer's arguments.
pub(crate) fn flags(pairs: &[(&str, String)]) -> Vec<String> {
    pairs
        .iter()
        .flat_map(|(k, v)| [format!("--{k}"), v.clone()])
        .collect()
}

/// Says which peers are left out, and why.
pub(crate) fn warn(skipped: Vec<Skipped>) {
    for Skipped(why) in skipped {
        eprintln!("radioflow: {why}");
    }
}
