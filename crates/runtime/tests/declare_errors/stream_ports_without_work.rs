use radioflow_runtime::prelude::*;

#[derive(Ports)]
struct B {
    #[input]
    input: StreamInput<f32>,
}

#[block]
impl B {}

fn main() {
    let _ = B { input: StreamInput::new() }.type_name();
}
