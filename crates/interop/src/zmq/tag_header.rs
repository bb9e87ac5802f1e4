//! GNU Radio's gr-zeromq tag header: the bytes a `pass_tags` stream sink puts before the items
//! of every ZeroMQ message, as a pure encode/decode pair; [`decode_frame`], the one check of a
//! received stream frame (header, tags, whole items) that every receiver shares
//! ([`ZmqSource`](crate::ZmqSource), the hosts' links); [`DroppedFrames`], the count of frames
//! a receiver told to drop malformed frames dropped.
//!
//! The layout (all integers in the sender's byte order, little-endian on every machine GNU
//! Radio runs on; `gen_tag_header` in gr-zeromq's `tag_headers.cc`, version 1 in GNU Radio
//! 3.10): `u16` magic `0x5FF0`, `u8` version `1`, `u64` offset of the first item of the
//! message in the sender's stream, `u64` tag count, then per tag its `u64` absolute offset and
//! the PMT-serialized key, value and source id. The items follow.

use radioflow_runtime::{Pmt, Tag};
use std::fmt;

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

/// Why a received stream frame is refused: it came from something other than a gr-zeromq or
/// radioflow sender, or was damaged on the way.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// The tag header expected before the items is malformed or missing.
    #[error("expected GNU Radio's tag header (pass_tags): {0}")]
    Header(#[from] TagHeaderError),
    /// A tag does not fall on one of the frame's items (a sender tags only the items it
    /// sends).
    #[error(
        "tag {index} is at offset {offset}, outside the frame's {items} items from offset {first}"
    )]
    TagOutside {
        /// Which tag (from 0).
        index: usize,
        /// Its offset in the sender's stream.
        offset: u64,
        /// The sender's offset of the frame's first item.
        first: u64,
        /// The frame's items.
        items: u64,
    },
    /// The frame's items would take the receiver's stream past 2^64 items.
    #[error("{items} more items would take the stream past 2^64 items (at item {here})")]
    StreamEnd {
        /// The frame's items.
        items: u64,
        /// The receiver's stream offset.
        here: u64,
    },
    /// The bytes after the header are not a whole number of items.
    #[error(
        "received {bytes} bytes of items, not a whole number of {size}-byte items \
         (does the sender use the same item type{}?)",
        if *.tagged { "" } else { ", and send no tag header" }
    )]
    PartialItems {
        /// Bytes after the header.
        bytes: usize,
        /// The receiver's item size.
        size: usize,
        /// Whether a tag header was expected.
        tagged: bool,
    },
}

/// Checks a received stream frame of `size`-byte items, whose first item becomes item `here`
/// of the receiver's stream, and returns where its items start. With `tagged` the frame
/// starts with a tag header, whose tags are put in `tags` (cleared first) with offsets moved
/// to the receiver's stream, in order. Every offset is computed with checked arithmetic:
/// whatever the bytes, the result is a frame whose tags all fall on its items, or an error.
///
/// # Errors
/// [`FrameError`] says what is wrong.
pub fn decode_frame(
    frame: &[u8],
    tagged: bool,
    size: usize,
    here: u64,
    tags: &mut Vec<Tag>,
) -> Result<usize, FrameError> {
    tags.clear();
    let (header, start) = if tagged {
        let (header, used) = decode(frame)?;
        (Some(header), used)
    } else {
        (None, 0)
    };
    let bytes = frame.len() - start;
    if size == 0 || !bytes.is_multiple_of(size) {
        return Err(FrameError::PartialItems {
            bytes,
            size,
            tagged,
        });
    }
    let items = (bytes / size) as u64;
    if here.checked_add(items).is_none() {
        return Err(FrameError::StreamEnd { items, here });
    }
    if let Some(header) = header {
        let first = header.offset;
        for (index, tag) in header.tags.into_iter().enumerate() {
            let rel = match tag.offset.checked_sub(first) {
                Some(rel) if rel < items => rel,
                _ => {
                    tags.clear();
                    return Err(FrameError::TagOutside {
                        index,
                        offset: tag.offset,
                        first,
                        items,
                    });
                }
            };
            // Cannot overflow: rel < items and here + items fits.
            tags.push(Tag {
                offset: here + rel,
                ..tag
            });
        }
        tags.sort_by_key(|t| t.offset);
    }
    Ok(start)
}

/// The frames a receiver dropped as malformed, when told to drop them instead of failing
/// (the `drop_malformed` option of [`ZmqSource`](crate::ZmqSource),
/// [`ZmqMessageSource`](crate::ZmqMessageSource) and the hosts' links). Each drop is logged
/// (warning level, through `tracing`): the first with its cause, then the 10th, 100th, ...
/// so that a flood of bad frames does not flood the log; [`finish`](Self::finish) logs the
/// total.
#[derive(Clone, Debug, Default)]
pub struct DroppedFrames {
    count: u64,
}

impl DroppedFrames {
    /// Counts one frame `who` (the receiver, for the log) dropped because of `why`.
    pub fn drop_frame(&mut self, who: &str, why: &dyn fmt::Display) {
        self.count += 1;
        let n = self.count;
        let mut power = n;
        while power >= 10 && power.is_multiple_of(10) {
            power /= 10;
        }
        if n == 1 {
            tracing::warn!("{who}: dropped a malformed frame ({why})");
        } else if power == 1 {
            tracing::warn!("{who}: dropped {n} malformed frames so far (the last: {why})");
        }
    }

    /// Frames dropped so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Logs the total, if any frame was dropped (when the receiver stops).
    pub fn finish(&self, who: &str) {
        if self.count > 0 {
            tracing::warn!("{who}: dropped {} malformed frames in all", self.count);
        }
    }
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
/// `tags` (absolute offsets), to `out`, each with its source id (`#f`, GNU Radio's default,
/// where a tag has none).
pub fn encode(offset: u64, tags: &[Tag], out: &mut Vec<u8>) {
    out.extend_from_slice(&MAGIC.to_le_bytes());
    out.push(VERSION);
    out.extend_from_slice(&offset.to_le_bytes());
    out.extend_from_slice(&(tags.len() as u64).to_le_bytes());
    for tag in tags {
        out.extend_from_slice(&tag.offset.to_le_bytes());
        tag.key.serialize(out);
        tag.value.serialize(out);
        tag.srcid.serialize(out);
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
        let srcid = next("source id")?;
        tags.push(Tag {
            offset: tag_offset,
            key,
            value,
            srcid,
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
        assert_eq!(
            h.tags,
            [Tag::new(1, Pmt::symbol("k"), Pmt::Int(7)).with_srcid(Pmt::symbol("src"))]
        );
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
    fn encodes_a_source_id_as_gnu_radio_does() {
        let mut out = Vec::new();
        let tag = Tag::new(1, Pmt::symbol("k"), Pmt::Int(7)).with_srcid(Pmt::symbol("src"));
        encode(0, &[tag], &mut out);
        let msg = hex(FROM_GNU_RADIO);
        let (_, header_len) = decode(&msg).unwrap();
        assert_eq!(out, msg[..header_len]);
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
    fn a_frame_moves_its_tags_to_the_receiving_stream_with_checked_arithmetic() {
        let tag = |at: u64| Tag::new(at, Pmt::symbol("k"), Pmt::Int(1));
        let frame = |first: u64, tags: &[Tag], items: usize| {
            let mut f = Vec::new();
            encode(first, tags, &mut f);
            f.extend(std::iter::repeat_n(7u8, items * 4));
            f
        };
        let mut tags = vec![tag(99)];
        let good = frame(1000, &[tag(1003), tag(1000)], 4);
        assert_eq!(
            decode_frame(&good, true, 4, 50, &mut tags),
            Ok(good.len() - 16)
        );
        assert_eq!(tags, [tag(50), tag(53)]);
        // The last item of the receiver's stream can carry a tag; one more is too many.
        let end = frame(0, &[tag(3)], 4);
        assert!(decode_frame(&end, true, 4, u64::MAX - 4, &mut tags).is_ok());
        assert_eq!(tags, [tag(u64::MAX - 1)]);
        assert_eq!(
            decode_frame(&end, true, 4, u64::MAX - 3, &mut tags),
            Err(FrameError::StreamEnd {
                items: 4,
                here: u64::MAX - 3
            })
        );
        for (first, at) in [(0, u64::MAX), (5, 4), (5, 9), (u64::MAX, 0)] {
            let bad = frame(first, &[tag(first), tag(at)], 4);
            assert_eq!(
                decode_frame(&bad, true, 4, 10, &mut tags),
                Err(FrameError::TagOutside {
                    index: 1,
                    offset: at,
                    first,
                    items: 4
                }),
                "first {first}, tag at {at}"
            );
            assert!(tags.is_empty(), "no tag of a refused frame is kept");
        }
        assert!(matches!(
            decode_frame(&good[..good.len() - 1], true, 4, 0, &mut tags),
            Err(FrameError::PartialItems {
                size: 4,
                tagged: true,
                ..
            })
        ));
        assert!(matches!(
            decode_frame(&[0; 8], true, 4, 0, &mut tags),
            Err(FrameError::Header(TagHeaderError::TooShort { len: 8 }))
        ));
        assert_eq!(decode_frame(&[0; 8], false, 4, 0, &mut tags), Ok(0));
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
