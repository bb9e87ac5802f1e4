//! Rows for GNU Radio's `zeromq` module (gr-zeromq): sinks bind and sources connect, as
//! there; a source may add radioflow's `drop_malformed` (not a GNU Radio parameter).

use super::common::{param, ty, VLEN_ONE};
use super::table::{Fixed, GrBlock, GrParam, GrType};
use radioflow_runtime::registry::Dtype;

/// gr-zeromq's stream types (`type.itemsize`).
const TYPES: &[GrType] = &[
    ty("complex", Dtype::Complex32),
    ty("float", Dtype::Float32),
    ty("int", Dtype::Int32),
    ty("short", Dtype::Int16),
    ty("byte", Dtype::Uint8),
];

const fn stream(
    id: &'static str,
    make: &'static str,
    block: &'static str,
    pattern: &'static [(&'static str, Fixed)],
    params: &'static [GrParam],
    extra: &'static [&'static str],
) -> GrBlock {
    GrBlock {
        id,
        make,
        block,
        types: TYPES,
        params,
        fixed: pattern,
        extra,
        choose: None,
    }
}

const fn message(
    id: &'static str,
    make: &'static str,
    block: &'static str,
    pattern: &'static [(&'static str, Fixed)],
    extra: &'static [&'static str],
) -> GrBlock {
    GrBlock {
        id,
        make,
        block,
        types: &[],
        params: MESSAGE,
        fixed: pattern,
        extra,
        choose: None,
    }
}

/// The parameters of the message blocks.
const MESSAGE: &[GrParam] = &[
    param("address", "address"),
    param("timeout", "timeout_ms"),
    param("bind", "bind"),
];

/// The parameters every stream block has.
const COMMON: [GrParam; 5] = [
    VLEN_ONE,
    param("address", "address"),
    param("timeout", "timeout_ms"),
    param("pass_tags", "pass_tags"),
    param("hwm", "hwm"),
];

const PUB: &[GrParam] = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    param("key", "key"),
    param("drop_on_hwm", "drop_on_hwm"),
];
const SUB: &[GrParam] = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    param("key", "key"),
];
const DROP_MALFORMED: &[&str] = &["drop_malformed"];
/// GRC writes `key: ''` on the patterns without a topic too; radioflow's blocks refuse any
/// other key there.
const KEY: &[&str] = &["key"];
const KEY_DROP_MALFORMED: &[&str] = &["key", "drop_malformed"];

pub(crate) const ROWS: &[GrBlock] = &[
    stream(
        "zeromq_pub_sink",
        "zeromq.pub_sink({type.itemsize},{vlen},{address},{timeout},{pass_tags},{hwm},{key},{drop_on_hwm})",
        "zmq_sink",
        &[("pattern", Fixed::Symbol("pub"))],
        PUB,
        &[],
    ),
    stream(
        "zeromq_push_sink",
        "zeromq.push_sink({type.itemsize},{vlen},{address},{timeout},{pass_tags},{hwm})",
        "zmq_sink",
        &[("pattern", Fixed::Symbol("push"))],
        &COMMON,
        KEY,
    ),
    stream(
        "zeromq_rep_sink",
        "zeromq.rep_sink({type.itemsize},{vlen},{address},{timeout},{pass_tags},{hwm})",
        "zmq_sink",
        &[("pattern", Fixed::Symbol("rep"))],
        &COMMON,
        KEY,
    ),
    stream(
        "zeromq_sub_source",
        "zeromq.sub_source({type.itemsize},{vlen},{address},{timeout},{pass_tags},{hwm},{key})",
        "zmq_source",
        &[("pattern", Fixed::Symbol("sub"))],
        SUB,
        DROP_MALFORMED,
    ),
    stream(
        "zeromq_pull_source",
        "zeromq.pull_source({type.itemsize},{vlen},{address},{timeout},{pass_tags},{hwm})",
        "zmq_source",
        &[("pattern", Fixed::Symbol("pull"))],
        &COMMON,
        KEY_DROP_MALFORMED,
    ),
    stream(
        "zeromq_req_source",
        "zeromq.req_source({type.itemsize},{vlen},{address},{timeout},{pass_tags},{hwm})",
        "zmq_source",
        &[("pattern", Fixed::Symbol("req"))],
        &COMMON,
        KEY_DROP_MALFORMED,
    ),
    message(
        "zeromq_pub_msg_sink",
        "zeromq.pub_msg_sink({address},{timeout},{bind})",
        "zmq_message_sink",
        &[("pattern", Fixed::Symbol("pub"))],
        &[],
    ),
    message(
        "zeromq_push_msg_sink",
        "zeromq.push_msg_sink({address},{timeout},{bind})",
        "zmq_message_sink",
        &[("pattern", Fixed::Symbol("push"))],
        &[],
    ),
    message(
        "zeromq_rep_msg_sink",
        "zeromq.rep_msg_sink({address},{timeout},{bind})",
        "zmq_message_sink",
        &[("pattern", Fixed::Symbol("rep"))],
        &[],
    ),
    message(
        "zeromq_sub_msg_source",
        "zeromq.sub_msg_source({address},{timeout},{bind})",
        "zmq_message_source",
        &[("pattern", Fixed::Symbol("sub"))],
        DROP_MALFORMED,
    ),
    message(
        "zeromq_pull_msg_source",
        "zeromq.pull_msg_source({address},{timeout},{bind})",
        "zmq_message_source",
        &[("pattern", Fixed::Symbol("pull"))],
        DROP_MALFORMED,
    ),
    message(
        "zeromq_req_msg_source",
        "zeromq.req_msg_source({address},{timeout},{bind})",
        "zmq_message_source",
        &[("pattern", Fixed::Symbol("req"))],
        DROP_MALFORMED,
    ),
];
