//! [`RdsForward`]: hands the RDS decoder's station messages to the thread that runs the
//! receiver (which prints them as they come).

use radioflow_runtime::prelude::*;
use std::sync::mpsc::Sender;

/// Sends every message arriving on `in` down a channel (one send per RDS change: a few per
/// second at most).
#[derive(Ports)]
pub(crate) struct RdsForward {
    tx: Sender<Pmt>,
}

#[block(type_name = "rds_forward")]
impl RdsForward {
    pub(crate) fn new(tx: Sender<Pmt>) -> Self {
        Self { tx }
    }

    #[message_input(name = "in")]
    fn forward(&mut self, msg: Pmt) {
        // The receiving end goes away only when the run is over.
        let _ = self.tx.send(msg);
    }
}
