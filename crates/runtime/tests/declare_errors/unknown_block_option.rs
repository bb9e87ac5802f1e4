use radioflow_runtime::prelude::*;

#[derive(Ports)]
struct B {}

#[block(blockng)]
impl B {}

fn main() {}
