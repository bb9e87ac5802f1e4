//! [`BlockId`]: how a flowgraph, its handles and its messages name a block.

use std::fmt;

/// Handle of a block inside one [`Flowgraph`](crate::Flowgraph).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub(crate) usize);

impl BlockId {
    /// Position of the block in the flowgraph (0, 1, 2, ... in the order added).
    pub fn index(self) -> usize {
        self.0
    }

    /// The id of the block added `index`-th (valid only for a flowgraph with that many blocks).
    pub fn from_index(index: usize) -> Self {
        Self(index)
    }
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}
