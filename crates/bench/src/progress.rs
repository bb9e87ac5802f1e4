//! Runs reported as they finish: each one's JSON line with `--json`, else `[done/total] what`.

use crate::common::Common;

/// One finished run, reported as it happens.
pub struct Progress<'a> {
    /// Runs finished so far, this one included.
    pub done: usize,
    /// Runs in the invocation (or in this part of it).
    pub total: usize,
    /// What ran, e.g. `buf 10x10 1e8 radioflow flow`.
    pub what: String,
    /// The run's JSON line (`--json` prints it).
    pub line: &'a str,
}

/// Called after every run.
pub type OnRun<'a> = &'a mut dyn FnMut(&Progress<'_>);

/// Shows the runs as they finish: each one's JSON line on stdout with `--json`, else
/// `[done/total] what` on stderr (for more than `min_total` runs).
pub(crate) struct Ticker {
    json: bool,
    min_total: usize,
    shown: bool,
}

impl Ticker {
    pub(crate) fn new(c: &Common, min_total: usize) -> Self {
        Ticker {
            json: c.json,
            min_total,
            shown: false,
        }
    }

    pub(crate) fn show(&mut self, p: &Progress<'_>) {
        if self.json {
            println!("{}", p.line);
        } else if p.total > self.min_total {
            eprint!("\r[{}/{}] {}          ", p.done, p.total, p.what);
            self.shown = true;
        }
    }

    /// Ends the progress line.
    pub(crate) fn end(&mut self) {
        if std::mem::take(&mut self.shown) {
            eprintln!();
        }
    }
}
