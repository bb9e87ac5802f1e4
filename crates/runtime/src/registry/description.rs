//! What a front end needs to know of a block: its id, item types, parameters, ports and
//! documentation, and how to make one from named parameters.

use super::{Arguments, Dtype, ParamDescription, ParamError};
use crate::{Block, Pmt};
use std::fmt;

/// One block of the library, as every front end sees it (Python factories and stub, the
/// command line's block list, graph files). Registered next to the block with
/// [`register_block!`](crate::register_block).
pub struct BlockDescription {
    /// The id front ends call it by (`multiply_const`): snake case, unique.
    pub id: &'static str,
    /// What it does, in one or two sentences (the first paragraph of its docs).
    pub summary: &'static str,
    /// The item types it can be made for, the default first; empty if it has no item type
    /// (message blocks).
    pub dtypes: &'static [Dtype],
    /// Its parameters, in the order positional front ends take them.
    pub params: &'static [ParamDescription],
    /// Its ports (from its declaration, see [`declared_ports`](super::declared_ports)).
    pub ports: fn() -> Vec<PortInfo>,
    /// Makes one from checked arguments.
    pub make: fn(&Arguments) -> Result<Box<dyn Block>, ParamError>,
    /// The sections of its Rust documentation that [`#[library_block]`](super::library_block)
    /// writes from its declaration (stream inputs and outputs, message ports, parameters), in
    /// Markdown; empty for a description written by hand.
    pub doc: &'static str,
}

impl fmt::Debug for BlockDescription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockDescription")
            .field("id", &self.id)
            .field("dtypes", &self.dtypes)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl Arguments {
    /// Checks `given` (by name) and the item type against `description`: unknown names,
    /// missing required parameters, values of the wrong kind and item types the block does
    /// not have are errors naming them.
    pub fn check(
        description: &BlockDescription,
        dtype: Option<Dtype>,
        given: impl IntoIterator<Item = (String, Pmt)>,
    ) -> Result<Self, ParamError> {
        Self::check_parts(
            description.id,
            description.dtypes,
            description.params,
            dtype,
            given,
        )
    }
}

impl BlockDescription {
    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&ParamDescription> {
        self.params.iter().find(|p| p.name == name)
    }

    /// `x` if the float parameter `name` takes it, else what is wrong with it, to follow the
    /// parameter's name: `must be >= 0.001, not 0` (for a constructor's own check of a value
    /// given from Rust, against the declared range).
    ///
    /// # Panics
    /// If the block has no float parameter `name`.
    pub fn check_float(&self, name: &str, x: f64) -> Result<f64, String> {
        match self.param(name).map(|p| p.kind) {
            Some(super::ParamKind::Float(range)) => range.check(x),
            _ => panic!("{} has no float parameter '{name}'", self.id),
        }
    }

    /// The item type made when none is asked for.
    pub fn default_dtype(&self) -> Option<Dtype> {
        self.dtypes.first().copied()
    }
}

/// One port of a block, as its declaration names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortInfo {
    /// Its name; for a `Vec` of ports the common prefix (the ports are `name0`, `name1`, ...).
    pub name: &'static str,
    /// Stream or message, input or output.
    pub direction: crate::Direction,
    /// Whether it is a `Vec` of ports, as many as a parameter says.
    pub many: bool,
}

impl fmt::Display for PortInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let many = if self.many { "0..n" } else { "" };
        write!(f, "{}{many} ({})", self.name, self.direction)
    }
}
