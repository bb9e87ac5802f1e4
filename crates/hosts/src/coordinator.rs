//! The coordinator (`radioflow run GRAPH --hosts ...`): cuts the graph, hands each host its
//! part over an authenticated control connection, joins the links, starts every part, and
//! watches them until every host finished or one failed or was lost, which stops the others.

use crate::cut::{cut, Cut};
use crate::wire::{self, BlockReport, FromHost, LinkReady, ToHost, HEARTBEAT_EVERY, PEER_TIMEOUT};
use crate::HostsError;
use radioflow_graphfile::GraphDescription;
use std::net::{Shutdown, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long connecting to a host may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a host may take to build its part (blocks may read files) or start it.
const PREPARE_TIMEOUT: Duration = Duration::from_secs(120);
/// How long the other hosts may take to stop after a failure.
const STOP_TIMEOUT: Duration = Duration::from_secs(20);

/// A host: its name in the graph and its `serve` address (`10.0.0.2:7300`, `name:7300`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostAddress {
    /// The name blocks give as their `host`.
    pub name: String,
    /// The `serve` endpoint.
    pub address: String,
}

impl HostAddress {
    /// Parses `a=10.0.0.1:7300,b=10.0.0.2:7300`.
    ///
    /// # Errors
    /// An entry that is not `name=address`, or a name given twice.
    pub fn parse_list(text: &str) -> Result<Vec<Self>, String> {
        let mut hosts: Vec<HostAddress> = Vec::new();
        for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let (name, address) = entry
                .split_once('=')
                .ok_or_else(|| format!("'{entry}' is not name=address (a=10.0.0.1:7300)"))?;
            if hosts.iter().any(|h| h.name == name) {
                return Err(format!("host '{name}' is given twice"));
            }
            hosts.push(HostAddress {
                name: name.trim().to_owned(),
                address: address.trim().to_owned(),
            });
        }
        Ok(hosts)
    }
}

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The token every host's `serve` was started with.
    pub token: String,
    /// The scheduler every host runs its part on (`flow`, `tpb`, ...).
    pub scheduler: String,
    /// A link's receiving end drops (logs and counts, [`BlockReport::dropped`]) a frame that
    /// cannot be a link frame instead of failing the run: its port is open to anyone who can
    /// reach the host.
    pub drop_malformed: bool,
}

/// What every host reported when the graph ended.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Per host (in the order given), its blocks' counters.
    pub hosts: Vec<(String, Vec<BlockReport>)>,
}

/// Runs `graph`, whose blocks name their hosts, on `hosts` (each running `radioflow serve`
/// with `options.token`), and waits until it ends.
///
/// # Errors
/// [`HostsError`]: the graph cannot be cut, a host cannot be reached or refuses the token, a
/// part cannot be built, a link's ends disagree on their item type, or a host failed (the
/// message names it and the block) or was lost while running (its serve process died, the
/// network failed): then every other host was stopped.
pub fn run(
    graph: &GraphDescription,
    hosts: &[HostAddress],
    options: &RunOptions,
) -> Result<Report, HostsError> {
    run_until(graph, hosts, options, &AtomicBool::new(false))
}

/// As [`run`], stopping every host once `stop` is set (from another thread: a Ctrl-C
/// handler, a user interface) while the graph runs; the report then has the counters of the
/// stopped run.
///
/// # Errors
/// As [`run`].
pub fn run_until(
    graph: &GraphDescription,
    hosts: &[HostAddress],
    options: &RunOptions,
    stop: &AtomicBool,
) -> Result<Report, HostsError> {
    let used = graph.hosts();
    let hosts: Vec<&HostAddress> = hosts
        .iter()
        .filter(|h| used.contains(h.name.as_str()))
        .collect();
    let names: Vec<String> = hosts.iter().map(|h| h.name.clone()).collect();
    let Cut { parts, links } = cut(graph, &names, &options.scheduler)?;
    let blocks_of: Vec<String> = parts
        .iter()
        .map(|p| {
            let names: Vec<&str> = p.blocks.iter().map(|b| b.name.as_str()).collect();
            names.join(", ")
        })
        .collect();
    let mut run = Coordinator::connect(&hosts, &options.token)?;
    // Parts.
    for (i, mut part) in parts.into_iter().enumerate() {
        part.drop_malformed = options.drop_malformed;
        run.send(i, &ToHost::Part { part })?;
    }
    let mut ready: Vec<Vec<LinkReady>> = vec![Vec::new(); hosts.len()];
    run.each(PREPARE_TIMEOUT, "building its part", |i, msg| match msg {
        FromHost::Ready { links } => {
            ready[i] = links.clone();
            Ok(true)
        }
        _ => Ok(false),
    })?;
    // Links: the ends agree, the receiving end's address goes to the sending host.
    let mut addresses: Vec<Vec<(u32, String)>> = vec![Vec::new(); hosts.len()];
    for link in &links {
        let end = |host: usize| ready[host].iter().find(|r| r.id == link.id);
        let (Some(sent), Some(taken)) = (end(link.from), end(link.to)) else {
            return Err(run.host_error(link.from, format!("link {}: an end is missing", link.text)));
        };
        if sent.item != taken.item {
            return Err(HostsError::LinkTypes {
                link: link.text.clone(),
                sent: sent.item.clone().unwrap_or_else(|| "messages".into()),
                taken: taken.item.clone().unwrap_or_else(|| "messages".into()),
            });
        }
        let port = taken
            .port
            .ok_or_else(|| run.host_error(link.to, format!("link {}: no port bound", link.text)))?;
        let ip = run.addrs[link.to].ip();
        let address = match ip {
            std::net::IpAddr::V4(v4) => format!("tcp://{v4}:{port}"),
            std::net::IpAddr::V6(v6) => format!("tcp://[{v6}]:{port}"),
        };
        addresses[link.from].push((link.id, address));
    }
    for (i, addresses) in addresses.into_iter().enumerate() {
        run.send(i, &ToHost::Start { addresses })?;
    }
    run.each(PREPARE_TIMEOUT, "starting", |_, msg| {
        Ok(matches!(msg, FromHost::Started))
    })?;
    let report = run.watch(&links, &blocks_of, stop);
    run.close();
    report
}

/// The coordinator's connections and what it knows of each host.
struct Coordinator<'h> {
    hosts: &'h [&'h HostAddress],
    addrs: Vec<SocketAddr>,
    streams: Vec<TcpStream>,
    events: mpsc::Receiver<(usize, Result<FromHost, String>)>,
    last_word: Vec<Instant>,
    next_beat: Instant,
}

impl<'h> Coordinator<'h> {
    /// Connects to every host and presents the token.
    fn connect(hosts: &'h [&'h HostAddress], token: &str) -> Result<Self, HostsError> {
        let (tx, events) = mpsc::channel();
        let mut streams = Vec::new();
        let mut addrs = Vec::new();
        for (i, h) in hosts.iter().enumerate() {
            let fail = |message: String| HostsError::Host {
                host: h.name.clone(),
                address: h.address.clone(),
                message,
            };
            let addr = h
                .address
                .to_socket_addrs()
                .map_err(|e| fail(format!("not an address: {e}")))?
                .next()
                .ok_or_else(|| fail("the name resolves to no address".into()))?;
            let mut stream = TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT).map_err(|e| {
                fail(format!(
                    "cannot connect: {e} (is `radioflow serve --listen {}` running there?)",
                    h.address
                ))
            })?;
            let _ = stream.set_nodelay(true);
            stream
                .set_read_timeout(Some(PEER_TIMEOUT))
                .map_err(|e| fail(e.to_string()))?;
            wire::send(
                &mut stream,
                &ToHost::Hello {
                    version: wire::VERSION,
                    token: token.to_owned(),
                },
            )
            .map_err(|e| fail(format!("sending the hello: {e}")))?;
            match wire::recv::<FromHost>(&mut stream, None) {
                Ok(FromHost::Welcome) => {}
                Ok(FromHost::Refused { reason }) => return Err(fail(format!("refused: {reason}"))),
                Ok(other) => return Err(fail(format!("answered the hello with {other:?}"))),
                Err(e) => return Err(fail(format!("no answer to the hello: {e}"))),
            }
            stream
                .set_read_timeout(None)
                .map_err(|e| fail(e.to_string()))?;
            let mut reader = stream.try_clone().map_err(|e| fail(e.to_string()))?;
            let tx = tx.clone();
            std::thread::Builder::new()
                .name(format!("host-{}", h.name))
                .spawn(move || loop {
                    let msg = wire::recv::<FromHost>(&mut reader, None).map_err(|e| {
                        if e.kind() == std::io::ErrorKind::UnexpectedEof {
                            "connection closed".to_owned()
                        } else {
                            e.to_string()
                        }
                    });
                    let end = msg.is_err();
                    if tx.send((i, msg)).is_err() || end {
                        break;
                    }
                })
                .map_err(|e| fail(e.to_string()))?;
            streams.push(stream);
            addrs.push(addr);
        }
        Ok(Self {
            hosts,
            addrs,
            streams,
            events,
            last_word: vec![Instant::now(); hosts.len()],
            next_beat: Instant::now(),
        })
    }

    fn host_error(&self, i: usize, message: String) -> HostsError {
        HostsError::Host {
            host: self.hosts[i].name.clone(),
            address: self.hosts[i].address.clone(),
            message,
        }
    }

    fn send(&mut self, i: usize, msg: &ToHost) -> Result<(), HostsError> {
        wire::send(&mut self.streams[i], msg)
            .map_err(|e| self.host_error(i, format!("connection lost: {e}")))
    }

    /// The next event (with heartbeats sent meanwhile), or `None` after 100 ms.
    fn next(&mut self) -> Option<(usize, Result<FromHost, String>)> {
        if Instant::now() >= self.next_beat {
            self.next_beat = Instant::now() + HEARTBEAT_EVERY;
            for s in &mut self.streams {
                // A lost host shows as its reader's error or its silence.
                let _ = wire::send(s, &ToHost::Heartbeat);
            }
        }
        match self.events.recv_timeout(Duration::from_millis(100)) {
            Ok((i, msg)) => {
                self.last_word[i] = Instant::now();
                Some((i, msg))
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Hosts silent for longer than the timeout.
    fn silent(&self) -> Option<usize> {
        self.last_word
            .iter()
            .position(|t| t.elapsed() > PEER_TIMEOUT)
    }

    /// Waits until `accept` took one answer from every host (`Ok(true)`); a host that fails
    /// or is lost meanwhile is the error. `doing` says what the hosts are at, for errors.
    fn each(
        &mut self,
        timeout: Duration,
        doing: &str,
        mut accept: impl FnMut(usize, &FromHost) -> Result<bool, HostsError>,
    ) -> Result<(), HostsError> {
        let mut done = vec![false; self.hosts.len()];
        let end = Instant::now() + timeout;
        while done.iter().any(|d| !d) {
            if Instant::now() > end {
                let i = done.iter().position(|d| !d).unwrap_or(0);
                return Err(
                    self.host_error(i, format!("{doing}: no answer in {} s", timeout.as_secs()))
                );
            }
            if let Some(i) = self.silent() {
                return Err(self.host_error(
                    i,
                    format!("{doing}: lost (no word for {} s)", PEER_TIMEOUT.as_secs()),
                ));
            }
            let Some((i, msg)) = self.next() else {
                continue;
            };
            match msg {
                Err(e) => return Err(self.host_error(i, format!("{doing}: lost: {e}"))),
                Ok(FromHost::Failed { error }) => return Err(self.host_error(i, error)),
                Ok(FromHost::Heartbeat) => {}
                Ok(msg) => {
                    if accept(i, &msg)? {
                        done[i] = true;
                    }
                }
            }
        }
        Ok(())
    }

    /// Watches the running parts until all finished; the first failure or lost host stops
    /// the others and is the error.
    fn watch(
        &mut self,
        links: &[crate::cut::Link],
        blocks_of: &[String],
        stop: &AtomicBool,
    ) -> Result<Report, HostsError> {
        let n = self.hosts.len();
        let mut running = vec![true; n];
        let mut blocks: Vec<Vec<BlockReport>> = vec![Vec::new(); n];
        let mut first: Option<HostsError> = None;
        let mut stopping: Option<Instant> = None;
        while running.iter().any(|r| *r) {
            if stopping.is_none() && stop.load(Ordering::Relaxed) {
                stopping = Some(Instant::now());
                for j in (0..n).filter(|&j| running[j]) {
                    let _ = self.send(j, &ToHost::Stop);
                }
            }
            if stopping.is_some_and(|t| t.elapsed() > STOP_TIMEOUT) {
                break;
            }
            let mut failed = None;
            if let Some(i) = self.silent().filter(|&i| running[i]) {
                failed = Some((
                    i,
                    format!(
                        "lost while running blocks {}: no word for {} s (the host or the \
                         network is down?)",
                        blocks_of[i],
                        PEER_TIMEOUT.as_secs()
                    ),
                ));
            } else if let Some((i, msg)) = self.next() {
                match msg {
                    Ok(FromHost::Finished { blocks: b }) => {
                        running[i] = false;
                        blocks[i] = b;
                    }
                    Ok(FromHost::Failed { error }) => failed = Some((i, error)),
                    Ok(FromHost::LinkClosed { link }) => {
                        if let Some(l) = links.iter().find(|l| l.id == link) {
                            let from = l.from;
                            let _ = self.send(from, &ToHost::LinkClosed { link });
                        }
                    }
                    Ok(_) => {}
                    Err(e) if running[i] => {
                        failed = Some((
                            i,
                            format!(
                                "lost while running blocks {} ({e}): its serve process died \
                                 or the network failed",
                                blocks_of[i]
                            ),
                        ))
                    }
                    Err(_) => {}
                }
            }
            if let Some((i, message)) = failed {
                running[i] = false;
                // The silent host is not heard from again.
                self.last_word[i] = Instant::now() + Duration::from_secs(3600);
                if first.is_none() {
                    first = Some(self.host_error(i, message));
                    stopping = Some(Instant::now());
                    let live: Vec<usize> = (0..n).filter(|&j| running[j]).collect();
                    for j in live {
                        let _ = self.send(j, &ToHost::Stop);
                    }
                }
            }
        }
        if let Some(e) = first {
            return Err(e);
        }
        Ok(Report {
            hosts: self
                .hosts
                .iter()
                .map(|h| h.name.clone())
                .zip(blocks)
                .collect(),
        })
    }

    /// Ends every session: the hosts release their sockets.
    fn close(&mut self) {
        for s in &mut self.streams {
            let _ = wire::send(s, &ToHost::Close);
        }
    }
}

impl Drop for Coordinator<'_> {
    fn drop(&mut self) {
        // The readers hold clones: shut the sockets so that every host sees the end.
        for s in &self.streams {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}
