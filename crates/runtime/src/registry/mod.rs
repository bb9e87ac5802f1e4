//! The library of blocks as front ends see it: one [`BlockDescription`] per block, read by the
//! Python factories and their stub, the command line's block list and graph files.
//!
//! A block of the library is declared once, on its struct, with
//! [`#[library_block]`](library_block): its id, summary and item types, and one `#[param]`
//! per parameter (its Rust type, default, range, doc, whether it is settable while the graph
//! runs). From that the macro writes the description (registered when the block's crate is
//! linked), the construction from checked arguments ([`FromArguments`]: each parameter read
//! into its type, then `Self::new` with them in order, or the declaration's `make`), the
//! message inputs of the settable parameters (their values checked against the declaration),
//! and the block's doc sections (ports, message ports, parameters), so docs and registry
//! cannot disagree.
//!
//! ```
//! use radioflow_runtime::prelude::*;
//! use radioflow_runtime::registry::{self, prelude::*};
//!
//! /// Multiplies by a gain that a message can change.
//! #[library_block(id = "gain_doc_example", summary = "Multiplies by `gain`.", dtypes = [Float32])]
//! #[param(gain: f32 = 1.0, at_least = 0.0, settable, doc = "the factor")]
//! struct Gain {
//!     /// The samples.
//!     #[input(name = "in")]
//!     input: StreamInput<f32>,
//!     /// `in · gain`.
//!     #[output(name = "out")]
//!     output: StreamOutput<f32>,
//!     gain: f32,
//! }
//!
//! #[block]
//! impl Gain {
//!     fn new(gain: f32) -> Self {
//!         Self { input: StreamInput::new(), output: StreamOutput::new(), gain }
//!     }
//!
//!     fn set_gain(&mut self, gain: f32) {
//!         self.gain = gain;
//!     }
//!
//!     fn work(&mut self) -> Result<WorkStatus, BlockError> {
//!         let gain = self.gain;
//!         one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
//!             for (o, i) in o.iter_mut().zip(i) {
//!                 *o = gain * i;
//!             }
//!         });
//!         Ok(WorkStatus::Continue)
//!     }
//! }
//!
//! let description = registry::find("gain_doc_example").unwrap();
//! assert_eq!(description.default_dtype(), Some(Dtype::Float32));
//! assert!(description.param("gain").unwrap().settable);
//! assert!(description.doc.contains("- `gain` (default `1`, settable): the factor; a number >= 0."));
//! let mut fg = Flowgraph::new();
//! let block = registry::make(description, None, vec![("gain".into(), Pmt::Double(2.0))])?;
//! let id = fg.add_boxed(None, block);
//! assert_eq!(fg.name(id), "gain0");
//! let err = registry::make(description, None, vec![("gain".into(), Pmt::Double(-1.0))]);
//! assert_eq!(err.map(drop).unwrap_err().to_string(), "gain_doc_example: gain must be >= 0, not -1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod arguments;
mod declared;
mod description;
mod dtype;
mod param;

pub use arguments::{default_pmt, Arguments, FromParam, ParamError};
#[doc(hidden)]
pub use declared::{
    apply_setting, make_boxed, read_item, read_items, same_names, settable_input, Made,
    SettableParams, SetterResult, SettingArg,
};
pub use declared::{read_word, Declared, FromArguments, Param, Refused};
pub use description::{BlockDescription, PortInfo};
pub use dtype::{Dtype, DtypeItem};
#[doc(hidden)]
pub use dtype::{DtypeMarker, DtypeOf};
#[doc(hidden)]
pub use inventory;
pub use param::{DefaultValue, FloatRange, ParamDescription, ParamKind, PathUse};
pub use radioflow_macros::library_block;

use crate::{Block, Direction, Pmt, PortFields};

/// What a block's file needs to describe the block: `use radioflow_runtime::registry::prelude::*;`.
pub mod prelude {
    pub use super::{
        declared_ports, library_block, BlockDescription, Declared, DefaultValue, Dtype, FloatRange,
        ParamDescription, ParamError, ParamKind, PathUse, Refused,
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

/// The ports of a block declared with `#[derive(Ports)]` or `#[library_block]` and `#[block]`,
/// for [`BlockDescription::ports`]: its fields' ports, then its message inputs (those of its
/// settable parameters first), in the order the block lists them.
pub fn declared_ports<B: PortFields + SettableParams + MessageInputNames>() -> Vec<PortInfo> {
    let mut ports: Vec<PortInfo> = B::PORT_LIST
        .iter()
        .map(|&(name, direction, many)| PortInfo {
            name,
            direction,
            many,
        })
        .collect();
    let inputs = B::NAMES.iter().chain(B::MESSAGE_INPUTS);
    ports.extend(inputs.map(|&name| PortInfo {
        name,
        direction: Direction::MessageInput,
        many: false,
    }));
    ports
}
