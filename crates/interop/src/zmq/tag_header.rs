//! GNU Radio's gr-zeromq tag header: the bytes a `pass_tags` stream sink puts before the items
//! of every ZeroMQ message, as a pure encode/decode pair.
//!
//! The layout (all integers in the sender's byte order, little-endian on every machine GNU
//! Radio runs on; `gen_tag_header` in gr-zeromq's `tag_headers.cc`, version 1 in GNU Radio
//! 3.10): `u16` magic `0x5FF0`, `u8` version `1`, `u64` offset of the first item of the
//! message in the sender's stream, `u64` tag count, then per tag its `u64` absolute offset and
//! the PMT-serialized key, value and source id. The items follow.

use radioflow_runtime::{Pmt, Tag};

/// The header's first two bytes (`GR_HEADER_MAGIC`).
pub const MAGIC: u16 = 0x5FF0;
/// The header version GNU Radio 3.10 writes and reads.
pub const VERSION: u8 = 1;
/// Bytes of the fixed part (magic, version, offset, tag count).
pub const FIXED_LEN: usize = 2 + 1 + 8 + 8;

/// A decoded tag header.
#[derive(Clone, Debug, PartialEq)]
pub struct TagHeader {
    /// The sender's stream offset of the first item in the message.
    pub offset: u64,
    /// The tags, with the sender's absolute offsets.
    pub tags: Vec<Tag>,
}

/// Why bytes are not a tag header.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TagHeaderError {
    /// Fewer bytes than the fixed part.
    #[error("message of {len} bytes is too short for a tag header ({FIXED_LEN} bytes)")]
    TooShort {
        /// The message length.
        len: usize,
    },
    /// The first bytes are not the magic number: the sender does not pass tags.
    #[error("no tag header: the message starts with 0x{found:04x}, not 0x5ff0 (does the sender pass tags?)")]
    BadMagic {
        /// The first two bytes, little-endian.
        found: u16,
    },
    /// A header version other than 1.
    #[error("tag header version {found}, expected 1")]
    BadVersion {
        /// The version byte.
        found: u8,
    },
    /// The message ends inside the tags.
    #[error("tag {index} of {count} is truncated at byte {at}")]
    Truncated {
        /// Which tag (from 0).
        index: u64,
        /// Tags announced.
        count: u64,
        /// Where the message ended.
        at: usize,
    },
    /// A key, value or source id is not a well-formed PMT.
    #[error("tag {index}: {what} is not a PMT: {source}")]
    Pmt {
        /// Which tag (from 0).
        index: u64,
        /// `key`, `value` or `source id`.
        what: &'static str,
        /// The decoding error (offset relative to the PMT's first byte).
        source: radioflow_runtime::pmt::PmtError,
    },
}

/// Appends the header for the `n` items from stream offset `start`, with those of `tags` that
/// fall on them (copied into `scratch`, reused by the caller so that no call allocates once it
/// has grown).
pub fn encode_window(
    start: u64,
    n: usize,
    tags: &[Tag],
    scratch: &mut Vec<Tag>,
    out: &mut Vec<u8>,
) {
    let end = start + n as u64;
    scratch.clear();
    scratch.extend(
        tags.iter()
            .filter(|t| t.offset >= start && t.offset < end)
            .cloned(),
    );
    encode(start, scratch, out);
}

/// Appends the header for a message whose first item is item `offset` of the stream, with
/// `tags` (absolute offsets), to `out`. GNU Radio's source id is written as `#f` (GNU Radio's
/// default when a tag has none); radioflow tags carry none.
pub fn encode(offset: u64, tags: &[Tag], out: &mut Vec<u8>) {
    out.extend_from_slice(&MAGIC.to_le_bytes());
    out.push(VERSION);
    out.extend_from_slice(&offset.to_le_bytes());
    out.extend_from_slice(&(tags.len() as u64).to_le_bytes());
    for tag in tags {
        out.extend_from_slice(&tag.offset.to_le_bytes());
        tag.key.serialize(out);
        tag.value.serialize(out);
        Pmt::Bool(false).serialize(out);
    }
}

/// Decodes the header at the front of `msg`, returning it and the number of bytes it took
/// (the items start there). Never panics; a tag count larger than the message could hold is
/// a [`TagHeaderError::Truncated`], found before anything is allocated for it.
///
/// # Errors
/// [`TagHeaderError`] says what is wrong.
pub fn decode(msg: &[u8]) -> Result<(TagHeader, usize), TagHeaderError> {
    if msg.len() < FIXED_LEN {
        return Err(TagHeaderError::TooShort { len: msg.len() });
    }
    let u64_at = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&msg[i..i + 8]);
        u64::from_le_bytes(b)
    };
    let magic = u16::from_le_bytes([msg[0], msg[1]]);
    if magic != MAGIC {
        return Err(TagHeaderError::BadMagic { found: magic });
    }
    if msg[2] != VERSION {
        return Err(TagHeaderError::BadVersion { found: msg[2] });
    }
    let offset = u64_at(3);
    let count = u64_at(11);
    let mut pos = FIXED_LEN;
    // Every tag takes at least 8 + 3 bytes (three one-byte PMTs at the least).
    let room = (msg.len() - pos) as u64 / 11;
    let mut tags = Vec::with_capacity(count.min(room) as usize);
    for index in 0..count {
        if msg.len() - pos < 8 {
            return Err(TagHeaderError::Truncated {
                index,
                count,
                at: msg.len(),
            });
        }
        let tag_offset = u64_at(pos);
        pos += 8;
        let mut next = |what: &'static str| -> Result<Pmt, TagHeaderError> {
            let (v, used) = Pmt::deserialize(&msg[pos..]).map_err(|source| {
                if pos >= msg.len() {
                    TagHeaderError::Truncated {
                        index,
                        count,
                        at: msg.len(),
                    }
                } else {
                    TagHeaderError::Pmt {
                        index,
                        what,
                        source,
                    }
                }
            })?;
            pos += used;
            Ok(v)
        };
        let key = next("key")?;
        let value = next("value")?;
        let _source_id = next("source id")?;
        tags.push(Tag {
            offset: tag_offset,
            key,
            value,
        });
    }
    Ok((TagHeader { offset, tags }, pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What GNU Radio 3.10.5's `push_sink` (pass_tags) sent for the floats 1, 2, 3, 4 with the
    /// tag `k = 7` (source id `src`) on item 1, captured from a live flowgraph.
    const FROM_GNU_RADIO: &str = "f05f010000000000000000010000000000000001000000000000000200016b\
        03000000070200037372630000803f000000400000404000008040";

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn decodes_what_gnu_radio_sent() {
        let msg = hex(FROM_GNU_RADIO);
        let (h, used) = decode(&msg).unwrap();
        assert_eq!(h.offset, 0);
        assert_eq!(h.tags, [Tag::new(1, Pmt::symbol("k"), Pmt::Int(7))]);
        let items: Vec<f32> = msg[used..]
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(items, [1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn encodes_like_gnu_radio_except_for_the_source_id() {
        let mut out = Vec::new();
        encode(0, &[Tag::new(1, Pmt::symbol("k"), Pmt::Int(7))], &mut out);
        // GNU Radio's bytes with the source id `src` (02 0003 "src") replaced by #f (01).
        let want =
            hex("f05f010000000000000000010000000000000001000000000000000200016b030000000701");
        assert_eq!(out, want);
    }

    #[test]
    fn round_trips_many_tags() {
        let tags = vec![
            Tag::new(10, Pmt::symbol("rx_freq"), Pmt::Double(1e9)),
            Tag::new(
                12,
                Pmt::symbol("rx_time"),
                Pmt::Tuple(vec![Pmt::Uint64(5), Pmt::Double(0.25)].into()),
            ),
        ];
        let mut out = Vec::new();
        encode(9, &tags, &mut out);
        out.extend_from_slice(&[1, 2, 3]);
        let (h, used) = decode(&out).unwrap();
        assert_eq!(h, TagHeader { offset: 9, tags });
        assert_eq!(&out[used..], [1, 2, 3]);
    }

    #[test]
    fn bad_input_is_a_named_error_never_a_panic() {
        assert_eq!(decode(&[0; 5]), Err(TagHeaderError::TooShort { len: 5 }));
        let items = [0u8; 40];
        assert_eq!(decode(&items), Err(TagHeaderError::BadMagic { found: 0 }));
        let mut msg = hex(FROM_GNU_RADIO);
        msg[2] = 2;
        assert_eq!(decode(&msg), Err(TagHeaderError::BadVersion { found: 2 }));
        // A huge tag count: truncated, not an allocation of 2^64 tags.
        let mut msg = Vec::new();
        encode(0, &[], &mut msg);
        msg[11..19].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            decode(&msg),
            Err(TagHeaderError::Truncated { index: 0, .. })
        ));
        // Every prefix of a good header decodes or fails cleanly.
        let good = hex(FROM_GNU_RADIO);
        for n in 0..good.len() {
            let _ = decode(&good[..n]);
        }
        let mut bad = hex(FROM_GNU_RADIO);
        bad[27] = 0xEE; // the key's PMT type byte
        assert!(matches!(
            decode(&bad),
            Err(TagHeaderError::Pmt {
                index: 0,
                what: "key",
                ..
            })
        ));
    }
}
