//! The FM broadcast blocks: the stereo decoder and the RDS decoder (registered as
//! `fm_stereo_decoder` and `rds_decoder`).

mod rds_decoder;
mod stereo_decoder;

pub use rds_decoder::RdsDecoder;
pub use stereo_decoder::FmStereoDecoder;
