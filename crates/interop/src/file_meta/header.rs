//! The segment header of GNU Radio's metadata files: a PMT dict of 149 bytes when serialized,
//! then a dict of extra keys whose length the header's `strt` gives.

use radioflow_blocks::FileError;
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::{Item, ItemType, Pmt};
use std::io::{self, Read};
use std::path::Path;

/// The serialized header's size (GNU Radio's `METADATA_HEADER_SIZE`): every header has the
/// same keys with values of fixed size, so readers find the extras and data after it.
pub(super) const HEADER_SIZE: u64 = 149;

/// What GNU Radio writes as the header's `type` (`gr_file_types`) and `cplx` for an item type:
/// bytes 0, shorts 1, ints 2, floats 5 (complex numbers too, with `cplx` true), doubles 6.
pub(super) fn file_type<T: Item>() -> Option<(i64, bool)> {
    Some(match ItemType::of::<T>().dtype()? {
        Dtype::Uint8 | Dtype::Int8 => (0, false),
        Dtype::Int16 => (1, false),
        Dtype::Int32 => (2, false),
        Dtype::Float32 => (5, false),
        Dtype::Complex32 => (5, true),
        Dtype::Float64 => (6, false),
    })
}

/// The first header of a file, as GNU Radio's sink builds it (each key added in front, in
/// this order: the serialized dict lists them last-added first).
pub(super) fn first(sample_rate: f64, item_size: usize, kind: i64, cplx: bool, strt: u64) -> Pmt {
    let mut h = Pmt::Null;
    h.dict_add(Pmt::symbol("version"), Pmt::Int(0));
    h.dict_add(Pmt::symbol("rx_rate"), Pmt::Double(sample_rate));
    h.dict_add(
        Pmt::symbol("rx_time"),
        Pmt::Tuple([Pmt::Uint64(0), Pmt::Double(0.0)].into()),
    );
    h.dict_add(Pmt::symbol("size"), Pmt::Int(item_size as i64));
    h.dict_add(Pmt::symbol("type"), Pmt::Int(kind));
    h.dict_add(Pmt::symbol("cplx"), Pmt::Bool(cplx));
    h.dict_add(Pmt::symbol("strt"), Pmt::Uint64(strt));
    h.dict_add(Pmt::symbol("bytes"), Pmt::Uint64(0));
    h
}

/// A value of the header (`None` if the key is missing).
pub(super) fn get<'a>(header: &'a Pmt, key: &str) -> Option<&'a Pmt> {
    header.dict_get(&Pmt::symbol(key))
}

/// The header and its extras serialized; an error where the header is not 149 bytes (a tag
/// gave one of its keys a value of another size: no reader could find the data after it).
pub(super) fn serialize(header: &Pmt, extras: &Pmt, path: &Path) -> Result<Vec<u8>, FileError> {
    let mut bytes = header.to_bytes();
    if bytes.len() as u64 != HEADER_SIZE {
        return Err(FileError::new(
            "write a header to",
            path,
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the header would be {} bytes, not GNU Radio's {HEADER_SIZE} (a tag changed the type of one of its keys): {header}",
                    bytes.len()
                ),
            ),
        ));
    }
    extras.serialize(&mut bytes);
    Ok(bytes)
}

/// What a reader needs of one segment's header.
#[derive(Debug)]
pub(super) struct Segment {
    /// The header (`rx_rate`, `rx_time`, `size`, `bytes`, ...).
    pub header: Pmt,
    /// The extra keys, as `(key, value)` pairs in the file's order.
    pub extras: Vec<(Pmt, Pmt)>,
    /// The item size in bytes.
    pub item_size: u64,
    /// The segment's length in items.
    pub items: u64,
}

/// Reads the next header and its extras; `Ok(None)` at the end of the file (nothing left, or
/// less than a header).
pub(super) fn read(from: &mut impl Read, path: &Path) -> Result<Option<Segment>, FileError> {
    let bad = |why: String| {
        FileError::new(
            "read",
            path,
            io::Error::new(io::ErrorKind::InvalidData, why),
        )
    };
    let mut head = [0u8; HEADER_SIZE as usize];
    if !read_all(from, &mut head).map_err(|e| FileError::new("read", path, e))? {
        return Ok(None);
    }
    let header = Pmt::from_bytes(&head).map_err(|e| bad(format!("not a metadata header: {e}")))?;
    if !header.is_dict() {
        return Err(bad(format!("the header is not a dict: {header}")));
    }
    let need = |key: &str| {
        get(&header, key).ok_or_else(|| bad(format!("the header has no '{key}': {header}")))
    };
    need("rx_rate")?
        .as_f64()
        .ok_or_else(|| bad(format!("rx_rate is not a number: {header}")))?;
    need("rx_time")?;
    let item_size = need("size")?
        .as_u64()
        .filter(|&s| s > 0)
        .ok_or_else(|| bad(format!("size is not a positive integer: {header}")))?;
    let bytes = need("bytes")?
        .as_u64()
        .ok_or_else(|| bad(format!("bytes is not an integer: {header}")))?;
    let strt = get(&header, "strt")
        .and_then(Pmt::as_u64)
        .unwrap_or(HEADER_SIZE);
    let extra_len = strt
        .checked_sub(HEADER_SIZE)
        .filter(|&n| n <= 1 << 20)
        .ok_or_else(|| bad(format!("strt {strt} is not 149 to 149 + 1 MiB")))?;
    let mut extras = Vec::new();
    if extra_len > 0 {
        let mut buf = vec![0u8; extra_len as usize];
        if !read_all(from, &mut buf).map_err(|e| FileError::new("read", path, e))? {
            return Ok(None);
        }
        let dict = Pmt::from_bytes(&buf).map_err(|e| bad(format!("not a dict of extras: {e}")))?;
        let entries = dict
            .as_dict()
            .ok_or_else(|| bad(format!("the extras are not a dict: {dict}")))?;
        extras.extend(entries.iter().cloned());
    }
    Ok(Some(Segment {
        header,
        extras,
        item_size,
        items: bytes / item_size,
    }))
}

/// Fills `buf`; `false` at the end of the input (a partial read there counts as the end).
fn read_all(from: &mut impl Read, buf: &mut [u8]) -> io::Result<bool> {
    Ok(fill(from, buf)? == buf.len())
}

/// Reads into `buf` until it is full or the input ends; the bytes read.
pub(super) fn fill(from: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match from.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}
