//! `MessageSender`: a block's thread of its own posts on the block's message output while the
//! block runs (issue 32, item 17), on every scheduler: posted from the `start` hook's thread
//! before the ports are attached, the messages go out when the run begins, in order; posted
//! later, at once; outside a run the post is refused.

use radioflow_runtime::prelude::*;
use radioflow_runtime::{FlowScheduler, MessageSender, Scheduler, SingleThread, ThreadPerBlock};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// A hang guard only.
const GUARD: Duration = Duration::from_secs(60);

/// What the sink received, and a signal for each arrival.
#[derive(Default)]
struct Received {
    messages: Mutex<Vec<Pmt>>,
    arrived: Condvar,
}

impl Received {
    /// Waits until at least `n` messages arrived (or the guard ran out); returns them.
    fn wait_for(&self, n: usize) -> Vec<Pmt> {
        let got = self.messages.lock().unwrap();
        let (got, _) = self
            .arrived
            .wait_timeout_while(got, GUARD, |m| m.len() < n)
            .unwrap();
        got.clone()
    }
}

#[derive(Ports)]
struct Sink {
    received: Arc<Received>,
}

#[block]
impl Sink {
    #[message_input(name = "in")]
    fn store(&mut self, msg: Pmt) {
        self.received.messages.lock().unwrap().push(msg);
        self.received.arrived.notify_all();
    }
}

/// A message source whose thread, started in `start`, posts `start`, waits until the sink has
/// it (so that the rest is posted while the graph runs, not while it starts), then posts
/// `0..n`; joined in `stop`.
#[derive(Ports)]
struct Source {
    #[message_output(name = "out")]
    out: MessageOutput,
    sender: MessageSender,
    received: Arc<Received>,
    n: i64,
    thread: Option<std::thread::JoinHandle<bool>>,
}

#[block]
impl Source {
    fn start(&mut self) -> Result<(), BlockError> {
        let (sender, received, n) = (self.sender.clone(), self.received.clone(), self.n);
        self.thread = Some(std::thread::spawn(move || {
            let mut all = sender.post(Pmt::symbol("start"));
            received.wait_for(1);
            for i in 0..n {
                all &= sender.post(Pmt::Int(i));
            }
            all
        }));
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        let posted = self.thread.take().map(|t| t.join().unwrap());
        assert_eq!(posted, Some(true), "a post was refused while the block ran");
        Ok(())
    }
}

#[test]
fn a_thread_of_the_block_posts_while_it_runs_and_is_refused_outside() {
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
        Box::new(FlowScheduler::new().workers(2).balance_stress(2)),
    ];
    for s in schedulers {
        let n = 1000;
        let received = Arc::new(Received::default());
        let out = MessageOutput::new();
        let sender = out.sender();
        assert!(!sender.post(Pmt::Int(-1)), "refused before the run");
        let mut fg = Flowgraph::new();
        let src = fg.add(Source {
            out,
            sender: sender.clone(),
            received: received.clone(),
            n,
            thread: None,
        });
        let sink = fg.add(Sink {
            received: received.clone(),
        });
        fg.connect_message((src, "out"), (sink, "in")).unwrap();
        fg.start(s.as_ref()).unwrap();
        // The source never ends by itself (nothing tells it it is done): stop it once every
        // message arrived.
        let got = received.wait_for(n as usize + 1);
        fg.stop();
        fg.wait().unwrap();
        let want: Vec<Pmt> = std::iter::once(Pmt::symbol("start"))
            .chain((0..n).map(Pmt::Int))
            .collect();
        assert_eq!(got, want, "{}", s.name());
        assert!(
            !sender.post(Pmt::Int(-2)),
            "{}: refused after the run",
            s.name()
        );
        assert_eq!(received.messages.lock().unwrap().len(), n as usize + 1);
    }
}
