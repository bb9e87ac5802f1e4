//! [`ZmqMessageSink`]: sends messages over ZeroMQ like gr-zeromq's `pub_msg_sink`,
//! `push_msg_sink` and `rep_msg_sink`.

use super::socket::{params, Pattern, Socket, SocketConfig};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Sends every message it receives as one ZeroMQ frame holding the message serialized as
/// GNU Radio's `pmt::serialize` writes it, like gr-zeromq's message sinks (GNU Radio's
/// `sub_msg_source`, `pull_msg_source`, `req_msg_source` or
/// [`ZmqMessageSource`](crate::ZmqMessageSource) receive it). A `rep` sink answers each
/// request with the next message, waiting for the request.
///
/// # Stream inputs
/// None.
///
/// # Stream outputs
/// None.
///
/// # Message ports
/// - input `in`: any message.
///
/// # Parameters
/// - `address`, `pattern` ([`Pattern`]: `pub`, `push`, `rep`), [`bind`](Self::bind)
///   (default `true`), [`timeout_ms`](Self::timeout_ms) (100).
///
/// Blocking: yes (a full PUSH socket or a REP waiting for a request holds the message).
#[derive(Debug, Ports)]
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

    /// Bind the address (`true`, the default) or connect to it.
    pub fn bind(mut self, bind: bool) -> Self {
        self.config.bind = bind;
        self
    }

    /// How long one wait lasts before the stop flag is looked at.
    pub fn timeout_ms(mut self, ms: u64) -> Self {
        self.config.timeout_ms = ms;
        self
    }

    fn start(&mut self) -> Result<(), BlockError> {
        self.socket = Some(Socket::open("zmq_message_sink", &self.config, true)?);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.socket = None;
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

register_block!(BlockDescription {
    id: "zmq_message_sink",
    summary: "Sends messages over ZeroMQ (PUB, PUSH or REP), one serialized PMT per frame, \
              like gr-zeromq's message sinks.",
    dtypes: &[],
    params: &[
        params::ADDRESS,
        params::pattern(Pattern::SINK_WORDS, "pub"),
        params::bind(true),
        params::TIMEOUT_MS,
    ],
    ports: declared_ports::<ZmqMessageSink>,
    make: |a| {
        let (address, pattern) = params::endpoint(a)?;
        Ok(Box::new(
            ZmqMessageSink::new(address, pattern)
                .bind(a.bool("bind")?)
                .timeout_ms(a.u64("timeout_ms")?),
        ))
    },
});
