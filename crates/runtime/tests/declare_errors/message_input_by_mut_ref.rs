use radioflow_runtime::prelude::*;

#[derive(Ports)]
struct B {}

#[block]
impl B {
    #[message_input]
    fn set(&mut self, msg: &mut Pmt) {
        let _ = msg;
    }
}

fn main() {}
