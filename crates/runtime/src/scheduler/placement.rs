//! Which worker runs which block: the graph is cut into chains, chains are spread over workers.

use crate::topology::Topology;

/// Where a block runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// On worker `n`, with the other blocks of its chains.
    Worker(usize),
    /// On a thread of its own (blocks whose work may block).
    Dedicated,
}

/// Maximal chains of blocks linked one-to-one (a block continues its predecessor's chain when
/// it is that predecessor's only successor and has no other predecessor), in execution order.
/// Stream and message connections both count; blocking blocks are left out. Observers
/// ([`Topology::observer`]) do not count as successors: one joins the chain of its writer (of
/// its only predecessor), so a probe leaves the chain it watches whole.
pub(crate) fn chains(topo: &Topology, order: &[usize]) -> Vec<Vec<usize>> {
    let n = topo.len();
    let observer = |b: usize| topo.observer.get(b).copied().unwrap_or(false);
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in topo.stream_edges.iter().chain(&topo.message_edges) {
        if a != b && !pred[b].contains(&a) {
            pred[b].push(a);
            if !observer(b) {
                succ[a].push(b);
            }
        }
    }
    let mut chain_of: Vec<Option<usize>> = vec![None; n];
    let mut chains: Vec<Vec<usize>> = Vec::new();
    for &b in order {
        if topo.blocking[b] {
            continue;
        }
        let continues = match pred[b].as_slice() {
            [p] if observer(b) && !topo.blocking[*p] => chain_of[*p],
            [p] if succ[*p].len() == 1 && !topo.blocking[*p] => chain_of[*p],
            _ => None,
        };
        let c = continues.unwrap_or_else(|| {
            chains.push(Vec::new());
            chains.len() - 1
        });
        chains[c].push(b);
        chain_of[b] = Some(c);
    }
    chains
}

/// Mean blocks per worker below which no chain is cut at start.
pub(crate) const MIN_SPLIT_MEAN: usize = 8;

/// Where each block runs, and the chains as placed (a chain never spans two workers).
#[derive(Debug)]
pub(crate) struct Plan {
    pub(crate) placement: Vec<Placement>,
    pub(crate) chains: Vec<Vec<usize>>,
}

/// Spreads chains over `workers` so that every worker gets about the same number of blocks:
/// longest chains first, each to the least loaded worker; then, while the most and least
/// loaded workers differ by a quarter of the mean load or more (at least 4 blocks), the tail
/// of a chain of the most loaded one moves to the least loaded one (three equal pipes on two
/// cores become one and a half each). A split costs one connection between cores, which is
/// why small differences are left alone, and small graphs (fewer than [`MIN_SPLIT_MEAN`]
/// blocks per worker) are never cut: their workers would mostly hand chunks to each other and
/// sleep (a 4-block chain cut in two ran 20 times slower per item than on one worker).
pub(crate) fn place(topo: &Topology, order: &[usize], workers: usize) -> Plan {
    let workers = workers.max(1);
    let mut chains = chains(topo, order);
    chains.sort_by_key(|c| std::cmp::Reverse(c.len()));
    let mut load = vec![0usize; workers];
    let mut worker_of = Vec::with_capacity(chains.len());
    for chain in &chains {
        let w = (0..workers).min_by_key(|&w| (load[w], w)).unwrap_or(0);
        load[w] += chain.len();
        worker_of.push(w);
    }
    let total: usize = load.iter().sum();
    let threshold = (total / workers / 4).max(4);
    loop {
        if total / workers < MIN_SPLIT_MEAN {
            break;
        }
        let hi = (0..workers).max_by_key(|&w| (load[w], w)).unwrap_or(0);
        let lo = (0..workers).min_by_key(|&w| (load[w], w)).unwrap_or(0);
        let gap = load[hi] - load[lo];
        if gap < threshold {
            break;
        }
        let k = gap / 2;
        let Some(c) = (0..chains.len()).find(|&c| worker_of[c] == hi && chains[c].len() > k) else {
            break;
        };
        let keep = chains[c].len() - k;
        let tail = chains[c].split_off(keep);
        chains.push(tail);
        worker_of.push(lo);
        load[hi] -= k;
        load[lo] += k;
    }
    let mut placement = vec![Placement::Dedicated; topo.len()];
    for (chain, &w) in chains.iter().zip(&worker_of) {
        for &b in chain {
            placement[b] = Placement::Worker(w);
        }
    }
    Plan { placement, chains }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topo(n: usize, stream: &[(usize, usize)], blocking: &[usize]) -> Topology {
        Topology {
            names: (0..n).map(|i| i.to_string().into()).collect(),
            stream_edges: stream.to_vec(),
            message_edges: Vec::new(),
            blocking: (0..n).map(|i| blocking.contains(&i)).collect(),
            observer: vec![false; n],
        }
    }

    #[test]
    fn an_observer_joins_its_writers_chain_instead_of_cutting_it() {
        // 0 -> 1 -> 2 -> 3, and 4 watching 1's output.
        let mut t = topo(5, &[(0, 1), (1, 2), (2, 3), (1, 4)], &[]);
        let order = t.execution_order();
        assert_eq!(
            chains(&t, &order).len(),
            3,
            "a plain fan-out cuts the chain"
        );
        t.observer[4] = true;
        let c = chains(&t, &order);
        assert_eq!(c.len(), 1, "{c:?}");
        let mut all = c[0].clone();
        all.sort_unstable();
        assert_eq!(all, [0, 1, 2, 3, 4]);
        let p = place(&t, &order, 2).placement;
        assert!(p.iter().all(|&w| w == p[0]), "{p:?}");
    }

    #[test]
    fn fan_out_cuts_chains_and_pipes_spread_evenly() {
        // 0 -> 1 -> {2 -> 3, 4 -> 5, 6 -> 7, 8 -> 9}
        let edges = [
            (0, 1),
            (1, 2),
            (2, 3),
            (1, 4),
            (4, 5),
            (1, 6),
            (6, 7),
            (1, 8),
            (8, 9),
        ];
        let t = topo(10, &edges, &[]);
        let order = t.execution_order();
        let c = chains(&t, &order);
        assert_eq!(
            c,
            vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7], vec![8, 9]]
        );
        let p = place(&t, &order, 2).placement;
        let on = |w| (0..10).filter(|&b| p[b] == Placement::Worker(w)).count();
        assert_eq!(on(0) + on(1), 10);
        assert!(on(0).abs_diff(on(1)) <= 2);
        for (a, b) in [(2, 3), (4, 5), (6, 7), (8, 9), (0, 1)] {
            assert_eq!(p[a], p[b], "a chain stays on one worker");
        }
    }

    #[test]
    fn fan_in_starts_a_chain_and_blocking_blocks_get_their_own_thread() {
        // 0 -> 2, 1 -> 2, 2 -> 3 (3 blocks)
        let t = topo(4, &[(0, 2), (1, 2), (2, 3)], &[3]);
        let order = t.execution_order();
        assert_eq!(chains(&t, &order), vec![vec![0], vec![1], vec![2]]);
        assert_eq!(place(&t, &order, 4).placement[3], Placement::Dedicated);
    }

    #[test]
    fn three_pipes_on_two_workers_are_split_evenly() {
        // Three pipes of 12 blocks: 24 and 12 by whole chains, 18 and 18 after a split.
        let mut edges = Vec::new();
        for p in 0..3 {
            for k in 0..11 {
                edges.push((p * 12 + k, p * 12 + k + 1));
            }
        }
        let t = topo(36, &edges, &[]);
        let order = t.execution_order();
        let plan = place(&t, &order, 2);
        let on = |w| {
            (0..36)
                .filter(|&b| plan.placement[b] == Placement::Worker(w))
                .count()
        };
        assert_eq!((on(0), on(1)), (18, 18));
        assert_eq!(plan.chains.len(), 4, "one pipe cut in two");
        for chain in &plan.chains {
            assert!(chain
                .iter()
                .all(|&b| plan.placement[b] == plan.placement[chain[0]]));
            // A cut keeps the pieces contiguous: consecutive blocks of one pipe.
            assert!(chain.windows(2).all(|w| w[1] == w[0] + 1));
        }
    }

    #[test]
    fn small_graphs_are_not_cut() {
        // One chain of 4 blocks on two workers: mean 2 blocks per worker, stays whole.
        let t = topo(4, &[(0, 1), (1, 2), (2, 3)], &[]);
        let order = t.execution_order();
        let plan = place(&t, &order, 2);
        assert_eq!(plan.chains, vec![vec![0, 1, 2, 3]]);
    }

    #[test]
    fn small_differences_are_not_split() {
        // Two pipes of 3 and one of 2 on two workers: 3+2 vs 3 stays (a split would gain 1).
        let t = topo(8, &[(0, 1), (1, 2), (3, 4), (4, 5), (6, 7)], &[]);
        let order = t.execution_order();
        let plan = place(&t, &order, 2);
        assert_eq!(plan.chains.len(), 3);
    }
}
