//! Summaries of repeated runs: median, mean and 95% confidence interval (Student t).

/// Summary of a sample of run times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Number of values.
    pub n: usize,
    /// Median.
    pub median: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Half-width of the 95% confidence interval of the mean (0 for fewer than 2 values).
    pub ci95: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
}

/// Two-sided 95% quantile of Student's t distribution with `df` degrees of freedom.
pub fn t95(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => T[df - 1],
        31..=60 => 2.000,
        61..=120 => 1.980,
        _ => 1.960,
    }
}

/// Summarises `values`; `None` if empty.
pub fn summarize(values: &[f64]) -> Option<Summary> {
    if values.is_empty() {
        return None;
    }
    let n = values.len();
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    let mean = values.iter().sum::<f64>() / n as f64;
    let ci95 = if n < 2 {
        0.0
    } else {
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        t95(n - 1) * (var / n as f64).sqrt()
    };
    Some(Summary {
        n,
        median,
        mean,
        ci95,
        min: sorted[0],
        max: sorted[n - 1],
    })
}

/// Least-squares line `y = intercept + slope * x`; `None` with fewer than two distinct x.
pub fn linear_fit(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if points.len() < 2 || sxx == 0.0 {
        return None;
    }
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let slope = sxy / sxx;
    Some((slope, my - slope * mx))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_known_values() {
        let s = summarize(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!(s.median, 4.5);
        assert_eq!(s.mean, 5.0);
        // sample sd = sqrt(32/7); t(7) = 2.365
        let want = 2.365 * (32.0f64 / 7.0).sqrt() / 8f64.sqrt();
        assert!((s.ci95 - want).abs() < 1e-12);
        assert_eq!((s.min, s.max), (2.0, 9.0));
        assert_eq!(summarize(&[3.0]).unwrap().ci95, 0.0);
        assert!(summarize(&[]).is_none());
    }

    #[test]
    fn linear_fit_recovers_a_line() {
        let pts: Vec<(f64, f64)> = (1..=20)
            .map(|s| (s as f64, 0.3 + 0.05 * s as f64))
            .collect();
        let (slope, intercept) = linear_fit(&pts).unwrap();
        assert!((slope - 0.05).abs() < 1e-12 && (intercept - 0.3).abs() < 1e-12);
        assert!(linear_fit(&[(1.0, 2.0)]).is_none());
        assert!(linear_fit(&[(1.0, 2.0), (1.0, 3.0)]).is_none());
    }
}
