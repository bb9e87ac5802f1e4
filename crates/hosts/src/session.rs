//! One coordinator's session on a host (`radioflow serve`): the token, the part built and its
//! links bound, the graph started, run, watched and reported on, and everything released when
//! the coordinator closes the session or is lost.

use crate::link::{LinkEnd, LinkFlags, LinkMessageSink, LinkMessageSource, LinkSink, LinkSource};
use crate::token;
use crate::wire::{
    self, BlockReport, FromHost, LinkReady, Part, PartLink, ToHost, HEARTBEAT_EVERY, PEER_TIMEOUT,
};
use radioflow_graphfile::{BuiltGraph, End, GraphDescription};
use radioflow_runtime::registry::Dtype;
use radioflow_runtime::{
    with_dtype, Block, BlockId, Direction, Pmt, PortName, PortRef, Scheduler, SchedulerSpec,
};
use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, TcpStream};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a new connection's hello was not accepted.
#[derive(Debug)]
pub(crate) enum HelloError {
    /// Tell the peer this reason (a [`FromHost::Refused`]), then close.
    Refuse(String),
    /// The connection failed: nobody to tell.
    Lost(String),
}

/// Reads a new connection's hello, within `timeout` in all (a peer sending a byte at a time
/// gets no longer), and checks its version and token.
pub(crate) fn check_hello(
    stream: &mut TcpStream,
    expected: &str,
    timeout: Duration,
) -> Result<(), HelloError> {
    let _ = stream.set_nodelay(true);
    let mut reader = Deadline {
        stream,
        until: Instant::now() + timeout,
    };
    let hello: ToHost = match wire::recv(&mut reader, Some(wire::MAX_HELLO)) {
        Ok(hello) => hello,
        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
            return Err(HelloError::Refuse(format!(
                "no hello within {} (a coordinator says hello as soon as it connects)",
                seconds(timeout)
            )))
        }
        Err(e) if e.kind() == ErrorKind::InvalidData => {
            return Err(HelloError::Refuse(e.to_string()))
        }
        Err(e) if e.kind() == ErrorKind::UnexpectedEof => {
            return Err(HelloError::Lost(
                "closed the connection without a hello".into(),
            ))
        }
        Err(e) => return Err(HelloError::Lost(format!("no hello: {e}"))),
    };
    match hello {
        ToHost::Hello { version, .. } if version != wire::VERSION => {
            Err(HelloError::Refuse(format!(
                "protocol version {version}, this serve speaks {}",
                wire::VERSION
            )))
        }
        ToHost::Hello { token: given, .. } if token::same(&given, expected) => Ok(()),
        ToHost::Hello { .. } => Err(HelloError::Refuse(
            "wrong token (give the token this serve was started with: --token)".into(),
        )),
        _ => Err(HelloError::Refuse(
            "the first message must be a hello".into(),
        )),
    }
}

/// `1 s`, `0.5 s`.
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// Reads from a stream until a deadline: each read waits at most what is left of it.
struct Deadline<'a> {
    stream: &'a mut TcpStream,
    until: Instant,
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// Tells the peer why it is refused (best effort: it may be gone) and closes the connection.
pub(crate) fn refuse(stream: &mut TcpStream, reason: String) {
    // A peer that reads nothing must not hold the thread: the reason is a few hundred bytes
    // on a connection that was sent nothing before, so this write does not wait.
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = wire::send(stream, &FromHost::Refused { reason });
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// Runs the session of a coordinator whose hello was accepted on `stream` until it closes it
/// or is lost; data links bind on `ip`. Returns what to log.
pub(crate) fn run(mut stream: TcpStream, ip: IpAddr) -> Result<String, String> {
    stream.set_read_timeout(None).map_err(|e| e.to_string())?;
    wire::send(&mut stream, &FromHost::Welcome).map_err(|e| e.to_string())?;
    let mut session = Session::new(stream, ip)?;
    session.serve()
}

/// A host's state in a session.
struct Session {
    stream: TcpStream,
    messages: mpsc::Receiver<Result<ToHost, String>>,
    ip: IpAddr,
    context: zmq::Context,
    host: String,
    graph: Option<BuiltGraph>,
    scheduler: Option<Box<dyn Scheduler>>,
    /// Receiving link ends: their flags (set when their readers finished, frames dropped)
    /// and whether their closing was reported.
    incoming: Vec<(u32, Arc<LinkFlags>, bool, BlockId)>,
    /// Sending link ends, made at start.
    outgoing: Vec<(PartLink, Option<Dtype>, PortRef)>,
    /// Their flags, by link id, once made.
    outgoing_flags: Vec<(u32, Arc<LinkFlags>)>,
    last_word: Instant,
    next_beat: Instant,
    /// The graph ran and its end was reported.
    reported: bool,
}

impl Session {
    fn new(stream: TcpStream, ip: IpAddr) -> Result<Self, String> {
        let mut reader = stream.try_clone().map_err(|e| e.to_string())?;
        let (tx, messages) = mpsc::channel();
        std::thread::Builder::new()
            .name("serve-control".into())
            .spawn(move || loop {
                let msg = wire::recv::<ToHost>(&mut reader, None).map_err(|e| e.to_string());
                let end = msg.is_err();
                if tx.send(msg).is_err() || end {
                    break;
                }
            })
            .map_err(|e| e.to_string())?;
        Ok(Self {
            stream,
            messages,
            ip,
            context: zmq::Context::new(),
            host: String::new(),
            graph: None,
            scheduler: None,
            incoming: Vec::new(),
            outgoing: Vec::new(),
            outgoing_flags: Vec::new(),
            last_word: Instant::now(),
            next_beat: Instant::now(),
            reported: false,
        })
    }

    fn send(&mut self, msg: &FromHost) -> Result<(), String> {
        wire::send(&mut self.stream, msg).map_err(|e| format!("coordinator lost: {e}"))
    }

    /// The session's loop: control messages, heartbeats, the graph's end.
    fn serve(&mut self) -> Result<String, String> {
        let result = self.serve_loop();
        if let Some(g) = &mut self.graph
            && g.flowgraph.is_running()
        {
            g.flowgraph.stop();
            let _ = g.flowgraph.wait_timeout(PEER_TIMEOUT);
        }
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        result
    }

    fn serve_loop(&mut self) -> Result<String, String> {
        loop {
            match self.messages.recv_timeout(Duration::from_millis(100)) {
                Ok(Ok(msg)) => {
                    self.last_word = Instant::now();
                    if let Some(end) = self.handle(msg)? {
                        return Ok(end);
                    }
                }
                Ok(Err(e)) => return Err(format!("coordinator lost: {e}")),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("coordinator lost: connection closed".into())
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if self.last_word.elapsed() > PEER_TIMEOUT {
                return Err(format!(
                    "coordinator lost: no word for {} s",
                    PEER_TIMEOUT.as_secs()
                ));
            }
            self.watch()?;
            if Instant::now() >= self.next_beat {
                self.next_beat = Instant::now() + HEARTBEAT_EVERY;
                self.send(&FromHost::Heartbeat)?;
            }
        }
    }

    /// Handles one control message; `Some(text)` ends the session.
    fn handle(&mut self, msg: ToHost) -> Result<Option<String>, String> {
        match msg {
            ToHost::Part { part } => {
                self.host = part.host.clone();
                let reply = match self.build(&part) {
                    Ok(links) => FromHost::Ready { links },
                    Err(error) => FromHost::Failed {
                        error: format!("building its part: {error}"),
                    },
                };
                self.send(&reply)?;
            }
            ToHost::Start { addresses } => {
                let reply = match self.start(&addresses) {
                    Ok(()) => FromHost::Started,
                    Err(error) => FromHost::Failed { error },
                };
                self.send(&reply)?;
            }
            ToHost::LinkClosed { link } => {
                for (id, flags) in &self.outgoing_flags {
                    if *id == link {
                        flags.close();
                    }
                }
            }
            ToHost::Stop => {
                if let Some(g) = &self.graph {
                    g.flowgraph.stop();
                }
            }
            ToHost::Close => return Ok(Some(format!("session of host '{}' closed", self.host))),
            ToHost::Heartbeat => {}
            ToHost::Hello { .. } => return Err("a second hello".into()),
        }
        Ok(None)
    }

    /// Builds the part's blocks and connections and the receiving link ends; the sending
    /// ends wait for their addresses.
    fn build(&mut self, part: &Part) -> Result<Vec<LinkReady>, String> {
        let mut graph = describe_part(part)?.build().map_err(|e| e.to_string())?;
        self.scheduler = Some(
            part.scheduler
                .parse::<SchedulerSpec>()
                .map_err(|e| e.to_string())?
                .build(),
        );
        let mut ready = Vec::new();
        for link in &part.links {
            let fail = |m: String| format!("link {}: {m}", link.text);
            let direction = match (link.message, link.send) {
                (false, true) => Direction::StreamOutput,
                (false, false) => Direction::StreamInput,
                (true, true) => Direction::MessageOutput,
                (true, false) => Direction::MessageInput,
            };
            let (port, index) = local_port(&graph, &link.port, direction).map_err(fail)?;
            let item = if link.message {
                None
            } else {
                let index = index.ok_or_else(|| fail(format!("no port {}", link.port)))?;
                let t = graph
                    .flowgraph
                    .port_item_type(port.block, direction, index)
                    .ok_or_else(|| fail(format!("no {direction} {}", link.port)))?;
                if t.vlen() > 1 {
                    return Err(fail(format!(
                        "{t} items (vectors) cannot cross hosts yet: only scalar streams do"
                    )));
                }
                Some(t.dtype().ok_or_else(|| {
                    fail(format!(
                        "{} items cannot cross hosts (only the library's item types: {})",
                        t.name(),
                        Dtype::list(Dtype::ALL)
                    ))
                })?)
            };
            let mut bound = None;
            if link.send {
                self.outgoing.push((link.clone(), item, port));
            } else {
                let flags = Arc::new(LinkFlags::receiving(part.drop_malformed));
                let who = format!("link {}", link.text);
                let (end, p) = LinkEnd::bind(&self.context, self.ip, who, flags.clone())?;
                bound = Some(p);
                let name = format!("link{}_in", link.id);
                let fg = &mut graph.flowgraph;
                let id = if let Some(d) = item {
                    let block: Box<dyn Block> =
                        with_dtype!(d, T => Box::new(LinkSource::<T>::new(end)));
                    let id = fg.add_boxed(Some(&name), block);
                    fg.connect((id, 0), port).map_err(|e| fail(e.to_string()))?;
                    id
                } else {
                    let id = fg.add_boxed(Some(&name), Box::new(LinkMessageSource::new(end)));
                    fg.connect_message(named(id, "out"), port)
                        .map_err(|e| fail(e.to_string()))?;
                    id
                };
                self.incoming.push((link.id, flags, false, id));
            }
            ready.push(LinkReady {
                id: link.id,
                item: item.map(|d| d.name().to_owned()),
                port: bound,
            });
        }
        self.graph = Some(graph);
        Ok(ready)
    }

    /// Makes the sending link ends (connected to `addresses`) and starts the graph.
    fn start(&mut self, addresses: &[(u32, String)]) -> Result<(), String> {
        let graph = self.graph.as_mut().ok_or("start before a part")?;
        for (link, item, port) in std::mem::take(&mut self.outgoing) {
            let fail = |m: String| format!("link {}: {m}", link.text);
            let address = addresses
                .iter()
                .find(|(id, _)| *id == link.id)
                .map(|(_, a)| a.as_str())
                .ok_or_else(|| fail("no address for its receiving end".into()))?;
            let flags = Arc::new(LinkFlags::default());
            let who = format!("link {}", link.text);
            let end = LinkEnd::connect(&self.context, address, who, flags.clone())?;
            let name = format!("link{}_out", link.id);
            let fg = &mut graph.flowgraph;
            if let Some(d) = item {
                let block: Box<dyn Block> = with_dtype!(d, T => Box::new(LinkSink::<T>::new(end)));
                let id = fg.add_boxed(Some(&name), block);
                fg.connect(port, (id, 0)).map_err(|e| fail(e.to_string()))?;
            } else {
                let id = fg.add_boxed(Some(&name), Box::new(LinkMessageSink::new(end)));
                fg.connect_message(port, named(id, "in"))
                    .map_err(|e| fail(e.to_string()))?;
            }
            self.outgoing_flags.push((link.id, flags));
        }
        let scheduler = self.scheduler.as_deref().ok_or("start before a part")?;
        graph
            .flowgraph
            .start(scheduler)
            .map_err(|e| format!("starting: {e}"))
    }

    /// Reports receiving ends whose readers finished, and the graph's end.
    fn watch(&mut self) -> Result<(), String> {
        let mut closed = Vec::new();
        for (id, flags, reported, _) in &mut self.incoming {
            if !*reported && flags.is_closed() {
                *reported = true;
                closed.push(*id);
            }
        }
        for link in closed {
            self.send(&FromHost::LinkClosed { link })?;
        }
        let Some(graph) = &mut self.graph else {
            return Ok(());
        };
        if self.reported || !graph.flowgraph.is_running() || !graph.flowgraph.is_finished() {
            return Ok(());
        }
        self.reported = true;
        let reply = match graph.flowgraph.wait() {
            Ok(()) => {
                let report = |name: String, id: BlockId, dropped: u64| {
                    let s = graph.flowgraph.stats(id)?;
                    Some(BlockReport {
                        name,
                        consumed: s.items_consumed,
                        produced: s.items_produced,
                        messages: s.messages,
                        dropped,
                    })
                };
                let blocks = graph.blocks.iter().map(|(name, id)| (name.clone(), *id, 0));
                // Receiving link ends are listed when they dropped frames.
                let links = self.incoming.iter().filter_map(|(link, flags, _, id)| {
                    let n = flags.dropped();
                    (n > 0).then(|| (format!("link{link}_in"), *id, n))
                });
                FromHost::Finished {
                    blocks: blocks
                        .chain(links)
                        .filter_map(|(name, id, n)| report(name, id, n))
                        .collect(),
                }
            }
            Err(e) => FromHost::Failed {
                error: e.to_string(),
            },
        };
        self.send(&reply)?;
        let _ = self.stream.flush();
        Ok(())
    }
}

/// The graph description of a part as received (its blocks not made yet): the parameters
/// deserialized, the connections inside the part parsed.
pub(crate) fn describe_part(part: &Part) -> Result<GraphDescription, String> {
    let mut description = GraphDescription::new(format!("host '{}'", part.host));
    for b in &part.blocks {
        let spec = description.add(&b.name, &b.block);
        spec.dtype = b.dtype.clone();
        for (name, bytes) in &b.params {
            let value = Pmt::from_bytes(bytes)
                .map_err(|e| format!("block '{}': parameter {name}: {e}", b.name))?;
            spec.params.push((name.clone(), value));
        }
    }
    for (from, to) in &part.streams {
        description.connect(from, to).map_err(|e| e.to_string())?;
    }
    for (from, to) in &part.messages {
        description
            .connect_message(from, to)
            .map_err(|e| e.to_string())?;
    }
    Ok(description)
}

/// The port `text` (`block.port`) of the part: its reference and, for stream ports, its
/// index among the block's ports of `direction`.
fn local_port(
    graph: &BuiltGraph,
    text: &str,
    direction: Direction,
) -> Result<(PortRef, Option<usize>), String> {
    let end = End::parse(text)?;
    let block = graph
        .id(&end.block)
        .ok_or_else(|| format!("no block named '{}' on this host", end.block))?;
    let names = graph.flowgraph.port_names(block, direction);
    let index = match &end.port {
        PortName::Index(i) => (*i < names.len()).then_some(*i),
        PortName::Name(n) => names.iter().position(|p| p == n),
    };
    Ok((
        PortRef {
            block,
            port: end.port,
        },
        index,
    ))
}

fn named(block: BlockId, port: &str) -> PortRef {
    PortRef {
        block,
        port: PortName::Name(port.to_owned()),
    }
}
