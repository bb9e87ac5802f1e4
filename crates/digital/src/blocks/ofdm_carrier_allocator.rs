//! [`OfdmCarrierAllocator`]: frames of symbols onto the carriers of OFDM symbols.

use super::pending_output::send_pending;
use radioflow_dsp::CarrierAllocator;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Places each frame of complex symbols (a tagged stream: a length tag on its first
/// symbol) onto the carriers of OFDM symbols, vectors of `fft_len` for an inverse FFT, like
/// GNU Radio's `ofdm_carrier_allocator_cvc` (kernel [`radioflow_dsp::CarrierAllocator`]:
/// occupied carriers in turn, pilots, sync words first, DC in the middle with
/// `output_is_shifted`). Each frame's output starts with a length tag of its OFDM symbols
/// (sync words included). A tag on a symbol moves to the OFDM symbol it goes onto, except
/// that tags on the first OFDM symbol go to the frame's first vector (the sync word), as
/// GNU Radio moves them. A frame cut by the end of the stream is dropped, as GNU Radio
/// drops it; a frame of 0 symbols is an error.
///
/// # Example
/// ```
/// use radioflow_digital::OfdmCarrierAllocator;
/// use radioflow_runtime::{Complex32, Flowgraph, Pmt, Tag};
/// use radioflow_blocks::{VectorSink, VectorSource};
///
/// let x: Vec<Complex32> = (1..=3).map(|k| Complex32::new(k as f32, 0.0)).collect();
/// let list = |v: &[i64]| Pmt::Vector(v.iter().map(|&k| Pmt::Int(k)).collect::<Vec<_>>().into());
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(x).tags(vec![Tag::new(0, "packet_len", 3i64)]));
/// let alloc = fg.add(OfdmCarrierAllocator::new(4, &[vec![1, -1]], &[], &[], &[], "packet_len", false)?);
/// let sink = fg.add(VectorSink::<Complex32>::new().with_vlen(4));
/// fg.connect(src, alloc)?;
/// fg.connect(alloc, sink)?;
/// fg.run()?;
/// let re: Vec<f32> = fg.block::<VectorSink<Complex32>>(sink).unwrap().data().iter().map(|z| z.re).collect();
/// assert_eq!(re, [0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 0.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "ofdm_carrier_allocator",
    summary = "Frames of symbols (a tagged stream) onto the carriers of OFDM symbols (vectors of `fft_len`), with pilots and sync words.",
    make = Self::new(
        fft_len,
        &int_sets("occupied_carriers", &occupied_carriers)?,
        &int_sets("pilot_carriers", &pilot_carriers)?,
        &complex_sets("pilot_symbols", &pilot_symbols)?,
        &complex_sets("sync_words", &sync_words)?,
        &len_tag_key,
        output_is_shifted,
    )
    .map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(fft_len: usize, min = 1, example = 64, doc = "carriers per OFDM symbol")]
#[param(occupied_carriers: Vec<Pmt>, doc = "lists of data carriers, one per OFDM symbol, taken in turn (negative: below DC); a list of numbers is one")]
#[param(pilot_carriers: Vec<Pmt> = [], doc = "lists of pilot carriers, one per OFDM symbol, in turn")]
#[param(pilot_symbols: Vec<Pmt> = [], doc = "lists of pilot values for those carriers, in turn")]
#[param(sync_words: Vec<Pmt> = [], doc = "OFDM symbols of `fft_len` values put first in each frame, as they are")]
#[param(len_tag_key: String = "packet_len", doc = "the length tag of the frames, in and out")]
#[param(output_is_shifted: bool = true, doc = "DC in the middle of the output vectors")]
#[derive(Debug)]
pub struct OfdmCarrierAllocator {
    /// Frames of symbols, each starting with a length tag.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// OFDM symbols: vectors of `fft_len` carriers.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    kernel: CarrierAllocator,
    key: Pmt,
    /// The current frame's symbols read so far.
    held: Vec<Complex32>,
    /// Symbols of the current frame still to read.
    left: usize,
    /// The current frame's tags, their offsets the symbol's index in the frame.
    tags: Vec<Tag>,
    /// Output made and not yet sent.
    pending: Vec<Complex32>,
    sent: usize,
}

/// The items of a list (or tuple).
fn items<'a>(name: &str, v: &'a Pmt) -> Result<&'a [Pmt], Refused> {
    match v {
        Pmt::Vector(items) | Pmt::Tuple(items) => Ok(items),
        _ => Err(Refused::param(name, format!("{v} is not a list"))),
    }
}

/// Whether a list is one set of numbers rather than a list of sets.
fn flat(sets: &[Pmt]) -> bool {
    !sets.is_empty() && sets.iter().all(|v| v.as_complex().is_some())
}

/// Lists of carrier indices (a list of numbers: one set).
fn int_sets(name: &'static str, sets: &[Pmt]) -> Result<Vec<Vec<i64>>, Refused> {
    if flat(sets) {
        return int_sets(name, &[Pmt::Vector(sets.to_vec().into())]);
    }
    sets.iter()
        .map(|set| match set {
            Pmt::S64Vector(v) => Ok(v.to_vec()),
            Pmt::S32Vector(v) => Ok(v.iter().map(|&k| i64::from(k)).collect()),
            _ => items(name, set)?
                .iter()
                .map(|k| {
                    k.as_i64()
                        .ok_or_else(|| Refused::param(name, format!("{k} is not a carrier index")))
                })
                .collect(),
        })
        .collect()
}

/// Lists of complex values (a list of numbers: one set).
fn complex_sets(name: &'static str, sets: &[Pmt]) -> Result<Vec<Vec<Complex32>>, Refused> {
    if flat(sets) {
        return complex_sets(name, &[Pmt::Vector(sets.to_vec().into())]);
    }
    let c32 = |z: num_complex::Complex64| Complex32::new(z.re as f32, z.im as f32);
    sets.iter()
        .map(|set| match set {
            Pmt::C32Vector(v) => Ok(v.to_vec()),
            Pmt::C64Vector(v) => Ok(v.iter().map(|&z| c32(z)).collect()),
            Pmt::F32Vector(v) => Ok(v.iter().map(|&x| Complex32::new(x, 0.0)).collect()),
            Pmt::F64Vector(v) => Ok(v.iter().map(|&x| Complex32::new(x as f32, 0.0)).collect()),
            _ => items(name, set)?
                .iter()
                .map(|z| {
                    z.as_complex()
                        .map(c32)
                        .ok_or_else(|| Refused::param(name, format!("{z} is not a number")))
                })
                .collect(),
        })
        .collect()
}

#[block]
impl OfdmCarrierAllocator {
    /// An allocator of OFDM symbols of `fft_len` carriers for frames tagged `len_tag_key`.
    ///
    /// # Errors
    /// As [`CarrierAllocator::new`]: the error names the parameter.
    pub fn new(
        fft_len: usize,
        occupied_carriers: &[Vec<i64>],
        pilot_carriers: &[Vec<i64>],
        pilot_symbols: &[Vec<Complex32>],
        sync_words: &[Vec<Complex32>],
        len_tag_key: &str,
        output_is_shifted: bool,
    ) -> Result<Self, radioflow_dsp::ParamError> {
        let kernel = CarrierAllocator::new(
            fft_len,
            occupied_carriers,
            pilot_carriers,
            pilot_symbols,
            sync_words,
            output_is_shifted,
        )?;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new().with_vlen(fft_len),
            kernel,
            key: Pmt::symbol(len_tag_key),
            held: Vec::new(),
            left: 0,
            tags: Vec::new(),
            pending: Vec::new(),
            sent: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        while send_pending(&mut self.output, &self.pending, &mut self.sent) && self.gather()? {
            self.emit();
        }
        Ok(WorkStatus::Continue)
    }
}

impl OfdmCarrierAllocator {
    /// Reads symbols of the current frame; whether it is whole.
    fn gather(&mut self) -> Result<bool, BlockError> {
        let avail = self.input.slice().len();
        if avail == 0 {
            return Ok(false);
        }
        let start = self.input.offset();
        if self.left == 0 {
            self.held.clear();
            self.tags.clear();
            let len = self
                .input
                .tags()
                .iter()
                .rfind(|t| t.offset == start && t.key == self.key)
                .map(|t| t.value.as_i64());
            self.left = match len {
                Some(Some(n)) if n > 0 => n as usize,
                _ => {
                    return Err(BlockError::msg(format!(
                        "ofdm_carrier_allocator in: symbol {start} is in no frame: it has no \
                         length tag '{}' with a whole number of symbols above 0",
                        self.key
                    )))
                }
            };
        }
        let n = self.left.min(avail);
        let first = start - self.held.len() as u64;
        for t in self.input.tags() {
            if (start..start + n as u64).contains(&t.offset) && t.key != self.key {
                self.tags.push(Tag {
                    offset: t.offset - first,
                    ..t.clone()
                });
            }
        }
        self.held.extend_from_slice(&self.input.slice()[..n]);
        self.input.consume(n);
        self.left -= n;
        Ok(self.left == 0)
    }

    /// The held frame's OFDM symbols into `pending`, its tags onto the output.
    fn emit(&mut self) {
        let symbols = self.kernel.frame_len(self.held.len());
        let at = self.output.offset();
        let len = i64::try_from(symbols).unwrap_or(i64::MAX);
        self.output.add_tag(at, self.key.clone(), Pmt::Int(len));
        let sync = self.kernel.sync_words() as u64;
        for t in self.tags.drain(..) {
            let symbol = self.kernel.symbol_of(t.offset as usize) as u64;
            let offset = if symbol == 0 { at } else { at + sync + symbol };
            self.output.push_tag(Tag { offset, ..t });
        }
        self.pending.clear();
        self.pending
            .resize(symbols * self.kernel.fft_len(), Complex32::default());
        self.kernel.allocate(&self.held, &mut self.pending);
        self.sent = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn ones(n: usize) -> Vec<Complex32> {
        (1..=n).map(|k| Complex32::new(k as f32, 0.0)).collect()
    }

    #[test]
    fn frames_through_little_room_with_their_tags() {
        let sync = vec![Complex32::new(1.0, 0.0); 4];
        let block =
            OfdmCarrierAllocator::new(4, &[vec![1, 2]], &[], &[], &[sync], "len", false).unwrap();
        let mut h = Harness::new(block);
        h.set_space("out", 4);
        h.push_tag("in", 0, "len", 5i64);
        h.push_tag("in", 1, "first", 1i64);
        h.push_tag("in", 4, "third", 2i64);
        h.push_tag("in", 5, "len", 1i64);
        h.push("in", &ones(6));
        for _ in 0..20 {
            h.work().unwrap();
        }
        let (y, tags) = h.take_output_with_tags::<Complex32>("out");
        assert_eq!(y.len(), (4 + 2) * 4);
        let tags: Vec<(u64, String)> = tags.iter().map(|t| (t.offset, t.key.to_string())).collect();
        assert_eq!(
            tags,
            [
                (0, "len".into()),
                (0, "first".into()),
                (3, "third".into()),
                (4, "len".into())
            ]
        );
    }

    #[test]
    fn a_cut_frame_is_dropped_and_an_untagged_one_refused() {
        let block = OfdmCarrierAllocator::new(4, &[vec![1]], &[], &[], &[], "len", true).unwrap();
        let mut h = Harness::new(block);
        h.push_tag("in", 0, "len", 1i64);
        h.push_tag("in", 1, "len", 3i64);
        h.push("in", &ones(2));
        h.finish_input("in");
        for _ in 0..4 {
            h.work().unwrap();
        }
        assert_eq!(h.take_output::<Complex32>("out").len(), 4);
        let block = OfdmCarrierAllocator::new(4, &[vec![1]], &[], &[], &[], "len", true).unwrap();
        let mut h = Harness::new(block);
        h.push("in", &ones(1));
        assert!(h
            .work()
            .unwrap_err()
            .to_string()
            .contains("no length tag 'len'"));
    }
}
