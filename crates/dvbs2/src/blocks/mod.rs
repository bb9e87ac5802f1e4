//! The DVB-S2 transmitter and receiver as blocks of a streaming graph (registered as
//! `dvbs2_tx` and `dvbs2_rx`).

mod rx;
mod tx;

pub use rx::Dvbs2Rx;
pub use tx::{Dvbs2Tx, Dvbs2TxError};
