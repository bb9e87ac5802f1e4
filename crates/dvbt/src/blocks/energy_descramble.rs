//! [`DvbtEnergyDescramble`]: gr-dtv's `dvbt_energy_descramble`, the receiver's inverse of
//! energy dispersal.

use crate::dispersal::{self, INVERTED_SYNC, PACKET, PACKETS, SYNC};
use crate::error::SettingsError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_energy_descramble";
/// A group of eight packets, gr-dtv's input vector.
const GROUP: usize = PACKETS * PACKET;
/// The packet starts searched for an inverted sync byte: two groups'.
const SEARCH: usize = 2 * GROUP;
/// The input gr-dtv's forecast asks for before it writes anything: 16 vectors (four for each
/// of the four vectors of its output multiple).
const WINDOW: usize = 16 * GROUP;

/// Energy descrambling (ETSI EN 300 744 clause 4.3.1, the receiver's side) as gr-dtv's
/// `dvbt_energy_descramble`: vectors of eight transport packets (1504 bytes) in, from the
/// Reed-Solomon decoder; the packets out as bytes, the PRBS 1 + x^14 + x^15 removed and every
/// sync byte written 0x47.
///
/// As gr-dtv's block, it reads the input as a byte stream and looks for a group's start, an
/// inverted sync byte (0xB8), at the packet starts of the next two vectors, from where the
/// previous group started on; it descrambles the two groups from there (reading into the
/// vector after them) and consumes two vectors, or consumes two vectors and writes nothing
/// where no packet start holds 0xB8. As gr-dtv's, it waits for 16 vectors before it does so
/// (what gr-dtv's forecast asks for), so the stream's last 14 or 15 vectors are not written
/// (14 where it holds an even number of vectors). gr-dtv searches once a call of its work
/// (two vectors, or a multiple of four less two, as its scheduler hands them) and then reads on
/// without looking; where the groups' starts stay in place, as in a transport stream through
/// the chain, both write the same bytes. Tags move to
/// offset · 1504 (GNU Radio's relative rate).
///
/// gr-dtv's `nsize` changes nothing: its vectors are eight packets whatever it says, so only
/// `nsize` = 8 connects in GNU Radio; other values are refused.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::{DvbtEnergyDescramble, DvbtEnergyDispersal};
///
/// // 19 groups of eight packets through dispersal and back: the last 15 stay in the
/// // descrambler (19 vectors, an odd number).
/// let mut ts = vec![0u8; 19 * 1504 + 8];
/// for (k, b) in ts.iter_mut().enumerate() {
///     *b = if k % 188 == 0 { 0x47 } else { k as u8 };
/// }
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(ts.clone()));
/// let ed = fg.add(DvbtEnergyDispersal::new(1)?);
/// let de = fg.add(DvbtEnergyDescramble::new(8)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, ed)?;
/// fg.connect(ed, de)?;
/// fg.connect(de, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &ts[..4 * 1504]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_energy_descramble",
    summary = "DVB-T energy descrambling as gr-dtv's dvbt_energy_descramble: groups of eight packets found by their inverted sync byte, the PRBS 1 + x^14 + x^15 removed, packets out as bytes.",
    make = Self::new(nsize).map_err(Refused::from)
)]
#[param(nsize: usize = 8, min = 1, doc = "packets an input vector: 8 (gr-dtv's block reads 8 whatever it says)")]
pub struct DvbtEnergyDescramble {
    /// Vectors of eight scrambled packets.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Transport packets, bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    /// The bytes XORed onto a group.
    sequence: Vec<u8>,
    /// Where the last group found starts in the input window, a packet start below
    /// `SEARCH` (0 after a search that found none; gr-dtv's `d_index`).
    start: usize,
}

impl std::fmt::Debug for DvbtEnergyDescramble {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtEnergyDescramble")
            .field("start", &self.start)
            .finish()
    }
}

#[block(type_name = "dvbt_energy_descramble")]
impl DvbtEnergyDescramble {
    /// The descrambler of vectors of `nsize` packets.
    ///
    /// # Errors
    /// `nsize` not 8.
    pub fn new(nsize: usize) -> Result<Self, SettingsError> {
        if nsize != PACKETS {
            return Err(SettingsError::param(
                BLOCK,
                "nsize",
                format!(
                    "= {nsize} is not supported but 8: gr-dtv's block reads vectors of eight \
                     packets whatever nsize says, so in GNU Radio only nsize = 8 connects"
                ),
            ));
        }
        Ok(Self {
            input: StreamInput::new().with_vlen(GROUP).with_min_items(WINDOW),
            output: StreamOutput::new().with_min_items(SEARCH),
            sequence: dispersal::sequence(),
            start: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        while self.input.slice().len() >= WINDOW && self.output.slice().len() >= SEARCH {
            let window = &self.input.slice()[..SEARCH + 2 * GROUP];
            while self.start < SEARCH && window[self.start] != INVERTED_SYNC {
                self.start += PACKET;
            }
            let produced = if self.start >= SEARCH {
                self.start = 0;
                0
            } else {
                let input = &window[self.start..self.start + SEARCH];
                let output = &mut self.output.slice()[..SEARCH];
                for (o, i) in output
                    .chunks_exact_mut(GROUP)
                    .zip(input.chunks_exact(GROUP))
                {
                    for ((o, &i), &s) in o.iter_mut().zip(i).zip(&self.sequence) {
                        *o = i ^ s;
                    }
                    for packet in o.chunks_exact_mut(PACKET) {
                        packet[0] = SYNC;
                    }
                }
                SEARCH
            };
            propagate_tags_at_rate(&self.input, &mut self.output, 2, GROUP as u64, 1);
            self.input.consume(SEARCH);
            self.output.produce(produced);
        }
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nsize_other_than_8_is_refused_by_name() {
        let e = DvbtEnergyDescramble::new(1).unwrap_err();
        assert_eq!(e.block, BLOCK);
        assert!(e.message.starts_with("nsize = 1 is not supported"), "{e}");
    }
}
