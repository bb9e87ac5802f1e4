use radioflow_runtime::prelude::*;

#[derive(Ports)]
struct B {
    #[input(name = "in")]
    a: StreamInput<f32>,
    #[input(name = "in")]
    b: StreamInput<f32>,
}

fn main() {}
