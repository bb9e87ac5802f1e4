use radioflow_runtime::prelude::*;

#[derive(Ports)]
struct B {
    #[input]
    #[output]
    port: StreamInput<f32>,
}

fn main() {}
