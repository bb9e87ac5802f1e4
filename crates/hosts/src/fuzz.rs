//! The entry point of the `hosts_control` fuzz target (`fuzz/`): what a host and a coordinator
//! do with the bytes a peer sends them, short of running anything.

use crate::session::describe_part;
use crate::wire::{self, FromHost, ToHost};

/// Reads `data` as a control connection would: as a host, a hello of at most
/// `MAX_HELLO` (4096) bytes, then messages, each part described and its blocks checked
/// against the library (nothing is made: no file opens, no socket binds); as a coordinator,
/// the same bytes as messages from a host. Every message read encodes again to one that reads
/// back the same. Any bytes end in an error, never a panic.
pub fn control_stream(data: &[u8]) {
    let mut host_side = data;
    if let Ok(hello) = wire::recv::<ToHost>(&mut host_side, Some(wire::MAX_HELLO)) {
        same_again(&hello);
        while let Ok(msg) = wire::recv::<ToHost>(&mut host_side, None) {
            same_again(&msg);
            if let ToHost::Part { part } = &msg
                && let Ok(description) = describe_part(part)
            {
                for block in &description.blocks {
                    let _ = block.check();
                }
            }
        }
    }
    let mut coordinator_side = data;
    while let Ok(msg) = wire::recv::<FromHost>(&mut coordinator_side, None) {
        same_again(&msg);
    }
}

/// `msg` sent and read back is sent as the same bytes.
fn same_again<T: serde::Serialize + for<'de> serde::Deserialize<'de>>(msg: &T) {
    let mut bytes = Vec::new();
    wire::send(&mut bytes, msg).expect("a message read is small enough to send");
    let back: T = wire::recv(&mut bytes.as_slice(), None).expect("what we send reads back");
    let mut again = Vec::new();
    wire::send(&mut again, &back).expect("sent once, sent twice");
    assert_eq!(again, bytes, "a control message changed on a round trip");
}
