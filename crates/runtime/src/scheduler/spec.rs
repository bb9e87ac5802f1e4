//! [`SchedulerSpec`]: a scheduler and its settings as one value, parsed from and printed as a
//! short string (`flow:workers=2,pin`, `tpb:realtime`, `single`), so that the command line, the
//! Python package and graph files name schedulers the same way and refuse a bad one with the
//! same message.

use super::{FlowScheduler, RealtimePolicy, Scheduler, SingleThread, ThreadPerBlock};
use std::fmt;
use std::str::FromStr;

/// The settings of a [`FlowScheduler`] that a spec can carry (`None`: the scheduler's default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowSettings {
    /// Worker threads (`workers=N`; default one per CPU).
    pub workers: Option<usize>,
    /// Worker `i` pinned to CPU `i` (`pin`).
    pub pin: bool,
    /// Bytes a block may write per call (`chunk=BYTES`).
    pub chunk_bytes: Option<usize>,
    /// Buffer bytes per connection (`buffer=BYTES`).
    pub buffer_bytes: Option<usize>,
    /// Chains handed to idle workers (`balance=off` to keep the first placement).
    pub balance: bool,
    /// A worker's last chain cut in two for an idle worker when that pays (`cut=off`).
    pub cut: bool,
    /// Chunk-sized regions borrowed down a chain (`regions=off`).
    pub regions: bool,
    /// Non-temporal stores into connections read on another worker (`streaming-stores=off`).
    pub streaming_stores: bool,
}

impl FlowSettings {
    /// The `flow` scheduler with these settings.
    pub fn scheduler(&self) -> FlowScheduler {
        let mut s = FlowScheduler::new()
            .pin(self.pin)
            .balance(self.balance)
            .cut(self.cut)
            .regions(self.regions)
            .streaming_stores(self.streaming_stores);
        if let Some(w) = self.workers {
            s = s.workers(w);
        }
        if let Some(b) = self.chunk_bytes {
            s = s.chunk_bytes(b);
        }
        if let Some(b) = self.buffer_bytes {
            s = s.buffer_bytes(b);
        }
        s
    }
}

impl Default for FlowSettings {
    fn default() -> Self {
        Self {
            workers: None,
            pin: false,
            chunk_bytes: None,
            buffer_bytes: None,
            balance: true,
            cut: true,
            regions: true,
            streaming_stores: true,
        }
    }
}

/// A scheduler by name with its settings.
///
/// The string form is `name[:option,option...]`: `flow` takes `workers=N`, `pin`,
/// `chunk=BYTES`, `buffer=BYTES`, `balance=off`, `cut=off`, `regions=off`, `streaming-stores=off`; `tpb`
/// takes `realtime` (SCHED_FIFO 50 where permitted); `single` takes none. A flag may be written
/// `pin`, `pin=on` or `pin=off`. [`Display`](fmt::Display) prints the canonical form, which
/// parses back to the same spec.
///
/// ```
/// use radioflow_runtime::SchedulerSpec;
/// let spec: SchedulerSpec = "flow:workers=2,pin".parse()?;
/// assert_eq!(spec.to_string(), "flow:workers=2,pin");
/// assert_eq!(spec.build().name(), "flow");
/// let err = "flow:wrokers=2".parse::<SchedulerSpec>().unwrap_err();
/// assert!(err.to_string().contains("unknown option 'wrokers' of the flow scheduler"));
/// # Ok::<(), radioflow_runtime::SchedulerSpecError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchedulerSpec {
    /// `flow`: a worker per core (the default).
    Flow(FlowSettings),
    /// `tpb`: a thread per block, optionally at real-time priority.
    ThreadPerBlock {
        /// `realtime`: SCHED_FIFO 50 where permitted.
        realtime: bool,
    },
    /// `single`: one thread.
    Single,
}

impl Default for SchedulerSpec {
    /// `flow` with its defaults.
    fn default() -> Self {
        Self::Flow(FlowSettings::default())
    }
}

/// Why a scheduler spec was refused; the message names the part at fault and what is accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad scheduler '{spec}': {reason}")]
pub struct SchedulerSpecError {
    spec: String,
    reason: String,
}

/// Names a spec may start with.
pub const SCHEDULER_NAMES: &[&str] = &["flow", "tpb", "single"];

const FLOW_OPTIONS: &str =
    "workers=N, pin, chunk=BYTES, buffer=BYTES, balance=off, cut=off, regions=off, \
     streaming-stores=off";

impl SchedulerSpec {
    /// The scheduler's name (`flow`, `tpb`, `single`).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Flow(_) => "flow",
            Self::ThreadPerBlock { .. } => "tpb",
            Self::Single => "single",
        }
    }

    /// A scheduler with these settings.
    pub fn build(&self) -> Box<dyn Scheduler> {
        match self {
            Self::Flow(f) => Box::new(f.scheduler()),
            Self::ThreadPerBlock { realtime } => {
                let mut s = ThreadPerBlock::new();
                if *realtime {
                    s = s.realtime(RealtimePolicy::Fifo(50));
                }
                Box::new(s)
            }
            Self::Single => Box::new(SingleThread::new()),
        }
    }

    /// Parses a comma-separated list of specs, where a bare scheduler name starts the next
    /// spec and anything else is an option of the one before (`flow:workers=2,pin,tpb`);
    /// `all` is every scheduler with its defaults.
    ///
    /// # Errors
    /// The first spec that does not parse, or an empty list.
    pub fn parse_list(s: &str) -> Result<Vec<Self>, SchedulerSpecError> {
        if s.trim() == "all" {
            return Ok(SCHEDULER_NAMES
                .iter()
                .map(|n| n.parse().expect("known names parse"))
                .collect());
        }
        let mut groups: Vec<String> = Vec::new();
        for part in s.split(',').map(str::trim) {
            let name = part.split(':').next().unwrap_or_default();
            match groups.last_mut() {
                Some(g) if !SCHEDULER_NAMES.contains(&name) => {
                    g.push(if g.contains(':') { ',' } else { ':' });
                    g.push_str(part);
                }
                _ => groups.push(part.to_owned()),
            }
        }
        if groups.is_empty() || groups.iter().all(|g| g.is_empty()) {
            return Err(SchedulerSpecError {
                spec: s.to_owned(),
                reason: format!("name one of {}", SCHEDULER_NAMES.join(", ")),
            });
        }
        groups.iter().map(|g| g.parse()).collect()
    }
}

/// `on`/`off` (also `true`/`false`, `yes`/`no`, `1`/`0`); a bare flag is on.
fn switch(value: Option<&str>) -> Option<bool> {
    match value {
        None | Some("on" | "true" | "yes" | "1") => Some(true),
        Some("off" | "false" | "no" | "0") => Some(false),
        Some(_) => None,
    }
}

/// A positive whole number, `1e6` and `64K`/`1M`/`1G` (binary) accepted.
fn positive(value: Option<&str>) -> Option<usize> {
    let v = value?.trim();
    let (digits, unit) = match v.chars().last()? {
        'K' | 'k' => (&v[..v.len() - 1], 1 << 10),
        'M' => (&v[..v.len() - 1], 1 << 20),
        'G' => (&v[..v.len() - 1], 1 << 30),
        _ => (v, 1),
    };
    let n: f64 = digits.parse().ok()?;
    let n = n * unit as f64;
    (n.is_finite() && n >= 1.0 && n.fract() == 0.0 && n <= usize::MAX as f64).then_some(n as usize)
}

impl FromStr for SchedulerSpec {
    type Err = SchedulerSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fail = |reason: String| SchedulerSpecError {
            spec: s.to_owned(),
            reason,
        };
        let (name, options) = match s.trim().split_once(':') {
            Some((n, o)) => (n.trim(), Some(o)),
            None => (s.trim(), None),
        };
        let mut spec = match name {
            "flow" => Self::Flow(FlowSettings::default()),
            "tpb" => Self::ThreadPerBlock { realtime: false },
            "single" => Self::Single,
            other => {
                return Err(fail(format!(
                    "unknown scheduler '{other}' (known: {})",
                    SCHEDULER_NAMES.join(", ")
                )))
            }
        };
        for option in options.into_iter().flat_map(|o| o.split(',')) {
            let option = option.trim();
            if option.is_empty() {
                continue;
            }
            let (key, value) = match option.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (option, None),
            };
            let bad_value = || fail(format!("'{option}': bad value for {key}"));
            match &mut spec {
                Self::Flow(f) => match key {
                    "workers" => {
                        let n = positive(value).ok_or_else(bad_value)?;
                        if let Some(why) = super::flow::workers_refused(n) {
                            return Err(fail(why));
                        }
                        f.workers = Some(n);
                    }
                    "chunk" => f.chunk_bytes = Some(positive(value).ok_or_else(bad_value)?),
                    "buffer" => f.buffer_bytes = Some(positive(value).ok_or_else(bad_value)?),
                    "pin" => f.pin = switch(value).ok_or_else(bad_value)?,
                    "balance" => f.balance = switch(value).ok_or_else(bad_value)?,
                    "cut" => f.cut = switch(value).ok_or_else(bad_value)?,
                    "regions" => f.regions = switch(value).ok_or_else(bad_value)?,
                    "streaming-stores" => {
                        f.streaming_stores = switch(value).ok_or_else(bad_value)?
                    }
                    _ => {
                        return Err(fail(format!(
                            "unknown option '{key}' of the flow scheduler (options: \
                             {FLOW_OPTIONS})"
                        )))
                    }
                },
                Self::ThreadPerBlock { realtime } => match key {
                    "realtime" => *realtime = switch(value).ok_or_else(bad_value)?,
                    _ => {
                        return Err(fail(format!(
                            "unknown option '{key}' of the tpb scheduler (options: realtime)"
                        )))
                    }
                },
                Self::Single => {
                    return Err(fail(format!(
                        "the single scheduler takes no options (got '{key}')"
                    )))
                }
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for SchedulerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut options: Vec<String> = Vec::new();
        match self {
            Self::Flow(s) => {
                let d = FlowSettings::default();
                options.extend(s.workers.map(|w| format!("workers={w}")));
                if s.pin {
                    options.push("pin".into());
                }
                options.extend(s.chunk_bytes.map(|b| format!("chunk={b}")));
                options.extend(s.buffer_bytes.map(|b| format!("buffer={b}")));
                for (on, default, key) in [
                    (s.balance, d.balance, "balance"),
                    (s.cut, d.cut, "cut"),
                    (s.regions, d.regions, "regions"),
                    (s.streaming_stores, d.streaming_stores, "streaming-stores"),
                ] {
                    if on != default {
                        options.push(format!("{key}={}", if on { "on" } else { "off" }));
                    }
                }
            }
            Self::ThreadPerBlock { realtime } => {
                if *realtime {
                    options.push("realtime".into());
                }
            }
            Self::Single => {}
        }
        f.write_str(self.name())?;
        if !options.is_empty() {
            write!(f, ":{}", options.join(","))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spec_prints_as_it_parses() {
        for s in [
            "flow",
            "flow:workers=2,pin",
            "flow:workers=3,chunk=4096,buffer=65536,balance=off,cut=off,regions=off,streaming-stores=off",
            "tpb",
            "tpb:realtime",
            "single",
        ] {
            let spec: SchedulerSpec = s.parse().unwrap();
            assert_eq!(spec.to_string(), s);
            assert_eq!(spec.to_string().parse::<SchedulerSpec>().unwrap(), spec);
            assert_eq!(spec.build().name().split('-').next(), Some(spec.name()));
        }
    }

    #[test]
    fn values_and_flags_have_their_long_forms() {
        let spec: SchedulerSpec = "flow: workers = 2 , pin=on, chunk=64K, buffer=1M, regions=no"
            .parse()
            .unwrap();
        assert_eq!(
            spec,
            SchedulerSpec::Flow(FlowSettings {
                workers: Some(2),
                pin: true,
                chunk_bytes: Some(64 << 10),
                buffer_bytes: Some(1 << 20),
                regions: false,
                ..FlowSettings::default()
            })
        );
        assert_eq!(
            "flow:workers=1e1".parse::<SchedulerSpec>().unwrap(),
            "flow:workers=10".parse().unwrap()
        );
    }

    #[test]
    fn a_bad_spec_says_what_is_wrong_and_what_is_accepted() {
        for (s, says) in [
            (
                "fast",
                "unknown scheduler 'fast' (known: flow, tpb, single)",
            ),
            (
                "flow:wrokers=2",
                "unknown option 'wrokers' of the flow scheduler (options:",
            ),
            ("flow:workers=0", "'workers=0': bad value for workers"),
            (
                "flow:workers=100000",
                "workers=100000 is more than this machine's limit of",
            ),
            ("flow:workers=two", "bad value for workers"),
            ("flow:pin=maybe", "bad value for pin"),
            (
                "tpb:workers=2",
                "unknown option 'workers' of the tpb scheduler",
            ),
            ("single:pin", "the single scheduler takes no options"),
        ] {
            let e = s.parse::<SchedulerSpec>().unwrap_err().to_string();
            assert!(e.starts_with(&format!("bad scheduler '{s}': ")), "{e}");
            assert!(e.contains(says), "{s}: {e}");
        }
    }

    #[test]
    fn worker_counts_are_capped_at_a_multiple_of_the_cpus() {
        let max = crate::max_workers();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(max, 16 * cpus);
        let at_max = format!("flow:workers={max}");
        assert_eq!(at_max.parse::<SchedulerSpec>().unwrap().to_string(), at_max);
        let over = format!("flow:workers={}", max + 1);
        let e = over.parse::<SchedulerSpec>().unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "bad scheduler '{over}': workers={} is more than this machine's limit of {max} \
                 worker threads (16 per CPU)",
                max + 1
            )
        );
        // Every spelling of a huge count.
        for s in [
            "flow:workers=1e5",
            "flow:workers=1G",
            "flow:workers=100000,pin",
        ] {
            let e = s.parse::<SchedulerSpec>().unwrap_err().to_string();
            assert!(e.contains("limit of"), "{s}: {e}");
        }
    }

    #[test]
    fn lists_split_at_scheduler_names() {
        let specs = SchedulerSpec::parse_list("flow:workers=2,pin,tpb:realtime,single").unwrap();
        let shown: Vec<String> = specs.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["flow:workers=2,pin", "tpb:realtime", "single"]);
        let all = SchedulerSpec::parse_list("all").unwrap();
        assert_eq!(all.len(), SCHEDULER_NAMES.len());
        assert!(SchedulerSpec::parse_list("").is_err());
        assert!(SchedulerSpec::parse_list("flow,fast").is_err());
    }
}
