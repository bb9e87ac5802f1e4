//! [`PeakDetector2`]: GNU Radio's `peak_detector2_fb`.

use crate::error::ParamError;

/// Marks peaks as GNU Radio 3.10's `peak_detector2_fb` does: a running average
/// `avg ← α·x + (1-α)·avg` (from 0) follows the signal; at a sample above
/// `avg · (1 + rise)` (the average including it), that sample and the next `look_ahead - 1`
/// make a window whose largest sample (the first of equals) is marked 1, then the average
/// follows the window's other samples and the search starts again after it. Every sample's
/// average is given too (GNU Radio's optional second output; a window's first sample has the
/// average that crossed the threshold). A window the signal ends in is not given out.
#[derive(Clone, Debug)]
pub struct PeakDetector2 {
    rise: f32,
    look_ahead: usize,
    alpha: f32,
    avg: f32,
    /// A window starts at the first sample not given out yet.
    found: bool,
    /// The average at that sample.
    found_avg: f32,
}

impl PeakDetector2 {
    /// A detector with GNU Radio's `threshold_factor_rise`, `look_ahead` (samples per
    /// window) and `alpha`.
    ///
    /// # Errors
    /// If `look_ahead` is 0 or a factor is not finite, naming it.
    pub fn new(rise: f32, look_ahead: usize, alpha: f32) -> Result<Self, ParamError> {
        if look_ahead == 0 {
            return Err(ParamError::new(
                "look_ahead",
                "a window of 0 samples holds no peak",
            ));
        }
        for (name, v) in [("threshold_factor_rise", rise), ("alpha", alpha)] {
            if !v.is_finite() {
                return Err(ParamError::new(name, format!("{v} is not a finite number")));
            }
        }
        Ok(Self {
            rise,
            look_ahead,
            alpha,
            avg: 0.0,
            found: false,
            found_avg: 0.0,
        })
    }

    /// Samples a window needs: a caller must be able to offer that many at once.
    pub fn look_ahead(&self) -> usize {
        self.look_ahead
    }

    fn follow(&mut self, x: f32) {
        self.avg = self.alpha * x + (1.0 - self.alpha) * self.avg;
    }

    /// Decides the marks (and, if asked for, averages) of as many samples of `input` as it
    /// can, at most `marks.len()` (and `avgs.len()`): returns how many; the caller drops that
    /// many from the front of `input` before the next call. An open window needs
    /// `look_ahead` samples (and as much room) to be decided.
    pub fn process(
        &mut self,
        input: &[f32],
        marks: &mut [u8],
        mut avgs: Option<&mut [f32]>,
    ) -> usize {
        let room = marks
            .len()
            .min(avgs.as_ref().map_or(usize::MAX, |a| a.len()));
        let x = &input[..input.len().min(room)];
        let mut i = 0;
        loop {
            if self.found {
                let Some(window) = x.get(i..i + self.look_ahead) else {
                    return i;
                };
                let mut peak = 0;
                let found_avg = self.found_avg;
                let mut set = |k: usize, v: f32| {
                    if let Some(a) = avgs.as_deref_mut() {
                        a[i + k] = v;
                    }
                };
                set(0, found_avg);
                for k in 1..window.len() {
                    self.avg = self.alpha * window[k] + (1.0 - self.alpha) * self.avg;
                    set(k, self.avg);
                    if window[k] > window[peak] {
                        peak = k;
                    }
                }
                marks[i..i + window.len()].fill(0);
                marks[i + peak] = 1;
                i += window.len();
                self.found = false;
            }
            let Some(&v) = x.get(i) else {
                return i;
            };
            self.follow(v);
            if let Some(a) = avgs.as_deref_mut() {
                a[i] = self.avg;
            }
            if v > self.avg * (1.0 + self.rise) {
                // The window's first sample; its mark is decided with the window.
                self.found = true;
                self.found_avg = self.avg;
            } else {
                marks[i] = 0;
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::random_real;

    /// GNU Radio 3.10's `peak_detector2_fb` work, written plainly over the whole signal.
    fn naive(x: &[f32], rise: f32, look: usize, alpha: f32) -> (Vec<u8>, Vec<f32>) {
        let (mut marks, mut avgs) = (Vec::new(), Vec::new());
        let mut avg = 0.0f32;
        let mut i = 0;
        while i < x.len() {
            avg = alpha * x[i] + (1.0 - alpha) * avg;
            if x[i] > avg * (1.0 + rise) {
                if i + look > x.len() {
                    break;
                }
                let first = avg;
                let (mut peak, mut at) = (x[i], 0);
                let mut window_avgs = vec![first];
                for k in 1..look {
                    avg = alpha * x[i + k] + (1.0 - alpha) * avg;
                    window_avgs.push(avg);
                    if x[i + k] > peak {
                        peak = x[i + k];
                        at = k;
                    }
                }
                let mut m = vec![0u8; look];
                m[at] = 1;
                marks.extend(m);
                avgs.extend(window_avgs);
                i += look;
            } else {
                marks.push(0);
                avgs.push(avg);
                i += 1;
            }
        }
        (marks, avgs)
    }

    #[test]
    fn equals_gnu_radio_s_work_written_plainly_in_any_split() {
        let x: Vec<f32> = random_real(6, 3000)
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.abs()
                    + if i % 113 < 5 {
                        4.0 + i as f32 % 3.0
                    } else {
                        0.0
                    }
            })
            .collect();
        for (rise, look, alpha) in [(2.0, 5, 0.1), (7.0, 40, 0.001), (0.5, 1, 0.3)] {
            let (want_marks, want_avgs) = naive(&x, rise, look, alpha);
            assert!(want_marks.iter().filter(|&&m| m == 1).count() > 5);
            let mut d = PeakDetector2::new(rise, look, alpha).unwrap();
            let (mut marks, mut avgs, mut at, mut have) = (Vec::new(), Vec::new(), 0, 0);
            let mut state = 7u64;
            let (mut m, mut a) = (vec![0u8; 200], vec![0.0f32; 200]);
            while have < x.len() || at < have {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                have = (have + (state % 60) as usize).min(x.len());
                let room = look + (state >> 9) as usize % 100;
                let n = d.process(&x[at..have], &mut m[..room], Some(&mut a[..room]));
                marks.extend_from_slice(&m[..n]);
                avgs.extend_from_slice(&a[..n]);
                at += n;
                if have == x.len() && n == 0 {
                    break;
                }
            }
            assert_eq!(marks, want_marks, "{rise} {look} {alpha}");
            assert!(avgs == want_avgs);
            let mut d = PeakDetector2::new(rise, look, alpha).unwrap();
            let mut all = vec![0u8; x.len()];
            let n = d.process(&x, &mut all, None);
            assert_eq!(all[..n], want_marks[..], "without averages");
        }
        assert_eq!(
            PeakDetector2::new(1.0, 0, 0.1).unwrap_err().name,
            "look_ahead"
        );
    }
}
