//! [`PduItem`]: the item types of GNU Radio's PDU blocks, and a PDU's vector as bytes.

use radioflow_runtime::{BlockError, Complex32, Item, Pmt};

/// An item type GNU Radio's PDU blocks carry (`gr.types.byte_t`, `float_t`, `complex_t`, and
/// the short and int of the templated gr-pdu blocks): a PDU's vector of them is a `u8vector`,
/// `s16vector`, `s32vector`, `f32vector` or `c32vector`.
pub trait PduItem: Item {
    /// The uniform vector of `items` (GNU Radio's `pdu::make_pdu_vector`).
    fn pdu_vector(items: &[Self]) -> Pmt;
}

impl PduItem for u8 {
    fn pdu_vector(items: &[Self]) -> Pmt {
        Pmt::U8Vector(items.into())
    }
}

impl PduItem for i16 {
    fn pdu_vector(items: &[Self]) -> Pmt {
        Pmt::S16Vector(items.into())
    }
}

impl PduItem for i32 {
    fn pdu_vector(items: &[Self]) -> Pmt {
        Pmt::S32Vector(items.into())
    }
}

impl PduItem for f32 {
    fn pdu_vector(items: &[Self]) -> Pmt {
        Pmt::F32Vector(items.into())
    }
}

impl PduItem for Complex32 {
    fn pdu_vector(items: &[Self]) -> Pmt {
        Pmt::C32Vector(items.into())
    }
}

/// The bytes of a uniform vector as they lie in memory (GNU Radio's `uniform_vector_elements`
/// with `blob_length`), or `None` for any other PMT.
pub(crate) fn uniform_bytes(v: &Pmt) -> Option<&[u8]> {
    use bytemuck::cast_slice as b;
    Some(match v {
        Pmt::U8Vector(x) => x,
        Pmt::S8Vector(x) => b(x),
        Pmt::U16Vector(x) => b(x),
        Pmt::S16Vector(x) => b(x),
        Pmt::U32Vector(x) => b(x),
        Pmt::S32Vector(x) => b(x),
        Pmt::U64Vector(x) => b(x),
        Pmt::S64Vector(x) => b(x),
        Pmt::F32Vector(x) => b(x),
        Pmt::F64Vector(x) => b(x),
        Pmt::C32Vector(x) => b(x),
        Pmt::C64Vector(x) => b(x),
        _ => return None,
    })
}

/// The size in bytes of one element of a uniform vector (GNU Radio's
/// `uniform_vector_itemsize`), or `None` for any other PMT.
pub(crate) fn uniform_itemsize(v: &Pmt) -> Option<usize> {
    Some(match v {
        Pmt::U8Vector(_) | Pmt::S8Vector(_) => 1,
        Pmt::U16Vector(_) | Pmt::S16Vector(_) => 2,
        Pmt::U32Vector(_) | Pmt::S32Vector(_) | Pmt::F32Vector(_) => 4,
        Pmt::U64Vector(_) | Pmt::S64Vector(_) | Pmt::F64Vector(_) | Pmt::C32Vector(_) => 8,
        Pmt::C64Vector(_) => 16,
        _ => return None,
    })
}

/// The metadata and data of a PDU whose metadata may be changed: a pair with a dict (or nil)
/// first, or the error GNU Radio's `pdu_set` and `pdu_remove` stop on.
pub(crate) fn pdu_parts(pdu: &Pmt) -> Result<(&Pmt, &Pmt), BlockError> {
    match pdu.as_pair() {
        Some((meta, data)) if meta.is_dict() => Ok((meta, data)),
        _ => Err(BlockError::msg(format!(
            "pdus: {} is not a PDU (a pair of a metadata dict and data)",
            radioflow_runtime::echo::cut(&pdu.to_string())
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_s_bytes_are_its_memory() {
        let v = Pmt::F32Vector(vec![1.0f32].into());
        assert_eq!(uniform_bytes(&v), Some(&1.0f32.to_ne_bytes()[..]));
        assert_eq!(uniform_bytes(&Pmt::Int(1)), None);
        assert_eq!(u8::pdu_vector(&[1, 2]), Pmt::blob(vec![1, 2]));
    }
}
