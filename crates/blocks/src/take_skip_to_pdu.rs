//! [`TakeSkipToPdu`]: `take` items as a PDU, `skip` items, again.

use crate::pdu_item::PduItem;
use radioflow_dsp::ParamError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Sends the first `take` items of the stream as a PDU on `pdus`, drops the next `skip`, and
/// so on (GNU Radio's `pdu.take_skip_to_pdu_X`). Each PDU's metadata is `{pdu_num: n}` (a
/// uint64 counting from 0); its data a uniform vector of the item type. A PDU the stream ends
/// inside is not sent, as GNU Radio's.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageDebug, TakeSkipToPdu, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new((0u8..10).collect()));
/// let ts = fg.add(TakeSkipToPdu::<u8>::new(2, 3)?);
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect(src, ts)?;
/// fg.connect_message((ts, "pdus"), (dbg, "store"))?;
/// fg.run()?;
/// let pdus = fg.block::<MessageDebug>(dbg).unwrap().messages();
/// assert_eq!(pdus[1], Pmt::pair(Pmt::dict_from([("pdu_num", Pmt::Uint64(1))]), Pmt::blob(vec![5, 6])));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "take_skip_to_pdu",
    summary = "`take` items as a PDU on `pdus` (metadata pdu_num), `skip` items dropped, again and again (GNU Radio's take_skip_to_pdu).",
    dtypes = [Uint8, Int16, Int32, Float32, Complex32],
    make = Self::new(take, skip).map_err(|e| Refused::param(e.name, e.reason))?
)]
#[param(take: u32 = 1024, doc = "items in each PDU (at least 1)")]
#[param(skip: u32 = 4096, doc = "items dropped after each PDU")]
#[derive(Debug)]
pub struct TakeSkipToPdu<T: PduItem> {
    /// The stream.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// A PDU per `take` items.
    #[message_output]
    pdus: MessageOutput,
    take: u64,
    skip: u64,
    /// The stream offset where taking starts or stops next.
    next: u64,
    /// Whether items are being taken.
    taking: bool,
    items: Vec<T>,
    /// PDUs sent.
    count: u64,
}

#[block]
impl<T: PduItem> TakeSkipToPdu<T> {
    /// PDUs of `take` items, `skip` items apart.
    ///
    /// # Errors
    /// `take` of 0 (GNU Radio: "TAKE value out of bounds").
    pub fn new(take: u32, skip: u32) -> Result<Self, ParamError> {
        if take == 0 {
            return Err(ParamError::new("take", "must be at least 1"));
        }
        Ok(Self {
            input: StreamInput::new(),
            pdus: MessageOutput::new(),
            take: take.into(),
            skip: skip.into(),
            next: take.into(),
            taking: true,
            items: Vec::new(),
            count: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let start = self.input.offset();
        let avail = self.input.slice().len();
        let mut used = 0;
        while used < avail {
            let at = start + used as u64;
            let n = (self.next - at).min((avail - used) as u64) as usize;
            if self.taking {
                self.items
                    .extend_from_slice(&self.input.slice()[used..used + n]);
            }
            used += n;
            if at + n as u64 == self.next {
                if self.taking && self.skip > 0 {
                    self.publish();
                    self.taking = false;
                    self.next += self.skip;
                } else {
                    if self.taking {
                        self.publish();
                    }
                    self.taking = true;
                    self.next += self.take;
                }
            }
        }
        self.input.consume(used);
        Ok(WorkStatus::Continue)
    }

    fn publish(&mut self) {
        let meta = Pmt::dict_from([("pdu_num", Pmt::Uint64(self.count))]);
        self.pdus.post(Pmt::pair(meta, T::pdu_vector(&self.items)));
        self.items.clear();
        self.count += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn lengths_and_firsts(pdus: &[Pmt]) -> Vec<(u64, usize, u8)> {
        pdus.iter()
            .map(|p| {
                let (meta, data) = p.as_pair().unwrap();
                let num = meta.dict_get("pdu_num").unwrap().as_u64().unwrap();
                let bytes = data.as_blob().unwrap();
                (num, bytes.len(), bytes[0])
            })
            .collect()
    }

    #[test]
    fn pdus_are_the_same_whatever_the_pieces() {
        let data: Vec<u8> = (0..40).collect();
        for (take, skip) in [(3, 4), (5, 0), (1, 1)] {
            let mut whole = Harness::new(TakeSkipToPdu::<u8>::new(take, skip).unwrap());
            whole.push("in", &data);
            whole.work().unwrap();
            let mut pieces = Harness::new(TakeSkipToPdu::<u8>::new(take, skip).unwrap());
            for chunk in data.chunks(3) {
                pieces.push("in", chunk);
                pieces.work().unwrap();
            }
            let whole = whole.take_messages("pdus");
            assert_eq!(whole, pieces.take_messages("pdus"));
            let step = (take + skip) as u8;
            let expected: Vec<_> = (0..=40 / step)
                .filter(|i| (i * step + take as u8) <= 40)
                .map(|i| (u64::from(i), take as usize, i * step))
                .collect();
            assert_eq!(lengths_and_firsts(&whole), expected, "{take} {skip}");
        }
    }

    #[test]
    fn take_zero_is_refused_by_name() {
        assert_eq!(TakeSkipToPdu::<u8>::new(0, 1).unwrap_err().name, "take");
    }
}
