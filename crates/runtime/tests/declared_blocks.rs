//! Blocks declared with `#[derive(Ports)]` and `#[block]`: ports in field order, `Vec`s of
//! ports, message inputs routed to named methods with typed arguments, message-only blocks
//! without `work`, hooks, `blocking` and `type_name`.

use radioflow_runtime::prelude::*;
use radioflow_runtime::testing::{Counter, Sink};
use radioflow_runtime::FlowScheduler;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Sums N inputs, times a gain a message sets.
#[derive(Ports)]
struct SumTimes {
    #[input(name = "in")]
    inputs: Vec<StreamInput<u32>>,
    #[output(name = "out")]
    output: StreamOutput<u32>,
    k: u32,
    hooks: Arc<AtomicUsize>,
}

#[block(type_name = "sum_times")]
impl SumTimes {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self
            .inputs
            .iter()
            .map(|i| i.slice().len())
            .min()
            .unwrap_or(0)
            .min(self.output.slice().len());
        let k = self.k;
        let out = &mut self.output.slice()[..n];
        out.fill(0);
        for i in &self.inputs {
            for (o, x) in out.iter_mut().zip(i.slice()) {
                *o += x * k;
            }
        }
        for i in &mut self.inputs {
            i.consume(n);
        }
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }

    /// Typed: the message is converted with `FromMessage`.
    #[message_input]
    fn gain(&mut self, k: u64) {
        self.k = k as u32;
    }

    #[message_input(name = "reset")]
    fn on_reset(&mut self, msg: &Pmt) -> Result<(), BlockError> {
        if msg.as_symbol() == Some("now") {
            self.k = 1;
            Ok(())
        } else {
            Err(BlockError::msg("reset takes the symbol 'now'"))
        }
    }

    fn start(&mut self) -> Result<(), BlockError> {
        self.hooks.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.hooks.fetch_add(10, Ordering::SeqCst);
        Ok(())
    }
}

fn sum_times(inputs: usize) -> (SumTimes, Arc<AtomicUsize>) {
    let hooks = Arc::new(AtomicUsize::new(0));
    let b = SumTimes {
        inputs: (0..inputs).map(|_| StreamInput::new()).collect(),
        output: StreamOutput::new(),
        k: 1,
        hooks: hooks.clone(),
    };
    (b, hooks)
}

#[test]
fn ports_come_from_the_fields_in_order() {
    let mut fg = Flowgraph::new();
    let (b, hooks) = sum_times(3);
    let b = fg.add(b);
    assert_eq!(fg.name(b), "sum_times0");
    let sources: Vec<_> = (0..3).map(|_| fg.add(Counter::new(1000))).collect();
    for (i, s) in sources.iter().enumerate() {
        fg.connect(*s, (b, format!("in{i}").as_str())).unwrap();
    }
    let sink = fg.add(Sink::new());
    fg.connect((b, "out"), sink).unwrap();
    let poster = fg.add(Poster {
        out: MessageOutput::new(),
        msg: Some(Pmt::Uint64(1)),
    });
    let err = fg
        .connect_message(poster, (b, "nope"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("(it has: gain, reset)"), "{err}");
    fg.connect_message((poster, "out"), (b, "gain")).unwrap();
    fg.run_with(&FlowScheduler::new().workers(2)).unwrap();
    let got = &fg.block::<Sink>(sink).unwrap().items;
    assert!(got.iter().copied().eq((0..1000).map(|x| 3 * x)));
    assert_eq!(
        hooks.load(Ordering::SeqCst),
        11,
        "start and stop each ran once"
    );
}

/// Posts one message on start-up.
#[derive(Ports)]
struct Poster {
    #[message_output]
    out: MessageOutput,
    msg: Option<Pmt>,
}

#[block]
impl Poster {
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if let Some(m) = self.msg.take() {
            self.out.post(m);
        }
        Ok(WorkStatus::Done)
    }
}

/// A message-only block: no stream ports, no `work`.
#[derive(Ports)]
struct Recorder {
    seen: Vec<f64>,
}

#[block]
impl Recorder {
    #[message_input]
    fn value(&mut self, x: f64) {
        self.seen.push(x);
    }
}

#[test]
fn message_inputs_reach_their_methods_with_typed_values() {
    for (msg, want) in [
        (Pmt::Double(2.5), Ok(vec![2.5])),
        (Pmt::Int(3), Ok(vec![3.0])),
    ]
    .into_iter()
    .chain([(
        Pmt::from("two"),
        Err("message input 'value' takes a number, not two"),
    )]) {
        let mut fg = Flowgraph::new();
        let p = fg.add(Poster {
            out: MessageOutput::new(),
            msg: Some(msg),
        });
        let r = fg.add(Recorder { seen: Vec::new() });
        fg.connect_message(p, (r, "value")).unwrap();
        let result = fg.run_with(&SingleThread::new());
        match want {
            Ok(v) => {
                result.unwrap();
                assert_eq!(fg.block::<Recorder>(r).unwrap().seen, v);
            }
            Err(text) => {
                let e = result.unwrap_err().to_string();
                assert!(e.contains(text), "{e}");
            }
        }
    }
}

#[test]
fn a_handler_error_names_the_block() {
    let mut fg = Flowgraph::new();
    let p = fg.add(Poster {
        out: MessageOutput::new(),
        msg: Some(Pmt::from("later")),
    });
    let (b, _) = sum_times(1);
    let b = fg.add(b);
    // Endless: only the handler's error can end the run (a short stream could end it first).
    let c = fg.add(Counter::new(u64::MAX));
    let s = fg.add(Sink::new());
    fg.connect(c, b).unwrap();
    fg.connect(b, s).unwrap();
    fg.connect_message(p, (b, "reset")).unwrap();
    let e = fg.run_with(&ThreadPerBlock::new()).unwrap_err().to_string();
    assert!(
        e.contains("sum_times0") && e.contains("reset takes the symbol 'now'"),
        "{e}"
    );
}

/// Generic, with a where clause, blocking.
#[derive(Ports)]
struct Pass<T>
where
    T: Item,
{
    #[input(name = "in")]
    input: StreamInput<T>,
    #[output(name = "out")]
    output: StreamOutput<T>,
}

#[block(blocking)]
impl<T> Pass<T>
where
    T: Item,
{
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
            o.copy_from_slice(i)
        });
        Ok(WorkStatus::Continue)
    }
}

#[test]
fn generic_blocks_and_flags() {
    let p = Pass::<u32> {
        input: StreamInput::new(),
        output: StreamOutput::new(),
    };
    assert!(p.is_blocking());
    let mut fg = Flowgraph::new();
    let c = fg.add(Counter::new(5000));
    let p = fg.add(p);
    let s = fg.add(Sink::new());
    fg.connect(c, (p, "in")).unwrap();
    fg.connect((p, "out"), s).unwrap();
    fg.run().unwrap();
    assert!(fg
        .block::<Sink>(s)
        .unwrap()
        .items
        .iter()
        .copied()
        .eq(0..5000));
}
