//! Peers measured side by side with radioflow: GNU Radio 3.10 (`peers/gnuradio`, C++) and
//! FutureSDR 0.0.40 (`peers/futuresdr`, its own Cargo project). Each peer is a program that runs
//! one configuration and prints one JSON line in [`Measurement`]'s format; the harness builds it
//! on first use and says clearly when it cannot.

use crate::measurement::{BenchError, Measurement};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A peer runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// GNU Radio 3.10 (thread per block), built against Debian's gnuradio-dev.
    GnuRadio,
    /// FutureSDR 0.0.40.
    FutureSdr,
}

impl Peer {
    /// Parses `gnuradio` or `futuresdr`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "gnuradio" | "gr" => Some(Self::GnuRadio),
            "futuresdr" | "fsdr" => Some(Self::FutureSdr),
            _ => None,
        }
    }

    /// `gnuradio` or `futuresdr`.
    pub fn name(self) -> &'static str {
        match self {
            Self::GnuRadio => "gnuradio",
            Self::FutureSdr => "futuresdr",
        }
    }

    /// The configurations compared for `experiment`: a label and the peer's extra CLI
    /// arguments. Empty if the peer does not implement the experiment.
    pub fn configurations(self, experiment: &str, realtime: bool) -> Vec<(String, Vec<String>)> {
        let rt: Vec<String> = if realtime {
            vec!["--rt".into()]
        } else {
            vec![]
        };
        let tpb = if realtime { "tpb-rt" } else { "tpb" };
        match (self, experiment) {
            // The three configurations of Bloessl et al. 2019, Fig. 8.
            (Self::GnuRadio, "opti") => ["default", "tuned", "emulation"]
                .iter()
                .map(|c| {
                    let mut args = vec!["--config".to_string(), c.to_string()];
                    args.extend(rt.iter().cloned());
                    (format!("{tpb} {c}"), args)
                })
                .collect(),
            // The comparison of Bloessl et al. 2019, Fig. 5/6: normal and real-time priority,
            // always both; real time as radioflow's tpb-rt (SCHED_FIFO 50).
            (Self::GnuRadio, "resched" | "items") => vec![
                ("tpb".into(), vec![]),
                (
                    "tpb-rt".into(),
                    ["--rt", "--rt-policy", "fifo"].map(String::from).to_vec(),
                ),
            ],
            (Self::GnuRadio, _) => vec![(tpb.into(), rt)],
            (Self::FutureSdr, "opti" | "resched" | "items") => vec![],
            (Self::FutureSdr, _) => ["flow", "smol"]
                .iter()
                .map(|s| (s.to_string(), vec!["--scheduler".into(), s.to_string()]))
                .collect(),
        }
    }

    fn folder(self) -> &'static str {
        match self {
            Self::GnuRadio => "peers/gnuradio",
            Self::FutureSdr => "peers/futuresdr",
        }
    }

    fn binary(self, root: &Path) -> PathBuf {
        match self {
            Self::GnuRadio => root.join("peers/gnuradio/build/gr_bench"),
            Self::FutureSdr => root.join("peers/futuresdr/target/release/fsdr_bench"),
        }
    }

    /// The files the program is built from, relative to the peer's folder.
    fn sources(self) -> &'static [&'static str] {
        match self {
            Self::GnuRadio => &["src/gr_bench.cc", "src/fir_kernels.cc", "Makefile"],
            Self::FutureSdr => &["src/main.rs", "Cargo.toml"],
        }
    }

    /// The program exists and is newer than every file it is built from (an older one may
    /// lack an experiment the harness asks for).
    fn up_to_date(self, root: &Path, bin: &Path) -> bool {
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let Some(built) = modified(bin) else {
            return false;
        };
        self.sources().iter().all(|s| {
            modified(&root.join(self.folder()).join(s)).is_none_or(|changed| changed <= built)
        })
    }

    /// The peer's program, built with its `build.sh` if missing or older than its sources.
    ///
    /// # Errors
    /// The peer cannot be built here (e.g. GNU Radio is not installed); the message says why.
    pub fn ensure_built(self) -> Result<PathBuf, BenchError> {
        let root = repo_root();
        let bin = self.binary(&root);
        if self.up_to_date(&root, &bin) {
            return Ok(bin);
        }
        eprintln!(
            "building the {} peer ({}/build.sh) ...",
            self.name(),
            self.folder()
        );
        let out = Command::new("bash")
            .arg(root.join(self.folder()).join("build.sh"))
            .output()
            .map_err(|e| BenchError::Peer(format!("{}: cannot run build.sh: {e}", self.name())))?;
        if !out.status.success() || !bin.exists() {
            let why = String::from_utf8_lossy(&out.stderr);
            let why = why.lines().rev().take(3).collect::<Vec<_>>().join(" | ");
            return Err(BenchError::Peer(format!(
                "the {} peer is not available here ({why}); see {}/README.md",
                self.name(),
                self.folder()
            )));
        }
        Ok(bin)
    }

    /// Runs one configuration of `experiment` with `args` and returns its measurement.
    ///
    /// # Errors
    /// The peer failed to run or printed something that is not a measurement.
    pub fn run(
        self,
        bin: &Path,
        experiment: &str,
        args: &[String],
    ) -> Result<Measurement, BenchError> {
        let out = Command::new(bin)
            .arg(experiment)
            .args(args)
            .output()
            .map_err(|e| BenchError::Peer(format!("{}: {e}", bin.display())))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with('{'));
        let parsed = line.and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok());
        let Some(v) = parsed else {
            return Err(BenchError::Peer(format!(
                "{} {experiment} {}: no measurement (exit {}): {}",
                self.name(),
                args.join(" "),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        };
        Ok(Measurement {
            experiment: experiment.to_owned(),
            runtime: self.name().to_owned(),
            scheduler: v["scheduler"].as_str().unwrap_or("?").to_owned(),
            params: v["params"].clone(),
            seconds: v["seconds"].as_f64().unwrap_or(f64::NAN),
            verified: v["verified"].as_bool().unwrap_or(false),
            detail: v
                .get("config")
                .and_then(|c| c.as_str())
                .unwrap_or("")
                .to_owned(),
            extra: extra(&v),
        })
    }
}

/// A peer's experiment-specific results (its `details`, e.g. the context switches and
/// items-per-call histogram of `resched` and `items`) with whether real-time priority was
/// granted, or null if it reported neither.
fn extra(v: &serde_json::Value) -> serde_json::Value {
    let mut extra = match v.get("details") {
        Some(serde_json::Value::Object(d)) => d.clone(),
        _ => serde_json::Map::new(),
    };
    for k in ["rt_granted", "rt_status"] {
        if let Some(x) = v.get(k) {
            extra.insert(k.to_owned(), x.clone());
        }
    }
    if extra.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::Value::Object(extra)
    }
}

/// The repository root: `RADIOFLOW_ROOT`, else the workspace this crate was built in.
pub(crate) fn repo_root() -> PathBuf {
    std::env::var_os("RADIOFLOW_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::{Duration, SystemTime};

    #[test]
    fn extra_carries_the_details_and_the_real_time_outcome() {
        let line = json!({
            "experiment": "resched", "runtime": "gnuradio", "scheduler": "tpb-rt",
            "rt_granted": false, "rt_status": "no_privileges",
            "details": { "threads": 14, "produced_log2": [1, 2] },
        });
        let e = extra(&line);
        assert_eq!(e["threads"], 14);
        assert_eq!(e["produced_log2"], json!([1, 2]));
        assert_eq!(e["rt_granted"], false);
        assert_eq!(e["rt_status"], "no_privileges");
        assert!(extra(&json!({ "seconds": 1.0 })).is_null());
    }

    #[test]
    fn a_program_older_than_its_sources_is_rebuilt() {
        let root = std::env::temp_dir().join(format!("rf-peer-{}", std::process::id()));
        let folder = root.join("peers/gnuradio");
        std::fs::create_dir_all(folder.join("src")).unwrap();
        let bin = folder.join("gr_bench");
        let touch = |p: &Path, t: SystemTime| {
            let f = std::fs::File::create(p).unwrap();
            f.set_modified(t).unwrap();
        };
        let now = SystemTime::now();
        let hour = Duration::from_secs(3600);
        touch(&folder.join("src/gr_bench.cc"), now - hour);
        touch(&folder.join("Makefile"), now - 2 * hour);
        assert!(!Peer::GnuRadio.up_to_date(&root, &bin), "missing program");
        touch(&bin, now);
        assert!(Peer::GnuRadio.up_to_date(&root, &bin));
        touch(&folder.join("src/gr_bench.cc"), now + hour);
        assert!(
            !Peer::GnuRadio.up_to_date(&root, &bin),
            "source edited since"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
