use radioflow_runtime::prelude::*;

#[derive(Ports)]
struct B {}

#[block]
impl B {
    #[message_input]
    fn freq(&self, hz: f64) {
        let _ = hz;
    }
}

fn main() {}
