//! Message ports: a block's inbox and the output ports that post into inboxes.
//!
//! Posting a message is a lock-free queue push plus a wake-up of the receiver; the
//! [`Pmt`] itself is shared (reference counted), never copied per hop.

use crate::activation::Wake;
use crate::atomics::{Arc, AtomicBool, AtomicUsize};
use crate::valgrind;
use crossbeam_queue::SegQueue;
use radioflow_pmt::Pmt;
use std::sync::atomic::Ordering::{Acquire, Release};

/// Messages waiting for one block, tagged with the receiving message-input index.
#[derive(Debug, Default)]
pub(crate) struct Inbox {
    queue: SegQueue<(usize, Pmt)>,
    /// Connected senders that have not finished yet.
    senders: AtomicUsize,
    /// The receiving block finished; further messages are dropped.
    closed: AtomicBool,
    /// Some sender is connected, or the block has message inputs that [`MessagePoster`] can
    /// post into (fixed for the run).
    connected: bool,
}

impl Inbox {
    pub(crate) fn new(senders: usize) -> Self {
        Self {
            queue: SegQueue::new(),
            senders: AtomicUsize::new(senders),
            closed: AtomicBool::new(false),
            connected: senders > 0,
        }
    }

    /// An inbox for a block with message inputs: popped at every step even with no sender
    /// connected, so that a [`MessagePoster`] can reach it from outside the graph. Rule 4 of
    /// end of stream is unchanged: a pure message block with no sender still finishes at once.
    pub(crate) fn with_inputs(senders: usize, has_inputs: bool) -> Self {
        let mut inbox = Self::new(senders);
        inbox.connected |= has_inputs;
        inbox
    }

    /// Posts from outside the graph; `false` if the block has finished.
    pub(crate) fn post_external(&self, port: usize, msg: Pmt) -> bool {
        if self.is_closed() {
            return false;
        }
        self.push(port, msg);
        true
    }

    fn push(&self, port: usize, msg: Pmt) {
        valgrind::happens_before(&self.queue);
        self.queue.push((port, msg));
    }

    /// Whether any sender was ever connected (otherwise there is nothing to pop, ever).
    pub(crate) fn has_senders(&self) -> bool {
        self.connected
    }

    pub(crate) fn pop(&self) -> Option<(usize, Pmt)> {
        let m = self.queue.pop()?;
        valgrind::happens_after(&self.queue);
        Some(m)
    }

    fn sender_finished(&self) {
        valgrind::happens_before(&self.senders);
        self.senders.fetch_sub(1, Release);
    }

    /// Every sender finished and every message it sent was taken out.
    pub(crate) fn exhausted(&self) -> bool {
        // Senders first: a sender's pushes happen before its Release decrement.
        if self.senders.load(Acquire) != 0 {
            return false;
        }
        valgrind::happens_after(&self.senders);
        self.queue.is_empty()
    }

    pub(crate) fn close(&self) {
        // A flag, published with no data: it needs no ordering, only to be left unchecked.
        valgrind::untracked(&self.closed);
        self.closed.store(true, Release);
        while self.pop().is_some() {}
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Acquire)
    }
}

/// Where a message output delivers.
#[derive(Debug, Clone)]
pub(crate) struct Subscriber {
    pub(crate) inbox: Arc<Inbox>,
    pub(crate) port: usize,
    pub(crate) wake: Wake,
}

/// Where a [`MessageSender`] posts, as the block's run goes.
#[derive(Debug)]
enum Link {
    /// The block is not running: posts are refused.
    Closed,
    /// The block's run is starting (its `start` hook, before its ports are attached): posts
    /// wait here and go out, in order, when they are.
    Starting(Vec<Pmt>),
    /// The block runs: posts go to these receivers.
    Open(Vec<Subscriber>),
}

type SharedLink = std::sync::Arc<std::sync::Mutex<Link>>;

fn lock(link: &SharedLink) -> std::sync::MutexGuard<'_, Link> {
    link.lock().unwrap_or_else(|p| p.into_inner())
}

/// A message output port; declare it as a field of your block and register it in
/// [`Block::ports`](crate::Block::ports) with [`Ports::message_output`](crate::Ports::message_output).
/// The block posts from its own calls with [`post`](Self::post); a thread of the block's own
/// (a timer, a device callback) posts through a [`sender`](Self::sender).
#[derive(Debug)]
pub struct MessageOutput {
    subscribers: Vec<Subscriber>,
    /// The state [`MessageSender`]s post through (a lock, off the block's own path).
    link: SharedLink,
}

impl Default for MessageOutput {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for MessageOutput {
    fn drop(&mut self) {
        *lock(&self.link) = Link::Closed;
    }
}

impl MessageOutput {
    /// An unconnected message output.
    pub fn new() -> Self {
        Self {
            subscribers: Vec::new(),
            link: std::sync::Arc::new(std::sync::Mutex::new(Link::Closed)),
        }
    }

    /// A handle that posts on this output from any thread while the block runs: from its
    /// `start` hook (delivered when the run begins) until it finishes. Make it before the
    /// block joins a flowgraph, or in `start`.
    pub fn sender(&self) -> MessageSender {
        MessageSender {
            link: self.link.clone(),
        }
    }

    /// Sends `msg` to every connected input. Messages to finished blocks are dropped.
    pub fn post(&self, msg: Pmt) {
        if let Some((last, rest)) = self.subscribers.split_last() {
            for s in rest {
                Self::deliver(s, msg.clone());
            }
            Self::deliver(last, msg);
        }
    }

    fn deliver(s: &Subscriber, msg: Pmt) {
        if !s.inbox.is_closed() {
            s.inbox.push(s.port, msg);
            s.wake.notify();
        }
    }

    /// Whether any input is connected.
    pub fn is_connected(&self) -> bool {
        !self.subscribers.is_empty()
    }

    /// The block's run is starting: its senders' posts wait for [`attach`](Self::attach).
    pub(crate) fn open(&mut self) {
        *lock(&self.link) = Link::Starting(Vec::new());
    }

    /// Connects the output to its receivers, and delivers what its senders posted while the
    /// run was starting.
    pub(crate) fn attach(&mut self, subscribers: Vec<Subscriber>) {
        let mut link = lock(&self.link);
        if let Link::Starting(waiting) = &mut *link {
            for msg in waiting.drain(..) {
                for s in &subscribers {
                    Self::deliver_from_anywhere(s, msg.clone());
                }
            }
        }
        *link = Link::Open(subscribers.clone());
        drop(link);
        self.subscribers = subscribers;
    }

    /// A delivery from a thread that may not be the block's (a sender's).
    fn deliver_from_anywhere(s: &Subscriber, msg: Pmt) {
        if !s.inbox.is_closed() {
            s.inbox.push(s.port, msg);
            s.wake.notify_from_anywhere();
        }
    }

    /// Tells every receiver this sender is done, and disconnects.
    pub(crate) fn finish(&mut self) {
        // Closed first: a sender's post either went out before (and happens before the
        // receivers learn that this sender finished) or is refused.
        *lock(&self.link) = Link::Closed;
        for s in self.subscribers.drain(..) {
            s.inbox.sender_finished();
            s.wake.notify();
        }
    }
}

/// Posts on a block's [`MessageOutput`] from any thread (a thread the block started, a timer,
/// a device callback), while the block runs; get one with [`MessageOutput::sender`]. A post
/// takes a lock, so the block's own calls post with [`MessageOutput::post`] instead.
#[derive(Clone, Debug)]
pub struct MessageSender {
    link: SharedLink,
}

impl MessageSender {
    /// Sends `msg` to every input connected to the output, as
    /// [`MessageOutput::post`] does, and wakes the receivers. Returns `false` (and drops
    /// `msg`) when the block is not running: its flowgraph has not started, or the block has
    /// finished. Posted while the run starts (from the `start` hook, or a thread it started),
    /// the message goes out when the run begins.
    pub fn post(&self, msg: Pmt) -> bool {
        match &mut *lock(&self.link) {
            Link::Closed => false,
            Link::Starting(waiting) => {
                waiting.push(msg);
                true
            }
            Link::Open(subscribers) => {
                for s in subscribers.iter() {
                    MessageOutput::deliver_from_anywhere(s, msg.clone());
                }
                true
            }
        }
    }
}
