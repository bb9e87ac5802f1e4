//! The whole block library in one dependency: a front end (graph files, GRC, the Python
//! package, the CLI) that depends on this crate finds every block in the runtime's registry
//! ([`radioflow_runtime::registry`]), whichever crate defines it:
//!
//! - [`blocks`]: the standard blocks (sources, sinks, arithmetic, filters, messages);
//! - [`interop`]: ZeroMQ, SigMF, WAV and SoapySDR (the last with the `soapysdr` feature);
//! - [`channels`]: GNU Radio's gr-channels (the channel model);
//! - [`digital`]: GNU Radio's gr-digital (constellations, symbol mapping and decisions,
//!   differential coding, scramblers);
//! - [`fec`]: GNU Radio's gr-fec (code objects and the extended encoder and decoder);
//! - [`dvbt`]: gr-dtv's DVB-T transmitter blocks (`dvbt_energy_dispersal` to
//!   `dvbt_reference_signals`) and receiver blocks (`dvbt_demap` to
//!   `dvbt_energy_descramble`);
//! - [`dvbt2`]: gr-dtv's DVB-T2 OFDM blocks (`dvbt2_cellinterleaver`);
//! - [`atsc`]: gr-dtv's ATSC transmitter blocks (`atsc_pad` to `atsc_field_sync_mux`) and
//!   the receiver's from `atsc_deinterleaver` to `atsc_depad`;
//! - [`dvbs2`] and [`fm`]: the applications' blocks (`dvbs2_tx`, `dvbs2_rx`,
//!   `fm_stereo_decoder`, `rds_decoder`).
//!
//! [`gnuradio`]: the one table of the GNU Radio blocks radioflow runs (GRC ids, parameters,
//! item types, Python constructors), which GRC files and the Python package both read.
//!
//! [`RunFiles`]: the files a run reads and writes, whatever format each block gives them (a
//! SigMF recording is two files or an archive), checked so that no output is also an input.
//!
//! A block registers itself (`register_block!`) when its crate is linked; naming the crates
//! here links them.
//!
//! ```
//! use radioflow_runtime::registry;
//! radioflow_library::link();
//! for id in ["head", "zmq_source", "sigmf_source", "dvbs2_rx", "rds_decoder"] {
//!     assert!(registry::find(id).is_some(), "{id}");
//! }
//! ```

pub mod gnuradio;
mod run_files;

pub use run_files::{RunFiles, SameFileError};

pub use radioflow_atsc as atsc;
pub use radioflow_blocks as blocks;
pub use radioflow_channels as channels;
pub use radioflow_digital as digital;
pub use radioflow_dvbs2 as dvbs2;
pub use radioflow_dvbt as dvbt;
pub use radioflow_dvbt2 as dvbt2;
pub use radioflow_fec as fec;
pub use radioflow_fm as fm;
pub use radioflow_interop as interop;

/// Makes sure the library is linked into a program that uses nothing else of it (a front end
/// that only looks blocks up by id): call it once, or name the crate (`use radioflow_library
/// as _;`).
pub fn link() {}
