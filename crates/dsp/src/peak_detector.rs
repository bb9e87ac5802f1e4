//! [`PeakDetector`]: GNU Radio's `peak_detector_xb`.

use crate::error::ParamError;

/// A sample type of [`PeakDetector`]: compared with the float average as GNU Radio compares
/// it (converted to `f32`), and the value GNU Radio starts a peak search from (minus
/// infinity, the most negative integer).
pub trait PeakSample: Copy + PartialOrd {
    /// The lowest value.
    const LOWEST: Self;
    /// The value as a float.
    fn to_f32(self) -> f32;
}

impl PeakSample for f32 {
    const LOWEST: Self = f32::NEG_INFINITY;
    fn to_f32(self) -> f32 {
        self
    }
}

impl PeakSample for i32 {
    const LOWEST: Self = i32::MIN;
    fn to_f32(self) -> f32 {
        self as f32
    }
}

impl PeakSample for i16 {
    const LOWEST: Self = i16::MIN;
    fn to_f32(self) -> f32 {
        f32::from(self)
    }
}

/// Marks the peaks of a signal, as GNU Radio 3.10's `peak_detector_xb` does when it is given
/// the whole signal in one work call: a running average `avg ← α·x + (1-α)·avg` (from 0)
/// follows the signal; a sample above `avg · rise` starts a search for the largest sample,
/// which ends at the first sample that is neither larger nor above `avg · fall`: the
/// largest sample is marked 1, and the ending sample is looked at
/// again as a possible start. A search still open when the signal ends marks nothing; as GNU
/// Radio, it then looks again at the samples after the largest one, the average as it is.
/// (GNU Radio restarts the search at each work call, so where its calls cut a search its
/// marks depend on its scheduler: here a search is cut so after [`PEAK_SEARCH_LIMIT`]
/// samples, wherever the calls fall. GNU Radio's `look_ahead` is not used by its detector.
/// Where a search ends with no sample above minus infinity (NaNs only), GNU Radio marks the
/// place of an earlier peak (or its call's first sample) again; nothing is marked here.)
///
/// Samples are decided as far as a search allows: [`process`](Self::process) says how many.
#[derive(Clone, Debug)]
pub struct PeakDetector<T> {
    rise: f32,
    fall: f32,
    alpha: f32,
    avg: f32,
    /// The search open, if any: the largest sample so far and where it is (among the
    /// undecided samples), if one exceeded [`PeakSample::LOWEST`].
    search: Option<Option<(T, usize)>>,
    /// Undecided samples already looked at.
    seen: usize,
    /// Samples the open search has taken.
    searched: usize,
}

/// The most samples a search takes before it is cut as a GNU Radio work call ending there
/// would cut it: a bound on the samples a block must hold undecided (GNU Radio's own calls
/// cut searches at most every buffer's worth, 8192 floats by default, where its scheduler
/// happens to).
pub const PEAK_SEARCH_LIMIT: usize = 512;

impl<T: PeakSample> PeakDetector<T> {
    /// A detector with GNU Radio's threshold factors (`threshold_factor_rise`,
    /// `threshold_factor_fall`: times the average) and average weight `alpha`.
    ///
    /// # Errors
    /// If a value is not finite, naming it.
    pub fn new(rise: f32, fall: f32, alpha: f32) -> Result<Self, ParamError> {
        for (name, v) in [
            ("threshold_factor_rise", rise),
            ("threshold_factor_fall", fall),
            ("alpha", alpha),
        ] {
            if !v.is_finite() {
                return Err(ParamError::new(name, format!("{v} is not a finite number")));
            }
        }
        Ok(Self {
            rise,
            fall,
            alpha,
            avg: 0.0,
            search: None,
            seen: 0,
            searched: 0,
        })
    }

    fn follow(&mut self, x: T) {
        self.avg = self.alpha * x.to_f32() + (1.0 - self.alpha) * self.avg;
    }

    /// Looks at `input` (the undecided samples: those not decided by earlier calls, then
    /// new ones) and writes the marks of the samples it decides to `marks`, 0 or 1; returns
    /// how many (at most `marks.len()`): the caller drops that many samples from the front
    /// of `input` before the next call. `ended`: `input` holds the signal's last sample.
    /// With room for more than [`PEAK_SEARCH_LIMIT`] marks, a call given more samples than
    /// it holds undecided always decides some.
    pub fn process(&mut self, input: &[T], marks: &mut [u8], ended: bool) -> usize {
        let x = &input[..input.len().min(marks.len())];
        let ended = ended && x.len() == input.len();
        let (mut i, mut decided) = (self.seen, 0);
        loop {
            let cut = self.searched >= PEAK_SEARCH_LIMIT;
            let Some(&v) = x.get(i).filter(|_| !cut) else {
                match self.search {
                    Some(found) if ended || cut => {
                        // GNU Radio's call ends with a search open: the samples up to the
                        // largest go out unmarked, the rest are looked at again.
                        i = found.map_or(i, |(_, at)| at + 1);
                        marks[decided..i].fill(0);
                        decided = i;
                        self.search = None;
                        self.searched = 0;
                        continue;
                    }
                    _ => break,
                }
            };
            match self.search {
                None if v.to_f32() > self.avg * self.rise => {
                    self.search = Some(None);
                    self.searched = 0;
                }
                None => {
                    self.follow(v);
                    i += 1;
                    marks[decided..i].fill(0);
                    decided = i;
                }
                Some(found) if found.is_none_or(|(peak, _)| v > peak) && v > T::LOWEST => {
                    self.search = Some(Some((v, i)));
                    self.follow(v);
                    i += 1;
                    self.searched += 1;
                }
                Some(_) if v.to_f32() > self.avg * self.fall => {
                    self.follow(v);
                    i += 1;
                    self.searched += 1;
                }
                Some(found) => {
                    marks[decided..i].fill(0);
                    if let Some((_, at)) = found {
                        marks[at] = 1;
                    }
                    decided = i;
                    self.search = None;
                }
            }
        }
        // The samples before the largest of an open search are not its peak.
        match &mut self.search {
            Some(Some((_, at))) => {
                marks[decided..*at].fill(0);
                decided = *at;
                *at = 0;
            }
            Some(None) => {
                marks[decided..i].fill(0);
                decided = i;
            }
            None => {}
        }
        self.seen = i - decided;
        decided
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::random_real;

    /// GNU Radio's `peak_detector_fb` work on the whole signal in one call, then again on what
    /// it did not take (as its scheduler calls it at the end of a stream), written plainly.
    fn naive(x: &[f32], rise: f32, fall: f32, alpha: f32) -> Vec<u8> {
        let mut out = vec![0u8; x.len()];
        let mut avg = 0.0f32;
        let mut start = 0;
        while start < x.len() {
            let (mut state, mut peak, mut peak_ind, mut i) = (0, f32::NEG_INFINITY, None, start);
            while i < x.len() {
                if state == 0 {
                    if x[i] > avg * rise {
                        state = 1;
                    } else {
                        avg = alpha * x[i] + (1.0 - alpha) * avg;
                        i += 1;
                    }
                } else if x[i] > peak {
                    peak = x[i];
                    peak_ind = Some(i);
                    avg = alpha * x[i] + (1.0 - alpha) * avg;
                    i += 1;
                } else if x[i] > avg * fall {
                    avg = alpha * x[i] + (1.0 - alpha) * avg;
                    i += 1;
                } else {
                    if let Some(p) = peak_ind.take() {
                        out[p] = 1;
                    }
                    state = 0;
                    peak = f32::NEG_INFINITY;
                }
            }
            start = match (state, peak_ind) {
                (1, Some(p)) => p + 1,
                _ => x.len(),
            };
        }
        out
    }

    #[test]
    fn a_search_longer_than_the_limit_is_cut_as_a_call_would_cut_it() {
        // Above the threshold for good: without the cut the detector would hold every sample.
        let x: Vec<f32> = (0..3000).map(|i| 1.0 + (i % 7) as f32).collect();
        let mut d = PeakDetector::new(0.25, 0.4, 0.001).unwrap();
        let mut marks = vec![0u8; 3000];
        let n = d.process(&x, &mut marks, false);
        assert!(n >= x.len() - PEAK_SEARCH_LIMIT, "decided {n}");
        for seed in 1..3 {
            let mut d = PeakDetector::new(0.25, 0.4, 0.001).unwrap();
            let mut whole = PeakDetector::new(0.25, 0.4, 0.001).unwrap();
            let mut marks = vec![0u8; 3000];
            let n = whole.process(&x, &mut marks, true);
            assert_eq!(streamed(&x, &mut d, seed), marks[..n].to_vec());
        }
    }

    /// The detector fed in random pieces, as a block is.
    fn streamed(x: &[f32], d: &mut PeakDetector<f32>, seed: u64) -> Vec<u8> {
        let mut state = seed | 1;
        let (mut out, mut at, mut have) = (Vec::new(), 0, 0);
        let mut marks = vec![0u8; PEAK_SEARCH_LIMIT + 64];
        while at < x.len() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            have = (have + (state % 50) as usize).min(x.len());
            // Room for every sample a search may hold undecided, as a block's output has.
            let room = PEAK_SEARCH_LIMIT + 1 + (state >> 8) as usize % 64;
            let n = d.process(&x[at..have], &mut marks[..room], have == x.len());
            out.extend_from_slice(&marks[..n]);
            at += n;
        }
        out
    }

    #[test]
    fn marks_what_gnu_radio_s_work_marks_in_any_split() {
        // Bursts over noise: peaks to find, searches open at the end.
        let noise = random_real(4, 3000);
        let x: Vec<f32> = noise
            .iter()
            .enumerate()
            .map(|(i, n)| {
                n.abs() * 0.2
                    + if i % 97 < 9 {
                        3.0 + (i % 97) as f32 * 0.1
                    } else {
                        0.0
                    }
            })
            .collect();
        for (rise, fall, alpha) in [(0.25, 0.40, 0.001), (1.25, 0.6, 0.2), (3.0, 0.1, 0.05)] {
            let want = naive(&x, rise, fall, alpha);
            assert!(want.iter().filter(|&&m| m == 1).count() > 10);
            for seed in 1..4 {
                let mut d = PeakDetector::new(rise, fall, alpha).unwrap();
                assert_eq!(streamed(&x, &mut d, seed), want, "{rise} {fall} {alpha}");
            }
        }
    }

    #[test]
    fn an_open_search_at_the_end_marks_nothing_and_looks_again_after_its_largest() {
        // Rises, peaks at 2 and never falls back: GNU Radio marks nothing there, then looks
        // again at 1 and 5 from the average it had.
        let x = [0.0f32, 1.0, 9.0, 8.0, 8.5];
        let mut d = PeakDetector::new(0.25, 0.4, 0.5).unwrap();
        let mut marks = [9u8; 5];
        assert_eq!(d.process(&x, &mut marks, true), 5);
        assert_eq!(marks.to_vec(), naive(&x, 0.25, 0.4, 0.5));
        assert!(PeakDetector::<f32>::new(f32::NAN, 0.4, 0.5).is_err());
    }
}
