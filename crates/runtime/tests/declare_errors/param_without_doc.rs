use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::library_block;

#[library_block(id = "b", summary = "A block.")]
#[param(n: u64 = 3)]
struct B {
    n: u64,
}

#[block]
impl B {
    fn new(n: u64) -> Self {
        Self { n }
    }
}

fn main() {}
