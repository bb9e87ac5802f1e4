//! [`ApiError`]: what a request did wrong, answered as a 4xx with a JSON message naming it;
//! [`ServeError`]: why the control port could not start.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::net::SocketAddr;

/// A request the control port refuses; the message names the block, port, parameter or
/// probe at fault.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No block of that name.
    #[error("no block named '{0}'")]
    UnknownBlock(String),
    /// The block has no message input of that name.
    #[error("block '{block}' has no message input '{port}' (its message inputs: {known})")]
    UnknownPort {
        /// The block.
        block: String,
        /// The port asked for.
        port: String,
        /// The block's message inputs, comma separated.
        known: String,
    },
    /// The block has no settable parameter of that name.
    #[error("block '{block}' has no settable parameter '{param}' (settable: {known})")]
    UnknownParam {
        /// The block.
        block: String,
        /// The parameter asked for.
        param: String,
        /// The block's settable parameters, comma separated.
        known: String,
    },
    /// No probe with that id.
    #[error("no probe '{0}'")]
    UnknownProbe(String),
    /// The body or a value is not what the endpoint takes.
    #[error("{0}")]
    BadRequest(String),
    /// The graph is not running (nothing to post to or stop).
    #[error("{0}")]
    Conflict(String),
    /// Missing or wrong token.
    #[error("missing or wrong token (give it as `Authorization: Bearer TOKEN` or `?token=TOKEN`)")]
    Unauthorized,
    /// A request from a host name or an origin that is not the port's (see the message).
    #[error("{0}")]
    Forbidden(String),
    /// A write whose body is not declared JSON.
    #[error(
        "{request}: writes take a JSON body sent with `Content-Type: application/json` \
         (this one's: {given})"
    )]
    NotJson {
        /// Method and path.
        request: String,
        /// The content type it was sent with.
        given: String,
    },
    /// The client's request budget for this second is spent.
    #[error("too many requests from this address; the control port serves a few hundred per second to each")]
    TooManyRequests,
    /// A path that is neither the API nor a bundled asset.
    #[error("no such page or API endpoint: {0}")]
    NotFound(String),
}

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            Self::UnknownBlock(_)
            | Self::UnknownPort { .. }
            | Self::UnknownParam { .. }
            | Self::UnknownProbe(_)
            | Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotJson { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.to_string() });
        (self.status(), Json(body)).into_response()
    }
}

/// Why the control port could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address cannot be bound.
    #[error("control port: cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The thread or runtime could not be made.
    #[error("control port: {0}")]
    Runtime(std::io::Error),
    /// An empty token was given (`--token "$TOKEN"` with the variable unset, say): it would
    /// let anyone in.
    #[error(
        "control port: an empty token would let anyone in; give a token, or none (one is \
         generated for an address other than loopback)"
    )]
    EmptyToken,
    /// An allowed origin that is not `scheme://host[:port]`.
    #[error("control port: allowed origin '{origin}': {reason}")]
    BadOrigin {
        /// The origin as given.
        origin: String,
        /// What is wrong with it.
        reason: String,
    },
}
