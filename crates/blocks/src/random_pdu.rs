//! [`RandomPdu`]: a PDU of random bytes at the start and for each message on `generate`.

use radioflow_dsp::Mt19937;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Sends a PDU of random bytes on `pdus` when the run starts and one more for each message
/// that arrives on `generate`, whatever the message (GNU Radio's `pdu.random_pdu`). A PDU is
/// the pair `(nil . u8vector)`. Its length is drawn uniformly from `min_items..=max_items`,
/// then cut down to a multiple of `length_modulo`, and is `length_modulo` where that gives
/// less; each byte is drawn uniformly and ANDed with `mask`.
///
/// The draws are GNU Radio 3.10's: a `std::mt19937` with its default seed (no parameter seeds
/// it) and libstdc++'s `uniform_int_distribution<int>`, the length first, then each byte; the
/// same PDUs in the same order as GNU Radio's, every run.
///
/// It finishes when every sender on `generate` has finished (at once after its first PDU if
/// none is connected); GNU Radio's runs until the flowgraph is stopped.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug, RandomPdu};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let ticks = fg.add(MessageBurstSource::repeat(Pmt::Bool(true), 2));
/// let random = fg.add(RandomPdu::new(5, 9, 0x0f, 2).expect("valid parameters"));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((ticks, "out"), (random, "generate"))?;
/// fg.connect_message((random, "pdus"), (dbg, "store"))?;
/// fg.run()?;
/// let pdus = fg.block::<MessageDebug>(dbg).unwrap().messages().to_vec();
/// assert_eq!(pdus.len(), 3);
/// for pdu in pdus {
///     let Some((Pmt::Null, Pmt::U8Vector(bytes))) = pdu.as_pair() else { panic!() };
///     assert!([4, 6, 8].contains(&bytes.len()) && bytes.iter().all(|b| b & 0xf0 == 0));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "random_pdu",
    summary = "A PDU of random bytes (length in min_items..=max_items, a multiple of length_modulo, bytes ANDed with mask) at the start and for each message on `generate` (GNU Radio's random_pdu).",
    make = Self::new(min_items, max_items, mask, length_modulo).map_err(|(name, why)| Refused::param(name, why))
)]
#[param(min_items: i64, doc = "the shortest length drawn (bytes)", example = 50)]
#[param(max_items: i64, doc = "the longest length drawn (bytes); at least min_items and length_modulo", example = 2000)]
#[param(mask: u32 = 255, doc = "ANDed with each byte (at most 255)")]
#[param(length_modulo: i64 = 2, doc = "the lengths are multiples of it (at least 1)")]
#[message_input(name = "generate", doc = "any message: one more PDU")]
#[derive(Debug)]
pub struct RandomPdu {
    /// The PDUs: `(nil . u8vector)`.
    #[message_output]
    pdus: MessageOutput,
    min_items: i32,
    max_items: i32,
    mask: u8,
    length_modulo: i64,
    rng: Mt19937,
}

#[block]
impl RandomPdu {
    /// PDUs of `min_items..=max_items` bytes, multiples of `length_modulo`, bytes ANDed with
    /// `mask`.
    ///
    /// # Errors
    /// The parameter at fault and why: a length outside a C `int` (GNU Radio's type),
    /// `length_modulo` below 1, `max_items` below
    /// `length_modulo` (both refused by GNU Radio too) or below `min_items` (GNU Radio's
    /// draw from such a range is undefined), `mask` above 255 (not a byte; GNU Radio's Python
    /// refuses it).
    pub fn new(
        min_items: i64,
        max_items: i64,
        mask: u32,
        length_modulo: i64,
    ) -> Result<Self, (&'static str, String)> {
        let int = |name: &'static str, v: i64| {
            i32::try_from(v)
                .map_err(|_| (name, format!("{v} is outside a C int (GNU Radio's type)")))
        };
        let (min, max) = (int("min_items", min_items)?, int("max_items", max_items)?);
        int("length_modulo", length_modulo)?;
        let Ok(mask) = u8::try_from(mask) else {
            return Err(("mask", format!("{mask} is not a byte (0 to 255)")));
        };
        if length_modulo < 1 {
            return Err(("length_modulo", format!("{length_modulo} is below 1")));
        }
        if max_items < length_modulo {
            return Err((
                "max_items",
                format!("{max_items} is below length_modulo ({length_modulo})"),
            ));
        }
        if max_items < min_items {
            return Err((
                "max_items",
                format!("{max_items} is below min_items ({min_items})"),
            ));
        }
        Ok(Self {
            pdus: MessageOutput::new(),
            min_items: min,
            max_items: max,
            mask,
            length_modulo,
            rng: Mt19937::new(5489),
        })
    }

    /// One PDU.
    fn draw(&mut self) -> Pmt {
        let len = i64::from(self.rng.uniform_int(self.min_items, self.max_items));
        // GNU Radio's rule, negative draws included: `max(modulo, len - len % modulo)`.
        let len = self.length_modulo.max(len - len % self.length_modulo);
        let len = usize::try_from(len).expect("between 1 and max_items");
        let bytes: Vec<u8> = (0..len)
            .map(|_| self.rng.uniform_int(0, 255) as u8 & self.mask)
            .collect();
        Pmt::pair(Pmt::Null, Pmt::blob(bytes))
    }

    fn start(&mut self) -> Result<(), BlockError> {
        // The output is connected only when the run begins: a sender's post waits for it.
        let first = self.draw();
        self.pdus.sender().post(first);
        Ok(())
    }

    #[message_input]
    fn generate(&mut self, _msg: &Pmt) {
        let pdu = self.draw();
        self.pdus.post(pdu);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn lengths(min: i64, max: i64, modulo: i64, n: usize) -> Vec<usize> {
        let mut block = RandomPdu::new(min, max, 0x3c, modulo).unwrap();
        block.rng = Mt19937::new(3);
        let mut h = Harness::new(block);
        for _ in 0..n {
            h.post("generate", Pmt::Null).unwrap();
        }
        h.take_messages("pdus")
            .iter()
            .map(|pdu| {
                let Some((Pmt::Null, Pmt::U8Vector(bytes))) = pdu.as_pair() else {
                    panic!("not a PDU: {pdu}")
                };
                assert!(bytes.iter().all(|b| b & !0x3c == 0), "mask not applied");
                bytes.len()
            })
            .collect()
    }

    #[test]
    fn lengths_are_multiples_of_the_modulo_within_the_range() {
        let got = lengths(3, 9, 4, 400);
        assert_eq!(got.len(), 400);
        // 3 -> 4 (the modulo at least), 4..=7 -> 4, 8, 9 -> 8: 5 of 7 draws give 4.
        let fours = got.iter().filter(|&&n| n == 4).count();
        assert!(got.iter().all(|&n| n == 4 || n == 8));
        assert!((240..330).contains(&fours), "{fours} of 400 are 4");
        // Below the modulo (negative too, as GNU Radio allows): the modulo.
        assert!(lengths(-5, 2, 2, 50).iter().all(|&n| n == 2));
    }

    #[test]
    fn bad_parameters_are_refused_by_name() {
        assert_eq!(RandomPdu::new(1, 5, 255, 0).unwrap_err().0, "length_modulo");
        assert_eq!(RandomPdu::new(1, 3, 255, 4).unwrap_err().0, "max_items");
        assert_eq!(RandomPdu::new(9, 8, 255, 2).unwrap_err().0, "max_items");
        assert_eq!(RandomPdu::new(1, 8, 256, 2).unwrap_err().0, "mask");
    }
}
