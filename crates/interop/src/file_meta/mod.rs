//! GNU Radio's metadata files (`blocks.file_meta_sink` and `blocks.file_meta_source`): raw
//! items in segments, each segment after a header that says its sample rate, its time, the
//! item size and type and its length in bytes, followed by a dict of extra keys (the stream
//! tags the sink saw). Headers are PMTs serialized as GNU Radio does (radioflow's PMTs are
//! byte-compatible), inline before each segment or "detached" in `<file>.hdr`; the files are
//! read and written byte for byte as GNU Radio 3.10's.

mod header;
mod sink;
mod source;

pub use sink::FileMetaSink;
pub use source::FileMetaSource;
