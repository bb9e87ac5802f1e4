//! [`TaggedStreamMux`]: packets of several tagged streams joined into one packet.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Joins the current packet of each input (packets of tagged streams: a length tag of key
/// `lengthtagname` on each packet's first item) into one output packet, input 0's first, with
/// a length tag giving its length, like GNU Radio's `tagged_stream_mux`. The inputs' length
/// tags are not copied; their other tags move with their items, except that the tags on the
/// first item of input `tag_preserve_head_pos`'s packet go to the first item of the output
/// packet (a header's tags kept on the joined packet's head). At one offset the length tag
/// comes after the others, as GNU Radio adds it. Items may be vectors (`vlen`; lengths count
/// vectors).
///
/// # Errors
/// An item that no length tag puts in a packet stops the run, naming the input.
///
/// # Example
/// ```
/// use radioflow_blocks::{StreamToTaggedStream, TaggedStreamMux, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let header = fg.add(VectorSource::new(vec![0xAAu8, 0xBB]));
/// let payload = fg.add(VectorSource::new(vec![1u8, 2, 3]));
/// let h = fg.add(StreamToTaggedStream::<u8>::new(2, "len"));
/// let p = fg.add(StreamToTaggedStream::<u8>::new(3, "len"));
/// let mux = fg.add(TaggedStreamMux::<u8>::new(2, "len", 0));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(header, h)?;
/// fg.connect(payload, p)?;
/// fg.connect(h, (mux, 0))?;
/// fg.connect(p, (mux, 1))?;
/// fg.connect(mux, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<u8>>(sink).unwrap();
/// assert_eq!(out.data(), &[0xAA, 0xBB, 1, 2, 3]);
/// assert_eq!(out.tags()[0].value.as_i64(), Some(5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "tagged_stream_mux",
    summary = "The current packet of each tagged input stream joined into one packet, with its length tag (ports in0..).",
    dtypes = all,
    make = Ok::<_, Refused>(Self::new(ninputs, &lengthtagname, tag_preserve_head_pos).with_vlen(vlen))
)]
#[param(ninputs: usize = 2, min = 1, doc = "input streams")]
#[param(lengthtagname: String = "packet_len", doc = "the length tag's key")]
#[param(tag_preserve_head_pos: usize = 0, doc = "the input whose packet-head tags go to the joined packet's head")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct TaggedStreamMux<T: Item> {
    /// Packets, each starting with a length tag.
    #[input(name = "in")]
    inputs: Vec<StreamInput<T>>,
    /// The joined packets.
    #[output(name = "out")]
    output: StreamOutput<T>,
    key: Pmt,
    head: usize,
    /// Per input: its current packet's items (scalars) gathered so far, its tags (offsets
    /// within the packet, in items), and the items it still lacks (`None`: its length tag not
    /// read yet).
    packets: Vec<Packet<T>>,
    /// The joined packet going out, and how much of it has.
    out: Vec<T>,
    sent: usize,
}

#[derive(Debug)]
struct Packet<T> {
    items: Vec<T>,
    tags: Vec<Tag>,
    left: Option<usize>,
    /// Items read into `items` but not consumed (the packet's last, until it is joined).
    held: usize,
}

#[block]
impl<T: Item> TaggedStreamMux<T> {
    /// Joins packets of `ninputs` streams (at least 1) marked by `lengthtagname`.
    pub fn new(ninputs: usize, lengthtagname: &str, tag_preserve_head_pos: usize) -> Self {
        let n = ninputs.max(1);
        Self {
            inputs: (0..n).map(|_| StreamInput::new()).collect(),
            output: StreamOutput::new(),
            key: Pmt::symbol(lengthtagname),
            head: tag_preserve_head_pos,
            packets: (0..n)
                .map(|_| Packet {
                    items: Vec::new(),
                    tags: Vec::new(),
                    left: None,
                    held: 0,
                })
                .collect(),
            out: Vec::new(),
            sent: 0,
        }
    }

    /// Items of `vlen` scalars (GNU Radio's `vlen`).
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        for i in &mut self.inputs {
            i.set_vlen(vlen);
        }
        self.output.set_vlen(vlen);
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        loop {
            if self.sent < self.out.len() {
                let room = self.output.slice();
                let n = room.len().min(self.out.len() - self.sent);
                if n == 0 {
                    break;
                }
                room[..n].copy_from_slice(&self.out[self.sent..self.sent + n]);
                self.output.produce(n);
                self.sent += n;
                continue;
            }
            let mut whole = true;
            for i in 0..self.inputs.len() {
                whole &= self.gather(i)?;
            }
            if !whole {
                // An input that ended between packets ends the joining.
                let ended = self
                    .inputs
                    .iter()
                    .zip(&self.packets)
                    .any(|(i, p)| p.left.is_none() && i.is_finished() && i.slice().is_empty());
                if ended {
                    return Ok(WorkStatus::Done);
                }
                break;
            }
            self.join();
        }
        Ok(WorkStatus::Continue)
    }
}

impl<T: Item> TaggedStreamMux<T> {
    /// Reads input `i` into its packet; true once the packet is whole.
    fn gather(&mut self, i: usize) -> Result<bool, BlockError> {
        let vlen = self.inputs[i].vlen();
        let input = &mut self.inputs[i];
        let packet = &mut self.packets[i];
        let avail = input.slice().len() / vlen;
        let at = input.offset();
        if packet.left.is_none() {
            if avail == 0 {
                return Ok(false);
            }
            // Two length tags on one item: an empty packet, then this one.
            let len = input
                .tags()
                .iter()
                .filter(|t| t.offset == at && t.key == self.key)
                .filter_map(|t| t.value.as_i64())
                .rfind(|&n| n > 0);
            let Some(len) = len else {
                return Err(BlockError::msg(format!(
                    "tagged_stream_mux in{i}: item {at} is in no packet: it has no length tag \
                     '{}' with a whole number above 0",
                    self.key
                )));
            };
            packet.left = Some(len as usize);
        }
        let left = packet.left.unwrap_or(0);
        if left == 0 {
            // Whole, its last item held until the join.
            return Ok(true);
        }
        let n = left.min(avail);
        let first = at - (packet.items.len() / vlen) as u64;
        for t in input.tags().iter().take_while(|t| t.offset < at + n as u64) {
            if t.offset >= at && t.key != self.key {
                packet
                    .tags
                    .push(Tag::new(t.offset - first, t.key.clone(), t.value.clone()));
            }
        }
        packet.items.extend_from_slice(&input.slice()[..n * vlen]);
        // The packet's last item stays unconsumed until the packets are joined: the runtime
        // ends a block one of whose inputs has ended with nothing left to read, and this
        // input's packet would end the block while another input's is still on its way.
        let held = usize::from(n > 0 && n == left);
        input.consume((n - held) * vlen);
        packet.left = Some(left - n);
        packet.held = held;
        Ok(left == n)
    }

    /// Joins the whole packets into the packet going out, and tags it.
    fn join(&mut self) {
        let vlen = self.output.vlen();
        let start = self.output.offset();
        self.out.clear();
        self.sent = 0;
        for (input, p) in self.inputs.iter_mut().zip(&mut self.packets) {
            input.consume(std::mem::take(&mut p.held) * vlen);
        }
        for (i, p) in self.packets.iter_mut().enumerate() {
            let base = (self.out.len() / vlen) as u64;
            for t in p.tags.drain(..) {
                let at = if i == self.head && t.offset == 0 {
                    start
                } else {
                    start + base + t.offset
                };
                self.output.push_tag(Tag { offset: at, ..t });
            }
            self.out.extend_from_slice(&p.items);
            p.items.clear();
            p.left = None;
        }
        let len = (self.out.len() / vlen) as i64;
        self.output.add_tag(start, self.key.clone(), Pmt::Int(len));
    }
}
