//! The transmitter and the receiver as framed task graphs (crates/framed): [`run_tx`] (a TS
//! reader to a cf32 writer, the encoding stage duplicated) and [`run_rx`] (a cf32 reader to a
//! TS writer, stages planned from a profile by [`calibrate`], decoding duplicated). The
//! receiver's tasks wrap the steps of [`Receiver`](crate::Receiver).

mod rx;
mod tx;

pub use rx::{
    calibrate, calibration_samples, run_rx, RxLive, RxProfile, RxRun, RxRunError, TaskCounters,
    CALIBRATION, CHUNK, FLUSH,
};
pub use tx::{run_tx, TxRun, TxRunError, TxStats};
