//! [`VarToMsg`]: a message pair each time a flowgraph variable changes.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Sends `(msgname . value)` on `msgout` each time the flowgraph variable it watches changes
/// (GNU Radio's `blocks.var_to_msg_pair`, GRC's `blocks_var_to_msg`). GNU Radio sends nothing
/// until the variable changes while the flowgraph runs (a GUI widget moved); radioflow's
/// flowgraph variables do not change while a flowgraph runs yet, so this block sends nothing
/// and is done at once, as GNU Radio's is silent while the variable stays.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageDebug, VarToMsg};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let var = fg.add(VarToMsg::new("freq"));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((var, "msgout"), (dbg, "store"))?;
/// fg.run()?;
/// assert!(fg.block::<MessageDebug>(dbg).unwrap().messages().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "var_to_msg",
    summary = "(msgname . value) on `msgout` when the watched flowgraph variable changes at run time; radioflow's do not yet, so it sends nothing (GNU Radio's var_to_msg_pair).",
    make = Ok::<_, Refused>(Self::new(msgname))
)]
#[param(msgname: String, doc = "the first element (a symbol) of the pairs it would send")]
#[derive(Debug)]
pub struct VarToMsg {
    /// A pair per change of the variable.
    #[message_output]
    msgout: MessageOutput,
}

#[block]
impl VarToMsg {
    /// Pairs named `msgname` (none is sent while variables cannot change at run time).
    pub fn new(msgname: impl AsRef<str>) -> Self {
        let _ = msgname;
        Self {
            msgout: MessageOutput::new(),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        Ok(WorkStatus::Done)
    }
}
