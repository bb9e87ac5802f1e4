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

pub use num_complex::{Complex32, Complex64};

mod convert;
mod display;
mod error;
mod value;
mod walk;
mod wire;

pub use error::PmtError;
pub use value::Pmt;
pub use wire::MAX_DEPTH;
