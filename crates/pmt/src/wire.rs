//! GNU Radio 3.10's PMT wire format (`pmt::serialize` / `pmt::deserialize`).
//!
//! Every value starts with a one-byte tag; numbers and lengths are big-endian. A pair is
//! `PAIR car cdr`, so a list is a chain of pairs ending in `NULL`. A dict is GNU Radio's
//! association list: one `DICT (PAIR key value)` cell per entry, ending in `NULL`, which makes the
//! empty dict a bare `NULL`. Integers that fit in 32 bits are written as `INT32`, others as
//! `INT64`. Uniform vectors are `UNIFORM_VECTOR type u32-length 0x01 0x00 elements`: GNU Radio
//! always writes one padding byte and reads whatever padding count it is given.

use std::sync::Arc;

use crate::walk::RECURSION_BUDGET;
use crate::{Complex32, Complex64, Pmt, PmtError};

const TRUE: u8 = 0x00;
const FALSE: u8 = 0x01;
const SYMBOL: u8 = 0x02;
const INT32: u8 = 0x03;
const DOUBLE: u8 = 0x04;
const COMPLEX: u8 = 0x05;
const NULL: u8 = 0x06;
const PAIR: u8 = 0x07;
const VECTOR: u8 = 0x08;
const DICT: u8 = 0x09;
const UNIFORM_VECTOR: u8 = 0x0a;
const UINT64: u8 = 0x0b;
const TUPLE: u8 = 0x0c;
const INT64: u8 = 0x0d;

// Uniform vector element types (the byte after `UNIFORM_VECTOR`).
const UVI_U8: u8 = 0x00;
const UVI_S8: u8 = 0x01;
const UVI_U16: u8 = 0x02;
const UVI_S16: u8 = 0x03;
const UVI_U32: u8 = 0x04;
const UVI_S32: u8 = 0x05;
const UVI_U64: u8 = 0x06;
const UVI_S64: u8 = 0x07;
const UVI_F32: u8 = 0x08;
const UVI_F64: u8 = 0x09;
const UVI_C32: u8 = 0x0a;
const UVI_C64: u8 = 0x0b;

/// How deeply [`Pmt::deserialize`] lets containers nest before it gives up with
/// [`PmtError::TooDeep`].
///
/// Only real nesting counts: a value inside the car of a pair, an item of a vector or tuple, a
/// key or value of a dict is one level deeper than its container, but the cdr of a pair is not,
/// so a list of any length is one level, as in GNU Radio (which has no limit). Nothing in this
/// crate needs the bound (no walk over a [`Pmt`] recurses more than a few dozen levels); it
/// keeps hostile input from building values that code walking them recursively, such as a
/// conversion to another language's values, could not handle.
pub const MAX_DEPTH: usize = 256;

impl Pmt {
    /// Appends GNU Radio's serialized form of `self` to `out` (what `pmt::serialize` writes).
    ///
    /// An empty [`Pmt::Dict`] is written like [`Pmt::Null`], as in GNU Radio, where the empty
    /// dict *is* `PMT_NIL`; it therefore decodes as `Null`.
    ///
    /// # Panics
    ///
    /// If a symbol is longer than 65535 bytes or a vector, tuple or uniform vector has more than
    /// `u32::MAX` elements: the format cannot express those lengths. (GNU Radio silently writes
    /// a corrupt stream instead; note also that it refuses to decode symbols over 1024 bytes.)
    pub fn serialize(&self, out: &mut Vec<u8>) {
        write_value(out, self, RECURSION_BUDGET);
    }

    /// GNU Radio's serialized form of `self` (what `pmt::serialize_str` returns).
    ///
    /// # Panics
    ///
    /// As [`serialize`](Self::serialize).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.serialize(&mut out);
        out
    }

    /// Decodes one PMT from the front of `bytes` (what `pmt::deserialize` reads), returning it
    /// and the number of bytes it took. Whatever follows is left alone.
    ///
    /// Accepts everything GNU Radio 3.10 writes, and also the empty tuple, which GNU Radio
    /// writes but cannot read back. Length fields are checked against the input left before
    /// anything is allocated.
    ///
    /// # Errors
    ///
    /// [`PmtError`] with the byte offset where `bytes` stops being a well-formed PMT: truncated
    /// input, unknown tags, symbols that are not UTF-8, malformed dicts, or nesting deeper than
    /// [`MAX_DEPTH`].
    pub fn deserialize(bytes: &[u8]) -> Result<(Pmt, usize), PmtError> {
        let mut reader = Reader { bytes, pos: 0 };
        let value = reader.value()?;
        Ok((value, reader.pos))
    }

    /// Decodes a PMT that fills all of `bytes`.
    ///
    /// # Errors
    ///
    /// As [`deserialize`](Self::deserialize), and [`PmtError::TrailingBytes`] if bytes are left
    /// over after the value.
    pub fn from_bytes(bytes: &[u8]) -> Result<Pmt, PmtError> {
        let (value, used) = Self::deserialize(bytes)?;
        if used == bytes.len() {
            Ok(value)
        } else {
            Err(PmtError::TrailingBytes {
                offset: used,
                count: bytes.len() - used,
            })
        }
    }
}

fn write_len(out: &mut Vec<u8>, len: usize) {
    let len = u32::try_from(len).expect("PMT vectors longer than u32::MAX cannot be serialized");
    out.extend_from_slice(&len.to_be_bytes());
}

/// Writes `value`, recursing into containers while `budget` lasts, and writes atoms. The cdr
/// of a pair is followed in a loop, so a list costs no budget.
fn write_value(out: &mut Vec<u8>, mut value: &Pmt, budget: u32) {
    loop {
        // Containers check the budget in their arms: atoms, the most values, pay nothing.
        match value {
            Pmt::Pair(pair) => {
                let Some(inner) = budget.checked_sub(1) else {
                    return write_deep(out, value);
                };
                out.push(PAIR);
                write_value(out, &pair.0, inner);
                value = &pair.1;
                continue;
            }
            Pmt::Dict(entries) => {
                let Some(inner) = budget.checked_sub(1) else {
                    return write_deep(out, value);
                };
                for (key, value) in entries.iter() {
                    out.extend_from_slice(&[DICT, PAIR]);
                    write_value(out, key, inner);
                    write_value(out, value, inner);
                }
                out.push(NULL);
            }
            Pmt::Vector(items) | Pmt::Tuple(items) => {
                let Some(inner) = budget.checked_sub(1) else {
                    return write_deep(out, value);
                };
                write_header(out, value, items);
                for item in items.iter() {
                    write_value(out, item, inner);
                }
            }
            Pmt::Null => out.push(NULL),
            Pmt::Bool(true) => out.push(TRUE),
            Pmt::Bool(false) => out.push(FALSE),
            Pmt::Symbol(name) => {
                let len = u16::try_from(name.len())
                    .expect("PMT symbols longer than 65535 bytes cannot be serialized");
                out.push(SYMBOL);
                out.extend_from_slice(&len.to_be_bytes());
                out.extend_from_slice(name.as_bytes());
            }
            Pmt::Int(i) => match i32::try_from(*i) {
                Ok(small) => {
                    out.push(INT32);
                    out.extend_from_slice(&small.to_be_bytes());
                }
                Err(_) => {
                    out.push(INT64);
                    out.extend_from_slice(&i.to_be_bytes());
                }
            },
            Pmt::Uint64(u) => {
                out.push(UINT64);
                out.extend_from_slice(&u.to_be_bytes());
            }
            Pmt::Double(d) => {
                out.push(DOUBLE);
                out.extend_from_slice(&d.to_be_bytes());
            }
            Pmt::Complex(c) => {
                out.push(COMPLEX);
                out.extend_from_slice(&c.re.to_be_bytes());
                out.extend_from_slice(&c.im.to_be_bytes());
            }
            uniform => write_uniform_vector(out, uniform),
        }
        return;
    }
}

/// The tag and length of a vector or tuple.
#[inline]
fn write_header(out: &mut Vec<u8>, value: &Pmt, items: &[Pmt]) {
    out.push(if matches!(value, Pmt::Tuple(_)) {
        TUPLE
    } else {
        VECTOR
    });
    write_len(out, items.len());
}

/// A part of a value that [`write_deep`] has still to write.
enum Frame<'a> {
    Value(&'a Pmt),
    /// The rest of a vector or tuple.
    Items(std::slice::Iter<'a, Pmt>),
    /// The rest of a dict, then its closing `NULL`.
    Entries(std::slice::Iter<'a, (Pmt, Pmt)>),
}

/// Writes a value nested too deeply for [`write_value`]'s recursion, keeping what is left to
/// write on a heap stack instead.
#[cold]
fn write_deep(out: &mut Vec<u8>, root: &Pmt) {
    let mut pending: Vec<Frame<'_>> = Vec::new();
    let mut value = root;
    loop {
        match value {
            Pmt::Pair(pair) => {
                out.push(PAIR);
                if pair.0.is_container() {
                    pending.push(Frame::Value(&pair.1));
                    value = &pair.0;
                } else {
                    write_value(out, &pair.0, 0);
                    value = &pair.1;
                }
                continue;
            }
            Pmt::Dict(entries) => pending.push(Frame::Entries(entries.iter())),
            Pmt::Vector(items) | Pmt::Tuple(items) => {
                write_header(out, value, items);
                pending.push(Frame::Items(items.iter()));
            }
            atom => write_value(out, atom, 0),
        }
        value = loop {
            match pending.last_mut() {
                None => return,
                Some(Frame::Value(next)) => {
                    let next = *next;
                    pending.pop();
                    break next;
                }
                Some(Frame::Items(items)) => match items.next() {
                    Some(item) => break item,
                    None => _ = pending.pop(),
                },
                Some(Frame::Entries(entries)) => match entries.next() {
                    Some((key, value)) => {
                        out.extend_from_slice(&[DICT, PAIR]);
                        pending.push(Frame::Value(value));
                        break key;
                    }
                    None => {
                        out.push(NULL);
                        pending.pop();
                    }
                },
            }
        };
    }
}

/// Writes a uniform vector; out of line, so that [`write_value`] stays small for the common
/// atoms.
#[inline(never)]
fn write_uniform_vector(out: &mut Vec<u8>, value: &Pmt) {
    match value {
        Pmt::U8Vector(v) => write_uniform(out, UVI_U8, v, |x| x.to_be_bytes()),
        Pmt::S8Vector(v) => write_uniform(out, UVI_S8, v, |x| x.to_be_bytes()),
        Pmt::U16Vector(v) => write_uniform(out, UVI_U16, v, |x| x.to_be_bytes()),
        Pmt::S16Vector(v) => write_uniform(out, UVI_S16, v, |x| x.to_be_bytes()),
        Pmt::U32Vector(v) => write_uniform(out, UVI_U32, v, |x| x.to_be_bytes()),
        Pmt::S32Vector(v) => write_uniform(out, UVI_S32, v, |x| x.to_be_bytes()),
        Pmt::U64Vector(v) => write_uniform(out, UVI_U64, v, |x| x.to_be_bytes()),
        Pmt::S64Vector(v) => write_uniform(out, UVI_S64, v, |x| x.to_be_bytes()),
        Pmt::F32Vector(v) => write_uniform(out, UVI_F32, v, |x| x.to_be_bytes()),
        Pmt::F64Vector(v) => write_uniform(out, UVI_F64, v, |x| x.to_be_bytes()),
        Pmt::C32Vector(v) => write_uniform(out, UVI_C32, v, |x| {
            let mut b = [0; 8];
            b[..4].copy_from_slice(&x.re.to_be_bytes());
            b[4..].copy_from_slice(&x.im.to_be_bytes());
            b
        }),
        Pmt::C64Vector(v) => write_uniform(out, UVI_C64, v, |x| {
            let mut b = [0; 16];
            b[..8].copy_from_slice(&x.re.to_be_bytes());
            b[8..].copy_from_slice(&x.im.to_be_bytes());
            b
        }),
        _ => unreachable!("not a uniform vector: {value:?}"),
    }
}

fn write_uniform<T, const N: usize>(
    out: &mut Vec<u8>,
    kind: u8,
    items: &[T],
    to_be: impl Fn(&T) -> [u8; N],
) {
    out.extend_from_slice(&[UNIFORM_VECTOR, kind]);
    write_len(out, items.len());
    out.extend_from_slice(&[1, 0]); // one byte of padding, as GNU Radio writes
                                    // Into a zeroed region, which compiles to a tight loop however the caller is inlined
                                    // (pushing element by element checks the capacity each time).
    let start = out.len();
    out.resize(start + items.len() * N, 0);
    for (bytes, item) in out[start..].chunks_exact_mut(N).zip(items) {
        bytes.copy_from_slice(&to_be(item));
    }
}

/// A container that [`Reader::value`] has started but not finished reading.
enum Open {
    /// A chain of pairs (a list), read in one frame so that its length costs no depth. `car`
    /// holds the car of the last pair once that has been read; `earlier` the cars before it.
    Pairs { car: Option<Pmt>, earlier: Vec<Pmt> },
    /// A vector or tuple of `len` items, of which `items` have been read.
    Items {
        items: Vec<Pmt>,
        len: usize,
        tuple: bool,
    },
    /// A dict, holding the key of the entry being read once that has been read.
    Dict {
        entries: Vec<(Pmt, Pmt)>,
        key: Option<Pmt>,
    },
}

fn sequence(tuple: bool, items: Vec<Pmt>) -> Pmt {
    if tuple {
        Pmt::Tuple(items.into())
    } else {
        Pmt::Vector(items.into())
    }
}

/// A cursor over the input; `pos <= bytes.len()` always.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], PmtError> {
        let available = self.remaining();
        if n > available {
            return Err(PmtError::Truncated {
                offset: self.pos,
                what,
                needed: n,
                available,
            });
        }
        let taken = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], PmtError> {
        self.take(N, what).map(be)
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, PmtError> {
        self.array::<1>(what).map(|[b]| b)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, PmtError> {
        self.array(what).map(u32::from_be_bytes)
    }

    fn f64(&mut self, what: &'static str) -> Result<f64, PmtError> {
        self.array(what).map(f64::from_be_bytes)
    }

    /// Reads one value. Containers are tracked on a heap stack rather than by recursion, so
    /// decoding needs the same small amount of call stack however deep the input nests.
    fn value(&mut self) -> Result<Pmt, PmtError> {
        let mut open: Vec<Open> = Vec::new();
        loop {
            let start = self.pos;
            let tag = self.u8("tag")?;
            // A pair in the cdr of a pair continues a list: same frame, no deeper.
            if let (PAIR, Some(Open::Pairs { car, earlier })) = (tag, open.last_mut())
                && let Some(car) = car.take()
            {
                earlier.push(car);
                continue;
            }
            if open.len() > MAX_DEPTH {
                return Err(PmtError::TooDeep {
                    offset: start,
                    max: MAX_DEPTH,
                });
            }
            let mut done = match tag {
                PAIR => {
                    open.push(Open::Pairs {
                        car: None,
                        earlier: Vec::new(),
                    });
                    continue;
                }
                DICT => {
                    self.dict_entry_tag()?;
                    open.push(Open::Dict {
                        entries: Vec::new(),
                        key: None,
                    });
                    continue;
                }
                VECTOR | TUPLE => {
                    let len = self.u32("vector length")? as usize;
                    let tuple = tag == TUPLE;
                    if len == 0 {
                        sequence(tuple, Vec::new())
                    } else {
                        // Not trusting `len` keeps deep nests of huge claimed lengths cheap.
                        let items = Vec::with_capacity(len.min(64));
                        open.push(Open::Items { items, len, tuple });
                        continue;
                    }
                }
                _ => self.atom(tag, start)?,
            };
            // Hand the finished value to the innermost open container; each container that it
            // completes is closed and handed on in turn.
            loop {
                let Some(top) = open.last_mut() else {
                    return Ok(done);
                };
                match top {
                    Open::Pairs { car, earlier } => match car.take() {
                        None => {
                            *car = Some(done);
                            break;
                        }
                        // `done` is the final cdr: build the chain from its end.
                        Some(car) => {
                            done = Pmt::Pair(Arc::new((car, done)));
                            while let Some(car) = earlier.pop() {
                                done = Pmt::Pair(Arc::new((car, done)));
                            }
                        }
                    },
                    Open::Items { items, len, tuple } => {
                        items.push(done);
                        if items.len() < *len {
                            break;
                        }
                        done = sequence(*tuple, std::mem::take(items));
                    }
                    Open::Dict { entries, key } => match key.take() {
                        None => {
                            *key = Some(done);
                            break;
                        }
                        Some(key) => {
                            entries.push((key, done));
                            let tag_start = self.pos;
                            match self.u8("dict continuation tag")? {
                                // GNU Radio also continues a dict after a PAIR tag.
                                DICT | PAIR => {
                                    self.dict_entry_tag()?;
                                    break;
                                }
                                NULL => done = Pmt::Dict(Arc::new(std::mem::take(entries))),
                                tag => {
                                    return Err(PmtError::ImproperDict {
                                        offset: tag_start,
                                        tag,
                                    })
                                }
                            }
                        }
                    },
                }
                open.pop();
            }
        }
    }

    /// Reads the `PAIR` tag that opens a dict entry (a `(key . value)` pair).
    fn dict_entry_tag(&mut self) -> Result<(), PmtError> {
        let offset = self.pos;
        match self.u8("dict entry tag")? {
            PAIR => Ok(()),
            _ => Err(PmtError::DictEntryNotPair { offset }),
        }
    }

    /// Reads the rest of a value that holds no other values, whose tag (at `start`) has been
    /// eaten.
    fn atom(&mut self, tag: u8, start: usize) -> Result<Pmt, PmtError> {
        Ok(match tag {
            TRUE => Pmt::Bool(true),
            FALSE => Pmt::Bool(false),
            NULL => Pmt::Null,
            SYMBOL => {
                let len = u16::from_be_bytes(self.array("symbol length")?);
                let raw = self.take(len.into(), "symbol")?;
                let name = std::str::from_utf8(raw)
                    .map_err(|_| PmtError::InvalidSymbol { offset: start })?;
                Pmt::Symbol(name.into())
            }
            INT32 => Pmt::Int(i32::from_be_bytes(self.array("int32")?).into()),
            INT64 => Pmt::Int(i64::from_be_bytes(self.array("int64")?)),
            UINT64 => Pmt::Uint64(u64::from_be_bytes(self.array("uint64")?)),
            DOUBLE => Pmt::Double(self.f64("double")?),
            COMPLEX => Pmt::Complex(Complex64::new(
                self.f64("complex real part")?,
                self.f64("complex imaginary part")?,
            )),
            UNIFORM_VECTOR => self.uniform()?,
            _ => return Err(PmtError::UnknownTag { offset: start, tag }),
        })
    }

    /// Reads the rest of a uniform vector whose tag has been eaten.
    fn uniform(&mut self) -> Result<Pmt, PmtError> {
        let kind_at = self.pos;
        let kind = self.u8("uniform vector type")?;
        if kind > UVI_C64 {
            return Err(PmtError::UnknownUniformType {
                offset: kind_at,
                kind,
            });
        }
        let len = self.u32("uniform vector length")? as usize;
        let padding = self.u8("uniform vector padding length")?;
        self.take(padding.into(), "uniform vector padding")?;
        Ok(match kind {
            UVI_U8 => Pmt::U8Vector(self.elements(len, u8::from_be_bytes)?),
            UVI_S8 => Pmt::S8Vector(self.elements(len, i8::from_be_bytes)?),
            UVI_U16 => Pmt::U16Vector(self.elements(len, u16::from_be_bytes)?),
            UVI_S16 => Pmt::S16Vector(self.elements(len, i16::from_be_bytes)?),
            UVI_U32 => Pmt::U32Vector(self.elements(len, u32::from_be_bytes)?),
            UVI_S32 => Pmt::S32Vector(self.elements(len, i32::from_be_bytes)?),
            UVI_U64 => Pmt::U64Vector(self.elements(len, u64::from_be_bytes)?),
            UVI_S64 => Pmt::S64Vector(self.elements(len, i64::from_be_bytes)?),
            UVI_F32 => Pmt::F32Vector(self.elements(len, f32::from_be_bytes)?),
            UVI_F64 => Pmt::F64Vector(self.elements(len, f64::from_be_bytes)?),
            UVI_C32 => Pmt::C32Vector(self.elements(len, |b: [u8; 8]| {
                Complex32::new(
                    f32::from_be_bytes(be(&b[..4])),
                    f32::from_be_bytes(be(&b[4..])),
                )
            })?),
            _ => Pmt::C64Vector(self.elements(len, |b: [u8; 16]| {
                Complex64::new(
                    f64::from_be_bytes(be(&b[..8])),
                    f64::from_be_bytes(be(&b[8..])),
                )
            })?),
        })
    }

    /// Reads `len` elements of `N` bytes each.
    fn elements<T, const N: usize>(
        &mut self,
        len: usize,
        from_be: impl Fn([u8; N]) -> T,
    ) -> Result<Arc<[T]>, PmtError> {
        let raw = self.take(len.saturating_mul(N), "uniform vector elements")?;
        Ok(raw
            .chunks_exact(N)
            .map(|chunk| from_be(be(chunk)))
            .collect())
    }
}

/// Copies a slice that is known to hold exactly `N` bytes into an array.
fn be<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut array = [0; N];
    array.copy_from_slice(bytes);
    array
}
