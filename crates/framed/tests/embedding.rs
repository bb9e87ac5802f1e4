//! A sequence as one block of a streaming flowgraph.

use radioflow_framed::{FramedBlock, Sequence, Status, TaskGraph};
use radioflow_runtime::testing::{Counter, Sink};
use radioflow_runtime::{Flowgraph, SingleThread, ThreadPerBlock};

#[test]
fn frames_in_and_out_of_a_stream_with_early_exit() {
    // Frames of 10 u32 -> their maximum, except frames whose first item is a multiple of 30,
    // which are aborted (nothing comes out for them); 3 items left over at the end are dropped.
    for scheduler in [
        &SingleThread::new() as &dyn radioflow_runtime::Scheduler,
        &ThreadPerBlock::new(),
    ] {
        let mut g = TaskGraph::new();
        let src = g.external::<u32>("stream", 10);
        let t = g.stateless("max");
        let (i, o) = (g.input::<u32>(t, "in", 10), g.output::<u32>(t, "out", 1));
        g.codelet(t, move |_, io| {
            let x = io.input(i);
            if x[0] % 30 == 0 {
                return Status::Abort;
            }
            io.output(o)[0] = *x.iter().max().unwrap();
            Status::Continue
        });
        g.bind(i, src).unwrap();
        let mut fg = Flowgraph::new();
        let c = fg.add(Counter::new(1003));
        let b = fg.add(FramedBlock::new(Sequence::new(g).unwrap(), src, o));
        let s = fg.add(Sink::new());
        fg.connect(c, b).unwrap();
        fg.connect(b, s).unwrap();
        fg.run_with(scheduler).unwrap();
        let want: Vec<u32> = (0..100u32)
            .filter(|f| (f * 10) % 30 != 0)
            .map(|f| f * 10 + 9)
            .collect();
        assert_eq!(fg.block::<Sink>(s).unwrap().items, want);
    }
}

/// Every scheduler, `flow` with one to three workers.
fn schedulers() -> Vec<Box<dyn radioflow_runtime::Scheduler>> {
    use radioflow_runtime::FlowScheduler;
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new().workers(1)),
        Box::new(FlowScheduler::new().workers(2)),
        Box::new(FlowScheduler::new().workers(3)),
    ]
}

#[test]
fn frames_larger_than_every_default_buffer_lose_nothing() {
    // One u32 -> 40,000 u32 (more than flow's chunk and tpb's 64 KiB buffer; the runtime used
    // to end the block and drop its output), and 64,800-symbol frames -> their sum.
    const WIDE: usize = 40_000;
    const FRAME: usize = 64_800;
    for scheduler in schedulers() {
        let mut g = TaskGraph::new();
        let src = g.external::<u32>("stream", 1);
        let t = g.stateless("spread");
        let (i, o) = (g.input::<u32>(t, "in", 1), g.output::<u32>(t, "out", WIDE));
        g.codelet(t, move |_, io| {
            let x = io.input(i)[0];
            for (k, y) in io.output(o).iter_mut().enumerate() {
                *y = x + k as u32;
            }
            Status::Continue
        });
        g.bind(i, src).unwrap();
        let mut fg = Flowgraph::new();
        let c = fg.add(Counter::new(5));
        let b = fg.add(FramedBlock::new(Sequence::new(g).unwrap(), src, o));
        let s = fg.add(Sink::new());
        fg.connect(c, b).unwrap();
        fg.connect(b, s).unwrap();
        fg.run_with(scheduler.as_ref()).unwrap();
        let got = &fg.block::<Sink>(s).unwrap().items;
        assert_eq!(got.len(), 5 * WIDE, "{}", scheduler.name());
        for (n, frame) in got.chunks(WIDE).enumerate() {
            assert!(
                frame.iter().enumerate().all(|(k, &y)| y == (n + k) as u32),
                "{}: frame {n}",
                scheduler.name()
            );
        }

        let mut g = TaskGraph::new();
        let src = g.external::<u32>("stream", FRAME);
        let t = g.stateless("sum");
        let (i, o) = (g.input::<u32>(t, "in", FRAME), g.output::<u32>(t, "out", 1));
        g.codelet(t, move |_, io| {
            io.output(o)[0] = io.input(i).iter().fold(0u32, |a, &x| a.wrapping_add(x));
            Status::Continue
        });
        g.bind(i, src).unwrap();
        let mut fg = Flowgraph::new();
        let c = fg.add(Counter::new(3 * FRAME as u64 + 17));
        let b = fg.add(FramedBlock::new(Sequence::new(g).unwrap(), src, o));
        let s = fg.add(Sink::new());
        fg.connect(c, b).unwrap();
        fg.connect(b, s).unwrap();
        fg.run_with(scheduler.as_ref()).unwrap();
        let want: Vec<u32> = (0..3u32)
            .map(|f| {
                let first = f * FRAME as u32;
                (first..first + FRAME as u32).fold(0u32, |a, x| a.wrapping_add(x))
            })
            .collect();
        assert_eq!(
            fg.block::<Sink>(s).unwrap().items,
            want,
            "{}",
            scheduler.name()
        );
    }
}
