use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::library_block;

#[library_block(id = "b", summary = "A block.")]
#[param(rate: f64 = 0.0, above = 0.0, doc = "per second")]
struct B {
    rate: f64,
}

#[block]
impl B {
    fn new(rate: f64) -> Self {
        Self { rate }
    }
}

fn main() {}
