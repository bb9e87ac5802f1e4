//! The library of blocks as front ends see it: one [`BlockDescription`] per block, registered
//! in the block's own file with [`register_block!`](crate::register_block), read by the
//! Python factories and their stub, the command line's block list and graph files.
//!
//! ```
//! use radioflow_runtime::registry::{self, Dtype};
//! # use radioflow_runtime::prelude::*;
//! # use radioflow_runtime::registry::{BlockDescription, ParamDescription, ParamKind};
//! # #[derive(Ports)]
//! # struct Nothing { #[output] out: StreamOutput<f32> }
//! # #[block]
//! # impl Nothing { fn work(&mut self) -> Result<WorkStatus, BlockError> { Ok(WorkStatus::Done) } }
//! # radioflow_runtime::register_block!(BlockDescription {
//! #     id: "nothing_doc_example",
//! #     summary: "Ends at once.",
//! #     dtypes: &[Dtype::Float32],
//! #     params: &[],
//! #     ports: registry::declared_ports::<Nothing>,
//! #     make: |_| Ok(Box::new(Nothing { out: StreamOutput::new() })),
//! # });
//! let description = registry::find("nothing_doc_example").unwrap();
//! assert_eq!(description.default_dtype(), Some(Dtype::Float32));
//! let mut fg = Flowgraph::new();
//! let block = registry::make(description, None, Vec::new())?;
//! let id = fg.add_boxed(None, block);
//! assert_eq!(fg.name(id), "nothing0");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod arguments;
mod description;
mod dtype;

pub use arguments::{default_pmt, Arguments, FromParam, ParamError};
pub use description::{
    BlockDescription, DefaultValue, FloatRange, ParamDescription, ParamKind, PathUse, PortInfo,
};
pub use dtype::{Dtype, DtypeItem};
#[doc(hidden)]
pub use dtype::{DtypeMarker, DtypeOf};
#[doc(hidden)]
pub use inventory;

use crate::{Block, Direction, Pmt, PortFields};

/// What a block's file needs to describe the block: `use radioflow_runtime::registry::prelude::*;`.
pub mod prelude {
    pub use super::{
        declared_ports, BlockDescription, DefaultValue, Dtype, FloatRange, ParamDescription,
        ParamError, ParamKind, PathUse,
    };
    pub use crate::{register_block, with_dtype};
}

/// A registered description (what [`register_block!`](crate::register_block) submits).
#[doc(hidden)]
pub struct Registered(pub &'static BlockDescription);

inventory::collect!(Registered);

/// Registers a block's [`BlockDescription`] with every front end. Put it in the block's file;
/// the description is a `const` expression.
#[macro_export]
macro_rules! register_block {
    ($description:expr $(,)?) => {
        $crate::registry::inventory::submit! {
            $crate::registry::Registered(&$description)
        }
    };
}

/// Every registered block, sorted by id.
pub fn descriptions() -> Vec<&'static BlockDescription> {
    let mut all: Vec<_> = inventory::iter::<Registered>
        .into_iter()
        .map(|r| r.0)
        .collect();
    all.sort_by_key(|d| d.id);
    all
}

/// The block registered as `id`.
pub fn find(id: &str) -> Option<&'static BlockDescription> {
    inventory::iter::<Registered>
        .into_iter()
        .map(|r| r.0)
        .find(|d| d.id == id)
}

/// Checks `given` against `description` and makes the block (see [`Arguments::check`]).
pub fn make(
    description: &BlockDescription,
    dtype: Option<Dtype>,
    given: impl IntoIterator<Item = (String, Pmt)>,
) -> Result<Box<dyn Block>, ParamError> {
    let args = Arguments::check(description, dtype, given)?;
    (description.make)(&args)
}

/// The message inputs of a block declared with [`#[block]`](crate::block) (written by the
/// macro).
#[doc(hidden)]
pub trait MessageInputNames {
    /// The names of the `#[message_input]` methods' ports, in order.
    const MESSAGE_INPUTS: &'static [&'static str];
}

/// The ports of a block declared with `#[derive(Ports)]` and `#[block]`, for
/// [`BlockDescription::ports`].
pub fn declared_ports<B: PortFields + MessageInputNames>() -> Vec<PortInfo> {
    let mut ports: Vec<PortInfo> = B::PORT_LIST
        .iter()
        .map(|&(name, direction, many)| PortInfo {
            name,
            direction,
            many,
        })
        .collect();
    ports.extend(B::MESSAGE_INPUTS.iter().map(|&name| PortInfo {
        name,
        direction: Direction::MessageInput,
        many: false,
    }));
    ports
}
