//! The everyday stream blocks' cases, shared by `streams.rs` (every scheduler gives what the
//! single-threaded one gives, with tiny buffers) and `gnuradio_streams.rs` (the single-threaded
//! run against GNU Radio 3.10 on the same inputs): per case, GNU Radio's constructor, the
//! inputs with their tags, the radioflow block and its outputs' item types.

#![allow(dead_code)]

use radioflow_blocks::runtime::{BlockId, Complex32, Flowgraph, Scheduler, Tag};
use radioflow_blocks::*;

/// Items of one of GNU Radio's stream types (its `vector_source` suffix).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Items {
    B(Vec<u8>),
    S(Vec<i16>),
    I(Vec<i32>),
    F(Vec<f32>),
    C(Vec<Complex32>),
}

/// Applies `$body` to the vector inside `$items`, with `$T` its item type.
macro_rules! each {
    ($items:expr, $v:ident, $T:ident => $body:expr) => {
        match $items {
            Items::B($v) => {
                type $T = u8;
                $body
            }
            Items::S($v) => {
                type $T = i16;
                $body
            }
            Items::I($v) => {
                type $T = i32;
                $body
            }
            Items::F($v) => {
                type $T = f32;
                $body
            }
            Items::C($v) => {
                type $T = Complex32;
                $body
            }
        }
    };
}

/// A stream type: its GNU Radio suffix and how to make its items.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    B,
    S,
    I,
    F,
    C,
}

pub(crate) const KINDS: [Kind; 5] = [Kind::B, Kind::S, Kind::I, Kind::F, Kind::C];

impl Kind {
    /// GNU Radio's suffix (`vector_source_f`).
    pub(crate) fn code(self) -> &'static str {
        match self {
            Kind::B => "b",
            Kind::S => "s",
            Kind::I => "i",
            Kind::F => "f",
            Kind::C => "c",
        }
    }

    /// GNU Radio's item size.
    pub(crate) fn gr_size(self) -> &'static str {
        match self {
            Kind::B => "gr.sizeof_char",
            Kind::S => "gr.sizeof_short",
            Kind::I => "gr.sizeof_int",
            Kind::F => "gr.sizeof_float",
            Kind::C => "gr.sizeof_gr_complex",
        }
    }

    /// `n` deterministic items, stream `seed`: every value distinct enough that a misplaced
    /// item shows.
    pub(crate) fn items(self, seed: u64, n: usize) -> Items {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let small = |v: u64| (v % 2001) as f32 / 8.0 - 125.0;
        match self {
            Kind::B => Items::B((0..n).map(|_| next() as u8).collect()),
            Kind::S => Items::S((0..n).map(|_| next() as i16).collect()),
            Kind::I => Items::I((0..n).map(|_| next() as i32).collect()),
            Kind::F => Items::F((0..n).map(|_| small(next())).collect()),
            Kind::C => Items::C(
                (0..n)
                    .map(|_| Complex32::new(small(next()), small(next())))
                    .collect(),
            ),
        }
    }
}

impl Items {
    pub(crate) fn kind(&self) -> Kind {
        match self {
            Items::B(_) => Kind::B,
            Items::S(_) => Kind::S,
            Items::I(_) => Kind::I,
            Items::F(_) => Kind::F,
            Items::C(_) => Kind::C,
        }
    }

    pub(crate) fn len(&self) -> usize {
        each!(self, v, T => v.len())
    }

    /// The raw items in the machine's byte order.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        each!(self, v, T => bytemuck::cast_slice::<T, u8>(v).to_vec())
    }

    /// Items of `kind` from raw bytes.
    pub(crate) fn from_bytes(kind: Kind, bytes: &[u8]) -> Items {
        let v = bytes;
        match kind {
            Kind::B => Items::B(v.to_vec()),
            Kind::S => Items::S(bytemuck::pod_collect_to_vec(v)),
            Kind::I => Items::I(bytemuck::pod_collect_to_vec(v)),
            Kind::F => Items::F(bytemuck::pod_collect_to_vec(v)),
            Kind::C => Items::C(bytemuck::pod_collect_to_vec(v)),
        }
    }
}

/// An input stream: items and tags (`t<port>` keys, the offset as value).
#[derive(Clone, Debug)]
pub(crate) struct Input {
    pub(crate) items: Items,
    pub(crate) tags: Vec<Tag>,
}

impl Input {
    /// `n` items of `kind` for input `port`, tagged at a few offsets (first, early, middle,
    /// last).
    pub(crate) fn new(kind: Kind, port: usize, n: usize) -> Self {
        let mut offsets = vec![0, 1, 2, 5, n as u64 / 2, n as u64 - 1];
        offsets.dedup();
        let tags = offsets
            .into_iter()
            .filter(|&o| o < n as u64)
            .map(|o| Tag::new(o, format!("t{port}"), o as i64))
            .collect();
        Self {
            items: kind.items(port as u64 + 1, n),
            tags,
        }
    }
}

/// What a run gives on each output: items and tags.
pub(crate) type Outputs = Vec<(Items, Vec<Tag>)>;

/// One case: GNU Radio's constructor, the inputs, radioflow's block, the outputs' types.
pub(crate) struct Case {
    pub(crate) name: String,
    pub(crate) gr: String,
    pub(crate) inputs: Vec<Input>,
    pub(crate) outputs: Vec<Kind>,
    pub(crate) block: Box<dyn Fn(&mut Flowgraph) -> BlockId>,
    /// Whether GNU Radio's tags are deterministic here, so compared (deinterleave's are
    /// not: a tag its scheduler puts on an output item already read is lost or not by
    /// the timing of the sink's calls, seen for complex items on a loaded machine).
    pub(crate) gr_tags: bool,
}

impl Case {
    /// The case run on `scheduler` (radioflow's default buffers unless `buffer_items`).
    pub(crate) fn run(&self, scheduler: &dyn Scheduler) -> Outputs {
        let mut fg = Flowgraph::new();
        let block = (self.block)(&mut fg);
        for (port, input) in self.inputs.iter().enumerate() {
            let tags = input.tags.clone();
            let src =
                each!(&input.items, v, T => fg.add(VectorSource::<T>::new(v.clone()).tags(tags)));
            fg.connect(src, (block, port)).unwrap();
        }
        let sinks: Vec<BlockId> = self
            .outputs
            .iter()
            .enumerate()
            .map(|(port, kind)| {
                let sink = match kind {
                    Kind::B => fg.add(VectorSink::<u8>::new()),
                    Kind::S => fg.add(VectorSink::<i16>::new()),
                    Kind::I => fg.add(VectorSink::<i32>::new()),
                    Kind::F => fg.add(VectorSink::<f32>::new()),
                    Kind::C => fg.add(VectorSink::<Complex32>::new()),
                };
                fg.connect((block, port), sink).unwrap();
                sink
            })
            .collect();
        fg.run_with(scheduler)
            .unwrap_or_else(|e| panic!("{}: {e}", self.name));
        sinks
            .iter()
            .zip(&self.outputs)
            .map(|(&sink, kind)| {
                fn read<T: radioflow_blocks::runtime::Item>(
                    fg: &Flowgraph,
                    sink: BlockId,
                ) -> (Vec<T>, Vec<Tag>) {
                    let s = fg.block::<VectorSink<T>>(sink).unwrap();
                    (s.data().to_vec(), s.tags().to_vec())
                }
                match kind {
                    Kind::B => {
                        let (d, t) = read::<u8>(&fg, sink);
                        (Items::B(d), t)
                    }
                    Kind::S => {
                        let (d, t) = read::<i16>(&fg, sink);
                        (Items::S(d), t)
                    }
                    Kind::I => {
                        let (d, t) = read::<i32>(&fg, sink);
                        (Items::I(d), t)
                    }
                    Kind::F => {
                        let (d, t) = read::<f32>(&fg, sink);
                        (Items::F(d), t)
                    }
                    Kind::C => {
                        let (d, t) = read::<Complex32>(&fg, sink);
                        (Items::C(d), t)
                    }
                }
            })
            .collect()
    }
}

/// A case whose inputs and outputs all have `kind`'s type, the block made by `make` for it.
fn same_type(
    name: &str,
    kind: Kind,
    gr: String,
    lengths: &[usize],
    outputs: usize,
    make: impl Fn(&mut Flowgraph, Kind) -> BlockId + 'static,
) -> Case {
    Case {
        name: format!("{name}_{}", kind.code()),
        gr,
        inputs: lengths
            .iter()
            .enumerate()
            .map(|(port, &n)| Input::new(kind, port, n))
            .collect(),
        outputs: vec![kind; outputs],
        block: Box::new(move |fg| make(fg, kind)),
        gr_tags: true,
    }
}

/// Adds block `$make` (an expression of type `$T`) for the item type of `$kind`.
macro_rules! typed {
    ($fg:expr, $kind:expr, $T:ident => $make:expr) => {
        match $kind {
            Kind::B => {
                type $T = u8;
                $fg.add($make)
            }
            Kind::S => {
                type $T = i16;
                $fg.add($make)
            }
            Kind::I => {
                type $T = i32;
                $fg.add($make)
            }
            Kind::F => {
                type $T = f32;
                $fg.add($make)
            }
            Kind::C => {
                type $T = Complex32;
                $fg.add($make)
            }
        }
    };
}

/// The routing blocks' cases, every item type.
pub(crate) fn routing_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for kind in KINDS {
        let size = kind.gr_size();
        // The input's tags are keyed t0 with their offset as value: scaled, truncated.
        cases.push(same_type(
            "tagged_stream_multiply_length",
            kind,
            format!("blocks.tagged_stream_multiply_length({size}, 't0', 2.5)"),
            &[300],
            1,
            |fg, k| typed!(fg, k, T => TaggedStreamMultiplyLength::<T>::new("t0", 2.5)),
        ));
        cases.push(same_type(
            "delay",
            kind,
            format!("blocks.delay({size}, 7)"),
            &[300],
            1,
            |fg, k| typed!(fg, k, T => Delay::<T>::new(7, 1)),
        ));
        cases.push(same_type(
            "delay2",
            kind,
            format!("blocks.delay({size}, 3)"),
            &[300, 250],
            2,
            |fg, k| typed!(fg, k, T => Delay::<T>::new(3, 2)),
        ));
        cases.push(same_type(
            "repeat",
            kind,
            format!("blocks.repeat({size}, 3)"),
            &[200],
            1,
            |fg, k| typed!(fg, k, T => Repeat::<T>::new(3).unwrap()),
        ));
        cases.push(same_type(
            "keep1",
            kind,
            format!("blocks.keep_one_in_n({size}, 3)"),
            &[301],
            1,
            |fg, k| typed!(fg, k, T => KeepOneInN::<T>::new(3).unwrap()),
        ));
        cases.push(same_type(
            "keepm",
            kind,
            format!("blocks.keep_m_in_n({size}, 2, 5, 3)"),
            &[303],
            1,
            |fg, k| typed!(fg, k, T => KeepMInN::<T>::new(2, 5, 3).unwrap()),
        ));
        cases.push(same_type(
            "skiphead",
            kind,
            format!("blocks.skiphead({size}, 4)"),
            &[300],
            1,
            |fg, k| typed!(fg, k, T => Skiphead::<T>::new(4)),
        ));
        // Both inputs run out at the end of a turn, so where the mux stops does not depend on
        // which input's end it sees first.
        cases.push(same_type(
            "mux",
            kind,
            format!("blocks.stream_mux({size}, [2, 0, 3])"),
            &[200, 7, 300],
            1,
            |fg, k| typed!(fg, k, T => StreamMux::<T>::new(&[2, 0, 3]).unwrap()),
        ));
        cases.push(same_type(
            "demux",
            kind,
            format!("blocks.stream_demux({size}, [2, 3])"),
            &[301],
            2,
            |fg, k| typed!(fg, k, T => StreamDemux::<T>::new(&[2, 3]).unwrap()),
        ));
        cases.push(same_type(
            "interleave",
            kind,
            format!("blocks.interleave({size}, 2)"),
            &[200, 201, 205],
            1,
            |fg, k| typed!(fg, k, T => Interleave::<T>::new(3, 2).unwrap()),
        ));
        let mut de = same_type(
            "deinterleave",
            kind,
            format!("blocks.deinterleave({size}, 2)"),
            &[301],
            3,
            |fg, k| typed!(fg, k, T => Deinterleave::<T>::new(3, 2).unwrap()),
        );
        de.gr_tags = false;
        cases.push(de);
        cases.push(same_type(
            "selector",
            kind,
            format!("blocks.selector({size}, 1, 0)"),
            &[300, 300],
            2,
            |fg, k| typed!(fg, k, T => Selector::<T>::new(2, 2, 1, 0, true).unwrap()),
        ));
    }
    for (kind, fcn) in [
        (Kind::S, "ss"),
        (Kind::I, "ii"),
        (Kind::F, "ff"),
        (Kind::C, "cc"),
    ] {
        for mute in [false, true] {
            let py = if mute { "True" } else { "False" };
            cases.push(same_type(
                &format!("mute_{mute}"),
                kind,
                format!("blocks.mute_{fcn}({py})"),
                &[100],
                1,
                move |fg, k| typed!(fg, k, T => Mute::<T>::new(mute)),
            ));
        }
    }
    cases
}

/// A signal with bursts over low noise (peaks to find), as floats.
fn bursts(n: usize) -> Vec<f32> {
    let Items::F(noise) = Kind::F.items(9, n) else {
        unreachable!()
    };
    noise
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let burst = if i % 97 < 9 {
                300.0 + (i % 97) as f32 * 25.0
            } else {
                0.0
            };
            v.abs() * 0.4 + burst
        })
        .collect()
}

/// The everyday math blocks' cases, every item type GNU Radio offers.
pub(crate) fn math_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (kind, fcn) in [
        (Kind::S, "ss"),
        (Kind::I, "ii"),
        (Kind::F, "ff"),
        (Kind::C, "cc"),
    ] {
        let scale = match kind {
            Kind::S => "3",
            Kind::I => "-7",
            Kind::F => "0.1",
            _ => "complex(0.25, -0.5)",
        };
        cases.push(same_type(
            "moving_average",
            kind,
            format!("blocks.moving_average_{fcn}(17, {scale}, 50, 1)"),
            &[1000],
            1,
            |fg, k| match k {
                Kind::S => fg.add(MovingAverage::<i16>::new(17, 3, 50).unwrap()),
                Kind::I => fg.add(MovingAverage::<i32>::new(17, -7, 50).unwrap()),
                Kind::F => fg.add(MovingAverage::<f32>::new(17, 0.1, 50).unwrap()),
                _ => fg.add(
                    MovingAverage::<Complex32>::new(17, Complex32::new(0.25, -0.5), 50).unwrap(),
                ),
            },
        ));
        cases.push(same_type(
            "integrate",
            kind,
            format!("blocks.integrate_{fcn}(7, 1)"),
            &[1001],
            1,
            |fg, k| match k {
                Kind::S => fg.add(Integrate::<i16>::new(7).unwrap()),
                Kind::I => fg.add(Integrate::<i32>::new(7).unwrap()),
                Kind::F => fg.add(Integrate::<f32>::new(7).unwrap()),
                _ => fg.add(Integrate::<Complex32>::new(7).unwrap()),
            },
        ));
    }
    // GNU Radio's defaults: a long window, the sum recomputed once per 4000 outputs.
    cases.push(same_type(
        "moving_average_long",
        Kind::F,
        "blocks.moving_average_ff(1000, 0.001, 4000, 1)".into(),
        &[3000],
        1,
        |fg, _| fg.add(MovingAverage::<f32>::new(1000, 0.001, 4000).unwrap()),
    ));
    cases.push(same_type(
        "threshold",
        Kind::F,
        "blocks.threshold_ff(-20.0, 30.0, 0.5)".into(),
        &[500],
        1,
        |fg, _| fg.add(Threshold::new(-20.0, 30.0, 0.5)),
    ));
    for (kind, fcn) in [
        (Kind::F, "ff"),
        (Kind::I, "ii"),
        (Kind::S, "ss"),
        (Kind::B, "bb"),
    ] {
        let Items::B(random) = Kind::B.items(5, 400) else {
            unreachable!()
        };
        let ctrl: Vec<u8> = random
            .iter()
            .map(|&b| if b % 4 == 0 { b } else { 0 })
            .collect();
        let mut control = Input::new(Kind::B, 1, 400);
        control.items = Items::B(ctrl);
        cases.push(Case {
            name: format!("sample_and_hold_{}", kind.code()),
            gr: format!("blocks.sample_and_hold_{fcn}()"),
            inputs: vec![Input::new(kind, 0, 400), control],
            outputs: vec![kind],
            block: Box::new(move |fg| typed!(fg, kind, T => SampleAndHold::<T>::new())),
            gr_tags: true,
        });
    }
    for (kind, fcn) in [(Kind::F, "f"), (Kind::I, "i"), (Kind::S, "s")] {
        for (rise, fall, alpha) in [(0.25, 0.40, 0.001), (0.5, 0.2, 0.05)] {
            let signal = bursts(2000);
            let mut input = Input::new(kind, 0, signal.len());
            input.items = match kind {
                Kind::F => Items::F(signal),
                Kind::I => Items::I(signal.iter().map(|v| (v * 1000.0) as i32).collect()),
                _ => Items::S(signal.iter().map(|&v| v as i16).collect()),
            };
            cases.push(Case {
                name: format!("peak_detector_{}_{alpha}", kind.code()),
                gr: format!("blocks.peak_detector_{fcn}b({rise}, {fall}, 10, {alpha})"),
                inputs: vec![input],
                outputs: vec![Kind::B],
                block: Box::new(move |fg| match kind {
                    Kind::F => fg.add(PeakDetector::<f32>::new(rise, fall, alpha).unwrap()),
                    Kind::I => fg.add(PeakDetector::<i32>::new(rise, fall, alpha).unwrap()),
                    _ => fg.add(PeakDetector::<i16>::new(rise, fall, alpha).unwrap()),
                }),
                gr_tags: true,
            });
        }
    }
    for (rise, look, alpha) in [(2.0, 5, 0.1), (7.0, 40, 0.001)] {
        let signal: Vec<f32> = bursts(1500).iter().map(|v| v / 100.0).collect();
        let mut input = Input::new(Kind::F, 0, signal.len());
        input.items = Items::F(signal);
        cases.push(Case {
            name: format!("peak_detector2_{look}"),
            gr: format!("blocks.peak_detector2_fb({rise}, {look}, {alpha})"),
            inputs: vec![input],
            outputs: vec![Kind::B, Kind::F],
            block: Box::new(move |fg| fg.add(PeakDetector2::new(rise, look, alpha).unwrap())),
            gr_tags: true,
        });
    }
    cases
}
