//! The DVB-S2 transmitter and receiver as blocks of a streaming graph (registered as
//! `dvbs2_tx` and `dvbs2_rx`), and gr-dtv's DVB-S2/T2 transmitter blocks one by one
//! (`gr_dtv`).

mod gr_dtv;
mod rx;
mod tx;

pub use gr_dtv::{
    DtvSettingsError, DvbBbheader, DvbBbscrambler, DvbBch, DvbLdpc, Dvbs2Interleaver,
    Dvbs2Modulator, Dvbs2Physical, Dvbt2Interleaver, Dvbt2Modulator,
};
pub use rx::Dvbs2Rx;
pub use tx::{Dvbs2Tx, Dvbs2TxError};
