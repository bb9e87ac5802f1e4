//! [`Schedule`]: VCM as a list of (frame index, frame settings).

use crate::modcod::FrameSize;
use crate::tx::frame_spec::FrameSpec;
use crate::tx::transmitter::TxError;

/// MODCOD changes at given frame indices (VCM): from frame `index` on, frames use `spec`
/// until the next entry. Frame indices count the PLFRAMEs a [`BbFramer`](crate::BbFramer)
/// makes, from 0.
///
/// ```
/// use radioflow_dvbs2::{FrameSize, FrameSpec, Schedule};
/// let spec = |m: &str| FrameSpec { modcod: m.parse().unwrap(), frame: FrameSize::Short, pilots: true };
/// let s = Schedule::new([(10, spec("8psk-3/5")), (3, spec("qpsk-1/2"))])?;
/// assert_eq!(s.at(3), Some(spec("qpsk-1/2")));
/// assert_eq!(s.at(4), None); // no change at frame 4
/// assert_eq!(s.at(10), Some(spec("8psk-3/5")));
/// # Ok::<(), radioflow_dvbs2::TxError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Schedule {
    /// Sorted by frame index, one entry per index.
    entries: Vec<(u64, FrameSpec)>,
}

impl Schedule {
    /// A schedule from entries in any order; a later entry for the same index replaces an
    /// earlier one.
    ///
    /// # Errors
    /// [`TxError::Modcod`] for an entry whose MODCOD/frame pair the standard does not define.
    pub fn new(entries: impl IntoIterator<Item = (u64, FrameSpec)>) -> Result<Self, TxError> {
        let mut v: Vec<(u64, FrameSpec)> = Vec::new();
        for (i, spec) in entries {
            spec.fec()?;
            v.retain(|(j, _)| *j != i);
            v.push((i, spec));
        }
        v.sort_by_key(|(i, _)| *i);
        Ok(Schedule { entries: v })
    }

    /// Parses `INDEX:MODCOD[:FRAME[:PILOTS]],...`, e.g. `0:qpsk-8/9,100:8psk-3/5:normal:off`;
    /// a missing frame size or pilots setting is taken from `frame` and `pilots`.
    ///
    /// # Errors
    /// [`TxError::Schedule`] naming the entry at fault (an empty one between commas, a frame
    /// index given twice), or [`TxError::Modcod`]. An empty text is an empty schedule.
    pub fn parse(s: &str, frame: FrameSize, pilots: bool) -> Result<Self, TxError> {
        let mut entries: Vec<(u64, FrameSpec)> = Vec::new();
        let mut written: Vec<&str> = Vec::new();
        if s.trim().is_empty() {
            return Ok(Self::default());
        }
        for (n, item) in s.split(',').map(str::trim).enumerate() {
            if item.is_empty() {
                return Err(TxError::Schedule(format!(
                    "{} of {s:?} is empty (write INDEX:MODCOD[:FRAME[:PILOTS]],...)",
                    n + 1
                )));
            }
            let bad = |why: &str| TxError::Schedule(format!("{item:?}: {why}"));
            let mut f = item.split(':');
            let index = f
                .next()
                .and_then(|x| x.trim().parse::<u64>().ok())
                .ok_or_else(|| {
                    bad("expected INDEX:MODCOD[:FRAME[:PILOTS]], INDEX a frame number")
                })?;
            let modcod = f
                .next()
                .ok_or_else(|| bad("missing MODCOD"))?
                .trim()
                .parse()?;
            let frame = match f.next() {
                Some(x) => x.trim().parse()?,
                None => frame,
            };
            let pilots = match f.next().map(str::trim) {
                None => pilots,
                Some("on") => true,
                Some("off") => false,
                Some(_) => return Err(bad("pilots must be on or off")),
            };
            if f.next().is_some() {
                return Err(bad("too many fields"));
            }
            if let Some(k) = entries.iter().position(|(i, _)| *i == index) {
                return Err(bad(&format!(
                    "frame {index} is already scheduled by {:?}",
                    written[k]
                )));
            }
            written.push(item);
            entries.push((
                index,
                FrameSpec {
                    modcod,
                    frame,
                    pilots,
                },
            ));
        }
        Self::new(entries)
    }

    /// The spec that starts at frame `index`, if one does.
    pub fn at(&self, index: u64) -> Option<FrameSpec> {
        self.entries
            .binary_search_by_key(&index, |(i, _)| *i)
            .ok()
            .map(|k| self.entries[k].1)
    }

    /// The entries, sorted by frame index.
    pub fn entries(&self) -> &[(u64, FrameSpec)] {
        &self.entries
    }

    /// No entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn bad_entries_are_named() {
        let err = |s: &str| {
            Schedule::parse(s, FrameSize::Short, true)
                .unwrap_err()
                .to_string()
        };
        assert!(err("x:qpsk-1/2").contains("\"x:qpsk-1/2\""));
        assert!(err("4").contains("missing MODCOD"));
        assert!(err("4:qpsk-1/2:short:maybe").contains("pilots must be on or off"));
        assert!(err("4:qpsk-9/10").contains("not defined for short"));
        assert!(err("4:16apsk-1/2").contains("no MODCOD 16apsk-1/2"));
        assert!(Schedule::parse("", FrameSize::Short, true)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn empty_entries_and_an_index_given_twice_are_refused() {
        let err = |s: &str| {
            Schedule::parse(s, FrameSize::Short, true)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(",,,"),
            "bad schedule entry 1 of \",,,\" is empty (write INDEX:MODCOD[:FRAME[:PILOTS]],...)"
        );
        assert!(err("4:qpsk-1/2,,8:qpsk-3/4").contains("entry 2 of"));
        assert!(err("4:qpsk-1/2,").contains("entry 2 of \"4:qpsk-1/2,\" is empty"));
        let twice = err("4:qpsk-1/2, 9:8psk-3/5, 4:qpsk-3/4");
        assert!(
            twice.contains("\"4:qpsk-3/4\": frame 4 is already scheduled by \"4:qpsk-1/2\""),
            "{twice}"
        );
    }
}
