use radioflow_runtime::prelude::*;

#[derive(Ports)]
struct B {
    #[input]
    input: StreamOutput<f32>,
}

fn main() {}
