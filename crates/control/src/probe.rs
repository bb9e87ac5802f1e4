//! Probe taps: a [`ProbeSink`] added as one more reader of a stream output before the graph
//! starts ([`add_probe`]). It consumes everything it is offered at every call (so it keeps its
//! place in the buffer at the writer's position and the writer never waits on it for longer
//! than until its thread steps it) and, at most every [`ProbeConfig::interval`], copies the
//! next `size` samples into a frame that the control port's thread reads; a frame the reader
//! still holds is skipped, never waited for. The spectrum, time plot and constellation are
//! computed from that frame on the control port's thread (`probe_view.rs`), not in the graph.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::{BlockId, Complex32, Direction, Flowgraph};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often and how much a probe copies.
#[derive(Clone, Copy, Debug)]
pub struct ProbeConfig {
    /// Samples per frame (the FFT size of the spectrum view).
    pub size: usize,
    /// At most one frame per interval.
    pub interval: Duration,
    /// The probed output's rate in samples/s, when the program knows it: the spectrum's
    /// frequency axis is then in Hz (in bins otherwise).
    pub sample_rate: Option<f64>,
}

impl Default for ProbeConfig {
    fn default() -> Self {
        Self {
            size: 1024,
            interval: Duration::from_millis(50),
            sample_rate: None,
        }
    }
}

/// Tags a probe keeps per frame at most (more are left out, counted in
/// [`ProbeFrame::tags_dropped`]): a frame's tag list is allocated once.
pub const TAGS_PER_FRAME: usize = 256;

/// A stream tag in a probe's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameTag {
    /// The tagged sample's index in the frame (a vector's first scalar for vector items).
    pub at: usize,
    /// The tag's key.
    pub key: Pmt,
    /// The tag's value.
    pub value: Pmt,
}

/// The frame a probe shares with the control port.
#[derive(Debug, Default)]
pub struct ProbeFrame {
    /// The latest complete frame (real items have a zero imaginary part).
    pub samples: Mutex<Vec<Complex32>>,
    /// The tags on its samples, in order (locked after `samples`).
    pub tags: Mutex<Vec<FrameTag>>,
    /// Tags left out of frames that had [`TAGS_PER_FRAME`] already.
    pub tags_dropped: AtomicU64,
    /// Frames completed so far.
    pub frames: AtomicU64,
    /// Frames dropped because the reader held the previous one.
    pub skipped: AtomicU64,
}

/// An item type a probe can read: converted to complex for the views.
pub trait ProbeItem: Item {
    /// The item as a complex number.
    fn to_complex(self) -> Complex32;
}

impl ProbeItem for f32 {
    fn to_complex(self) -> Complex32 {
        Complex32::new(self, 0.0)
    }
}

impl ProbeItem for Complex32 {
    fn to_complex(self) -> Complex32 {
        self
    }
}

/// Integer items (GNU Radio's short, int and byte streams, which its number, raster and
/// histogram sinks take) are shown as their values.
macro_rules! integer_probe_items {
    ($($t:ty),*) => {$(
        impl ProbeItem for $t {
            fn to_complex(self) -> Complex32 {
                Complex32::new(self as f32, 0.0)
            }
        }
    )*};
}
integer_probe_items!(i8, u8, i16, i32);

/// The probe block (see the module docs).
#[derive(Ports)]
pub struct ProbeSink<T: ProbeItem> {
    #[input(name = "in")]
    input: StreamInput<T>,
    config: ProbeConfig,
    frame: Arc<ProbeFrame>,
    /// The frame being collected (allocated once, in `new`).
    collecting: Vec<Complex32>,
    /// Its tags (at most [`TAGS_PER_FRAME`], allocated once).
    collecting_tags: Vec<FrameTag>,
    /// Scalars per item.
    vlen: usize,
    /// When the last frame was published.
    last: Option<Instant>,
}

impl<T: ProbeItem> std::fmt::Debug for ProbeSink<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProbeSink")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

#[block(observer)]
impl<T: ProbeItem> ProbeSink<T> {
    /// A probe that publishes into `frame`, reading items of `vlen` scalars (1 for scalar
    /// streams); its frames hold whole items (`config.size` rounded up to a multiple of `vlen`).
    pub fn new(config: ProbeConfig, vlen: usize, frame: Arc<ProbeFrame>) -> Self {
        let vlen = vlen.max(1);
        let size = config.size.max(1).div_ceil(vlen) * vlen;
        Self {
            input: StreamInput::new().with_vlen(vlen),
            config: ProbeConfig { size, ..config },
            frame,
            collecting: Vec::with_capacity(size),
            collecting_tags: Vec::with_capacity(TAGS_PER_FRAME),
            vlen,
            last: None,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let items = self.input.slice();
        let n = items.len();
        let size = self.config.size;
        let due = self.collecting.len() < size
            && (!self.collecting.is_empty()
                || self
                    .last
                    .is_none_or(|t| t.elapsed() >= self.config.interval));
        if due {
            let take = (size - self.collecting.len()).min(n);
            // The tags on the items taken, by their place in the frame (no allocation: the
            // list has its capacity, and a tag's key and value are reference-counted).
            let (first, vlen) = (self.input.offset(), self.vlen);
            let end = first + (take / vlen) as u64;
            let base = self.collecting.len();
            for tag in self.input.tags() {
                if tag.offset >= end {
                    break;
                }
                if tag.offset < first {
                    continue;
                }
                if self.collecting_tags.len() == TAGS_PER_FRAME {
                    self.frame.tags_dropped.fetch_add(1, Relaxed);
                    continue;
                }
                self.collecting_tags.push(FrameTag {
                    at: base + (tag.offset - first) as usize * vlen,
                    key: tag.key.clone(),
                    value: tag.value.clone(),
                });
            }
            self.collecting
                .extend(items[..take].iter().map(|&x| x.to_complex()));
            if self.collecting.len() == size {
                self.publish();
            }
        }
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }
}

impl<T: ProbeItem> ProbeSink<T> {
    /// Swaps the collected frame with the shared one, unless the reader holds it.
    fn publish(&mut self) {
        self.last = Some(Instant::now());
        match (self.frame.samples.try_lock(), self.frame.tags.try_lock()) {
            (Ok(mut shared), Ok(mut tags)) => {
                std::mem::swap(&mut *shared, &mut self.collecting);
                std::mem::swap(&mut *tags, &mut self.collecting_tags);
                self.frame.frames.fetch_add(1, Relaxed);
            }
            _ => {
                self.frame.skipped.fetch_add(1, Relaxed);
            }
        }
        self.collecting.clear();
        self.collecting_tags.clear();
        // The swapped-in vectors are the reader's old frame: keep the capacity we need (only
        // the first swap with the empty shared vectors allocates).
        self.collecting.reserve(self.config.size);
        self.collecting_tags.reserve(TAGS_PER_FRAME);
    }
}

/// A probe attached to a stream output.
#[derive(Clone, Debug)]
pub struct Probe {
    /// `block.port`, the probe's id in the API.
    pub id: String,
    /// The item type (`complex64`, `float32`, `int16`..., with `[vlen]` for vectors).
    pub item: String,
    /// The probe block's id in the flowgraph.
    pub block: BlockId,
    /// Frame size and interval.
    pub config: ProbeConfig,
    /// The shared frame.
    pub frame: Arc<ProbeFrame>,
}

/// Why a probe cannot be attached.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The spec is not `block.port`.
    #[error("probe '{0}': expected BLOCK.PORT (a stream output)")]
    Syntax(String),
    /// No block of that name.
    #[error("probe '{0}': no block named '{1}'")]
    UnknownBlock(String, String),
    /// No stream output of that name.
    #[error(
        "probe '{spec}': block '{block}' has no stream output '{port}' (its outputs: {known})"
    )]
    UnknownPort {
        /// The spec.
        spec: String,
        /// The block.
        block: String,
        /// The port asked for.
        port: String,
        /// The block's stream outputs.
        known: String,
    },
    /// An item type the probe cannot show.
    #[error(
        "probe '{0}': items of type {1} cannot be probed (complex64, float32, int32, int16, int8 \
         and uint8 can, as scalars or vectors)"
    )]
    UnsupportedItem(String, String),
    /// The connection was refused.
    #[error("probe '{0}': {1}")]
    Connect(String, radioflow_runtime::ConnectError),
}

/// The block named `name` in `fg`.
pub(crate) fn find_block(fg: &Flowgraph, name: &str) -> Option<BlockId> {
    (0..fg.len())
        .map(BlockId::from_index)
        .find(|&id| fg.name(id) == name)
}

/// Adds a probe reading stream output `spec` (`block.port`, or `block` for its first output)
/// of `fg`, which must not be running yet.
///
/// # Errors
/// A malformed spec, an unknown block or output (named), an item type other than complex64,
/// float32, int32, int16, int8 or uint8, or a graph that refuses the connection. A vector
/// output's frames hold whole vectors (the size rounded up to a multiple of its length).
pub fn add_probe(fg: &mut Flowgraph, spec: &str, config: ProbeConfig) -> Result<Probe, ProbeError> {
    let (block_name, port_name) = match spec.rsplit_once('.') {
        Some((b, p)) if !b.is_empty() && !p.is_empty() => (b, Some(p)),
        Some(_) => return Err(ProbeError::Syntax(spec.to_owned())),
        None => (spec, None),
    };
    let block = find_block(fg, block_name)
        .ok_or_else(|| ProbeError::UnknownBlock(spec.to_owned(), block_name.to_owned()))?;
    let outputs = fg.port_names(block, Direction::StreamOutput);
    let index = match port_name {
        Some(p) => outputs.iter().position(|o| *o == p),
        None => (!outputs.is_empty()).then_some(0),
    };
    let Some(index) = index else {
        return Err(ProbeError::UnknownPort {
            spec: spec.to_owned(),
            block: block_name.to_owned(),
            port: port_name.unwrap_or("(first output)").to_owned(),
            known: outputs.join(", "),
        });
    };
    let port = outputs[index].to_owned();
    let item_type = fg.port_item_type(block, Direction::StreamOutput, index);
    let item = item_type.map(|t| t.to_string()).unwrap_or_default();
    let vlen = item_type.map_or(1, |t| t.vlen());
    let config = ProbeConfig {
        size: config.size.max(1).div_ceil(vlen) * vlen,
        ..config
    };
    let frame = Arc::new(ProbeFrame::default());
    let name = format!("probe:{block_name}.{port}");
    let f = frame.clone();
    let probe = match item_type.and_then(|t| t.dtype()) {
        Some(Dtype::Complex32) => fg.add_named(&name, ProbeSink::<Complex32>::new(config, vlen, f)),
        Some(Dtype::Float32) => fg.add_named(&name, ProbeSink::<f32>::new(config, vlen, f)),
        Some(Dtype::Int32) => fg.add_named(&name, ProbeSink::<i32>::new(config, vlen, f)),
        Some(Dtype::Int16) => fg.add_named(&name, ProbeSink::<i16>::new(config, vlen, f)),
        Some(Dtype::Int8) => fg.add_named(&name, ProbeSink::<i8>::new(config, vlen, f)),
        Some(Dtype::Uint8) => fg.add_named(&name, ProbeSink::<u8>::new(config, vlen, f)),
        _ => return Err(ProbeError::UnsupportedItem(spec.to_owned(), item)),
    };
    fg.connect((block, port.as_str()), probe)
        .map_err(|e| ProbeError::Connect(spec.to_owned(), e))?;
    Ok(Probe {
        id: format!("{block_name}.{port}"),
        item,
        block: probe,
        config,
        frame,
    })
}
