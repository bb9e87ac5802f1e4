//! [`Topology`]: the shape of a graph as schedulers see it, and the order they run it in; and
//! the stream cycle a graph must not have.

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

/// A cycle through the `(writer, reader)` block pairs `edges` of a graph of `blocks` blocks
/// (first block repeated at the end), if there is one.
pub(crate) fn find_cycle(
    blocks: usize,
    edges: impl IntoIterator<Item = (usize, usize)>,
) -> Option<Vec<usize>> {
    let mut succ = vec![Vec::new(); blocks];
    for (a, b) in edges {
        succ[a].push(b);
    }
    // 0 = unvisited, 1 = on the DFS stack, 2 = done
    let mut color = vec![0u8; blocks];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..blocks {
        if color[root] != 0 {
            continue;
        }
        stack.push((root, 0));
        color[root] = 1;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if let Some(&w) = succ[v].get(*i) {
                *i += 1;
                match color[w] {
                    0 => {
                        color[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => {
                        let start = stack.iter().position(|&(x, _)| x == w).unwrap_or(0);
                        let mut c: Vec<usize> = stack[start..].iter().map(|&(x, _)| x).collect();
                        c.push(w);
                        return Some(c);
                    }
                    _ => {}
                }
            } else {
                color[v] = 2;
                stack.pop();
            }
        }
    }
    None
}
