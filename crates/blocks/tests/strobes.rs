//! The message strobes in running graphs, under every scheduler: they send until the run is
//! stopped (a stop ends them at once, whatever their period), in order, and `set_msg` replaces
//! the message for every later send. The message relay, fed from outside the graph, waits for
//! posts until the run is stopped. Nothing here depends on timing: the test counts the
//! messages that arrived before it stopped the run.

use radioflow_blocks::{MessageRelay, MessageStrobe, MessageStrobeRandom, StrobeDistribution};
use radioflow_runtime::prelude::*;
use radioflow_runtime::{FlowScheduler, Flowgraph, Scheduler, SingleThread, ThreadPerBlock};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;

fn schedulers() -> Vec<Box<dyn Scheduler>> {
    vec![
        Box::new(ThreadPerBlock::new()),
        Box::new(SingleThread::new()),
        Box::new(FlowScheduler::new()),
    ]
}

/// Hands every message to the test thread.
#[derive(Ports)]
struct ToTest {
    tx: Sender<Pmt>,
}

#[block]
impl ToTest {
    #[message_input]
    fn input(&mut self, msg: Pmt) {
        let _ = self.tx.send(msg);
    }
}

/// A hang guard only: the strobes below send every millisecond or faster.
const GUARD: Duration = Duration::from_secs(60);

fn next(rx: &Receiver<Pmt>) -> Pmt {
    rx.recv_timeout(GUARD)
        .expect("a message within the hang guard")
}

/// Runs `strobe` into the test; after 3 messages posts `Int(2)` on its `set_msg` and takes
/// messages until 3 of the new one came; then stops. Every message is the first, then the
/// second, never back.
fn check(strobe: impl Block, s: &dyn Scheduler) {
    let mut fg = Flowgraph::new();
    let strobe = fg.add(strobe);
    let (tx, rx) = channel();
    let sink = fg.add(ToTest { tx });
    fg.connect_message((strobe, "strobe"), (sink, "input"))
        .unwrap();
    fg.start(s).unwrap();
    let mut got: Vec<Pmt> = (0..3).map(|_| next(&rx)).collect();
    let poster = fg.message_poster().expect("running");
    assert!(poster.post(strobe, 0, Pmt::Int(2)));
    while got.iter().filter(|m| **m == Pmt::Int(2)).count() < 3 {
        got.push(next(&rx));
    }
    fg.stop();
    fg.wait().unwrap();
    let first_new = got.iter().position(|m| *m == Pmt::Int(2)).unwrap();
    assert!(first_new >= 3, "{}: {got:?}", s.name());
    assert!(
        got[..first_new].iter().all(|m| *m == Pmt::Int(1)),
        "{}: {got:?}",
        s.name()
    );
    assert!(
        got[first_new..].iter().all(|m| *m == Pmt::Int(2)),
        "{}: {got:?}",
        s.name()
    );
}

#[test]
fn strobes_send_until_stopped_and_set_msg_replaces_the_message() {
    for s in schedulers() {
        check(MessageStrobe::new(Pmt::Int(1), 1), s.as_ref());
        let random = MessageStrobeRandom::new(Pmt::Int(1), StrobeDistribution::Uniform, 0.5, 0.5);
        check(random.unwrap(), s.as_ref());
    }
}

#[test]
fn a_stop_ends_a_strobe_at_once_whatever_its_period() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        // A day: the run ends only because it is stopped, with nothing sent.
        let strobe = fg.add(MessageStrobe::new(Pmt::Int(1), 86_400_000));
        let (tx, rx) = channel();
        let sink = fg.add(ToTest { tx });
        fg.connect_message((strobe, "strobe"), (sink, "input"))
            .unwrap();
        fg.start(s.as_ref()).unwrap();
        assert!(fg.is_running());
        fg.stop();
        fg.wait_timeout(GUARD).unwrap();
        assert!(rx.try_recv().is_err(), "{}", s.name());
    }
}

#[test]
fn a_relay_waits_for_posted_messages_until_stopped_and_sends_them_on_in_order() {
    for s in schedulers() {
        let mut fg = Flowgraph::new();
        // Nothing in the graph sends to the relay: it still runs, for the poster.
        let relay = fg.add(MessageRelay::new());
        let (tx, rx) = channel();
        let sink = fg.add(ToTest { tx });
        fg.connect_message((relay, "out"), (sink, "input")).unwrap();
        fg.start(s.as_ref()).unwrap();
        let poster = fg.message_poster().expect("running");
        for i in 0..3 {
            assert!(poster.post(relay, 0, Pmt::Int(i)), "{}: post {i}", s.name());
        }
        let got: Vec<Pmt> = (0..3).map(|_| next(&rx)).collect();
        assert_eq!(got, [Pmt::Int(0), Pmt::Int(1), Pmt::Int(2)], "{}", s.name());
        // Still waiting for the next one: the run ends only when stopped.
        assert!(fg.is_running(), "{}", s.name());
        assert!(poster.post(relay, 0, Pmt::Int(3)));
        assert_eq!(next(&rx), Pmt::Int(3));
        fg.stop();
        fg.wait_timeout(GUARD).unwrap();
    }
}
