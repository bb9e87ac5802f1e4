//! Traces: which thread ran which block's `work`, when, and for how many items, exported as
//! Chrome trace-event JSON (opens in Perfetto or `chrome://tracing`).
//!
//! Off by default ([`Flowgraph::set_trace`](crate::Flowgraph::set_trace)). When on, every
//! block gets a ring of events allocated before the run; a work call writes one 24-byte event
//! into it (no allocation, no lock, no system call) and, once the ring is full, overwrites the
//! oldest, so memory stays bounded and the trace keeps the end of the run.

use crate::clock;
use std::cell::Cell;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// How much a trace keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceConfig {
    /// Work calls kept per block (the most recent ones); 24 bytes each.
    pub events_per_block: usize,
}

impl Default for TraceConfig {
    /// 65 536 events per block (1.5 MiB).
    fn default() -> Self {
        Self {
            events_per_block: 1 << 16,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Event {
    start: u64,
    end: u64,
    tid: u32,
    items: u32,
}

thread_local! {
    static TID: Cell<u32> = const { Cell::new(0) };
}
static NEXT_TID: AtomicU32 = AtomicU32::new(1);

/// A small number naming the calling thread in traces (assigned on first use).
fn thread_id() -> u32 {
    TID.with(|t| match t.get() {
        0 => {
            let id = NEXT_TID.fetch_add(1, Relaxed);
            t.set(id);
            id
        }
        id => id,
    })
}

/// One block's events during a run.
#[derive(Debug)]
pub(crate) struct TraceRing {
    events: Vec<Event>,
    capacity: usize,
    /// Events recorded so far (the ring holds the last `capacity`).
    total: u64,
    /// Threads that stepped the block, with their names.
    threads: Vec<(u32, String)>,
    last_tid: u32,
}

impl TraceRing {
    pub(crate) fn new(config: TraceConfig) -> Self {
        let capacity = config.events_per_block.max(1);
        Self {
            events: Vec::with_capacity(capacity),
            capacity,
            total: 0,
            threads: Vec::with_capacity(2),
            last_tid: 0,
        }
    }

    /// One work call from `start` to `end` (clock ticks) that produced `items`.
    #[inline]
    pub(crate) fn record(&mut self, start: u64, end: u64, items: u64) {
        let tid = thread_id();
        if tid != self.last_tid {
            self.note_thread(tid);
        }
        let e = Event {
            start,
            end,
            tid,
            items: items.min(u32::MAX as u64) as u32,
        };
        if self.events.len() < self.capacity {
            self.events.push(e);
        } else {
            self.events[(self.total % self.capacity as u64) as usize] = e;
        }
        self.total += 1;
    }

    /// A block moves to another thread rarely (once per run): remember the thread's name.
    #[cold]
    fn note_thread(&mut self, tid: u32) {
        self.last_tid = tid;
        if !self.threads.iter().any(|(t, _)| *t == tid) {
            let name = std::thread::current()
                .name()
                .map_or_else(|| format!("thread-{tid}"), str::to_owned);
            self.threads.push((tid, name));
        }
    }
}

/// What one block's trace holds after a run.
#[derive(Debug)]
pub(crate) struct BlockTrace {
    pub(crate) name: std::sync::Arc<str>,
    pub(crate) ring: TraceRing,
}

/// The trace of the last run: every block's most recent work calls, by thread.
#[derive(Debug)]
pub struct Trace {
    pub(crate) origin: u64,
    pub(crate) blocks: Vec<BlockTrace>,
}

impl Trace {
    /// Work calls kept (at most the configured number per block).
    pub fn len(&self) -> usize {
        self.blocks.iter().map(|b| b.ring.events.len()).sum()
    }

    /// Whether no work call was recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Work calls recorded but overwritten because a block's ring was full.
    pub fn dropped(&self) -> u64 {
        self.blocks
            .iter()
            .map(|b| b.ring.total - b.ring.events.len() as u64)
            .sum()
    }

    /// Writes the trace as Chrome trace-event JSON: one complete event (`"ph": "X"`) per work
    /// call, named after the block, on the thread that ran it (`tid`), with `ts`/`dur` in
    /// microseconds since the run started and the items produced in `args`; plus metadata
    /// events naming the process and every thread.
    ///
    /// # Errors
    /// Those of `w`.
    pub fn write_chrome_json(&self, w: &mut dyn Write) -> io::Result<()> {
        let mut w = io::BufWriter::new(w);
        write!(w, "{{\"displayTimeUnit\":\"ns\",\"traceEvents\":[")?;
        write!(
            w,
            "\n{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{{\"name\":\"radioflow\"}}}}"
        )?;
        let mut named: Vec<u32> = Vec::new();
        for b in &self.blocks {
            for (tid, name) in &b.ring.threads {
                if !named.contains(tid) {
                    named.push(*tid);
                    write!(
                        w,
                        ",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":{tid},\"args\":{{\"name\":{}}}}}",
                        json_string(name)
                    )?;
                }
            }
        }
        let us = |ticks: u64| clock::to_ns(ticks) / 1e3;
        for b in &self.blocks {
            let name = json_string(&b.name);
            for e in &b.ring.events {
                write!(
                    w,
                    ",\n{{\"name\":{name},\"cat\":\"work\",\"ph\":\"X\",\"pid\":1,\"tid\":{},\"ts\":{:.3},\"dur\":{:.3},\"args\":{{\"items\":{}}}}}",
                    e.tid,
                    us(e.start.saturating_sub(self.origin)),
                    us(e.end.saturating_sub(e.start)),
                    e.items
                )?;
            }
        }
        writeln!(w, "\n]}}")?;
        w.flush()
    }
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_keeps_the_most_recent_events() {
        let mut r = TraceRing::new(TraceConfig {
            events_per_block: 4,
        });
        for i in 0..10 {
            r.record(i, i + 1, i);
        }
        assert_eq!(r.total, 10);
        let mut starts: Vec<u64> = r.events.iter().map(|e| e.start).collect();
        starts.sort();
        assert_eq!(starts, [6, 7, 8, 9]);
        assert_eq!(r.threads.len(), 1);
    }

    #[test]
    fn names_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
