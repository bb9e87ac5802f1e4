use radioflow_runtime::prelude::*;

#[derive(Ports)]
struct B {}

#[block]
impl Default for B {
    fn default() -> Self {
        B {}
    }
}

fn main() {}
