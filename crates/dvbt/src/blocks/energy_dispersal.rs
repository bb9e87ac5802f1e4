//! [`DvbtEnergyDispersal`]: gr-dtv's `dvbt_energy_dispersal`, transport packets scrambled in
//! groups of eight.

use crate::dispersal::{self, INVERTED_SYNC, PACKET, PACKETS, SYNC};
use crate::error::SettingsError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_energy_dispersal";

/// Energy dispersal (ETSI EN 300 744 clause 4.3.1) as gr-dtv's `dvbt_energy_dispersal`:
/// MPEG-2 transport packets of 188 bytes in, each group of eight scrambled by the PRBS
/// 1 + x^14 + x^15 (restarted every group), the group's first sync byte inverted (0xB8) and
/// the others written 0x47, out as vectors of `nsize` groups (1504 · `nsize` bytes).
///
/// Before each vector the block looks for a 0x47 among the next 188 bytes and starts there;
/// where there is none it drops those 188 bytes and looks again. Like gr-dtv's, it waits for
/// 1512 · `nsize` bytes (eight packets of 189: room for the search) before it writes a
/// vector, so a stream ending less than 8 · `nsize` bytes after a vector's end does not make
/// it. gr-dtv searches only at the start of each call of its work and then reads whole
/// vectors on without checking (it logs "Malformed MPEG-TS!" where a sync byte is missing):
/// on a stream whose packets follow each other, as transport streams do, both write the
/// same bytes. Tags move to vector offset / (1504 · `nsize`), rounded half up (GNU Radio's
/// relative rate).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::DvbtEnergyDispersal;
///
/// // Two groups of eight packets of zeros, and the eight bytes the search needs.
/// let mut ts = vec![0u8; 2 * 1504 + 8];
/// for p in ts.chunks_mut(188) {
///     p[0] = 0x47;
/// }
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(ts));
/// let ed = fg.add(DvbtEnergyDispersal::new(1)?);
/// let sink = fg.add(VectorSink::<u8>::new().with_vlen(1504));
/// fg.connect(src, ed)?;
/// fg.connect(ed, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<u8>>(sink).unwrap().data();
/// assert_eq!(out.len(), 2 * 1504);
/// // Inverted sync, then the sequence itself (clause 4.3.1: 00000011 ...).
/// assert_eq!(out[..2], [0xB8, 0b0000_0011]);
/// assert_eq!(out[188], 0x47);
/// assert_eq!(out[..1504], out[1504..]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_energy_dispersal",
    summary = "DVB-T energy dispersal as gr-dtv's dvbt_energy_dispersal: transport packets scrambled by the PRBS 1 + x^14 + x^15 in groups of eight, out as vectors of nsize groups.",
    make = Self::new(nsize).map_err(Refused::from)
)]
#[param(nsize: usize = 1, min = 1, doc = "groups of eight packets (1504 bytes) an output vector")]
pub struct DvbtEnergyDispersal {
    /// Transport packets, bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Vectors of `nsize` scrambled groups.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    /// The bytes XORed onto a group.
    sequence: Vec<u8>,
    nsize: usize,
}

impl std::fmt::Debug for DvbtEnergyDispersal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtEnergyDispersal")
            .field("nsize", &self.nsize)
            .finish()
    }
}

#[block(type_name = "dvbt_energy_dispersal")]
impl DvbtEnergyDispersal {
    /// Vectors of `nsize` groups of eight packets.
    ///
    /// # Errors
    /// `nsize` 0.
    pub fn new(nsize: usize) -> Result<Self, SettingsError> {
        if nsize == 0 {
            return Err(SettingsError::param(BLOCK, "nsize", "must be at least 1"));
        }
        let vector = PACKETS * PACKET * nsize;
        Ok(Self {
            input: StreamInput::new().with_min_items(PACKETS * (PACKET + 1) * nsize),
            output: StreamOutput::new().with_vlen(vector),
            sequence: dispersal::sequence(),
            nsize,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let vector = PACKETS * PACKET * self.nsize;
        let needed = PACKETS * (PACKET + 1) * self.nsize;
        loop {
            let available = self.input.slice().len();
            if available < needed || self.output.slice().len() < vector {
                return Ok(WorkStatus::Continue);
            }
            let Some(start) = self.input.slice()[..PACKET].iter().position(|&b| b == SYNC) else {
                propagate_tags_at_rate(&self.input, &mut self.output, PACKET, 1, vector as u64);
                self.input.consume(PACKET);
                continue;
            };
            if available < start + vector {
                return Ok(WorkStatus::Continue);
            }
            let input = &self.input.slice()[start..start + vector];
            let output = &mut self.output.slice()[..vector];
            for (i, o) in input
                .chunks_exact(PACKETS * PACKET)
                .zip(output.chunks_exact_mut(PACKETS * PACKET))
            {
                for ((o, &i), &s) in o.iter_mut().zip(i).zip(&self.sequence) {
                    *o = i ^ s;
                }
                for (p, packet) in o.chunks_exact_mut(PACKET).enumerate() {
                    packet[0] = if p == 0 { INVERTED_SYNC } else { SYNC };
                }
            }
            propagate_tags_at_rate(
                &self.input,
                &mut self.output,
                start + vector,
                1,
                vector as u64,
            );
            self.input.consume(start + vector);
            self.output.produce(vector);
        }
    }
}
