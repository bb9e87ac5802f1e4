//! [`Topology`]: the shape of a graph as schedulers see it, and the order they run it in.

/// The shape of a graph as schedulers see it (block indices are [`BlockId::index`](crate::BlockId::index)).
#[derive(Clone, Debug)]
pub struct Topology {
    /// Instance names.
    pub names: Vec<std::sync::Arc<str>>,
    /// `(writer, reader)` block pairs of every stream connection.
    pub stream_edges: Vec<(usize, usize)>,
    /// `(sender, receiver)` block pairs of every message connection.
    pub message_edges: Vec<(usize, usize)>,
    /// Blocks whose work may block their thread.
    pub blocking: Vec<bool>,
    /// Cheap sinks that only watch a stream ([`Block::is_observer`](crate::Block::is_observer)).
    pub observer: Vec<bool>,
}

impl Topology {
    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no blocks.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Blocks ordered so that every writer or message sender comes before its readers and
    /// receivers, visiting each branch to its end before the next (depth-first), so a chunk
    /// crosses a chain in one pass. Blocks on message cycles (the stream graph has none once
    /// validated) follow in insertion order.
    pub fn execution_order(&self) -> Vec<usize> {
        let n = self.len();
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut indeg = vec![0usize; n];
        for &(a, b) in self.stream_edges.iter().chain(&self.message_edges) {
            succ[a].push(b);
            indeg[b] += 1;
        }
        let mut order = Vec::with_capacity(n);
        let mut placed = vec![false; n];
        // A stack gives depth-first order; sources are pushed so the first added runs first.
        let mut stack: Vec<usize> = (0..n).rev().filter(|&b| indeg[b] == 0).collect();
        while let Some(b) = stack.pop() {
            order.push(b);
            placed[b] = true;
            for &d in succ[b].iter().rev() {
                indeg[d] -= 1;
                if indeg[d] == 0 {
                    stack.push(d);
                }
            }
        }
        order.extend((0..n).filter(|&b| !placed[b]));
        order
    }
}
