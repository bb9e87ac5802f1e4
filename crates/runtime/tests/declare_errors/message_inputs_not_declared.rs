use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::library_block;

#[library_block(id = "b", summary = "A block.")]
#[message_input(name = "in", doc = "any message")]
#[derive(Default)]
struct B {}

#[block]
impl B {
    fn new() -> Self {
        Self::default()
    }

    #[message_input(name = "input")]
    fn input(&mut self, _msg: &Pmt) {}
}

fn main() {}
