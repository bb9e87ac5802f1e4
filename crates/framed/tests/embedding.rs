//! A sequence as one block of a streaming flowgraph.

use radioflow_framed::{FramedBlock, Graph, Sequence, Status};
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
        let mut g = Graph::new();
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
