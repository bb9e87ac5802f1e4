//! Throughput over a link between two hosts: `null_source -> head(N)` on host `a`,
//! `null_sink` on host `b`, complex items, both hosts `serve` endpoints in this process on
//! loopback (or the `serve` endpoints given).
//!
//! ```sh
//! cargo run --release -p radioflow-hosts --example link_throughput -- [ITEMS] [RUNS] [a=ADDR,b=ADDR TOKEN]
//! cargo run --release -p radioflow-hosts --example link_throughput -- serve ADDR TOKEN   # a host
//! ```
//!
//! Prints items per second (median and range of the runs); checks that every item arrived
//! before it times anything.

use radioflow_graphfile::GraphDescription;
use radioflow_hosts::{run, HostAddress, RunOptions, ServeConfig, Server};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `serve ADDR TOKEN`: a serve endpoint of this build (for hosts in namespaces).
    if let [mode, listen, token] = args.as_slice()
        && mode == "serve"
    {
        let config = ServeConfig::new(listen.parse()?, token.clone());
        return Ok(Server::bind(config)?.run()?);
    }
    let items = args.first().map_or(Ok(1e8), |a| a.parse::<f64>())? as i64;
    let runs = args.get(1).map_or(Ok(5), |a| a.parse::<usize>())?;
    let (hosts, token) = match (args.get(2), args.get(3)) {
        (Some(list), Some(token)) => (HostAddress::parse_list(list)?, token.clone()),
        _ => {
            let token = radioflow_hosts::generate_token();
            let mut hosts = Vec::new();
            for name in ["a", "b"] {
                let server = Server::bind(ServeConfig::new("127.0.0.1:0".parse()?, token.clone()))?;
                let address = server.local_addr()?.to_string();
                std::thread::spawn(move || server.run());
                hosts.push(HostAddress {
                    name: name.into(),
                    address,
                });
            }
            (hosts, token)
        }
    };
    let mut g = GraphDescription::new("link_throughput");
    g.add("src", "null_source").dtype("complex64").host("a");
    g.add("head", "head")
        .dtype("complex64")
        .param("n", items)
        .host("a");
    g.add("sink", "null_sink").dtype("complex64").host("b");
    g.connect("src", "head")?;
    g.connect("head", "sink")?;
    let options = RunOptions {
        token,
        scheduler: "flow".into(),
        drop_malformed: false,
    };
    let mut rates = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let report = run(&g, &hosts, &options)?;
        let seconds = t.elapsed().as_secs_f64();
        let sink = report
            .hosts
            .iter()
            .flat_map(|(_, b)| b)
            .find(|b| b.name == "sink")
            .ok_or("no report of the sink")?;
        assert_eq!(sink.consumed, items as u64, "every item arrived");
        rates.push(items as f64 / seconds);
    }
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    println!(
        "link a -> b ({}): median {:.1} M items/s ({:.2} GB/s of complex64), runs {:.1}..{:.1} \
         M items/s (start-up and the hosts' handshake included)",
        hosts[1].address,
        median / 1e6,
        median * 8.0 / 1e9,
        rates[0] / 1e6,
        rates[rates.len() - 1] / 1e6
    );
    Ok(())
}
