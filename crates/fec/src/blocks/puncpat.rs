//! The `puncpat` parameter of the FEC blocks: GNU Radio's puncturing pattern, and what its
//! `puncture_bb` and `depuncture_bb` do with it.

/// A puncturing pattern (`'1101'`: GNU Radio's string of 0s and 1s, one per code bit of a
/// group, 0 where the bit is left out), as the extended blocks use it (no delay).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Puncture {
    /// Per code bit of a group, whether it is sent.
    keep: Vec<bool>,
    /// How many are.
    kept: usize,
}

/// The byte GNU Radio's `depuncture_bb` puts where a code bit was left out (its default
/// `symbol`, 127: just below the middle of the decoder's 0..=255 scale).
pub(crate) const HOLE: u8 = 127;

impl Puncture {
    /// Reads a pattern; `None` for one that leaves nothing out (GNU Radio's blocks then skip
    /// puncturing only for `'11'`, and a pattern of 1s changes nothing).
    ///
    /// # Errors
    /// Where it is not 0s and 1s, or leaves every bit out.
    pub(crate) fn parse(pattern: &str) -> Result<Option<Self>, String> {
        let p = pattern.trim().trim_matches(['\'', '"']);
        if p.is_empty() || !p.chars().all(|c| c == '0' || c == '1') {
            return Err(format!("'{pattern}' is not a pattern of 0s and 1s"));
        }
        if p.len() > 32 {
            return Err(format!(
                "'{pattern}' is longer than GNU Radio's 32 bits of pattern"
            ));
        }
        let keep: Vec<bool> = p.chars().map(|c| c == '1').collect();
        let kept = keep.iter().filter(|k| **k).count();
        if kept == 0 {
            return Err(format!("'{pattern}' leaves every code bit out"));
        }
        Ok((kept < keep.len()).then_some(Self { keep, kept }))
    }

    /// Code bits per group.
    pub(crate) fn size(&self) -> usize {
        self.keep.len()
    }

    /// Code bits sent per group.
    pub(crate) fn kept(&self) -> usize {
        self.kept
    }

    /// The sent bits of each whole group of `code` appended to `out` (a part group left
    /// out, as GNU Radio's `puncture_bb` leaves it); returns the code bits used.
    pub(crate) fn puncture(&self, code: &[u8], out: &mut Vec<u8>) -> usize {
        let groups = code.len() / self.size();
        for g in code.chunks_exact(self.size()) {
            out.extend(
                g.iter()
                    .zip(&self.keep)
                    .filter(|(_, k)| **k)
                    .map(|(b, _)| *b),
            );
        }
        groups * self.size()
    }

    /// Each whole group of sent values of `sent` with [`HOLE`] where a bit was left out,
    /// appended to `out` (GNU Radio's `depuncture_bb`); returns the values used.
    pub(crate) fn depuncture(&self, sent: &[u8], out: &mut Vec<u8>) -> usize {
        let groups = sent.len() / self.kept;
        for g in sent.chunks_exact(self.kept) {
            let mut values = g.iter();
            out.extend(self.keep.iter().map(|k| {
                if *k {
                    *values.next().expect("a group holds a value per kept bit")
                } else {
                    HOLE
                }
            }));
        }
        groups * self.kept
    }
}

/// Checks a tagged block's pattern.
///
/// # Errors
/// Where it is not 0s and 1s, or leaves a bit out: GNU Radio punctures around its tagged
/// blocks on the plain stream, moving the length tags without changing their values, which
/// then no longer count a packet's items; radioflow does not reproduce that.
pub(crate) fn check_tagged(pattern: &str) -> Result<(), String> {
    match Puncture::parse(pattern)? {
        None => Ok(()),
        Some(_) => Err(format!(
            "'{pattern}' leaves code bits out: GNU Radio punctures beside its tagged blocks \
             without changing the length tags, which then miscount the packets; radioflow \
             does not reproduce that (only patterns of 1s)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puncture_and_depuncture_as_gnu_radio_s_blocks() {
        let p = Puncture::parse("'1101'").unwrap().unwrap();
        let input: Vec<u8> = (1..14).collect();
        let mut out = Vec::new();
        assert_eq!(p.puncture(&input, &mut out), 12);
        // GNU Radio's puncture_bb(4, read_bitlist('1101'), 0) on 1..=13.
        assert_eq!(out, [1, 2, 4, 5, 6, 8, 9, 10, 12]);
        out.clear();
        assert_eq!(p.depuncture(&input, &mut out), 12);
        assert_eq!(
            out,
            [1, 2, 127, 3, 4, 5, 127, 6, 7, 8, 127, 9, 10, 11, 127, 12]
        );
        assert_eq!(Puncture::parse("11").unwrap(), None);
        assert_eq!(Puncture::parse("111").unwrap(), None);
        assert!(Puncture::parse("00").is_err());
        assert!(Puncture::parse("12").is_err());
    }
}
