//! What can go wrong running a graph across hosts.

/// An error of a graph spread over hosts; the message names the host, and the block or link
/// at fault where there is one.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HostsError {
    /// The graph description is wrong (a block or connection the library refuses).
    #[error(transparent)]
    Graph(#[from] radioflow_graphfile::GraphError),
    /// The graph cannot be cut over the hosts given (a block without a host, a host not
    /// given).
    #[error("{origin}: {message}")]
    Cut {
        /// The graph's file or name.
        origin: String,
        /// What is wrong, naming the block or host.
        message: String,
    },
    /// A host refused, failed or was lost: its serve process died, the network failed, a
    /// block failed there (the message names it) or its part could not be built.
    #[error("host '{host}' ({address}): {message}")]
    Host {
        /// The host's name in the graph.
        host: String,
        /// Its `serve` address.
        address: String,
        /// What happened.
        message: String,
    },
    /// The two ends of a cut stream carry different item types.
    #[error("link {link}: the sending end carries {sent}, the receiving end takes {taken}")]
    LinkTypes {
        /// The connection, `a:src.0 -> b:copy.0`.
        link: String,
        /// The sending end's item type.
        sent: String,
        /// The receiving end's.
        taken: String,
    },
    /// `serve` was given an empty token (`--token "$TOKEN"` with the variable unset, say).
    #[error("serve on {address}: an empty token would let any coordinator in; give one")]
    EmptyToken {
        /// The address asked for.
        address: String,
    },
    /// `serve` could not listen.
    #[error("serve on {address}: {source}")]
    Listen {
        /// The address asked for.
        address: String,
        /// Why.
        source: std::io::Error,
    },
}
