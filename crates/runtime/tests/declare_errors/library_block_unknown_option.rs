use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::library_block;

#[library_block(id = "b", summary = "A block.", dtype = all)]
struct B {}

#[block]
impl B {}

fn main() {}
