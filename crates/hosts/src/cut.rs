//! Cutting a graph description into one part per host: the blocks assigned to each host,
//! the connections inside it, and a link for every connection between two hosts.

use crate::wire::{Part, PartBlock, PartLink};
use crate::HostsError;
use radioflow_graphfile::{Connection, GraphDescription};
use std::collections::BTreeMap;

/// A cut connection: its two hosts and how errors name it.
#[derive(Clone, Debug)]
pub(crate) struct Link {
    pub(crate) id: u32,
    /// The sending host's index in the host list.
    pub(crate) from: usize,
    /// The receiving host's.
    pub(crate) to: usize,
    /// `a:src.0 -> b:copy.0`.
    pub(crate) text: String,
}

/// The parts (in the order of `hosts`) and the links between them.
#[derive(Debug)]
pub(crate) struct Cut {
    pub(crate) parts: Vec<Part>,
    pub(crate) links: Vec<Link>,
}

/// Cuts `graph` over `hosts` (names, in order); every block needs a host among them. The
/// blocks' ids and parameters are checked against the library first (without making them:
/// they may open files that exist only where they run).
pub(crate) fn cut(
    graph: &GraphDescription,
    hosts: &[String],
    scheduler: &str,
) -> Result<Cut, HostsError> {
    let origin = graph.origin.display().to_string();
    let fail = |message: String| HostsError::Cut {
        origin: origin.clone(),
        message,
    };
    let mut host_of: BTreeMap<&str, usize> = BTreeMap::new();
    let mut parts: Vec<Part> = hosts
        .iter()
        .map(|h| Part {
            host: h.clone(),
            scheduler: scheduler.to_owned(),
            blocks: Vec::new(),
            streams: Vec::new(),
            messages: Vec::new(),
            links: Vec::new(),
            drop_malformed: false,
        })
        .collect();
    let mut unknown: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for b in &graph.blocks {
        let Some(host) = b.host.as_deref() else {
            return Err(fail(format!(
                "block '{}' has no host (when any block names a host, every block must: \
                 host = \"...\")",
                b.name
            )));
        };
        b.check()
            .map_err(|m| fail(format!("block '{}': {m}", b.name)))?;
        let Some(index) = hosts.iter().position(|h| h == host) else {
            unknown.entry(host).or_default().push(&b.name);
            continue;
        };
        if host_of.insert(&b.name, index).is_some() {
            return Err(fail(format!("block '{}' is named twice", b.name)));
        }
        parts[index].blocks.push(PartBlock {
            name: b.name.clone(),
            block: b.block.clone(),
            dtype: b.dtype.clone(),
            params: b
                .params
                .iter()
                .map(|(k, v)| {
                    let mut bytes = Vec::new();
                    v.serialize(&mut bytes);
                    (k.clone(), bytes)
                })
                .collect(),
        });
    }
    if !unknown.is_empty() {
        let list: Vec<String> = unknown
            .iter()
            .map(|(h, blocks)| format!("'{h}' (blocks {})", blocks.join(", ")))
            .collect();
        return Err(fail(format!(
            "hosts not given an address: {} (given: {})",
            list.join(", "),
            hosts.join(", ")
        )));
    }
    let mut links = Vec::new();
    for (list, message) in [(&graph.streams, false), (&graph.messages, true)] {
        for c in list {
            let Connection { from, to, .. } = c;
            let host = |block: &str| {
                host_of
                    .get(block)
                    .copied()
                    .ok_or_else(|| fail(format!("connection '{c}': no block named '{block}'")))
            };
            let (a, b) = (host(&from.block)?, host(&to.block)?);
            let ends = (from.to_string(), to.to_string());
            if a == b {
                let part = &mut parts[a];
                if message {
                    part.messages.push(ends);
                } else {
                    part.streams.push(ends);
                }
                continue;
            }
            let id = links.len() as u32;
            let text = format!("{}:{} -> {}:{}", hosts[a], ends.0, hosts[b], ends.1);
            for (index, send, port) in [(a, true, &ends.0), (b, false, &ends.1)] {
                parts[index].links.push(PartLink {
                    id,
                    message,
                    send,
                    port: port.clone(),
                    text: text.clone(),
                });
            }
            links.push(Link {
                id,
                from: a,
                to: b,
                text,
            });
        }
    }
    Ok(Cut { parts, links })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain() -> GraphDescription {
        let mut g = GraphDescription::new("chain");
        g.add("src", "null_source").dtype("float32").host("a");
        g.add("head", "head")
            .dtype("float32")
            .param("n", 10i64)
            .host("a");
        g.add("copy", "copy").dtype("float32").host("b");
        g.add("sink", "null_sink").dtype("float32").host("c");
        g.connect("src", "head").unwrap();
        g.connect("head", "copy").unwrap();
        g.connect("copy", "sink").unwrap();
        g
    }

    #[test]
    fn connections_between_hosts_become_links() {
        let hosts = ["a", "b", "c"].map(String::from);
        let cut = cut(&chain(), &hosts, "flow").unwrap();
        assert_eq!(cut.parts[0].streams, [("src.0".into(), "head.0".into())]);
        assert_eq!(cut.links.len(), 2);
        assert_eq!(cut.links[0].text, "a:head.0 -> b:copy.0");
        assert_eq!((cut.links[1].from, cut.links[1].to), (1, 2));
        assert_eq!(cut.parts[1].links.len(), 2);
        assert!(!cut.parts[1].links[0].send && cut.parts[1].links[1].send);
    }

    #[test]
    fn blocks_without_a_known_host_are_named() {
        let hosts = ["a", "b"].map(String::from);
        let e = cut(&chain(), &hosts, "flow").unwrap_err().to_string();
        assert!(e.contains("'c' (blocks sink)"), "{e}");
        let mut g = chain();
        g.blocks[2].host = None;
        let e = cut(&g, &["a", "b", "c"].map(String::from), "flow")
            .unwrap_err()
            .to_string();
        assert!(e.contains("block 'copy' has no host"), "{e}");
        let mut g = chain();
        g.blocks[1].params[0].1 = (-1i64).into();
        let e = cut(&g, &["a", "b", "c"].map(String::from), "flow")
            .unwrap_err()
            .to_string();
        assert!(e.contains("block 'head'") && e.contains("n must be"), "{e}");
    }
}
