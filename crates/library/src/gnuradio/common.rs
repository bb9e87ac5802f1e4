//! Pieces many rows of the table share: GRC's usual item-type options, the `vlen` rule and
//! tests on values.

use super::table::{GrBlock, GrParam, GrType, To};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// A row with nothing fixed, nothing extra and no choice of block.
pub(crate) const fn row(
    id: &'static str,
    make: &'static str,
    block: &'static str,
    types: &'static [GrType],
    params: &'static [GrParam],
) -> GrBlock {
    GrBlock {
        id,
        make,
        block,
        types,
        params,
        fixed: &[],
        extra: &[],
        choose: None,
    }
}

/// A type option that radioflow's block has.
pub(crate) const fn ty(option: &'static str, dtype: Dtype) -> GrType {
    GrType {
        option,
        dtype: Some(dtype),
        why: "",
        block: None,
    }
}

/// A type option that becomes another radioflow block than the row's (complex taps).
pub(crate) const fn ty_on(option: &'static str, dtype: Dtype, block: &'static str) -> GrType {
    GrType {
        option,
        dtype: Some(dtype),
        why: "",
        block: Some(block),
    }
}

/// A type option that radioflow's block does not have, and why.
pub(crate) const fn no_ty(option: &'static str, why: &'static str) -> GrType {
    GrType {
        option,
        dtype: None,
        why,
        block: None,
    }
}

/// GRC's options for blocks that move items of any size (`type.size`): complex, float, int,
/// short, byte.
pub(crate) const ANY_TYPE: &[GrType] = &[
    ty("complex", Dtype::Complex32),
    ty("float", Dtype::Float32),
    ty("int", Dtype::Int32),
    ty("short", Dtype::Int16),
    ty("byte", Dtype::Uint8),
];

/// GRC's options for the arithmetic blocks (`type.fcn` cc, ff, ii, ss).
pub(crate) const ARITH_TYPE: &[GrType] = &[
    ty("complex", Dtype::Complex32),
    ty("float", Dtype::Float32),
    ty("int", Dtype::Int32),
    ty("short", Dtype::Int16),
];

/// `vlen` where radioflow's block takes no vector items yet.
pub(crate) const VLEN_ONE: GrParam = GrParam {
    key: "vlen",
    to: To::Only(
        is_one,
        "radioflow's block for this id takes no vector items yet: vlen must be 1",
    ),
};

/// `vlen` passed to a block whose ports carry vectors of that length.
pub(crate) const VLEN: GrParam = param("vlen", "vlen");

/// A passed parameter.
pub(crate) const fn param(key: &'static str, name: &'static str) -> GrParam {
    GrParam {
        key,
        to: To::Param(name),
    }
}

/// A parameter accepted only where `accepts` holds.
pub(crate) const fn only(
    key: &'static str,
    accepts: fn(&Pmt) -> bool,
    why: &'static str,
) -> GrParam {
    GrParam {
        key,
        to: To::Only(accepts, why),
    }
}

/// A parameter with no effect on what the block computes.
pub(crate) const fn no_effect(key: &'static str, why: &'static str) -> GrParam {
    GrParam {
        key,
        to: To::NoEffect(why),
    }
}

/// A number's value (Python's `True` is 1).
fn number(v: &Pmt) -> Option<f64> {
    match v {
        Pmt::Int(i) => Some(*i as f64),
        Pmt::Uint64(u) => Some(*u as f64),
        Pmt::Double(x) => Some(*x),
        Pmt::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

pub(crate) fn is_one(v: &Pmt) -> bool {
    number(v) == Some(1.0)
}

pub(crate) fn is_zero(v: &Pmt) -> bool {
    number(v) == Some(0.0)
}

pub(crate) fn is_false(v: &Pmt) -> bool {
    number(v) == Some(0.0)
}

pub(crate) fn is_true(v: &Pmt) -> bool {
    number(v) == Some(1.0)
}

/// `pmt.PMT_NIL` (or Python's `None`).
pub(crate) fn is_nil(v: &Pmt) -> bool {
    matches!(v, Pmt::Null)
}

/// An empty list.
pub(crate) fn is_empty_list(v: &Pmt) -> bool {
    match v {
        Pmt::Vector(items) | Pmt::Tuple(items) => items.is_empty(),
        Pmt::Null => true,
        _ => false,
    }
}
