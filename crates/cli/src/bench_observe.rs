//! `radioflow bench counters` (seed 004): the cost of the per-block counters, compiled out /
//! off / on, affinity off / on, side by side with GNU Radio's performance counters.

use crate::bench::parse_count;
use anyhow::{bail, Context};
use clap::Args;
use radioflow_bench::counters::{self, CountersParams};
use radioflow_bench::stats::summarize;
use radioflow_bench::{Machine, Measurement, Peer};
use radioflow_runtime::Counters;
use std::path::PathBuf;

/// Options shared with the other experiments (`bench`'s global flags).
pub(crate) struct Opts {
    pub(crate) runs: usize,
    pub(crate) json: bool,
    pub(crate) quick: bool,
    pub(crate) compare: Vec<String>,
    pub(crate) scheduler: String,
    pub(crate) out: Option<PathBuf>,
}

#[derive(Args, Clone)]
pub(crate) struct CountersArgs {
    /// Complex samples through the one-FIR graph (accepts 1e7).
    #[arg(long, default_value = "2e7", value_parser = parse_count)]
    samples: u64,
    /// FIR filters in the chain graph (each with its own taps).
    #[arg(long, default_value_t = 20)]
    chain: usize,
    /// Complex samples through the chain graph.
    #[arg(long, default_value = "2e6", value_parser = parse_count)]
    chain_samples: u64,
    /// Taps per FIR filter.
    #[arg(long, default_value_t = 100)]
    taps: usize,
    /// Affinity settings to measure, comma separated: off, on.
    #[arg(long, default_value = "off,on")]
    affinity: String,
    /// Counter modes to measure, comma separated: compiled-out, off, counts, on.
    #[arg(long, default_value = "compiled-out,off,on")]
    modes: String,
}

/// One configuration in a child process (used by `bench counters`; prints one JSON line).
#[derive(Args, Clone)]
pub(crate) struct CountersRunArgs {
    #[arg(long, default_value_t = 1)]
    stages: usize,
    #[arg(long, value_parser = parse_count)]
    samples: u64,
    #[arg(long, default_value_t = 100)]
    taps: usize,
    /// off, counts or on.
    #[arg(long, default_value = "on")]
    counters: String,
    /// off or on.
    #[arg(long, default_value = "off")]
    affinity: String,
}

pub(crate) fn counters_run(a: CountersRunArgs, scheduler: &str) -> anyhow::Result<()> {
    let p = CountersParams {
        stages: a.stages,
        samples: a.samples,
        taps: a.taps,
    };
    let affinity = a.affinity == "on";
    let level = Counters::from_name(&a.counters)
        .with_context(|| format!("unknown counters mode '{}'", a.counters))?;
    let s = counters::scheduler(scheduler, &p, affinity)
        .with_context(|| format!("counters runs on tpb, flow or single, not '{scheduler}'"))?;
    let m = counters::run(&p, s.as_ref(), level, affinity)?;
    println!("{}", serde_json::to_string(&m)?);
    Ok(())
}

type RunFn = Box<dyn Fn(&CountersParams) -> anyhow::Result<Measurement>>;

struct Contender {
    runtime: &'static str,
    scheduler: String,
    affinity: bool,
    mode: String,
    run: RunFn,
}

pub(crate) fn counters_main(a: CountersArgs, o: Opts) -> anyhow::Result<()> {
    let list = |s: &str| -> Vec<String> {
        s.split(',')
            .map(|x| x.trim().to_owned())
            .filter(|x| !x.is_empty())
            .collect()
    };
    let affinities: Vec<bool> = list(&a.affinity).iter().map(|x| x == "on").collect();
    let modes = list(&a.modes);
    let schedulers = if o.scheduler == "all" {
        vec!["tpb".to_owned(), "flow".to_owned()]
    } else {
        list(&o.scheduler)
    };
    let exe = std::env::current_exe().context("cannot find the radioflow binary")?;
    let out_bin = if modes.iter().any(|m| m == "compiled-out") {
        match counters::compiled_out_binary() {
            Ok(b) => Some(b),
            Err(e) => {
                eprintln!("radioflow: {e}; measuring without the compiled-out mode");
                None
            }
        }
    } else {
        None
    };
    let mut contenders = Vec::new();
    for s in &schedulers {
        for &aff in &affinities {
            for mode in &modes {
                let (bin, level) = match mode.as_str() {
                    "compiled-out" => match &out_bin {
                        Some(b) => (b.clone(), "on"),
                        None => continue,
                    },
                    "off" | "counts" | "on" => (exe.clone(), mode.as_str()),
                    other => bail!("unknown counters mode '{other}'"),
                };
                let (s2, level) = (s.clone(), level.to_owned());
                contenders.push(Contender {
                    runtime: "radioflow",
                    scheduler: s.clone(),
                    affinity: aff,
                    mode: mode.clone(),
                    run: Box::new(move |p| Ok(counters::run_child(&bin, p, &s2, &level, aff)?)),
                });
            }
        }
    }
    for name in o.compare.iter().flat_map(|s| s.split(',')).map(str::trim) {
        let peer = Peer::from_name(name)
            .with_context(|| format!("unknown peer '{name}' (known: gnuradio)"))?;
        if peer != Peer::GnuRadio {
            eprintln!(
                "radioflow: counters: only GNU Radio has performance counters; skipping {name}"
            );
            continue;
        }
        let bin = match peer.ensure_built() {
            Ok(b) => b,
            Err(e) => {
                eprintln!("radioflow: {e}; comparing without it");
                continue;
            }
        };
        for &aff in &affinities {
            for pc in ["off", "on"] {
                let bin = bin.clone();
                contenders.push(Contender {
                    runtime: "gnuradio",
                    scheduler: "tpb".into(),
                    affinity: aff,
                    mode: pc.into(),
                    run: Box::new(move |p| {
                        let args: Vec<String> = [
                            ("--stages", p.stages.to_string()),
                            ("--samples", p.samples.to_string()),
                            ("--taps", p.taps.to_string()),
                            ("--perfcounters", pc.to_string()),
                            ("--affinity", if aff { "on" } else { "off" }.to_string()),
                        ]
                        .into_iter()
                        .flat_map(|(k, v)| [k.to_string(), v])
                        .collect();
                        Ok(peer.run(&bin, "counters", &args)?)
                    }),
                });
            }
        }
    }
    if contenders.is_empty() {
        bail!("nothing to measure");
    }
    let (samples, chain_samples) = if o.quick {
        (a.samples.min(100_000), a.chain_samples.min(10_000))
    } else {
        (a.samples, a.chain_samples)
    };
    let graphs = [
        (
            "fir",
            CountersParams {
                stages: 1,
                samples,
                taps: a.taps,
            },
        ),
        (
            "fir-chain",
            CountersParams {
                stages: a.chain,
                samples: chain_samples,
                taps: a.taps,
            },
        ),
    ];
    if !o.json {
        println!("machine: {}", Machine::detect());
    }
    let mut jsonl = String::new();
    let mut csv = String::from(
        "graph,runtime,scheduler,affinity,counters,runs,median_s,mean_s,ci95_s,min_s,max_s,overhead_pct,gnuradio_over_radioflow,verified\n",
    );
    let mut all_verified = true;
    let mut plots: Vec<(&str, Vec<radioflow_bench::plot::Series>)> = Vec::new();
    let total = graphs.len() * o.runs * contenders.len();
    let mut done = 0;
    for (graph, p) in &graphs {
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); contenders.len()];
        let mut verified = vec![true; contenders.len()];
        // Alternate configurations run by run, so drift hits all alike.
        for _ in 0..o.runs {
            for (i, k) in contenders.iter().enumerate() {
                let m = (k.run)(p)?;
                let mut v = serde_json::to_value(&m)?;
                v["graph"] = (*graph).into();
                v["counters"] = k.mode.clone().into();
                v["affinity"] = if k.affinity { "on" } else { "off" }.into();
                let line = serde_json::to_string(&v)?;
                jsonl.push_str(&line);
                jsonl.push('\n');
                done += 1;
                if o.json {
                    println!("{line}");
                } else {
                    eprint!(
                        "\r[{done}/{total}] {graph} {} {} affinity {} counters {}        ",
                        k.runtime,
                        k.scheduler,
                        if k.affinity { "on" } else { "off" },
                        k.mode
                    );
                }
                verified[i] &= m.verified;
                times[i].push(m.seconds);
            }
        }
        if !o.json {
            eprintln!();
        }
        let sums: Vec<_> = times
            .iter()
            .map(|t| summarize(t).expect("runs >= 1"))
            .collect();
        let find = |rt: &str, s: &str, aff: bool, mode: &str| {
            contenders.iter().position(|k| {
                k.runtime == rt && k.scheduler == s && k.affinity == aff && k.mode == mode
            })
        };
        if !o.json {
            println!(
                "{graph}: {} FIR(s) x {} taps, {:e} complex samples, {} runs per configuration",
                p.stages, p.taps, p.samples as f64, o.runs
            );
            println!(
                "{:<10} {:<5} {:<9} {:<13} {:>10} {:>21} {:>10} {:>10} {:>8}",
                "runtime",
                "sched",
                "affinity",
                "counters",
                "median s",
                "mean s (95% CI)",
                "overhead",
                "GR/this",
                "verified"
            );
        }
        // One line per runtime, scheduler and affinity across the counter modes.
        let mut series: Vec<radioflow_bench::plot::Series> = Vec::new();
        for (i, k) in contenders.iter().enumerate() {
            let label = format!(
                "{} {} affinity {}",
                k.runtime,
                k.scheduler,
                if k.affinity { "on" } else { "off" }
            );
            let x = match k.mode.as_str() {
                "compiled-out" => 0.0,
                "off" => 1.0,
                "counts" => 1.5,
                _ => 2.0,
            };
            match series.iter_mut().find(|s| s.label == label) {
                Some(s) => s.points.push((x, sums[i].median)),
                None => series.push(radioflow_bench::plot::Series {
                    label,
                    points: vec![(x, sums[i].median)],
                }),
            }
        }
        plots.push((graph, series));
        for (i, k) in contenders.iter().enumerate() {
            all_verified &= verified[i];
            let base = if k.runtime == "gnuradio" {
                find("gnuradio", "tpb", k.affinity, "off")
            } else {
                find("radioflow", &k.scheduler, k.affinity, "compiled-out")
                    .or_else(|| find("radioflow", &k.scheduler, k.affinity, "off"))
            };
            let s = &sums[i];
            let overhead = base.map_or(f64::NAN, |b| 100.0 * (s.median / sums[b].median - 1.0));
            let gr = find("gnuradio", "tpb", k.affinity, "off")
                .map_or(f64::NAN, |g| sums[g].median / s.median);
            let aff = if k.affinity { "on" } else { "off" };
            csv.push_str(&format!(
                "{graph},{},{},{aff},{},{},{},{},{},{},{},{},{},{}\n",
                k.runtime,
                k.scheduler,
                k.mode,
                s.n,
                s.median,
                s.mean,
                s.ci95,
                s.min,
                s.max,
                overhead,
                gr,
                verified[i]
            ));
            if !o.json {
                println!(
                    "{:<10} {:<5} {:<9} {:<13} {:>10.4} {:>10.4} ± {:<8.4} {:>9.2}% {:>10.2} {:>8}",
                    k.runtime,
                    k.scheduler,
                    aff,
                    k.mode,
                    s.median,
                    s.mean,
                    s.ci95,
                    overhead,
                    gr,
                    if verified[i] { "yes" } else { "NO" }
                );
            }
        }
    }
    if !o.json {
        println!(
            "overhead: median against the same runtime, scheduler and affinity with the counters \
             compiled out (radioflow) or off (GNU Radio); GR/this: GNU Radio's median (counters \
             off, same affinity) over this one (> 1: radioflow faster)"
        );
    }
    if let Some(dir) = &o.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
        };
        write("runs.jsonl", &jsonl)?;
        write("summary.csv", &csv)?;
        write(
            "machine.json",
            &serde_json::to_string_pretty(&Machine::detect())?,
        )?;
        for (graph, series) in &plots {
            let title = format!("counters: {graph}, median run time");
            match radioflow_bench::plot::line_chart(
                &dir.join(format!("counters-{graph}")),
                &radioflow_bench::plot::Chart {
                    title: &title,
                    x_label: "counters: 0 compiled out, 1 off, 2 on",
                    y_label: "seconds",
                    log_x: false,
                    series,
                },
            ) {
                Ok(w) => eprintln!("plots: {} {}", w.svg.display(), w.png.display()),
                Err(e) => eprintln!("radioflow: no plot: {e}"),
            }
        }
        eprintln!("results written to {}", dir.display());
    }
    if !all_verified {
        bail!("some runs lost items");
    }
    Ok(())
}

#[derive(Args, Clone)]
pub(crate) struct WorkloadArgs {
    /// Required samples per second of the source.
    #[arg(long, default_value = "1e6", value_parser = parse_count)]
    rate: u64,
    /// Seconds of samples per run.
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Kinds of work, comma separated: fdiv, intaddsub, reverse-temp, reverse-xor, alloc,
    /// empty, recursion.
    #[arg(long, default_value = "fdiv")]
    kinds: String,
    /// Units of work per packet of 1024 samples, comma separated (accepts 1e5).
    #[arg(long, default_value = "1e3,1e4,1e5,3e5,1e6,3e6")]
    units: String,
    /// Threads inside a block / blocks in a chain for the parallel arrangements (default: CPUs).
    #[arg(long)]
    parallel: Option<usize>,
}

pub(crate) fn workload_main(a: WorkloadArgs, o: Opts) -> anyhow::Result<()> {
    use radioflow_bench::plot::{line_chart, Chart, Series};
    use radioflow_bench::workload::{self, Arrangement, Kind, WorkloadParams};
    let kinds: Vec<Kind> = a
        .kinds
        .split(',')
        .map(|k| {
            Kind::from_name(k.trim()).with_context(|| {
                let names: Vec<&str> = Kind::ALL.iter().map(|(_, n)| *n).collect();
                format!("unknown kind '{k}' (known: {})", names.join(", "))
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let mut units: Vec<usize> = a
        .units
        .split(',')
        .map(|u| {
            parse_count(u.trim())
                .map(|v| v as usize)
                .map_err(anyhow::Error::msg)
        })
        .collect::<anyhow::Result<_>>()?;
    let mut seconds = a.seconds;
    if o.quick {
        units = vec![units[0], *units.last().expect("at least one size")];
        seconds = seconds.min(0.1);
    }
    let n = a
        .parallel
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let arrangements = Arrangement::seed_set(n);
    if !o.json {
        println!("machine: {}", Machine::detect());
        println!(
            "source {} samples/s for {seconds} s; work per packet of {} samples; quality = \
             delivered / required samples (median of {} runs)",
            a.rate,
            workload::PACKET,
            o.runs
        );
    }
    let mut jsonl = String::new();
    let mut csv = String::from(
        "kind,arrangement,units,runs,median_quality,mean_quality,ci95_quality,median_delivered_rate,verified\n",
    );
    let total = kinds.len() * units.len() * arrangements.len() * o.runs;
    let mut done = 0;
    let mut all_verified = true;
    for &kind in &kinds {
        let mut series: Vec<Series> = arrangements
            .iter()
            .map(|ar| Series {
                label: ar.label(),
                points: Vec::new(),
            })
            .collect();
        let mut table = vec![vec![f64::NAN; units.len()]; arrangements.len()];
        for (ui, &u) in units.iter().enumerate() {
            let mut q: Vec<Vec<f64>> = vec![Vec::new(); arrangements.len()];
            let mut rates: Vec<Vec<f64>> = vec![Vec::new(); arrangements.len()];
            let mut ok = vec![true; arrangements.len()];
            for _ in 0..o.runs {
                for (i, &arrangement) in arrangements.iter().enumerate() {
                    let m = workload::run(&WorkloadParams {
                        rate: a.rate as f64,
                        seconds,
                        kind,
                        units: u,
                        arrangement,
                    })?;
                    done += 1;
                    let line = serde_json::to_string(&m)?;
                    jsonl.push_str(&line);
                    jsonl.push('\n');
                    if o.json {
                        println!("{line}");
                    } else {
                        eprint!(
                            "\r[{done}/{total}] {} {u} units, {}          ",
                            kind.name(),
                            arrangement.label()
                        );
                    }
                    ok[i] &= m.verified;
                    q[i].push(m.extra["quality"].as_f64().unwrap_or(f64::NAN));
                    rates[i].push(m.extra["delivered_rate"].as_f64().unwrap_or(f64::NAN));
                }
            }
            for (i, ar) in arrangements.iter().enumerate() {
                all_verified &= ok[i];
                let s = summarize(&q[i]).expect("runs >= 1");
                let r = summarize(&rates[i]).expect("runs >= 1");
                table[i][ui] = s.median;
                series[i].points.push((u as f64, s.median));
                csv.push_str(&format!(
                    "{},{},{u},{},{},{},{},{},{}\n",
                    kind.name(),
                    ar.label(),
                    s.n,
                    s.median,
                    s.mean,
                    s.ci95,
                    r.median,
                    ok[i]
                ));
            }
        }
        if !o.json {
            eprintln!();
            println!(
                "{}: signal quality by units of work per packet",
                kind.name()
            );
            print!("{:<26}", "arrangement");
            for u in &units {
                print!(" {:>9}", format!("{:e}", *u as f64));
            }
            println!();
            for (i, ar) in arrangements.iter().enumerate() {
                print!("{:<26}", ar.label());
                for v in &table[i] {
                    print!(" {:>8.1}%", 100.0 * v);
                }
                println!();
            }
        }
        if let Some(dir) = &o.out {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            let title = format!(
                "workload {}: {} samples/s, {} cores",
                kind.name(),
                a.rate,
                Machine::detect().cpus
            );
            match line_chart(
                &dir.join(format!("workload-{}", kind.name())),
                &Chart {
                    title: &title,
                    x_label: "units of work per 1024-sample packet",
                    y_label: "delivered / required",
                    log_x: true,
                    series: &series,
                },
            ) {
                Ok(w) => eprintln!("plots: {} {}", w.svg.display(), w.png.display()),
                Err(e) => eprintln!("radioflow: no plot: {e}"),
            }
        }
    }
    if let Some(dir) = &o.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        std::fs::write(dir.join("runs.jsonl"), &jsonl)?;
        std::fs::write(dir.join("summary.csv"), &csv)?;
        std::fs::write(
            dir.join("machine.json"),
            serde_json::to_string_pretty(&Machine::detect())?,
        )?;
        eprintln!("results written to {}", dir.display());
    }
    if !all_verified {
        bail!("some delivered samples did not reach the probe");
    }
    Ok(())
}
