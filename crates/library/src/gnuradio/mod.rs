//! The one table of the GNU Radio blocks radioflow runs: for each GRC block id, the radioflow
//! block it becomes, how each GNU Radio parameter and item type maps onto it (or why it is
//! refused), and how GNU Radio's Python makes it. The GRC loader (`radioflow-graphfile`), the
//! Python package and `radioflow grc list` read this table and nothing else, so a block is
//! mapped once for all of them.
//!
//! The table is checked against GNU Radio's own block definitions (`tests/gnuradio_table.rs`
//! reads every `.block.yml` of an installed GNU Radio 3.10): each GRC parameter of a row's block
//! is mapped, refused unless at a value, or said to have no effect; each `type` option is
//! mapped or refused with a reason; the Python template is GNU Radio's.
//!
//! ```
//! use radioflow_library::gnuradio;
//! let row = gnuradio::find("blocks_add_xx").expect("mapped");
//! assert_eq!(row.block, "add");
//! assert!(gnuradio::rows().any(|r| r.id == "analog_sig_source_x"));
//! ```

mod analog;
mod analog_agc;
mod analog_fm;
mod analog_fm_chains;
mod analog_sources;
mod atsc;
#[cfg(feature = "audio")]
mod audio;
mod bits;
mod blocks;
mod bursts_tags;
mod channels;
mod common;
mod digital;
mod dtv;
mod dvbt;
mod dvbt2;
mod equalizers;
mod fec;
mod fft;
mod file_meta;
mod filter;
mod filter_blocks;
mod filter_designs;
mod filter_mmse;
mod headless;
mod math;
mod matrix;
mod messages;
mod modems;
mod modulation;
mod network;
mod ofdm;
mod packets;
mod pdu;
#[cfg(feature = "soapysdr")]
mod soapy;
#[cfg(feature = "soapysdr")]
mod soapy_radios;
mod streams;
mod sync;
mod table;
mod tag_sources;
mod tagged_lengths;
mod tags;
mod timing;
#[cfg(feature = "soapysdr")]
mod uhd;
mod vectors;
mod zeromq;

pub use headless::{gui_dtype, headless, GrHeadless, HeadlessInputs, HEADLESS};
pub use table::{Choose, Fixed, GrBlock, GrParam, GrType, GrValues, Mapped, To, GRC_COMMON};

/// The table, one module of GNU Radio after another.
const MODULES: &[&[GrBlock]] = &[
    blocks::ROWS,
    math::ROWS,
    messages::ROWS,
    analog::ROWS,
    analog_agc::ROWS,
    analog_fm::ROWS,
    analog_fm_chains::ROWS,
    analog_sources::ROWS,
    filter::ROWS,
    filter_blocks::ROWS,
    filter_designs::ROWS,
    filter_designs::BAND_ROWS,
    zeromq::ROWS,
    network::ROWS,
    digital::ROWS,
    ofdm::ROWS,
    packets::ROWS,
    pdu::ROWS,
    streams::ROWS,
    channels::ROWS,
    file_meta::ROWS,
    tag_sources::ROWS,
    fec::ROWS,
    fft::ROWS,
    vectors::ROWS,
    sync::ROWS,
    #[cfg(feature = "soapysdr")]
    soapy::ROWS,
    #[cfg(feature = "soapysdr")]
    soapy_radios::ROWS,
    #[cfg(feature = "soapysdr")]
    uhd::ROWS,
    timing::ROWS,
    matrix::ROWS,
    tags::ROWS,
    tagged_lengths::ROWS,
    bits::ROWS,
    filter_mmse::ROWS,
    modulation::ROWS,
    modems::ROWS,
    bursts_tags::ROWS,
    dtv::ROWS,
    dvbt::ROWS,
    dvbt2::ROWS,
    #[cfg(feature = "audio")]
    audio::ROWS,
    equalizers::ROWS,
    atsc::ROWS,
];

/// Every row of the table.
pub fn rows() -> impl Iterator<Item = &'static GrBlock> {
    MODULES.iter().flat_map(|m| m.iter())
}

/// The row of GRC id `id`, if radioflow runs that block.
pub fn find(id: &str) -> Option<&'static GrBlock> {
    rows().find(|r| r.id == id)
}
