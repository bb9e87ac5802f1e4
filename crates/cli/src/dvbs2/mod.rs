//! `radioflow dvbs2 ...`: the DVB-S2 transmitter (`tx`) and receiver (`rx`): their arguments,
//! files and printing; the transmitter and receiver themselves are `radioflow_dvbs2`'s
//! framed pipelines (`radioflow_dvbs2::framed::{run_tx, run_rx}`).

mod args;
mod rx;
mod tx;

use clap::{Args, Subcommand};

#[derive(Args)]
pub(crate) struct Dvbs2Args {
    #[command(subcommand)]
    command: Dvbs2Command,
}

#[derive(Subcommand)]
enum Dvbs2Command {
    /// Encode a TS file into DVB-S2 PLFRAMEs, pulse-shaped, as complex float32 samples.
    Tx(tx::TxArgs),
    /// Receive a cf32 recording into a TS file (MODCOD, frame size and pilots of each frame
    /// read from its PLS code); at 2 samples per symbol, or at another rate through a
    /// resampler.
    Rx(rx::RxArgs),
}

pub(crate) fn main(args: Dvbs2Args) -> anyhow::Result<()> {
    match args.command {
        Dvbs2Command::Tx(a) => tx::run(a),
        Dvbs2Command::Rx(a) => rx::run(a),
    }
}
