//! `bench workload` (Green et al.): delivered / required sample rate ("signal quality")
//! against the work per packet, for each kind of work and each [`Arrangement`]: threads inside
//! a block vs chained blocks, all cores vs one, single-threaded.

use super::run::{run, Arrangement, Kind, WorkloadParams};
use crate::machine::Machine;
use crate::measurement::BenchError;
use crate::plot::{Chart, Series};
use crate::progress::{OnRun, Progress};
use crate::results::{json_line, plot, Plotted};
use crate::stats::{summarize, Summary};
use std::path::Path;

/// What one invocation measures.
#[derive(Clone, Debug)]
pub struct WorkloadStudyParams {
    /// Required samples per second of the source.
    pub rate: f64,
    /// Seconds of samples per run.
    pub seconds: f64,
    /// Kinds of work.
    pub kinds: Vec<Kind>,
    /// Units of work per packet.
    pub units: Vec<usize>,
    /// Arrangements compared.
    pub arrangements: Vec<Arrangement>,
}

impl WorkloadStudyParams {
    /// The same study at a tiny size (`--quick`): the first and last units, at most 0.1 s.
    pub fn quick(mut self) -> Self {
        if let (Some(&first), Some(&last)) = (self.units.first(), self.units.last()) {
            self.units = vec![first, last];
        }
        self.seconds = self.seconds.min(0.1);
        self
    }
}

/// One kind of work on every arrangement and size.
#[derive(Clone, Debug)]
pub struct KindResult {
    /// The kind of work.
    pub kind: Kind,
    /// Per arrangement, per size: the signal quality (delivered / required).
    pub quality: Vec<Vec<Summary>>,
    /// Per arrangement, per size: the delivered rate (samples/s).
    pub delivered_rate: Vec<Vec<Summary>>,
    /// Per arrangement, per size: every delivered sample reached the probe in every run.
    pub verified: Vec<Vec<bool>>,
}

/// Every kind's results.
#[derive(Clone, Debug)]
pub struct WorkloadStudy {
    /// What was measured.
    pub params: WorkloadStudyParams,
    /// One per kind.
    pub kinds: Vec<KindResult>,
    /// Every run's JSON line.
    pub jsonl: String,
}

/// summary.csv's header.
pub const CSV_HEADER: &str = "kind,arrangement,units,runs,median_quality,mean_quality,ci95_quality,median_delivered_rate,verified\n";

impl WorkloadStudy {
    /// Every run verified.
    pub fn verified(&self) -> bool {
        self.kinds
            .iter()
            .flat_map(|k| &k.verified)
            .flatten()
            .all(|&ok| ok)
    }

    /// summary.csv.
    pub fn csv(&self) -> String {
        let mut csv = String::from(CSV_HEADER);
        for k in &self.kinds {
            for (ui, u) in self.params.units.iter().enumerate() {
                for (i, ar) in self.params.arrangements.iter().enumerate() {
                    let s = &k.quality[i][ui];
                    csv.push_str(&format!(
                        "{},{},{u},{},{},{},{},{},{}\n",
                        k.kind.name(),
                        ar.label(),
                        s.n,
                        s.median,
                        s.mean,
                        s.ci95,
                        k.delivered_rate[i][ui].median,
                        k.verified[i][ui]
                    ));
                }
            }
        }
        csv
    }

    /// One plot per kind, `<dir>/workload-<kind>.{svg,png}`: median quality against the units
    /// of work, one line per arrangement.
    pub fn plots(&self, dir: &Path) -> Vec<Plotted> {
        let p = &self.params;
        self.kinds
            .iter()
            .map(|k| {
                let series: Vec<Series> = p
                    .arrangements
                    .iter()
                    .zip(&k.quality)
                    .map(|(ar, q)| Series {
                        label: ar.label(),
                        points: p
                            .units
                            .iter()
                            .zip(q)
                            .map(|(&u, s)| (u as f64, s.median))
                            .collect(),
                    })
                    .collect();
                let title = format!(
                    "workload {}: {} samples/s, {} cores",
                    k.kind.name(),
                    p.rate,
                    Machine::detect().cpus
                );
                let chart = Chart {
                    title: &title,
                    x_label: "units of work per 1024-sample packet",
                    y_label: "delivered / required",
                    log_x: true,
                    series: &series,
                };
                plot(dir.join(format!("workload-{}", k.kind.name())), &chart)
            })
            .collect()
    }
}

/// Runs every kind, size and arrangement `runs` times, arrangements alternated run by run.
///
/// # Errors
///
/// A run failed or the parameters are out of range.
pub fn measure(
    p: &WorkloadStudyParams,
    runs: usize,
    on_run: OnRun<'_>,
) -> Result<WorkloadStudy, BenchError> {
    let total = p.kinds.len() * p.units.len() * p.arrangements.len() * runs;
    let mut done = 0;
    let mut jsonl = String::new();
    let mut kinds = Vec::new();
    let n = p.arrangements.len();
    for &kind in &p.kinds {
        let mut k = KindResult {
            kind,
            quality: vec![Vec::new(); n],
            delivered_rate: vec![Vec::new(); n],
            verified: vec![Vec::new(); n],
        };
        for &units in &p.units {
            let mut q: Vec<Vec<f64>> = vec![Vec::new(); n];
            let mut rates: Vec<Vec<f64>> = vec![Vec::new(); n];
            let mut ok = vec![true; n];
            for _ in 0..runs {
                for (i, &arrangement) in p.arrangements.iter().enumerate() {
                    let m = run(&WorkloadParams {
                        rate: p.rate,
                        seconds: p.seconds,
                        kind,
                        units,
                        arrangement,
                    })?;
                    done += 1;
                    let line = json_line(&m);
                    jsonl.push_str(&line);
                    jsonl.push('\n');
                    on_run(&Progress {
                        done,
                        total,
                        what: format!("{} {units} units, {}", kind.name(), arrangement.label()),
                        line: &line,
                    });
                    ok[i] &= m.verified;
                    q[i].push(m.extra["quality"].as_f64().unwrap_or(f64::NAN));
                    rates[i].push(m.extra["delivered_rate"].as_f64().unwrap_or(f64::NAN));
                }
            }
            for i in 0..n {
                k.quality[i].push(summarize(&q[i]).expect("runs >= 1"));
                k.delivered_rate[i].push(summarize(&rates[i]).expect("runs >= 1"));
                k.verified[i].push(ok[i]);
            }
        }
        kinds.push(k);
    }
    Ok(WorkloadStudy {
        params: p.clone(),
        kinds,
        jsonl,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_study_covers_every_kind_size_and_arrangement() {
        let seed = Arrangement::seed_set(2);
        let p = WorkloadStudyParams {
            rate: 200_000.0,
            seconds: 0.02,
            kinds: vec![Kind::IntAddSub, Kind::EmptyLoop],
            units: vec![10, 100, 1000],
            arrangements: vec![seed[0], seed[5]],
        }
        .quick();
        assert_eq!(p.units, [10, 1000]);
        let mut runs = 0;
        let study = measure(&p, 1, &mut |_| runs += 1).unwrap();
        assert_eq!(runs, 2 * 2 * 2);
        assert_eq!(study.jsonl.lines().count(), 8);
        assert!(study.verified());
        for k in &study.kinds {
            assert_eq!(k.quality.len(), 2);
            assert!(k.quality.iter().all(|q| q.len() == 2));
            assert!(k
                .quality
                .iter()
                .flatten()
                .all(|s| (0.0..=1.0).contains(&s.median)));
        }
        assert_eq!(study.csv().lines().count(), 1 + 8);
    }
}
