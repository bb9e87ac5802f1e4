//! Polymorphic types (PMT): the values carried by radioflow messages and stream tags.
//!
//! [`Pmt`] is cheap to clone (large payloads sit behind `Arc`), so fanning a message out to
//! many receivers shares it instead of copying it. [`Pmt::serialize`] and [`Pmt::deserialize`]
//! speak GNU Radio 3.10's wire format byte for byte (checked against vectors that GNU Radio
//! itself wrote, see `golden/`), so PMTs can cross ZeroMQ sockets and files to and from GNU
//! Radio flowgraphs. Decoding outside input fails with a [`PmtError`] and never panics.
//!
//! ```
//! use radioflow_pmt::Pmt;
//!
//! // A GNU Radio PDU: (metadata dict . u8vector).
//! let meta = Pmt::dict_from([("freq", Pmt::from(100e6)), ("gain", Pmt::from(20))]);
//! let pdu = Pmt::pair(meta, Pmt::blob(vec![1, 2, 3]));
//!
//! let bytes = pdu.to_bytes();
//! assert_eq!(Pmt::from_bytes(&bytes)?, pdu);
//! assert_eq!(pdu.as_pair().unwrap().0.dict_get("freq"), Some(&Pmt::Double(100e6)));
//! assert_eq!(pdu.to_string(), "(((gain . 20) (freq . 1e+08)) . #[1 2 3])");
//! # Ok::<(), radioflow_pmt::PmtError>(())
//! ```

use std::sync::Arc;

pub use num_complex::{Complex32, Complex64};

mod convert;
mod display;
mod error;
mod value;
mod walk;
mod wire;

pub use error::PmtError;
pub use wire::MAX_DEPTH;

/// A polymorphic value, modelled on GNU Radio's `pmt::pmt_t`.
///
/// Dropping, comparing, printing and serializing a value take a bounded amount of call stack
/// however long a list (a chain of [`Pair`](Pmt::Pair)s) or however deep a nest of containers
/// it holds. For that `Pmt` implements [`Drop`], so a pattern cannot move a field out of it:
/// match on `&pmt` and clone the `Arc` you need (a reference count), or use the `as_*`
/// accessors.
#[derive(Clone)]
pub enum Pmt {
    /// `pmt::PMT_NIL` (also the empty list and the empty dict in GNU Radio).
    Null,
    Bool(bool),
    Symbol(Arc<str>),
    /// A signed integer (GNU Radio `from_long`).
    Int(i64),
    Uint64(u64),
    Double(f64),
    Complex(Complex64),
    Pair(Arc<(Pmt, Pmt)>),
    /// Key/value pairs in GNU Radio's order (most recently added key first).
    Dict(Arc<Vec<(Pmt, Pmt)>>),
    Vector(Arc<[Pmt]>),
    Tuple(Arc<[Pmt]>),
    U8Vector(Arc<[u8]>),
    S8Vector(Arc<[i8]>),
    U16Vector(Arc<[u16]>),
    S16Vector(Arc<[i16]>),
    U32Vector(Arc<[u32]>),
    S32Vector(Arc<[i32]>),
    U64Vector(Arc<[u64]>),
    S64Vector(Arc<[i64]>),
    F32Vector(Arc<[f32]>),
    F64Vector(Arc<[f64]>),
    C32Vector(Arc<[Complex32]>),
    C64Vector(Arc<[Complex64]>),
}
