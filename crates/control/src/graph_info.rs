//! [`GraphInfo`]: the shape of a flowgraph (blocks, their ports and item types, connections),
//! read once when the control port is attached; the shape of a graph does not change while it
//! runs.

use radioflow_runtime::{BlockId, Direction, Flowgraph, MessageType};
use serde::Serialize;

/// One port of a block.
#[derive(Clone, Debug, Serialize)]
pub struct PortInfo {
    /// The port's name.
    pub name: String,
    /// The item type of a stream port (`complex64`, `float32`, ...); `None` for message ports.
    pub item: Option<String>,
}

/// One block.
#[derive(Clone, Debug, Serialize)]
pub struct BlockInfo {
    /// Its index in the flowgraph.
    pub id: usize,
    /// Its instance name.
    pub name: String,
    /// Its Rust type name.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Whether its `work` waits on a clock or a device by design (a throttle, a sound card,
    /// a radio): never named the bottleneck.
    pub paced: bool,
    /// Stream inputs.
    pub inputs: Vec<PortInfo>,
    /// Stream outputs.
    pub outputs: Vec<PortInfo>,
    /// Message inputs; each is also a settable parameter (see the crate docs).
    pub message_inputs: Vec<String>,
    /// What each message input accepts, where its handler takes a typed value (a value that
    /// does not convert is refused with a 400 before it reaches the block).
    #[serde(skip)]
    pub message_input_types: Vec<Option<MessageType>>,
    /// What each message input takes ("a number"), `null` for any message (in the JSON for
    /// the page's hints).
    pub message_input_takes: Vec<Option<&'static str>>,
    /// Message outputs.
    pub message_outputs: Vec<String>,
}

/// One connection: `src.src_port -> dst.dst_port`.
#[derive(Clone, Debug, Serialize)]
pub struct EdgeInfo {
    /// The writing block's name.
    pub src: String,
    /// The writer's port name.
    pub src_port: String,
    /// The reading block's name.
    pub dst: String,
    /// The reader's port name.
    pub dst_port: String,
    /// The item type of a stream connection; `None` for message connections.
    pub item: Option<String>,
}

/// A flowgraph's blocks and connections.
#[derive(Clone, Debug, Serialize)]
pub struct GraphInfo {
    /// Every block, in index order.
    pub blocks: Vec<BlockInfo>,
    /// Stream connections.
    pub edges: Vec<EdgeInfo>,
    /// Message connections.
    pub message_edges: Vec<EdgeInfo>,
}

impl GraphInfo {
    /// The shape of `fg`.
    pub fn of(fg: &Flowgraph) -> Self {
        let ports = |id: BlockId, d: Direction| -> Vec<PortInfo> {
            fg.port_names(id, d)
                .into_iter()
                .enumerate()
                .map(|(i, name)| PortInfo {
                    name: name.to_owned(),
                    item: fg.port_item_type(id, d, i).map(|t| t.to_string()),
                })
                .collect()
        };
        let names = |id: BlockId, d: Direction| -> Vec<String> {
            fg.port_names(id, d)
                .into_iter()
                .map(str::to_owned)
                .collect()
        };
        let message_types = |id: BlockId| -> Vec<Option<MessageType>> {
            (0..fg.port_names(id, Direction::MessageInput).len())
                .map(|i| fg.message_input_type(id, i))
                .collect()
        };
        let blocks = (0..fg.len())
            .map(BlockId::from_index)
            .map(|id| BlockInfo {
                id: id.index(),
                name: fg.name(id).to_owned(),
                type_name: fg.type_name(id).to_owned(),
                paced: fg.is_paced(id),
                inputs: ports(id, Direction::StreamInput),
                outputs: ports(id, Direction::StreamOutput),
                message_inputs: names(id, Direction::MessageInput),
                message_input_types: message_types(id),
                message_input_takes: message_types(id)
                    .iter()
                    .map(|t| t.map(|t| t.expects()))
                    .collect(),
                message_outputs: names(id, Direction::MessageOutput),
            })
            .collect::<Vec<_>>();
        let edge = |((s, sp), (d, dp)): ((BlockId, usize), (BlockId, usize)), stream: bool| {
            let (out, inp) = if stream {
                (Direction::StreamOutput, Direction::StreamInput)
            } else {
                (Direction::MessageOutput, Direction::MessageInput)
            };
            EdgeInfo {
                src: fg.name(s).to_owned(),
                src_port: fg
                    .port_names(s, out)
                    .get(sp)
                    .copied()
                    .unwrap_or("?")
                    .to_owned(),
                dst: fg.name(d).to_owned(),
                dst_port: fg
                    .port_names(d, inp)
                    .get(dp)
                    .copied()
                    .unwrap_or("?")
                    .to_owned(),
                item: if stream {
                    fg.port_item_type(s, out, sp).map(|t| t.to_string())
                } else {
                    None
                },
            }
        };
        Self {
            blocks,
            edges: fg
                .stream_connections()
                .into_iter()
                .map(|e| edge(e, true))
                .collect(),
            message_edges: fg
                .message_connections()
                .into_iter()
                .map(|e| edge(e, false))
                .collect(),
        }
    }

    /// The shape of a program's [`Tasks`](crate::Tasks): each a block of type `task` without
    /// ports, each edge a connection from `out` to `in` carrying what it names.
    pub fn of_tasks(tasks: &crate::Tasks) -> Self {
        let blocks = tasks
            .names
            .iter()
            .enumerate()
            .map(|(id, name)| BlockInfo {
                id,
                name: name.clone(),
                type_name: "task".into(),
                paced: false,
                inputs: Vec::new(),
                outputs: Vec::new(),
                message_inputs: Vec::new(),
                message_input_types: Vec::new(),
                message_input_takes: Vec::new(),
                message_outputs: Vec::new(),
            })
            .collect();
        let edges = tasks
            .edges
            .iter()
            .filter(|(a, b, _)| *a < tasks.names.len() && *b < tasks.names.len())
            .map(|(a, b, what)| EdgeInfo {
                src: tasks.names[*a].clone(),
                src_port: "out".into(),
                dst: tasks.names[*b].clone(),
                dst_port: "in".into(),
                item: Some(what.clone()),
            })
            .collect();
        Self {
            blocks,
            edges,
            message_edges: Vec::new(),
        }
    }

    /// The block named `name`.
    pub fn block(&self, name: &str) -> Option<&BlockInfo> {
        self.blocks.iter().find(|b| b.name == name)
    }
}
