use radioflow_runtime::prelude::*;

#[derive(Ports)]
struct B {
    #[input(nmae = "in")]
    a: StreamInput<f32>,
}

fn main() {}
