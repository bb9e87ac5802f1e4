//! The builder methods the ZeroMQ blocks share (gr-zeromq's optional parameters), written and
//! documented once: [`socket_builders!`] puts the ones a block takes into its `impl`.

/// Writes, inside a ZeroMQ block's `impl`, the builder methods named (each takes and returns
/// the block): `bind`, `timeout_ms`, `hwm`, `key` and `drop_on_hwm` set the block's `config:
/// SocketConfig`; `pass_tags` and `drop_malformed` set the block's field of that name.
macro_rules! socket_builders {
    ($($name:ident),* $(,)?) => { $( $crate::zmq::builders::socket_builders!(@one $name); )* };
    (@one bind) => {
        /// Bind the address, or connect to it (sinks bind and sources connect by default, as in
        /// gr-zeromq).
        pub fn bind(mut self, bind: bool) -> Self {
            self.config.bind = bind;
            self
        }
    };
    (@one timeout_ms) => {
        /// How long one wait on the socket (for a message, for room, for a request) lasts
        /// before the stop flag is looked at (100 ms by default, gr-zeromq's `timeout`).
        pub fn timeout_ms(mut self, ms: u64) -> Self {
            self.config.timeout_ms = ms;
            self
        }
    };
    (@one hwm) => {
        /// The socket's high-water mark, in messages (`None`: ZeroMQ's default, 1000).
        pub fn hwm(mut self, hwm: Option<i32>) -> Self {
            self.config.hwm = hwm;
            self
        }
    };
    (@one key) => {
        /// PUB: the key (topic) sent as a frame of its own before each message; SUB: the key
        /// subscribed to (empty, the default: none / everything).
        pub fn key(mut self, key: impl Into<String>) -> Self {
            self.config.key = key.into();
            self
        }
    };
    (@one drop_on_hwm) => {
        /// PUB: drop messages for subscribers at their high-water mark (`true`, ZeroMQ's
        /// behaviour) or wait for them (`ZMQ_XPUB_NODROP`).
        pub fn drop_on_hwm(mut self, drop: bool) -> Self {
            self.config.drop_on_hwm = drop;
            self
        }
    };
    (@one pass_tags) => {
        /// Send (sink) or expect (source) GNU Radio's tag header, with the tags, before the
        /// items of each message.
        pub fn pass_tags(mut self, pass: bool) -> Self {
            self.pass_tags = pass;
            self
        }
    };
    (@one drop_malformed) => {
        /// Drop a malformed message (logged and counted) instead of stopping the graph: for a
        /// socket that anything on the network can send to.
        pub fn drop_malformed(mut self, drop: bool) -> Self {
            self.drop_malformed = drop;
            self
        }
    };
}

pub(crate) use socket_builders;
