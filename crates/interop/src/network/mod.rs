//! GNU Radio's `network` module (gr-network 3.10): items over UDP and TCP, wire-compatible
//! with `network.udp_sink` / `udp_source` (with their optional packet headers) and
//! `network.tcp_sink` / `tcp_source`.
//!
//! A UDP datagram or TCP stream carries bare items in native byte order; a UDP datagram may
//! start with one of GNU Radio's headers ([`UdpHeader`]). Item types are GNU Radio's (any
//! [`Item`](radioflow_runtime::Item) here); vectors (`vlen > 1`) are not supported yet.

mod datagram;
mod header;
mod socket;
mod tcp;
mod tcp_sink;
mod tcp_source;
mod udp_sink;
mod udp_source;

pub use datagram::PacketError;
pub use header::UdpHeader;
pub use tcp_sink::TcpSink;
pub use tcp_source::TcpSource;
pub use udp_sink::UdpSink;
pub use udp_source::UdpSource;
