//! Graphs across hosts: `radioflow serve` processes and `radioflow run --hosts`, first over
//! loopback (always), then in network namespaces joined by veth pairs and a bridge (as root;
//! skipped with a message where `ip netns add` is not permitted). Every wait is bounded (to
//! find hangs); nothing asserts on time.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_radioflow");
const TOKEN: &str = "test-token-21";
/// Items of the copy chain.
const ITEMS: usize = 50_000;
/// Tags of the copy chain: `(offset, frequency)`, as `rx_freq` tags the SigMF sink turns into
/// captures that say where each one arrived.
const TAGS: [(usize, f64); 4] = [(0, 1e9), (1, 1.5e9), (12_345, 2e9), (ITEMS - 1, 3e9)];
/// Messages of the message edge.
const MESSAGES: usize = 3;
/// Longer than any healthy run takes: only a hang reaches it.
const HANG: Duration = Duration::from_secs(120);

/// A `radioflow serve` process (in a namespace when `netns` is given), killed on drop.
struct Serve {
    child: Child,
    address: String,
}

impl Serve {
    fn start(listen: &str, netns: Option<&str>) -> Self {
        let mut cmd = match netns {
            Some(ns) => {
                let mut c = Command::new("ip");
                c.args(["netns", "exec", ns, BIN]);
                c
            }
            None => Command::new(BIN),
        };
        let mut child = cmd
            .args(["serve", "--listen", listen, "--token", TOKEN])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("radioflow serve starts");
        // Wait for "listening on ADDR"; the rest of stderr drains on a thread.
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("[serve {line}]");
                if let Some(a) = line.strip_prefix("serve: listening on ") {
                    let _ = tx.send(a.to_owned());
                }
            }
        });
        let address = rx.recv_timeout(HANG).expect("serve says where it listens");
        Serve { child, address }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("radioflow-hosts-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The copy chain: a vector source with tags and a message burst on `a`, a copy on `b`, a
/// SigMF sink and a message store on `c`.
fn chain_graph(dir: &Path, hosts: [&str; 3]) -> PathBuf {
    let data: Vec<String> = (0..ITEMS).map(|i| format!("{i}.0")).collect();
    let tags: Vec<String> = TAGS
        .iter()
        .map(|(o, f)| format!("[{o}, \"rx_freq\", {f:e}]"))
        .collect();
    let [a, b, c] = hosts;
    let text = format!(
        r#"connections = ["src -> copy -> rec"]
messages = ["burst.out -> store.store"]

[blocks]
src = {{ block = "vector_source", dtype = "float32", data = [{}], tags = [{}], host = "{a}" }}
burst = {{ block = "message_burst_source", messages = ["start", 1, 2.5], host = "{a}" }}
copy = {{ block = "copy", dtype = "float32", host = "{b}" }}
rec = {{ block = "sigmf_sink", dtype = "float32", path = "{}", sample_rate = 1e6, host = "{c}" }}
store = {{ block = "message_debug", host = "{c}" }}
"#,
        data.join(", "),
        tags.join(", "),
        dir.join("out.sigmf-meta").display()
    );
    let path = dir.join("chain.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs the coordinator with a bound on its time (a hang fails the test, it does not block
/// the suite).
fn coordinate(graph: &Path, hosts: &[(&str, &Serve)], token: &str) -> Output {
    let list: Vec<String> = hosts
        .iter()
        .map(|(n, s)| format!("{n}={}", s.address))
        .collect();
    let mut child = Command::new(BIN)
        .arg("run")
        .arg(graph)
        .args(["--hosts", &list.join(","), "--host-token", token])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("radioflow run --hosts hung");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Every item in order, every tag at its offset, every message: what the sink host wrote.
fn check_delivery(dir: &Path, out: &Output) {
    let (stdout, stderr) = text(out);
    assert!(out.status.success(), "stdout: {stdout}\nstderr: {stderr}");
    let bytes = std::fs::read(dir.join("out.sigmf-data")).unwrap();
    let got: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(got.len(), ITEMS, "every item");
    if let Some(i) = got.iter().enumerate().position(|(i, &x)| x != i as f32) {
        panic!("item {i} is {} (out of order or lost)", got[i]);
    }
    let meta = std::fs::read_to_string(dir.join("out.sigmf-meta")).unwrap();
    let meta: serde_json::Value = serde_json::from_str(&meta).unwrap();
    let captures: Vec<(u64, f64)> = meta["captures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["core:sample_start"].as_u64().unwrap(),
                c["core:frequency"].as_f64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(u64, f64)> = TAGS.iter().map(|&(o, f)| (o as u64, f)).collect();
    assert_eq!(captures, want, "tags at their offsets");
    let store = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("c:store"))
        .unwrap_or_else(|| panic!("no report of the store block: {stdout}"));
    assert!(
        store.trim_end().ends_with(&format!("{MESSAGES} messages")),
        "every message: {store}"
    );
}

/// Kills `victim`'s serve process while an endless chain runs; the coordinator must exit
/// non-zero naming that host and its block.
fn check_kill(dir: &Path, serves: &mut [(&str, Serve)], victim: usize) {
    let names: Vec<&str> = serves.iter().map(|(n, _)| *n).collect();
    let graph = dir.join("endless.toml");
    std::fs::write(
        &graph,
        format!(
            r#"connections = ["src -> copy -> sink"]

[blocks]
src = {{ block = "null_source", dtype = "complex64", host = "{}" }}
copy = {{ block = "copy", dtype = "complex64", host = "{}" }}
sink = {{ block = "null_sink", dtype = "complex64", host = "{}" }}
"#,
            names[0], names[1], names[2]
        ),
    )
    .unwrap();
    let list: Vec<String> = serves
        .iter()
        .map(|(n, s)| format!("{n}={}", s.address))
        .collect();
    let mut child = Command::new(BIN)
        .arg("run")
        .arg(&graph)
        .args(["--hosts", &list.join(","), "--host-token", TOKEN])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Items flowing: the run goes on until the kill, whenever that comes.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "an endless graph ended by itself"
    );
    serves[victim].1.child.kill().unwrap();
    let _ = serves[victim].1.child.wait();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("the coordinator did not notice the killed host");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    let host = names[victim];
    assert!(
        stderr.contains(&format!("host '{host}'"))
            && stderr.contains("lost while running blocks copy"),
        "{stderr}"
    );
}

#[test]
fn a_chain_over_three_loopback_hosts_delivers_every_item_tag_and_message() {
    let dir = scratch("chain");
    let serves: Vec<Serve> = (0..3).map(|_| Serve::start("127.0.0.1:0", None)).collect();
    let graph = chain_graph(&dir, ["a", "b", "c"]);
    let hosts = [("a", &serves[0]), ("b", &serves[1]), ("c", &serves[2])];
    check_delivery(&dir, &coordinate(&graph, &hosts, TOKEN));
    // The same serve processes take the next graph.
    std::fs::remove_file(dir.join("out.sigmf-data")).unwrap();
    check_delivery(&dir, &coordinate(&graph, &hosts, TOKEN));
    std::fs::remove_dir_all(dir).ok();
}

/// A GNU Radio Companion flowgraph whose blocks name their hosts in their comments (`host=a`):
/// a vector source and a copy on `a`, a file sink on `b`; the file holds every item in order.
#[test]
fn a_grc_flowgraph_runs_over_two_hosts_named_in_its_comments() {
    let dir = scratch("grc");
    let out = dir.join("out.f32");
    let n = 20_000;
    let values: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let block = |name: &str, id: &str, params: &[(&str, String)], host: &str| {
        let mut b = format!("- name: {name}\n  id: {id}\n  parameters:\n");
        for (k, v) in params {
            b += &format!("    {k}: {v}\n");
        }
        b += &format!("    comment: 'host={host}'\n  states:\n    state: enabled\n");
        b
    };
    let float = ("type", "float".to_owned());
    let mut grc = String::from(
        "options:\n  parameters:\n    id: hosts\n  states:\n    state: enabled\n\nblocks:\n",
    );
    grc += &block(
        "src",
        "blocks_vector_source_x",
        &[
            float.clone(),
            ("vector", format!("'[{}]'", values.join(", "))),
            ("tags", "'[]'".into()),
            ("repeat", "'False'".into()),
        ],
        "a",
    );
    grc += &block("copy", "blocks_copy", std::slice::from_ref(&float), "a");
    grc += &block(
        "sink",
        "blocks_file_sink",
        &[
            float,
            ("file", format!("'{}'", out.display())),
            ("append", "'False'".into()),
        ],
        "b",
    );
    grc += "\nconnections:\n- [src, '0', copy, '0']\n- [copy, '0', sink, '0']\n\nmetadata:\n  file_format: 1\n";
    let graph = dir.join("hosts.grc");
    std::fs::write(&graph, grc).unwrap();
    let serves: Vec<Serve> = (0..2).map(|_| Serve::start("127.0.0.1:0", None)).collect();
    let result = coordinate(&graph, &[("a", &serves[0]), ("b", &serves[1])], TOKEN);
    let (stdout, stderr) = text(&result);
    assert!(result.status.success(), "{stdout}\n{stderr}");
    let bytes = std::fs::read(&out).unwrap();
    let got: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(got, (0..n).map(|i| i as f32).collect::<Vec<_>>());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_wrong_token_is_refused_by_name() {
    let dir = scratch("token");
    let serves: Vec<Serve> = (0..3).map(|_| Serve::start("127.0.0.1:0", None)).collect();
    let graph = chain_graph(&dir, ["a", "b", "c"]);
    let hosts = [("a", &serves[0]), ("b", &serves[1]), ("c", &serves[2])];
    let out = coordinate(&graph, &hosts, "not-the-token");
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("host 'a'") && stderr.contains("refused: wrong token"),
        "{stderr}"
    );
    assert!(!dir.join("out.sigmf-data").exists(), "nothing ran");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_block_failing_on_a_host_is_named_with_its_host() {
    let dir = scratch("fail");
    let serves: Vec<Serve> = (0..2).map(|_| Serve::start("127.0.0.1:0", None)).collect();
    let graph = dir.join("missing.toml");
    std::fs::write(
        &graph,
        r#"connections = ["src -> sink"]

[blocks]
src = { block = "null_source", dtype = "float32", host = "a" }
sink = { block = "file_sink", dtype = "float32", path = "/nonexistent-dir/x.f32", host = "b" }
"#,
    )
    .unwrap();
    let out = coordinate(&graph, &[("a", &serves[0]), ("b", &serves[1])], TOKEN);
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("host 'b'") && stderr.contains("block 'sink'"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn killing_a_loopback_host_stops_the_graph_naming_it() {
    let dir = scratch("kill");
    let mut serves: Vec<(&str, Serve)> = ["a", "b", "c"]
        .into_iter()
        .map(|n| (n, Serve::start("127.0.0.1:0", None)))
        .collect();
    check_kill(&dir, &mut serves, 1);
    std::fs::remove_dir_all(dir).ok();
}

/// Three network namespaces, each with a veth pair whose other end is on a bridge in the
/// test's namespace; deleted on drop (deleting a namespace deletes its veth pair).
struct Namespaces {
    names: Vec<String>,
    bridge: String,
}

impl Namespaces {
    /// `Err`: why they cannot be made here (not root, no `ip`, not permitted).
    fn new(count: usize, subnet: &str) -> Result<Self, String> {
        let id = std::process::id() % 100_000;
        let mut made = Namespaces {
            names: Vec::new(),
            bridge: format!("rfbr{id}"),
        };
        let first = format!("rf{id}h0");
        ip(&["netns", "add", &first])?;
        made.names.push(first);
        ip(&["link", "add", &made.bridge, "type", "bridge"])?;
        ip(&[
            "addr",
            "add",
            &format!("{subnet}.1/24"),
            "dev",
            &made.bridge,
        ])?;
        ip(&["link", "set", &made.bridge, "up"])?;
        for i in 0..count {
            let ns = format!("rf{id}h{i}");
            if i > 0 {
                ip(&["netns", "add", &ns])?;
                made.names.push(ns.clone());
            }
            let (outer, inner) = (format!("rf{id}v{i}"), format!("rf{id}p{i}"));
            ip(&[
                "link", "add", &outer, "type", "veth", "peer", "name", &inner,
            ])?;
            ip(&["link", "set", &outer, "master", &made.bridge])?;
            ip(&["link", "set", &outer, "up"])?;
            ip(&["link", "set", &inner, "netns", &ns])?;
            let exec = |args: &[&str]| {
                let mut all = vec!["netns", "exec", &ns, "ip"];
                all.extend_from_slice(args);
                ip(&all)
            };
            exec(&[
                "addr",
                "add",
                &format!("{subnet}.{}/24", i + 2),
                "dev",
                &inner,
            ])?;
            exec(&["link", "set", &inner, "up"])?;
            exec(&["link", "set", "lo", "up"])?;
        }
        Ok(made)
    }
}

impl Drop for Namespaces {
    fn drop(&mut self) {
        for ns in &self.names {
            let _ = ip(&["netns", "del", ns]);
        }
        let _ = ip(&["link", "del", &self.bridge]);
    }
}

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| format!("ip: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ip {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

#[test]
fn a_chain_over_three_network_namespaces_delivers_and_survives_a_kill_by_name() {
    let subnet = format!(
        "10.{}.{}",
        200 + std::process::id() % 50,
        std::process::id() % 250
    );
    let namespaces = match Namespaces::new(3, &subnet) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("SKIPPED: network namespaces are not available here ({e}); run as root");
            return;
        }
    };
    let dir = scratch("netns");
    let mut serves: Vec<(&str, Serve)> = ["a", "b", "c"]
        .into_iter()
        .enumerate()
        .map(|(i, n)| {
            let listen = format!("{subnet}.{}:7300", i + 2);
            (n, Serve::start(&listen, Some(&namespaces.names[i])))
        })
        .collect();
    let graph = chain_graph(&dir, ["a", "b", "c"]);
    // The sink host writes the files: its namespace shares the file system.
    let hosts: Vec<(&str, &Serve)> = serves.iter().map(|(n, s)| (*n, s)).collect();
    check_delivery(&dir, &coordinate(&graph, &hosts, TOKEN));
    check_kill(&dir, &mut serves, 1);
    drop(serves);
    drop(namespaces);
    std::fs::remove_dir_all(dir).ok();
}
