//! Rows for GNU Radio's `network` module (gr-network): UDP and TCP streams. The radioflow
//! blocks speak the same wire format (radioflow-interop's `network` module).

use super::common::{param, row, ANY_TYPE, VLEN_ONE};
use super::table::{GrBlock, GrParam, To};
use radioflow_runtime::Pmt;

/// GNU Radio's header number (GRC's `header` option) as radioflow's name; `sink` refuses
/// what GNU Radio's sink cannot send.
fn header(v: &Pmt, sink: bool) -> Result<Pmt, String> {
    let n = match v {
        Pmt::Int(n) => *n,
        Pmt::Uint64(n) => i64::try_from(*n).unwrap_or(i64::MAX),
        Pmt::Symbol(s) => s
            .parse()
            .map_err(|_| format!("'{s}' is not a header number"))?,
        _ => return Err("not a header number".into()),
    };
    let name = match n {
        0 => "none",
        1 => "seqnum",
        2 => "seqplussize",
        4 if sink => {
            return Err(
                "CHDR: GNU Radio 3.10's udp_sink itself refuses it ('Unknown UDP header type')"
                    .into(),
            )
        }
        5 if !sink => "ata",
        _ => return Err("not one of GNU Radio's header types".into()),
    };
    Ok(Pmt::symbol(name))
}

fn source_header(v: &Pmt) -> Result<Pmt, String> {
    header(v, false)
}

fn sink_header(v: &Pmt) -> Result<Pmt, String> {
    header(v, true)
}

/// `tcp_sink`'s `mode` (1 client, 2 server) as radioflow's `server`.
fn mode(v: &Pmt) -> Result<Pmt, String> {
    match v {
        Pmt::Int(1) => Ok(Pmt::Bool(false)),
        Pmt::Int(2) => Ok(Pmt::Bool(true)),
        Pmt::Symbol(s) if &**s == "1" => Ok(Pmt::Bool(false)),
        Pmt::Symbol(s) if &**s == "2" => Ok(Pmt::Bool(true)),
        _ => Err("not 1 (client) or 2 (server)".into()),
    }
}

pub(crate) const ROWS: &[GrBlock] = &[
    row(
        "network_udp_source",
        "network.udp_source({type.size},{vlen},{port},{header},{payloadsize},{notify_missed},{src_zeros},{ipv6})",
        "udp_source",
        ANY_TYPE,
        &[
            VLEN_ONE,
            param("port", "port"),
            GrParam {
                key: "header",
                to: To::Convert("header", source_header),
            },
            param("payloadsize", "payload_size"),
            param("notify_missed", "notify_missed"),
            param("src_zeros", "src_zeros"),
            param("ipv6", "ipv6"),
        ],
    ),
    row(
        "network_udp_sink",
        "network.udp_sink({type.size},{vlen},{addr},{port},{header},{payloadsize},{send_eof})",
        "udp_sink",
        ANY_TYPE,
        &[
            VLEN_ONE,
            param("addr", "address"),
            param("port", "port"),
            GrParam {
                key: "header",
                to: To::Convert("header", sink_header),
            },
            param("payloadsize", "payload_size"),
            param("send_eof", "send_eof"),
        ],
    ),
    row(
        "network_tcp_source",
        "network.tcp_source.tcp_source(itemsize={type.size}*{vlen},addr={addr},port={port},server={server})",
        "tcp_source",
        ANY_TYPE,
        &[
            VLEN_ONE,
            param("addr", "address"),
            param("port", "port"),
            param("server", "server"),
        ],
    ),
    row(
        "network_tcp_sink",
        "network.tcp_sink({type.size},{vlen},{addr},{port},{mode})",
        "tcp_sink",
        ANY_TYPE,
        &[
            VLEN_ONE,
            param("addr", "address"),
            param("port", "port"),
            GrParam {
                key: "mode",
                to: To::Convert("server", mode),
            },
        ],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_numbers_become_names_and_chdr_is_refused_with_why() {
        assert_eq!(source_header(&Pmt::Int(5)), Ok(Pmt::symbol("ata")));
        assert_eq!(sink_header(&Pmt::Int(2)), Ok(Pmt::symbol("seqplussize")));
        assert!(sink_header(&Pmt::Int(4)).unwrap_err().contains("CHDR"));
        assert!(sink_header(&Pmt::Int(5)).is_err());
        assert!(source_header(&Pmt::Int(4)).is_err());
        assert_eq!(mode(&Pmt::Int(2)), Ok(Pmt::Bool(true)));
    }
}
