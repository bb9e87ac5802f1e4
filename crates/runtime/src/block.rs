//! The [`Block`] trait: what every signal-processing block implements.

use crate::error::BlockError;
use crate::port::Ports;
use radioflow_pmt::Pmt;
use std::any::Any;

/// What a work call reports beyond the items it consumed and produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkStatus {
    /// Call again when inputs, outputs or messages change.
    Continue,
    /// The block will produce nothing more: its outputs finish once read, its inputs are
    /// released (and upstream blocks that feed only it finish too).
    Done,
    /// Call again when inputs, outputs or messages change, and do not end at the end of the
    /// stream while a message may still come: the block waits for a message about what it
    /// produced (GNU Radio's header/payload demux waits for its header's verdict, sent by a
    /// block downstream). It ends as usual once every sender has finished and its inbox is
    /// empty.
    WaitMessage,
}

/// A signal-processing block.
///
/// Declare a block rather than implement this trait by hand: `#[derive(Ports)]` lists the
/// ports from the fields, and `#[block]` on the block's own impl writes the rest (`work`,
/// message inputs as methods, `start`/`stop` hooks, `blocking`):
///
/// ```
/// use radioflow_runtime::prelude::*;
///
/// /// Multiplies every sample by a gain that the `gain` message input sets.
/// #[derive(Ports)]
/// struct Gain {
///     #[input(name = "in")]
///     input: StreamInput<f32>,
///     #[output(name = "out")]
///     output: StreamOutput<f32>,
///     k: f32,
/// }
///
/// #[block]
/// impl Gain {
///     fn work(&mut self) -> Result<WorkStatus, BlockError> {
///         let k = self.k;
///         one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
///             for (o, i) in o.iter_mut().zip(i) {
///                 *o = k * i;
///             }
///         });
///         Ok(WorkStatus::Continue)
///     }
///
///     /// A number (GNU Radio `from_double`, `from_long`).
///     #[message_input]
///     fn gain(&mut self, k: f64) {
///         self.k = k as f32;
///     }
/// }
/// ```
///
/// A hand-written implementation stays possible for exotic cases.
/// Ports are fields of the block, listed in [`ports`](Self::ports). The runtime calls
/// [`work`](Self::work) whenever an input got items, an output got space, or (for sources)
/// repeatedly; the block reads `input.slice()`, writes `output.slice()`, then says how much it
/// used with `consume`/`produce`. End of stream needs no code: when every input is finished
/// and the block can make no more progress, the runtime finishes it.
///
/// ```
/// use radioflow_runtime::prelude::*;
///
/// /// Multiplies every sample by two.
/// struct Double {
///     input: StreamInput<f32>,
///     output: StreamOutput<f32>,
/// }
///
/// impl Block for Double {
///     fn ports(&mut self, p: &mut Ports<'_>) {
///         p.stream_input("in", &mut self.input);
///         p.stream_output("out", &mut self.output);
///     }
///     fn work(&mut self) -> Result<WorkStatus, BlockError> {
///         let i = self.input.slice();
///         let o = self.output.slice();
///         let n = i.len().min(o.len());
///         for (o, i) in o[..n].iter_mut().zip(i) {
///             *o = 2.0 * i;
///         }
///         self.input.consume(n);
///         self.output.produce(n);
///         Ok(WorkStatus::Continue)
///     }
/// }
/// ```
pub trait Block: Any + Send {
    /// Lists the block's ports to `p`, always in the same order.
    fn ports(&mut self, p: &mut Ports<'_>);

    /// Processes what the ports offer.
    ///
    /// # Errors
    /// An error stops the whole flowgraph; `wait` reports it with this block's name.
    fn work(&mut self) -> Result<WorkStatus, BlockError>;

    /// Handles a message that arrived on message input `port` (index in declaration order).
    ///
    /// # Errors
    /// As for [`work`](Self::work). The default refuses every message.
    fn handle_message(&mut self, port: usize, msg: Pmt) -> Result<(), BlockError> {
        let _ = msg;
        Err(BlockError::msg(format!(
            "message input {port} has no handler"
        )))
    }

    /// Called once before the flowgraph starts running.
    ///
    /// # Errors
    /// An error aborts the start; nothing runs.
    fn start(&mut self) -> Result<(), BlockError> {
        Ok(())
    }

    /// Called once when the block has finished (or the graph was stopped).
    ///
    /// # Errors
    /// Reported like a work error.
    fn stop(&mut self) -> Result<(), BlockError> {
        Ok(())
    }

    /// Short type name used for default instance names (`copy`, `head`, ...).
    fn type_name(&self) -> &'static str {
        let full = std::any::type_name::<Self>();
        let base = full.split('<').next().unwrap_or(full);
        base.rsplit("::").next().unwrap_or(base)
    }

    /// Whether `work` may block the calling thread (file or device I/O, sleeping). Schedulers
    /// that share threads between blocks give such blocks a thread of their own.
    fn is_blocking(&self) -> bool {
        false
    }

    /// Whether `work` waits on a clock or a device by design (a throttle, a sound card, a
    /// radio): its time in `work` is waiting for the world, not computing, so a live view
    /// does not name it the graph's bottleneck.
    fn is_paced(&self) -> bool {
        false
    }

    /// Whether the block makes messages of its own accord, on a clock (GNU Radio's message
    /// strobe). Such a block, though it has message inputs and no stream ports, does not end
    /// when its senders have finished (or none is connected), and each of its work calls
    /// counts as progress, so it is called again at once: its `work` waits for its clock
    /// itself (with [`interruptible_sleep`](crate::interruptible_sleep)). It runs until it
    /// returns [`WorkStatus::Done`] or the run is stopped.
    fn is_message_source(&self) -> bool {
        false
    }

    /// Whether the block's messages come from outside the graph (posted by a
    /// [`MessagePoster`](crate::MessagePoster): a live page's controls). Such a block counts
    /// one sender that never finishes, so it waits for messages (parked, woken by a post)
    /// until the run is stopped, instead of ending when its senders in the graph have finished
    /// or at once when none is connected; the blocks it sends to wait with it.
    fn takes_external_messages(&self) -> bool {
        false
    }

    /// Whether this is a cheap sink that only watches a stream (a live view's probe). The
    /// `flow` scheduler keeps it on its writer's chain instead of letting the extra reader cut
    /// that chain (which would spread the chain's blocks over workers and cost far more than
    /// the observer's own work). An observer does not keep its stream alive either: when every
    /// other reader of that stream has finished, it is let go (it sees the end of the stream)
    /// and the writer ends as it would without it.
    fn is_observer(&self) -> bool {
        false
    }
}

impl std::fmt::Debug for dyn Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Block({})", self.type_name())
    }
}
