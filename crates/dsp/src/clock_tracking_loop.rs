//! [`ClockTrackingLoop`]: GNU Radio's second-order symbol clock tracking loop.

use crate::ParamError;

/// The proportional-integral loop that tracks a symbol clock's period, as GNU Radio's
/// `clock_tracking_loop` (used by `symbol_sync_cc`/`_ff`): the integral arm is the average
/// period, clipped to `[min, max]`; the proportional arm adds `alpha · error` for the
/// instantaneous period. The gains come from the normalized natural frequency `loop_bw`
/// (`ω_n·T`), the damping `ζ` and the detector's gain `K` (the slope of its S-curve):
/// `alpha = (2/K)·e^{-ζω_nT}·sinh(ζω_nT)`,
/// `beta = (2/K)·(1 - e^{-ζω_nT}·(sinh(ζω_nT) + cos(h)(ω_dT)))`, in float32 as GNU Radio.
#[derive(Clone, Debug)]
pub struct ClockTrackingLoop {
    avg: f32,
    inst: f32,
    prev_avg: f32,
    prev_inst: f32,
    min: f32,
    max: f32,
    nominal: f32,
    alpha: f32,
    beta: f32,
}

impl ClockTrackingLoop {
    /// A loop at `nominal` samples per symbol, the average kept within `nominal ±
    /// max_deviation`.
    ///
    /// # Errors
    /// `loop_bw` or `damping` negative, `ted_gain` not above 0, or a value not finite.
    pub fn new(
        loop_bw: f32,
        damping: f32,
        ted_gain: f32,
        nominal: f32,
        max_deviation: f32,
    ) -> Result<Self, ParamError> {
        for (name, v) in [
            ("loop_bw", loop_bw),
            ("damping", damping),
            ("ted_gain", ted_gain),
            ("max_deviation", max_deviation),
        ] {
            if !v.is_finite() {
                return Err(ParamError::new(
                    name,
                    format!("is {v}, not a finite number"),
                ));
            }
        }
        if loop_bw < 0.0 {
            return Err(ParamError::new(
                "loop_bw",
                format!("is {loop_bw}, must be at least 0"),
            ));
        }
        if damping < 0.0 {
            return Err(ParamError::new(
                "damping",
                format!("is {damping}, must be at least 0"),
            ));
        }
        if ted_gain <= 0.0 {
            return Err(ParamError::new(
                "ted_gain",
                format!("is {ted_gain}, must be above 0"),
            ));
        }
        let (alpha, beta) = gains(loop_bw, damping, ted_gain);
        let (min, max) = (nominal - max_deviation, nominal + max_deviation);
        // GNU Radio starts at the middle of the range when the nominal period is outside it.
        let nominal = if nominal < min || nominal > max {
            (max + min) / 2.0
        } else {
            nominal
        };
        Ok(Self {
            avg: nominal,
            inst: nominal,
            prev_avg: nominal,
            prev_inst: nominal,
            min,
            max,
            nominal,
            alpha,
            beta,
        })
    }

    /// The proportional and integral gains.
    pub fn gains(&self) -> (f32, f32) {
        (self.alpha, self.beta)
    }

    /// One step with the detector's `error`.
    pub fn advance(&mut self, error: f32) {
        self.prev_avg = self.avg;
        self.prev_inst = self.inst;
        self.avg = (self.avg + self.beta * error).clamp(self.min, self.max);
        self.inst = self.avg + self.alpha * error;
        if self.inst <= 0.0 {
            self.inst = self.avg;
        }
    }

    /// Undoes the last [`advance`](Self::advance).
    pub fn revert(&mut self) {
        self.avg = self.prev_avg;
        self.inst = self.prev_inst;
    }

    /// Sets both periods (a resynchronization), as given: GNU Radio does not clip them here.
    pub fn set_periods(&mut self, inst: f32, avg: f32) {
        self.inst = inst;
        self.prev_inst = inst;
        self.avg = avg;
        self.prev_avg = avg;
    }

    /// The nominal period (the middle of the range where `sps` was outside it).
    pub fn nominal_period(&self) -> f32 {
        self.nominal
    }

    /// The instantaneous period, in samples.
    pub fn inst_period(&self) -> f32 {
        self.inst
    }

    /// The average period, in samples.
    pub fn avg_period(&self) -> f32 {
        self.avg
    }
}

/// `(alpha, beta)` for the loop's bandwidth, damping and detector gain.
fn gains(loop_bw: f32, damping: f32, ted_gain: f32) -> (f32, f32) {
    let zeta_wn = damping * loop_bw;
    let k0 = 2.0 / ted_gain;
    let k1 = (-zeta_wn).exp();
    let sinh = zeta_wn.sinh();
    let cosx = if damping > 1.0 {
        (loop_bw * (damping * damping - 1.0).sqrt()).cosh()
    } else if damping == 1.0 {
        1.0
    } else {
        (loop_bw * (1.0 - damping * damping).sqrt()).cos()
    };
    (k0 * k1 * sinh, k0 * (1.0 - k1 * (sinh + cosx)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gains_give_the_designed_poles() {
        // α = 2·e^{-x}·sinh(x) = 1 - e^{-2x}, x = ζω_nT.
        for (bw, zeta) in [(0.045f32, 1.0f32), (0.1, 0.707), (0.02, 2.0)] {
            let (a, _) = gains(bw, zeta, 1.0);
            let want = (-2.0 * f64::from(zeta * bw)).exp();
            assert!((1.0 - f64::from(a) - want).abs() < 1e-5, "bw {bw} ζ {zeta}");
        }
        // The detector's gain divides both.
        let (a1, b1) = gains(0.045, 1.0, 1.0);
        let (a2, b2) = gains(0.045, 1.0, 2.0);
        assert!((a1 / 2.0 - a2).abs() < 1e-7 && (b1 / 2.0 - b2).abs() < 1e-7);
    }

    #[test]
    fn the_average_stays_within_the_deviation() {
        let mut l = ClockTrackingLoop::new(0.2, 1.0, 1.0, 4.0, 0.5).unwrap();
        for _ in 0..100 {
            l.advance(10.0);
        }
        assert_eq!(l.avg_period(), 4.5);
        l.revert();
        assert_eq!(l.avg_period(), 4.5);
        assert!(ClockTrackingLoop::new(0.1, 1.0, 0.0, 4.0, 0.5).is_err());
        assert!(ClockTrackingLoop::new(-0.1, 1.0, 1.0, 4.0, 0.5).is_err());
    }
}
