use radioflow_runtime::prelude::*;

#[derive(Ports)]
enum B {
    A,
}

fn main() {}
