//! [`PduToStream`]: PDUs played as bursts of a stream, tagged `tx_sob` / `tx_eob`.

use crate::pdu_item::{uniform_bytes, uniform_itemsize, PduItem};
use radioflow_dsp::ParamError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::collections::VecDeque;

/// What [`PduToStream`] does with a PDU that arrives while an earlier one is still being
/// written (GNU Radio's `pdu.early_pdu_behavior_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EarlyBurst {
    /// Queue it: untimed PDUs waiting when a burst starts join that burst
    /// (`pdu.EARLY_BURST_APPEND`).
    Append,
    /// Drop it (`pdu.EARLY_BURST_DROP`).
    Drop,
    /// Drop it and log an error (`pdu.EARLY_BURST_BALK`).
    Balk,
}

impl EarlyBurst {
    /// The behaviour named `name` (`append`, `drop`, `balk`).
    ///
    /// # Errors
    /// Any other name, as a [`ParamError`] for `early_behavior`.
    pub fn from_name(name: &str) -> Result<Self, ParamError> {
        match name {
            "append" => Ok(Self::Append),
            "drop" => Ok(Self::Drop),
            "balk" => Ok(Self::Balk),
            _ => Err(ParamError::new(
                "early_behavior",
                format!("'{name}' is not append, drop or balk"),
            )),
        }
    }
}

/// Writes the data of each PDU arriving on `pdus` as a burst of items (GNU Radio's
/// `pdu.pdu_to_stream_X`): the burst's first item is tagged `tx_sob` = `#t` (and `tx_time`
/// where the first PDU's metadata has a `tx_time` of `(uint64 seconds, double fraction)`, as
/// a tuple or a pair), its last `tx_eob` = `#t`. Between bursts it writes nothing (a sink
/// downstream waits).
///
/// PDUs wait in a queue of at most `max_queue_size` (more are dropped with a warning). With
/// `early_behavior` `append`, a burst takes the first PDU waiting and every untimed one (no
/// `tx_time`) queued behind it; with `drop` (and `balk`, which also logs an error), a PDU
/// arriving while a burst is being written or waits is dropped. As GNU Radio's, a PDU whose
/// data is not a uniform vector of the item's size (a `u8vector` for bytes, `s16vector` for
/// shorts, 4-byte elements for int and float, 8-byte for complex) is dropped with an error
/// logged, and an empty one with a warning.
///
/// It runs until the run is stopped or nothing reads its output, as GNU Radio's.
///
/// # Example
/// ```
/// use radioflow_blocks::{EarlyBurst, Head, MessageBurstSource, PduToStream, VectorSink};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let pdu = Pmt::pair(Pmt::Null, Pmt::F32Vector(vec![1.0, 2.0, 3.0].into()));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![pdu]));
/// let p2s = fg.add(PduToStream::<f32>::new(EarlyBurst::Append, 64));
/// let head = fg.add(Head::<f32>::new(3));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect_message((src, "out"), (p2s, "pdus"))?;
/// fg.connect(p2s, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// let sink = fg.block::<VectorSink<f32>>(sink).unwrap();
/// assert_eq!(sink.data(), [1.0, 2.0, 3.0]);
/// assert_eq!(sink.tags().iter().map(|t| t.offset).collect::<Vec<_>>(), [0, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pdu_to_stream",
    summary = "Each PDU arriving on `pdus` as a burst of items tagged tx_sob/tx_eob (and tx_time), nothing between bursts (GNU Radio's pdu_to_stream).",
    dtypes = [Uint8, Int16, Int32, Float32, Complex32],
    make = Self::new(
        EarlyBurst::from_name(&early_behavior).map_err(|e| Refused::param(e.name, e.reason))?,
        max_queue_size,
    )
)]
#[param(early_behavior: String = "append", doc = "a PDU arriving during a burst: append (queued, joins the next burst if untimed), drop, or balk (dropped with an error logged)")]
#[param(max_queue_size: u32 = 64, doc = "PDUs that may wait; more are dropped with a warning")]
#[message_input(
    name = "pdus",
    doc = "PDUs: (metadata dict . uniform vector of the item type)"
)]
#[derive(Debug)]
pub struct PduToStream<T: PduItem> {
    /// The bursts.
    #[output(name = "out")]
    output: StreamOutput<T>,
    early: EarlyBurst,
    max_queue_size: usize,
    /// PDUs waiting, checked on arrival: metadata and data.
    queue: VecDeque<(Pmt, Pmt)>,
    /// The burst being written, from `sent` on.
    burst: Vec<T>,
    sent: usize,
    /// The burst's `tx_time` tag, until its first item is written.
    time: Option<Pmt>,
    /// Whether the burst's first item is still to be written.
    sob: bool,
    /// PDUs dropped in a row for a full queue (GNU Radio's count in its warning).
    dropped: u64,
}

#[block]
impl<T: PduItem> PduToStream<T> {
    /// PDUs queued (at most `max_queue_size`) and written as bursts, `early` saying what a PDU
    /// arriving during a burst does.
    pub fn new(early: EarlyBurst, max_queue_size: u32) -> Self {
        Self {
            output: StreamOutput::new(),
            early,
            max_queue_size: max_queue_size as usize,
            queue: VecDeque::new(),
            burst: Vec::new(),
            sent: 0,
            time: None,
            sob: false,
            dropped: 0,
        }
    }

    /// Starts the next burst from the queue: its first PDU and the untimed ones behind it.
    fn next_burst(&mut self) {
        self.burst.clear();
        self.sent = 0;
        let Some((meta, data)) = self.queue.pop_front() else {
            return;
        };
        self.extend(&data);
        while let Some((next, data)) = self.queue.front() {
            if next.dict_get("tx_time").is_some() {
                break;
            }
            let data = data.clone();
            self.queue.pop_front();
            self.extend(&data);
        }
        self.sob = true;
        self.time = match meta.dict_get("tx_time") {
            Some(Pmt::Tuple(t))
                if t.len() >= 2
                    && matches!(t[0], Pmt::Uint64(_))
                    && matches!(t[1], Pmt::Double(_)) =>
            {
                Some(Pmt::Tuple(t.clone()))
            }
            Some(p) => match p.as_pair() {
                Some((s @ Pmt::Uint64(_), f @ Pmt::Double(_))) => {
                    Some(Pmt::Tuple(vec![s.clone(), f.clone()].into()))
                }
                _ => None,
            },
            None => None,
        };
    }

    fn extend(&mut self, data: &Pmt) {
        let bytes = uniform_bytes(data).expect("checked on arrival");
        let size = std::mem::size_of::<T>();
        self.burst.extend(
            bytes
                .chunks_exact(size)
                .map(|b| bytemuck::pod_read_unaligned::<T>(b)),
        );
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.sent == self.burst.len() {
            if self.queue.is_empty() {
                return Ok(WorkStatus::Continue);
            }
            self.next_burst();
            if self.burst.is_empty() {
                return Ok(WorkStatus::Continue);
            }
        }
        let at = self.output.offset();
        let out = self.output.slice();
        let left = self.burst.len() - self.sent;
        let n = out.len().min(left);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        out[..n].copy_from_slice(&self.burst[self.sent..self.sent + n]);
        if self.sob {
            self.sob = false;
            self.output.add_tag(at, "tx_sob", true);
            if let Some(time) = self.time.take() {
                self.output.add_tag(at, "tx_time", time);
            }
        }
        if n == left {
            self.output.add_tag(at + n as u64 - 1, "tx_eob", true);
        }
        self.sent += n;
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }

    #[message_input]
    fn pdus(&mut self, pdu: Pmt) -> Result<(), BlockError> {
        if self.early != EarlyBurst::Append
            && (self.sent < self.burst.len() || !self.queue.is_empty())
        {
            if self.early == EarlyBurst::Balk {
                tracing::error!(
                    "pdu_to_stream: PDU received before the previous burst finished writing - dropped"
                );
            }
            return Ok(());
        }
        let Some((meta, data)) = pdu
            .as_pair()
            .filter(|(m, d)| m.is_dict() && uniform_itemsize(d).is_some())
        else {
            tracing::error!(
                "pdu_to_stream: {} is not a PDU (a pair of a metadata dict and a uniform vector), dropped",
                radioflow_runtime::echo::cut(&pdu.to_string())
            );
            return Ok(());
        };
        let bytes = uniform_bytes(data).expect("a uniform vector");
        if bytes.is_empty() {
            tracing::warn!("pdu_to_stream: zero size PDU ignored");
            return Ok(());
        }
        let size = uniform_itemsize(data).expect("a uniform vector");
        if size != std::mem::size_of::<T>() {
            tracing::error!(
                "pdu_to_stream: PDU received has incorrect itemsize ({size} != {}), dropped",
                std::mem::size_of::<T>()
            );
            return Ok(());
        }
        if self.queue.len() < self.max_queue_size {
            self.queue.push_back((meta.clone(), data.clone()));
            self.dropped = 0;
        } else {
            self.dropped += 1;
            tracing::warn!(
                "pdu_to_stream: queue full, PDU dropped ({} dropped so far)",
                self.dropped
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn pdu(meta: Pmt, items: &[f32]) -> Pmt {
        Pmt::pair(meta, Pmt::F32Vector(items.into()))
    }

    fn tags(h: &mut Harness<PduToStream<f32>>) -> (Vec<f32>, Vec<(u64, String)>) {
        let (items, tags) = h.take_output_with_tags::<f32>("out");
        let tags = tags
            .into_iter()
            .map(|t| (t.offset, t.key.to_string()))
            .collect();
        (items, tags)
    }

    #[test]
    fn untimed_pdus_waiting_join_one_burst_and_timed_ones_start_their_own() {
        let time = Pmt::dict_from([(
            "tx_time",
            Pmt::Tuple(vec![Pmt::Uint64(1), Pmt::Double(0.5)].into()),
        )]);
        let mut h = Harness::new(PduToStream::<f32>::new(EarlyBurst::Append, 64));
        h.set_space("out", 100);
        h.post("pdus", pdu(Pmt::Null, &[1.0, 2.0])).unwrap();
        h.post("pdus", pdu(Pmt::Null, &[3.0])).unwrap();
        h.post("pdus", pdu(time, &[4.0])).unwrap();
        h.work().unwrap();
        h.work().unwrap();
        let (items, tags) = tags(&mut h);
        assert_eq!(items, [1.0, 2.0, 3.0, 4.0]);
        assert_eq!(
            tags,
            [
                (0, "tx_sob".into()),
                (2, "tx_eob".into()),
                (3, "tx_sob".into()),
                (3, "tx_time".into()),
                (3, "tx_eob".into()),
            ]
        );
    }

    #[test]
    fn drop_and_balk_drop_what_arrives_during_a_burst() {
        for early in [EarlyBurst::Drop, EarlyBurst::Balk] {
            let mut h = Harness::new(PduToStream::<f32>::new(early, 64));
            h.set_space("out", 1);
            h.post("pdus", pdu(Pmt::Null, &[1.0, 2.0])).unwrap();
            // Waiting in the queue: dropped.
            h.post("pdus", pdu(Pmt::Null, &[9.0])).unwrap();
            h.work().unwrap();
            // Half written: dropped.
            h.post("pdus", pdu(Pmt::Null, &[9.0])).unwrap();
            h.work().unwrap();
            h.post("pdus", pdu(Pmt::Null, &[3.0])).unwrap();
            h.work().unwrap();
            assert_eq!(tags(&mut h).0, [1.0, 2.0, 3.0], "{early:?}");
        }
    }

    #[test]
    fn a_full_queue_a_wrong_size_an_empty_pdu_and_a_non_pdu_are_dropped() {
        let mut h = Harness::new(PduToStream::<f32>::new(EarlyBurst::Append, 2));
        h.post("pdus", Pmt::Int(1)).unwrap();
        h.post("pdus", Pmt::pair(Pmt::Null, Pmt::blob(vec![1, 2, 3, 4])))
            .unwrap();
        h.post("pdus", pdu(Pmt::Null, &[])).unwrap();
        h.post("pdus", Pmt::pair(Pmt::Null, Pmt::S32Vector(vec![7].into())))
            .unwrap();
        h.post("pdus", pdu(Pmt::Null, &[1.0])).unwrap();
        h.post("pdus", pdu(Pmt::Null, &[2.0])).unwrap();
        h.set_space("out", 10);
        h.work().unwrap();
        // The s32vector has 4-byte elements, as floats do: GNU Radio takes its bytes.
        assert_eq!(tags(&mut h).0, [f32::from_bits(7), 1.0]);
    }

    #[test]
    fn an_unknown_behaviour_is_refused_by_name() {
        let e = EarlyBurst::from_name("later").unwrap_err();
        assert_eq!(e.name, "early_behavior");
    }
}
