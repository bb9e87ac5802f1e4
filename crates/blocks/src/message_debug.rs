//! [`MessageDebug`]: keeps or prints every message it receives.

use crate::pdu_item::uniform_bytes;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::fmt::Write as _;
use std::io::Write as _;

/// Stores every message that arrives on `store`, in order, and prints those that arrive on
/// `print` to standard output as GNU Radio's `message_debug` does (see
/// [`print_text`](Self::print_text)). Memory grows with the messages stored: meant for tests,
/// tools and collecting results, not for endless streams (use
/// [`MessageCounter`](crate::MessageCounter)).
///
/// `print_pdu` is GNU Radio's deprecated port: it prints PDUs as `print` does and drops any
/// other message with a warning (GNU Radio logs the same warning).
///
/// It finishes when every sender has finished and its inbox is empty.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![Pmt::Int(1), Pmt::symbol("two")]));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (dbg, "store"))?;
/// fg.run()?;
/// assert_eq!(fg.block::<MessageDebug>(dbg).unwrap().messages(), [Pmt::Int(1), Pmt::symbol("two")]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "message_debug",
    summary = "Keeps the messages arriving on `store`; prints those arriving on `print` (and PDUs on `print_pdu`) as GNU Radio's message_debug does.",
    make = Self::new().print_vectors(print_vectors)
)]
#[param(print_vectors: bool = true, doc = "print a PDU's vector in hex (else only its length)")]
#[message_input(name = "store", doc = "any message, kept")]
#[message_input(name = "print", doc = "any message, printed")]
#[message_input(
    name = "print_pdu",
    doc = "PDUs, printed; anything else dropped with a warning (GNU Radio's deprecated port)"
)]
#[derive(Debug)]
pub struct MessageDebug {
    messages: Vec<Pmt>,
    print_vectors: bool,
}

impl Default for MessageDebug {
    fn default() -> Self {
        Self {
            messages: Vec::new(),
            print_vectors: true,
        }
    }
}

/// The line that closes each printout.
const CLOSING: &str = "************************************\n";

#[block]
impl MessageDebug {
    /// An empty store, printing PDUs' vectors.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a PDU's printout shows its vector in hex (GNU Radio's `en_uvec`); otherwise
    /// only its length.
    #[must_use]
    pub fn print_vectors(mut self, on: bool) -> Self {
        self.print_vectors = on;
        self
    }

    /// What the `print` port writes for `msg`, as GNU Radio 3.10's `message_debug`: a PDU (a
    /// pair of a dict and a uniform vector) as its metadata, its length in bytes and, with
    /// `vectors`, its bytes in hex, 16 a line; any other message as GNU Radio writes a PMT.
    pub fn print_text(msg: &Pmt, vectors: bool) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let pdu = msg
            .as_pair()
            .filter(|(meta, _)| meta.is_dict())
            .and_then(|(meta, v)| Some((meta, uniform_bytes(v)?)));
        match pdu {
            Some((meta, bytes)) => {
                let len = bytes.len();
                out.push_str("***** VERBOSE PDU DEBUG PRINT ******\n");
                let _ = writeln!(out, "{meta}");
                if vectors {
                    let _ = writeln!(out, "pdu length = {len:10} bytes");
                    out.push_str("pdu vector contents = \n");
                    for (i, line) in bytes.chunks(16).enumerate() {
                        let _ = write!(out, "{:04x}: ", i * 16);
                        for b in line {
                            let _ = write!(out, "{b:02x} ");
                        }
                        out.push('\n');
                    }
                } else {
                    let _ = writeln!(out, "pdu length = {len:10} bytes (printing disabled)");
                }
            }
            None => {
                out.push_str("******* MESSAGE DEBUG PRINT ********\n");
                let _ = writeln!(out, "{msg}");
            }
        }
        out.push_str(CLOSING);
        out
    }

    /// The messages received so far, in order of arrival.
    pub fn messages(&self) -> &[Pmt] {
        &self.messages
    }

    /// Takes the messages received so far, leaving the store empty.
    pub fn take(&mut self) -> Vec<Pmt> {
        std::mem::take(&mut self.messages)
    }

    #[message_input]
    fn store(&mut self, msg: Pmt) {
        self.messages.push(msg);
    }

    #[message_input]
    fn print(&mut self, msg: &Pmt) {
        // One write of the whole printout, so that two blocks' printouts do not interleave.
        let text = Self::print_text(msg, self.print_vectors);
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
    }

    #[message_input]
    fn print_pdu(&mut self, msg: &Pmt) {
        let is_pdu = msg
            .as_pair()
            .is_some_and(|(meta, v)| meta.is_dict() && uniform_bytes(v).is_some());
        if is_pdu {
            self.print(msg);
        } else {
            tracing::warn!("message_debug print_pdu: not a PDU, dropped: {msg}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn stores_every_message_in_order() {
        let mut h = Harness::new(MessageDebug::new());
        h.post("store", Pmt::Int(1)).unwrap();
        h.post("store", Pmt::symbol("two")).unwrap();
        assert_eq!(h.block().messages(), [Pmt::Int(1), Pmt::symbol("two")]);
        assert_eq!(h.block_mut().take(), [Pmt::Int(1), Pmt::symbol("two")]);
        assert!(h.block().messages().is_empty());
        h.post("store", Pmt::Bool(true)).unwrap();
        assert_eq!(h.block().messages(), [Pmt::Bool(true)]);
        // Printed messages are not stored (a message that is not a PDU is not printed on
        // print_pdu: nothing appears on the test's output).
        h.post("print_pdu", Pmt::Int(2)).unwrap();
        assert_eq!(h.block().messages(), [Pmt::Bool(true)]);
    }

    #[test]
    fn prints_pdus_in_hex_and_other_messages_as_pmts() {
        let pdu = Pmt::pair(Pmt::Null, Pmt::blob((0..17).collect::<Vec<u8>>()));
        assert_eq!(
            MessageDebug::print_text(&pdu, true),
            "***** VERBOSE PDU DEBUG PRINT ******\n()\npdu length =         17 bytes\n\
             pdu vector contents = \n\
             0000: 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f \n0010: 10 \n\
             ************************************\n"
        );
        assert_eq!(
            MessageDebug::print_text(&pdu, false),
            "***** VERBOSE PDU DEBUG PRINT ******\n()\n\
             pdu length =         17 bytes (printing disabled)\n\
             ************************************\n"
        );
        assert_eq!(
            MessageDebug::print_text(&Pmt::pair(Pmt::Null, Pmt::Int(2)), true),
            "******* MESSAGE DEBUG PRINT ********\n(() . 2)\n\
             ************************************\n"
        );
    }
}
