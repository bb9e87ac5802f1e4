//! [`send_pending`]: what a frame block made and has not yet written, written as far as its
//! output has room (the OFDM carrier allocator's and cyclic prefixer's frames).

use radioflow_runtime::prelude::*;

/// Writes `pending[*sent..]` into `output` as far as it has room, advancing `sent`; whether
/// everything pending is written (`false`: the output is full, call again when it has room).
pub(super) fn send_pending(
    output: &mut StreamOutput<Complex32>,
    pending: &[Complex32],
    sent: &mut usize,
) -> bool {
    if *sent < pending.len() {
        let room = output.slice();
        let n = room.len().min(pending.len() - *sent);
        room[..n].copy_from_slice(&pending[*sent..*sent + n]);
        output.produce(n);
        *sent += n;
    }
    *sent == pending.len()
}
