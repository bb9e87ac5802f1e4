//! [`MessageStrobeRandom`]: one message again and again, after random waits, until stopped.

use radioflow_dsp::ParamError;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Exp, Normal, Poisson};
use std::time::{Duration, Instant};

/// The distribution of [`MessageStrobeRandom`]'s waits (GNU Radio's
/// `message_strobe_random_distribution_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrobeDistribution {
    /// Exponential with mean `mean` (a Poisson process of messages).
    Exponential,
    /// Uniform between `mean - std` and `mean + std`.
    Uniform,
    /// Gaussian with mean `mean` and standard deviation `std`.
    Gaussian,
    /// Poisson-distributed whole milliseconds with mean `mean`.
    Poisson,
}

impl std::str::FromStr for StrobeDistribution {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "exponential" => Self::Exponential,
            "uniform" => Self::Uniform,
            "gaussian" => Self::Gaussian,
            "poisson" => Self::Poisson,
            _ => return Err(format!("unknown distribution '{s}'")),
        })
    }
}

/// The drawing of waits, ready to use.
#[derive(Debug)]
enum Waits {
    Exponential(Exp<f64>),
    Uniform(f64, f64),
    Gaussian(Normal<f64>),
    Poisson(Poisson<f64>),
}

/// Sends its message on `strobe` after a random wait, again and again, until the run is
/// stopped (GNU Radio's `message_strobe_random`). Each wait is drawn in milliseconds from
/// `dist` with mean `mean_ms` (and spread `std_ms` for the uniform and Gaussian ones), cut to
/// whole milliseconds towards zero as GNU Radio does; a wait of 0 or less sends at once. A
/// message on `set_msg` replaces the message from the next send on.
///
/// GNU Radio draws from a generator of its own that no parameter seeds; so does this block
/// (from the system's entropy): the waits match GNU Radio's in distribution, not one by one.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageDebug, MessageStrobeRandom, StrobeDistribution};
/// use radioflow_blocks::runtime::{FlowScheduler, Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let strobe = MessageStrobeRandom::new(Pmt::Int(1), StrobeDistribution::Poisson, 2.0, 0.0)?;
/// let strobe = fg.add(strobe);
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((strobe, "strobe"), (dbg, "store"))?;
/// fg.start(&FlowScheduler::new())?;
/// fg.stop();
/// fg.wait()?;
/// assert!(fg.block::<MessageDebug>(dbg).unwrap().messages().iter().all(|m| *m == Pmt::Int(1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "message_strobe_random",
    summary = "Sends `msg` on `strobe` after random waits of `dist` (mean `mean_ms`, spread `std_ms`) until the run stops; `set_msg` replaces it (GNU Radio's message_strobe_random).",
    make = Self::new(msg, dist, mean_ms, std_ms).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(msg: Pmt, doc = "the message")]
#[param(dist: StrobeDistribution, words = ["exponential", "uniform", "gaussian", "poisson"], doc = "the distribution of the waits")]
#[param(mean_ms: f64, doc = "the mean wait in milliseconds (above 0 for exponential and poisson)")]
#[param(std_ms: f64 = 0.0, at_least = 0.0, doc = "uniform: the largest deviation from the mean; gaussian: the standard deviation (milliseconds)")]
#[message_input(
    name = "set_msg",
    doc = "a message that replaces `msg` from the next send on"
)]
#[derive(Debug)]
pub struct MessageStrobeRandom {
    /// The message, after each wait.
    #[message_output]
    strobe: MessageOutput,
    msg: Pmt,
    waits: Waits,
    rng: StdRng,
    /// When the next message is due (drawn after each send, the first at the first work call).
    due: Option<Instant>,
}

#[block(blocking, message_source)]
impl MessageStrobeRandom {
    /// Sends `msg` after waits drawn from `dist` (milliseconds).
    ///
    /// # Errors
    /// The parameter at fault and why: `mean_ms` not above 0 for the exponential and Poisson
    /// distributions, `mean_ms` or `std_ms` not finite, `std_ms` negative.
    pub fn new(
        msg: Pmt,
        dist: StrobeDistribution,
        mean_ms: f64,
        std_ms: f64,
    ) -> Result<Self, ParamError> {
        if !mean_ms.is_finite() {
            return Err(ParamError::new(
                "mean_ms",
                format!("{mean_ms} is not a finite number"),
            ));
        }
        if !(std_ms.is_finite() && std_ms >= 0.0) {
            return Err(ParamError::new(
                "std_ms",
                format!("{std_ms} is not a number >= 0"),
            ));
        }
        let positive_mean = || {
            if mean_ms > 0.0 {
                Ok(())
            } else {
                Err(ParamError::new(
                    "mean_ms",
                    format!("{mean_ms}: the {dist:?} distribution needs a mean above 0"),
                ))
            }
        };
        let waits = match dist {
            StrobeDistribution::Exponential => {
                positive_mean()?;
                Waits::Exponential(
                    Exp::new(1.0 / mean_ms)
                        .map_err(|e| ParamError::new("mean_ms", e.to_string()))?,
                )
            }
            StrobeDistribution::Uniform => Waits::Uniform(mean_ms - std_ms, mean_ms + std_ms),
            StrobeDistribution::Gaussian => Waits::Gaussian(
                Normal::new(mean_ms, std_ms)
                    .map_err(|e| ParamError::new("std_ms", e.to_string()))?,
            ),
            StrobeDistribution::Poisson => {
                positive_mean()?;
                Waits::Poisson(
                    Poisson::new(mean_ms).map_err(|e| ParamError::new("mean_ms", e.to_string()))?,
                )
            }
        };
        Ok(Self {
            strobe: MessageOutput::new(),
            msg,
            waits,
            rng: StdRng::from_entropy(),
            due: None,
        })
    }

    /// The next wait in whole milliseconds (GNU Radio's `static_cast<long>` of the draw).
    fn next_wait_ms(&mut self) -> i64 {
        let ms = match &self.waits {
            Waits::Exponential(d) => d.sample(&mut self.rng),
            // GNU Radio's uniform_real_distribution(a, b) draws in [a, b).
            Waits::Uniform(a, b) if a < b => self.rng.gen_range(*a..*b),
            Waits::Uniform(a, _) => *a,
            Waits::Gaussian(d) => d.sample(&mut self.rng),
            Waits::Poisson(d) => d.sample(&mut self.rng),
        };
        ms as i64
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let due = match self.due {
            Some(due) => due,
            None => self.schedule(),
        };
        let now = Instant::now();
        if now < due {
            // Back to the runtime after the wait, whatever cut it short, so that a `set_msg`
            // that came meanwhile is handled before the send.
            interruptible_sleep(due - now);
            return Ok(WorkStatus::Continue);
        }
        self.strobe.post(self.msg.clone());
        self.schedule();
        Ok(WorkStatus::Continue)
    }

    /// Draws the next wait, from now.
    fn schedule(&mut self) -> Instant {
        let wait = u64::try_from(self.next_wait_ms()).unwrap_or(0);
        let due = Instant::now() + Duration::from_millis(wait);
        self.due = Some(due);
        due
    }

    #[message_input]
    fn set_msg(&mut self, msg: Pmt) {
        self.msg = msg;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn seeded(dist: StrobeDistribution, mean: f64, std: f64) -> MessageStrobeRandom {
        let mut s = MessageStrobeRandom::new(Pmt::Null, dist, mean, std).unwrap();
        s.rng = StdRng::seed_from_u64(7);
        s
    }

    /// Mean and variance of `n` waits.
    fn moments(s: &mut MessageStrobeRandom, n: usize) -> (f64, f64, i64, i64) {
        let w: Vec<i64> = (0..n).map(|_| s.next_wait_ms()).collect();
        let mean = w.iter().sum::<i64>() as f64 / n as f64;
        let var = w.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / n as f64;
        (
            mean,
            var,
            *w.iter().min().unwrap(),
            *w.iter().max().unwrap(),
        )
    }

    #[test]
    fn waits_follow_gnu_radio_s_distributions_cut_to_whole_milliseconds() {
        let n = 20_000;
        // Poisson: mean and variance the mean.
        let (m, v, lo, _) = moments(&mut seeded(StrobeDistribution::Poisson, 50.0, 0.0), n);
        assert!(
            (m - 50.0).abs() < 0.5 && (v - 50.0).abs() < 3.0 && lo >= 0,
            "{m} {v}"
        );
        // Uniform in [40, 60), cut towards zero: whole values 40..=59, mean 49.5.
        let (m, _, lo, hi) = moments(&mut seeded(StrobeDistribution::Uniform, 50.0, 10.0), n);
        assert!(
            (m - 49.5).abs() < 0.3 && lo == 40 && hi == 59,
            "{m} {lo} {hi}"
        );
        // Gaussian: truncation towards zero keeps the mean of a symmetric law far from 0.
        let (m, v, ..) = moments(&mut seeded(StrobeDistribution::Gaussian, 100.0, 10.0), n);
        assert!((m - 99.5).abs() < 0.5 && (v - 100.0).abs() < 8.0, "{m} {v}");
        // std 0: the mean every time (GNU Radio's example gaussian_strobe uses it).
        let (_, _, lo, hi) = moments(&mut seeded(StrobeDistribution::Gaussian, 7.9, 0.0), 100);
        assert_eq!((lo, hi), (7, 7));
        // Exponential: mean the mean, less the cut (about half a millisecond).
        let (m, _, lo, _) = moments(&mut seeded(StrobeDistribution::Exponential, 20.0, 0.0), n);
        assert!((m - 19.5).abs() < 0.6 && lo == 0, "{m}");
    }

    #[test]
    fn bad_parameters_are_refused_by_name() {
        let new = |d, mean, std| MessageStrobeRandom::new(Pmt::Null, d, mean, std).map(drop);
        assert_eq!(
            new(StrobeDistribution::Poisson, 0.0, 0.0).unwrap_err().name,
            "mean_ms"
        );
        assert_eq!(
            new(StrobeDistribution::Exponential, -1.0, 0.0)
                .unwrap_err()
                .name,
            "mean_ms"
        );
        assert_eq!(
            new(StrobeDistribution::Gaussian, 1.0, -1.0)
                .unwrap_err()
                .name,
            "std_ms"
        );
        assert_eq!(
            new(StrobeDistribution::Uniform, f64::NAN, 1.0)
                .unwrap_err()
                .name,
            "mean_ms"
        );
        // A negative mean is a wait of 0 where the distribution allows it.
        assert!(new(StrobeDistribution::Uniform, -5.0, 1.0).is_ok());
        assert!("pink".parse::<StrobeDistribution>().is_err());
    }

    #[test]
    fn waits_of_zero_send_at_every_call_and_set_msg_replaces_the_message() {
        let mut h = Harness::new(seeded(StrobeDistribution::Uniform, -1.0, 0.0));
        h.work().unwrap();
        h.work().unwrap();
        assert_eq!(h.take_messages("strobe"), [Pmt::Null, Pmt::Null]);
        h.post("set_msg", Pmt::symbol("new")).unwrap();
        h.work().unwrap();
        assert_eq!(h.take_messages("strobe"), [Pmt::symbol("new")]);
    }
}
