use radioflow_runtime::prelude::*;

#[derive(Ports)]
struct B {}

#[block]
impl B {
    #[message_input(name = "freq")]
    fn a(&mut self, hz: f64) {
        let _ = hz;
    }
    #[message_input(name = "freq")]
    fn b(&mut self, hz: f64) {
        let _ = hz;
    }
}

fn main() {}
