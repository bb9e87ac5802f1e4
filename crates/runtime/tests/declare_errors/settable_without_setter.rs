use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::library_block;

#[library_block(id = "b", summary = "A block.")]
#[param(gain: f64 = 1.0, settable, doc = "the gain")]
struct B {
    gain: f64,
}

#[block]
impl B {
    fn new(gain: f64) -> Self {
        Self { gain }
    }
}

fn main() {}
