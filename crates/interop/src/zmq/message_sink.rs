//! [`ZmqMessageSink`]: sends messages over ZeroMQ like gr-zeromq's `pub_msg_sink`,
//! `push_msg_sink` and `rep_msg_sink`.

use super::builders::socket_builders;
use super::socket::{params, Pattern, Socket, SocketConfig};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Sends every message it receives as one ZeroMQ frame holding the message serialized as
/// GNU Radio's `pmt::serialize` writes it, like gr-zeromq's message sinks (GNU Radio's
/// `sub_msg_source`, `pull_msg_source`, `req_msg_source` or
/// [`ZmqMessageSource`](crate::ZmqMessageSource) receive it). A `rep` sink answers each
/// request with the next message, waiting for the request.
///
/// Blocking: yes (a full PUSH socket or a REP waiting for a request holds the message). The
/// parameters with a default are builder methods of the same name.
#[library_block(
    id = "zmq_message_sink",
    summary = "Sends messages over ZeroMQ (PUB, PUSH or REP), one serialized PMT per frame, \
               like gr-zeromq's message sinks.",
    make = Self::new(params::address(address)?, pattern)
        .bind(bind)
        .timeout_ms(timeout_ms)
)]
#[param(address: String, example = "tcp://127.0.0.1:5555", doc = "the ZeroMQ endpoint")]
#[param(pattern: Pattern = "pub", words = ["pub", "push", "rep"], doc = "the socket type")]
#[param(bind: bool = true, doc = "bind the address (else connect)")]
#[param(timeout_ms: u64 = 100, min = 1, doc = "milliseconds one wait lasts")]
#[message_input(name = "in", doc = "any message")]
#[derive(Debug)]
pub struct ZmqMessageSink {
    config: SocketConfig,
    socket: Option<Socket>,
    frame: Vec<u8>,
}

#[block(blocking)]
impl ZmqMessageSink {
    /// A sink for `address` with `pattern`, binding.
    pub fn new(address: impl Into<String>, pattern: Pattern) -> Self {
        Self {
            config: SocketConfig::new(address, pattern, true),
            socket: None,
            frame: Vec::new(),
        }
    }

    socket_builders!(bind, timeout_ms);

    fn start(&mut self) -> Result<(), BlockError> {
        self.socket = Some(Socket::open("zmq_message_sink", &self.config, true)?);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        if let Some(socket) = self.socket.take() {
            socket.close_sink();
        }
        Ok(())
    }

    #[message_input(name = "in")]
    fn input(&mut self, msg: Pmt) -> Result<(), BlockError> {
        let Some(socket) = &self.socket else {
            return Err(BlockError::msg("zmq_message_sink: message before start"));
        };
        if self.config.pattern == Pattern::ReqRep {
            // Wait for a request (GNU Radio's req_msg_source asks with an int count of 1).
            loop {
                if socket.recv()?.is_some() {
                    break;
                }
                if stop_requested() {
                    return Ok(());
                }
            }
        }
        self.frame.clear();
        msg.serialize(&mut self.frame);
        // Wait as long as it takes (a full PUSH socket), but not past a stop.
        while !socket.send(&[&self.frame])? {
            if stop_requested() {
                return Ok(());
            }
        }
        Ok(())
    }
}
