//! Drop and equality that need a bounded amount of call stack, and the inline stack that the
//! iterative walks share.
//!
//! A GNU Radio list is a chain of pairs, so the derived `Drop` and `PartialEq` would recurse
//! once per item and overflow a thread's stack on a list of some ten thousand items. Every walk
//! over a [`Pmt`] here follows the cdr of a pair in a loop, and keeps its pending work for
//! nested containers on a heap stack (equality and serialization first recurse up to
//! [`RECURSION_BUDGET`] levels, the fastest way for ordinary messages).

use std::sync::Arc;

use crate::Pmt;

/// A LIFO stack whose first `N` entries live inline, so that walking an ordinary message (a
/// PDU, a dict of a few atoms) allocates nothing; deeper walks spill onto the heap.
pub(crate) struct Stack<T: Copy, const N: usize = 8> {
    /// `inline[..len]` hold the bottom entries; `spill` holds those above once `len == N`.
    inline: [Option<T>; N],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy, const N: usize> Stack<T, N> {
    pub(crate) fn new() -> Self {
        Self {
            inline: [None; N],
            len: 0,
            spill: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, item: T) {
        if self.len < N {
            self.inline[self.len] = Some(item);
            self.len += 1;
        } else {
            self.spill.push(item);
        }
    }

    pub(crate) fn pop(&mut self) -> Option<T> {
        if let Some(item) = self.spill.pop() {
            return Some(item);
        }
        debug_assert!(self.len <= N);
        self.len = self.len.checked_sub(1)?;
        self.inline[self.len].take()
    }

    /// The top entry, to change in place.
    pub(crate) fn top_mut(&mut self) -> Option<&mut T> {
        match self.spill.last_mut() {
            Some(item) => Some(item),
            None => self.inline[..self.len].last_mut()?.as_mut(),
        }
    }
}

impl Pmt {
    /// Whether `self` holds other values (and so can make a walk over it deep or long).
    pub(crate) fn is_container(&self) -> bool {
        matches!(
            self,
            Pmt::Pair(_) | Pmt::Dict(_) | Pmt::Vector(_) | Pmt::Tuple(_)
        )
    }

    /// Whether `self` is a container and the only owner of its children, so that dropping it
    /// drops them. A plain load of the count: enough, as `self` cannot be cloned meanwhile.
    fn owns_children(&self) -> bool {
        match self {
            Pmt::Pair(pair) => Arc::strong_count(pair) == 1,
            Pmt::Dict(entries) => Arc::strong_count(entries) == 1,
            Pmt::Vector(items) | Pmt::Tuple(items) => Arc::strong_count(items) == 1,
            _ => false,
        }
    }

    /// Whether `f` holds for a child of `self`.
    fn any_child(&self, mut f: impl FnMut(&Pmt) -> bool) -> bool {
        match self {
            Pmt::Pair(pair) => f(&pair.0) || f(&pair.1),
            Pmt::Dict(entries) => entries.iter().any(|(k, v)| f(k) || f(v)),
            Pmt::Vector(items) | Pmt::Tuple(items) => items.iter().any(f),
            _ => false,
        }
    }

    /// Whether dropping `self` would drop a container inside it, i.e. recurse twice or more.
    fn drop_would_nest(&self) -> bool {
        self.owns_children() && self.any_child(Pmt::is_container)
    }
}

/// Dismantles long chains and deep nests from the top: every child whose own drop would nest
/// further is moved out onto a heap list and dropped from there once emptied the same way, so
/// no drop recurses more than two levels. A child shared with another owner is left in place:
/// dropping it only decrements a count. Atoms and flat containers (most messages) take the
/// fast path, which reads counts but changes nothing and allocates nothing.
impl Drop for Pmt {
    #[inline]
    fn drop(&mut self) {
        if self.owns_children() && self.any_child(Pmt::drop_would_nest) {
            drop_deep(self);
        }
    }
}

#[cold]
#[inline(never)]
fn drop_deep(value: &mut Pmt) {
    // The cdr of a list goes to `next` (no allocation); other detached children to `rest`.
    let mut next: Option<Pmt> = None;
    let mut rest: Vec<Pmt> = Vec::new();
    detach_nesting_children(value, &mut next, &mut rest);
    while let Some(mut value) = next.take().or_else(|| rest.pop()) {
        detach_nesting_children(&mut value, &mut next, &mut rest);
        // `value` drops here, shallowly: its nesting children were moved out.
    }
}

fn detach_nesting_children(value: &mut Pmt, next: &mut Option<Pmt>, rest: &mut Vec<Pmt>) {
    let mut detach = |child: &mut Pmt| {
        if child.drop_would_nest() {
            let child = std::mem::replace(child, Pmt::Null);
            match next {
                None => *next = Some(child),
                Some(_) => rest.push(child),
            }
        }
    };
    // `get_mut` fails only if someone holds a `Weak` (never made here): then this value
    // drops recursively, as before.
    match value {
        Pmt::Pair(pair) => {
            if let Some((car, cdr)) = Arc::get_mut(pair) {
                detach(car);
                detach(cdr);
            }
        }
        Pmt::Dict(entries) => {
            for (k, v) in Arc::get_mut(entries).into_iter().flatten() {
                detach(k);
                detach(v);
            }
        }
        Pmt::Vector(items) | Pmt::Tuple(items) => {
            Arc::get_mut(items).into_iter().flatten().for_each(detach);
        }
        _ => {}
    }
}

/// How many levels of nesting [`Pmt::serialize`] and `==` handle by plain recursion, the
/// fastest way for ordinary messages, before they go on with a heap stack; a few KiB of stack.
pub(crate) const RECURSION_BUDGET: u32 = 32;

/// Structural equality, as derived (NaN differs from itself). Lists are followed in a loop;
/// nesting deeper than `RECURSION_BUDGET` levels is compared on a heap stack.
impl PartialEq for Pmt {
    fn eq(&self, other: &Pmt) -> bool {
        eq_within(self, other, RECURSION_BUDGET)
    }
}

fn eq_within(mut a: &Pmt, mut b: &Pmt, budget: u32) -> bool {
    loop {
        if std::mem::discriminant(a) != std::mem::discriminant(b) {
            return false;
        }
        return match (a, b) {
            (Pmt::Pair(x), Pmt::Pair(y)) if budget > 0 => {
                if !eq_within(&x.0, &y.0, budget - 1) {
                    return false;
                }
                (a, b) = (&x.1, &y.1);
                continue;
            }
            (Pmt::Dict(x), Pmt::Dict(y)) if budget > 0 => {
                x.len() == y.len()
                    && x.iter().zip(y.iter()).all(|((k1, v1), (k2, v2))| {
                        eq_within(k1, k2, budget - 1) && eq_within(v1, v2, budget - 1)
                    })
            }
            (Pmt::Vector(x), Pmt::Vector(y)) | (Pmt::Tuple(x), Pmt::Tuple(y)) if budget > 0 => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|(x, y)| eq_within(x, y, budget - 1))
            }
            _ if a.is_container() => eq_deep(a, b),
            _ => atom_eq(a, b),
        };
    }
}

/// `a == b` for values nested too deeply for [`eq_within`]'s recursion.
#[cold]
fn eq_deep(a: &Pmt, b: &Pmt) -> bool {
    let mut pending: Stack<(&Pmt, &Pmt)> = Stack::new();
    let (mut a, mut b) = (a, b);
    loop {
        match (a, b) {
            // Follow the cdr in the loop; defer the car only if it is a container.
            (Pmt::Pair(x), Pmt::Pair(y)) => {
                if !shallow_eq(&x.0, &y.0, &mut pending) {
                    return false;
                }
                (a, b) = (&x.1, &y.1);
                continue;
            }
            (Pmt::Dict(x), Pmt::Dict(y)) => {
                let same = x.len() == y.len()
                    && x.iter().zip(y.iter()).all(|((k1, v1), (k2, v2))| {
                        shallow_eq(k1, k2, &mut pending) && shallow_eq(v1, v2, &mut pending)
                    });
                if !same {
                    return false;
                }
            }
            (Pmt::Vector(x), Pmt::Vector(y)) | (Pmt::Tuple(x), Pmt::Tuple(y)) => {
                let same = x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|(x, y)| shallow_eq(x, y, &mut pending));
                if !same {
                    return false;
                }
            }
            _ => {
                if !atom_eq(a, b) {
                    return false;
                }
            }
        }
        match pending.pop() {
            Some((x, y)) => (a, b) = (x, y),
            None => return true,
        }
    }
}

/// Compares atoms now; two containers of the same kind are pushed to `pending` and count as
/// equal for now.
fn shallow_eq<'a>(a: &'a Pmt, b: &'a Pmt, pending: &mut Stack<(&'a Pmt, &'a Pmt)>) -> bool {
    if a.is_container() && std::mem::discriminant(a) == std::mem::discriminant(b) {
        pending.push((a, b));
        true
    } else {
        atom_eq(a, b)
    }
}

/// Equality of values that hold no other values; false for containers.
#[inline]
fn atom_eq(a: &Pmt, b: &Pmt) -> bool {
    match (a, b) {
        (Pmt::Null, Pmt::Null) => true,
        (Pmt::Bool(x), Pmt::Bool(y)) => x == y,
        (Pmt::Symbol(x), Pmt::Symbol(y)) => x == y,
        (Pmt::Int(x), Pmt::Int(y)) => x == y,
        (Pmt::Uint64(x), Pmt::Uint64(y)) => x == y,
        (Pmt::Double(x), Pmt::Double(y)) => x == y,
        (Pmt::Complex(x), Pmt::Complex(y)) => x == y,
        (Pmt::U8Vector(x), Pmt::U8Vector(y)) => x == y,
        (Pmt::S8Vector(x), Pmt::S8Vector(y)) => x == y,
        (Pmt::U16Vector(x), Pmt::U16Vector(y)) => x == y,
        (Pmt::S16Vector(x), Pmt::S16Vector(y)) => x == y,
        (Pmt::U32Vector(x), Pmt::U32Vector(y)) => x == y,
        (Pmt::S32Vector(x), Pmt::S32Vector(y)) => x == y,
        (Pmt::U64Vector(x), Pmt::U64Vector(y)) => x == y,
        (Pmt::S64Vector(x), Pmt::S64Vector(y)) => x == y,
        (Pmt::F32Vector(x), Pmt::F32Vector(y)) => x == y,
        (Pmt::F64Vector(x), Pmt::F64Vector(y)) => x == y,
        (Pmt::C32Vector(x), Pmt::C32Vector(y)) => x == y,
        (Pmt::C64Vector(x), Pmt::C64Vector(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_is_lifo_across_the_inline_part_and_the_spill() {
        let mut stack: Stack<usize, 3> = Stack::new();
        for i in 0..10 {
            stack.push(i);
        }
        *stack.top_mut().unwrap() = 99;
        let popped: Vec<_> = std::iter::from_fn(|| stack.pop()).collect();
        assert_eq!(popped, [99, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
        assert!(stack.top_mut().is_none());
    }

    #[test]
    fn equality_matches_the_derived_rules() {
        let nan = Pmt::list([Pmt::Double(f64::NAN)]);
        assert_ne!(nan, nan.clone());
        assert_ne!(Pmt::Int(1), Pmt::Uint64(1));
        assert_ne!(Pmt::Vector(Arc::new([])), Pmt::Tuple(Arc::new([])));
        assert_ne!(Pmt::pair(1, 2), Pmt::pair(1, Pmt::pair(2, Pmt::Null)));
        assert_eq!(
            Pmt::dict_from([("a", Pmt::list([Pmt::Int(1)]))]),
            Pmt::dict_from([("a", Pmt::list([Pmt::Int(1)]))])
        );
    }
}
