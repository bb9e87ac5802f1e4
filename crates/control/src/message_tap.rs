//! Message taps: a [`MessageTapSink`] added as one more receiver of a message output before the
//! graph starts ([`add_message_tap`]). It keeps the latest message and how many came, which the
//! control port reads (`GET /api/messages/ID`) for a front end's message displays (a GRC file's
//! LED indicator and gauges).

use crate::probe::{find_block, ProbeError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::{BlockId, Direction, Flowgraph};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// What a tap shares with the control port.
#[derive(Debug, Default)]
pub struct TapState {
    /// The latest message, if one came.
    pub latest: Mutex<Option<Pmt>>,
    /// Messages so far.
    pub count: AtomicU64,
}

/// The tap block: keeps the latest message it receives on `in`.
#[derive(Ports)]
pub struct MessageTapSink {
    state: Arc<TapState>,
}

impl std::fmt::Debug for MessageTapSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MessageTapSink").finish_non_exhaustive()
    }
}

#[block(observer)]
impl MessageTapSink {
    /// A tap that keeps its messages in `state`.
    pub fn new(state: Arc<TapState>) -> Self {
        Self { state }
    }

    /// Keeps `msg` as the latest. (Messages for a display come a few a second: the port's
    /// reader holds the lock only to clone the message.)
    #[message_input(name = "in")]
    fn take(&mut self, msg: Pmt) {
        *self.state.latest.lock().unwrap_or_else(|p| p.into_inner()) = Some(msg);
        self.state.count.fetch_add(1, Relaxed);
    }
}

/// A tap attached to a message output.
#[derive(Clone, Debug)]
pub struct MessageTap {
    /// `block.port`, the tap's id in the API.
    pub id: String,
    /// The tap block's id in the flowgraph.
    pub block: BlockId,
    /// The latest message and the count.
    pub state: Arc<TapState>,
}

/// Adds a tap receiving message output `spec` (`block.port`) of `fg`, which must not be
/// running yet.
///
/// # Errors
/// A malformed spec, an unknown block or message output (named), or a graph that refuses the
/// connection.
pub fn add_message_tap(fg: &mut Flowgraph, spec: &str) -> Result<MessageTap, ProbeError> {
    let Some((block_name, port)) = spec
        .rsplit_once('.')
        .filter(|(b, p)| !b.is_empty() && !p.is_empty())
    else {
        return Err(ProbeError::Syntax(spec.to_owned()));
    };
    let block = find_block(fg, block_name)
        .ok_or_else(|| ProbeError::UnknownBlock(spec.to_owned(), block_name.to_owned()))?;
    let outputs = fg.port_names(block, Direction::MessageOutput);
    if !outputs.contains(&port) {
        return Err(ProbeError::UnknownPort {
            spec: spec.to_owned(),
            block: block_name.to_owned(),
            port: port.to_owned(),
            known: outputs.join(", "),
        });
    }
    let state = Arc::new(TapState::default());
    let tap = fg.add_named(&format!("tap:{spec}"), MessageTapSink::new(state.clone()));
    fg.connect_message((block, port), (tap, "in"))
        .map_err(|e| ProbeError::Connect(spec.to_owned(), e))?;
    Ok(MessageTap {
        id: spec.to_owned(),
        block: tap,
        state,
    })
}
