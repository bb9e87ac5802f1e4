//! The element-wise family: blocks whose output item `n` is an operation on the input items
//! at position `n` (GNU Radio's math and type-conversion blocks), each declared by naming its
//! operation, a kernel of [`radioflow_dsp`] over a window of items. A block of the family is
//! the struct, its declaration (registry entry, docs) and its `work`, written here once:
//!
//! - [`with_constant!`]: `out = in ∘ k` with a constant `k` of the item type
//!   ([`AddConst`](crate::AddConst), [`MultiplyConst`](crate::MultiplyConst));
//! - [`between_streams!`]: `out = in0 ∘ in1 ∘ …` over a number of input streams
//!   ([`Add`](crate::Add), [`Subtract`](crate::Subtract), [`Multiply`](crate::Multiply),
//!   [`Divide`](crate::Divide));
//! - [`map!`]: `out = f(in)` from one stream to one stream, the item type the same or not,
//!   with parameters (conversions, [`Abs`](crate::Abs), [`Nlog10`](crate::Nlog10), ...); a
//!   group of input items may make a group of output items (interleaved I/Q);
//! - [`two_inputs!`]: `out = f(a, b)` ([`MultiplyConjugate`](crate::MultiplyConjugate),
//!   [`FloatToComplex`](crate::FloatToComplex), ...), the second input optional where GNU Radio's is;
//! - [`two_outputs!`]: `(a, b) = f(in)` ([`ComplexToFloat`](crate::ComplexToFloat),
//!   [`ComplexToMagphase`](crate::ComplexToMagphase)), the second output optional where GNU
//!   Radio's is.
//!
//! Every block computes what GNU Radio 3.10's block of the same name computes, item for item
//! (each block's docs say where GNU Radio's result is not defined and what is given instead);
//! tags go to the output items made from the items they are on.

use radioflow_runtime::{Item, StreamInput, StreamOutput, Tag};

/// One work call of a [`map!`] block: `f` gets `n · a` input items and `n · b` output items
/// for the largest `n` both windows hold (`a` and `b` are 1 but for interleaved items); the
/// tags on those input items go to the first output item made from them. Returns `n · a`.
#[inline]
pub(crate) fn grouped_work<I: Item, O: Item>(
    input: &mut StreamInput<I>,
    output: &mut StreamOutput<O>,
    (a, b): (usize, usize),
    f: impl FnOnce(&[I], &mut [O]),
) -> usize {
    if (a, b) == (1, 1) {
        return radioflow_runtime::one_to_one_work(input, output, usize::MAX, f);
    }
    let i = input.slice();
    let o = output.slice();
    let n = (i.len() / a).min(o.len() / b);
    f(&i[..n * a], &mut o[..n * b]);
    if !input.tags().is_empty() {
        let (from, to) = (input.offset(), output.offset());
        for t in input
            .tags()
            .iter()
            .take_while(|t| t.offset < from + (n * a) as u64)
        {
            let at = (t.offset - from) / a as u64 * b as u64;
            output.push_tag(Tag {
                offset: to + at,
                ..t.clone()
            });
        }
    }
    input.consume(n * a);
    output.produce(n * b);
    n * a
}

/// Declares the block `$name<T>` computing `out[n] = $kernel(in[n], k)` for a constant `k`:
/// `$kernel(input, k, output)` fills `output` from `input`, and `$formula` says what it
/// computes (`in + k`). The doc comments given become the block's (purpose and example).
macro_rules! with_constant {
    (
        $(#[$doc:meta])*
        $name:ident {
            id: $id:literal,
            summary: $summary:literal,
            formula: $formula:literal,
            kernel: $kernel:path $(,)?
        }
    ) => {
        $(#[$doc])*
        #[::radioflow_runtime::registry::library_block(
            id = $id, summary = $summary, dtypes = all, make = Self::new(k).with_vlen(vlen)
        )]
        #[param(k: T, settable, doc = "the constant (the same for every position of a vector)")]
        #[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
        #[derive(Debug)]
        pub struct $name<T: ::radioflow_runtime::Item + ::radioflow_dsp::Arith + ::radioflow_runtime::FromMessage> {
            /// The items.
            #[input(name = "in")]
            input: ::radioflow_runtime::StreamInput<T>,
            #[doc = ::core::concat!(" `", $formula, "`, with the input's tags.")]
            #[output(name = "out")]
            output: ::radioflow_runtime::StreamOutput<T>,
            k: T,
        }

        #[::radioflow_runtime::block]
        impl<T: ::radioflow_runtime::Item + ::radioflow_dsp::Arith + ::radioflow_runtime::FromMessage> $name<T> {
            #[doc = ::core::concat!("A block computing `", $formula, "`.")]
            pub fn new(k: T) -> Self {
                Self {
                    input: ::radioflow_runtime::StreamInput::new(),
                    output: ::radioflow_runtime::StreamOutput::new(),
                    k,
                }
            }

            /// Works on vectors of `vlen` scalars (at least 1), the constant applied to each.
            pub fn with_vlen(mut self, vlen: usize) -> Self {
                self.input.set_vlen(vlen);
                self.output.set_vlen(vlen);
                self
            }

            /// Sets the constant, from the next work call on (GNU Radio's `set_k`).
            pub fn set_k(&mut self, k: T) {
                self.k = k;
            }

            fn work(
                &mut self,
            ) -> ::core::result::Result<::radioflow_runtime::WorkStatus, ::radioflow_runtime::BlockError>
            {
                let k = self.k;
                ::radioflow_runtime::one_to_one_work(
                    &mut self.input,
                    &mut self.output,
                    usize::MAX,
                    |i, o| $kernel(i, k, o),
                );
                Ok(::radioflow_runtime::WorkStatus::Continue)
            }
        }
    };
}

/// Declares the block `$name<T>` computing `out = in ∘ k` on vectors of `k.len()` items, one
/// constant per position: `$kernel(input, k, output)` fills `output` from `input` (whole
/// vectors), and `$formula` says what it computes. The doc comments given become the block's.
macro_rules! per_position {
    (
        $(#[$doc:meta])*
        $name:ident {
            id: $id:literal,
            summary: $summary:literal,
            formula: $formula:literal,
            kernel: $kernel:path $(,)?
        }
    ) => {
        $(#[$doc])*
        #[::radioflow_runtime::registry::library_block(
            id = $id, summary = $summary, dtypes = all,
            make = Self::new(k).map_err(|e| ::radioflow_runtime::registry::Refused::param("k", e))
        )]
        #[param(k: Vec<T>, doc = "one constant per position of the vectors (their length)")]
        #[derive(Debug)]
        pub struct $name<T: ::radioflow_runtime::Item + ::radioflow_dsp::Arith> {
            /// Vectors of `k.len()` items.
            #[input(name = "in")]
            input: ::radioflow_runtime::StreamInput<T>,
            #[doc = ::core::concat!(" `", $formula, "`, with the input's tags.")]
            #[output(name = "out")]
            output: ::radioflow_runtime::StreamOutput<T>,
            k: Vec<T>,
        }

        #[::radioflow_runtime::block]
        impl<T: ::radioflow_runtime::Item + ::radioflow_dsp::Arith> $name<T> {
            #[doc = ::core::concat!("A block computing `", $formula, "` on vectors of `k.len()` items.")]
            ///
            /// # Errors
            /// If `k` is empty.
            pub fn new(k: Vec<T>) -> ::core::result::Result<Self, ::std::string::String> {
                if k.is_empty() {
                    return Err("no constant: vectors of 0 items".into());
                }
                Ok(Self {
                    input: ::radioflow_runtime::StreamInput::new().with_vlen(k.len()),
                    output: ::radioflow_runtime::StreamOutput::new().with_vlen(k.len()),
                    k,
                })
            }

            fn work(
                &mut self,
            ) -> ::core::result::Result<::radioflow_runtime::WorkStatus, ::radioflow_runtime::BlockError>
            {
                let k = &self.k;
                ::radioflow_runtime::one_to_one_work(
                    &mut self.input,
                    &mut self.output,
                    usize::MAX,
                    |i, o| $kernel(i, k, o),
                );
                Ok(::radioflow_runtime::WorkStatus::Continue)
            }
        }
    };
}

/// Declares the block `$name<T>` computing `out[n] = in0[n] ∘ in1[n] ∘ …` over `inputs`
/// streams (ports `in0`, `in1`, ...; at least one): `$kernel(acc, input)` folds `input` into
/// `acc` item by item, and `$formula` says what the block computes. The doc comments given
/// become the block's (purpose and example).
macro_rules! between_streams {
    (
        $(#[$doc:meta])*
        $name:ident {
            id: $id:literal,
            summary: $summary:literal,
            dtypes: $dtypes:tt,
            formula: $formula:literal,
            kernel: $kernel:path $(,)?
        }
    ) => {
        $(#[$doc])*
        #[::radioflow_runtime::registry::library_block(
            id = $id, summary = $summary, dtypes = $dtypes, make = Self::new(inputs).with_vlen(vlen)
        )]
        #[param(inputs: usize = 2, min = 1, doc = "how many inputs")]
        #[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
        #[derive(Debug)]
        pub struct $name<T: ::radioflow_runtime::Item + ::radioflow_dsp::Arith> {
            /// The operands, as many as asked for (at least one).
            #[input(name = "in")]
            inputs: Vec<::radioflow_runtime::StreamInput<T>>,
            #[doc = ::core::concat!(" `", $formula, "`; the tags of every input go to the same output items.")]
            #[output(name = "out")]
            output: ::radioflow_runtime::StreamOutput<T>,
        }

        #[::radioflow_runtime::block]
        impl<T: ::radioflow_runtime::Item + ::radioflow_dsp::Arith> $name<T> {
            #[doc = ::core::concat!("A block computing `", $formula, "` over `inputs` streams.")]
            ///
            /// # Panics
            /// If `inputs` is 0.
            pub fn new(inputs: usize) -> Self {
                assert!(
                    inputs > 0,
                    ::core::concat!(::core::stringify!($name), " needs at least one input")
                );
                Self {
                    inputs: (0..inputs)
                        .map(|_| ::radioflow_runtime::StreamInput::new())
                        .collect(),
                    output: ::radioflow_runtime::StreamOutput::new(),
                }
            }

            /// Works on vectors of `vlen` scalars (at least 1), position by position.
            pub fn with_vlen(mut self, vlen: usize) -> Self {
                for input in &mut self.inputs {
                    input.set_vlen(vlen);
                }
                self.output.set_vlen(vlen);
                self
            }

            fn work(
                &mut self,
            ) -> ::core::result::Result<::radioflow_runtime::WorkStatus, ::radioflow_runtime::BlockError>
            {
                // Every window is whole vectors of the same length: so is the smallest.
                let available = self.inputs.iter().map(|i| i.slice().len()).min();
                let n = available.unwrap_or(0).min(self.output.slice().len());
                if n == 0 {
                    return Ok(::radioflow_runtime::WorkStatus::Continue);
                }
                let out = &mut self.output.slice()[..n];
                out.copy_from_slice(&self.inputs[0].slice()[..n]);
                for input in &self.inputs[1..] {
                    $kernel(out, input.slice());
                }
                for input in &mut self.inputs {
                    ::radioflow_runtime::propagate_tags(input, &mut self.output, n);
                    input.consume(n);
                }
                self.output.produce(n);
                Ok(::radioflow_runtime::WorkStatus::Continue)
            }
        }
    };
}

/// Declares the block `$name` (or `$name<T>`, generic over the item type `T: $bound`) computing
/// `out = $kernel(in, params…)`: `$kernel(input, $(param,)* output)` fills `output` from
/// `input` (a path or a closure), `$formula` says what it computes. `params` are `#[param]`s,
/// each in parentheses (`(n: f32 = 1.0, doc = "…")`; the type an identifier), kept in fields
/// and passed to the kernel in order; `settable` instead of `params` makes each one settable
/// while the graph runs, through the setter named after its type (`(scale: f32 = 1.0,
/// set_scale, doc = "…")`). With `groups: (a, b)`, every `a` input items make `b` output items
/// (the kernel gets whole groups). The doc comments given become the block's (purpose and
/// example).
macro_rules! map {
    (
        $(#[$doc:meta])*
        $name:ident $(<$T:ident: $bound:path>)? {
            id: $id:literal,
            summary: $summary:literal,
            $(dtypes: $dtypes:tt,)?
            input: $in:ty,
            output: $out:ty,
            $(groups: $groups:tt,)?
            params: [$(($p:ident: $pty:ident $(= $default:expr)?, doc = $pdoc:expr)),* $(,)?],
            formula: $formula:literal,
            kernel: $kernel:expr $(,)?
        }
    ) => {
        $crate::element_wise::map! {
            @block
            $(#[$doc])*
            $name $(<$T: $bound>)? {
                id: $id, summary: $summary, $(dtypes: $dtypes,)? input: $in, output: $out,
                groups: ($($groups)?),
                fields: [$($p: $pty),*],
                attrs: [$(#[param($p: $pty $(= $default)?, doc = $pdoc)])*],
                setters: [],
                formula: $formula, kernel: $kernel,
            }
        }
    };
    (
        $(#[$doc:meta])*
        $name:ident $(<$T:ident: $bound:path>)? {
            id: $id:literal,
            summary: $summary:literal,
            $(dtypes: $dtypes:tt,)?
            input: $in:ty,
            output: $out:ty,
            $(groups: $groups:tt,)?
            settable: [$(($p:ident: $pty:ident $(= $default:expr)?, $setter:ident, doc = $pdoc:expr)),* $(,)?],
            formula: $formula:literal,
            kernel: $kernel:expr $(,)?
        }
    ) => {
        $crate::element_wise::map! {
            @block
            $(#[$doc])*
            $name $(<$T: $bound>)? {
                id: $id, summary: $summary, $(dtypes: $dtypes,)? input: $in, output: $out,
                groups: ($($groups)?),
                fields: [$($p: $pty),*],
                attrs: [$(#[param($p: $pty $(= $default)?, settable, doc = $pdoc)])*],
                setters: [$(
                    #[doc = ::core::concat!("Sets `", ::core::stringify!($p), "`.")]
                    pub fn $setter(&mut self, $p: $pty) {
                        self.$p = $p;
                    }
                )*],
                formula: $formula, kernel: $kernel,
            }
        }
    };
    (
        @block
        $(#[$doc:meta])*
        $name:ident $(<$T:ident: $bound:path>)? {
            id: $id:literal, summary: $summary:literal, $(dtypes: $dtypes:tt,)?
            input: $in:ty, output: $out:ty,
            groups: ($($groups:tt)?),
            fields: [$($p:ident: $pty:ident),*],
            attrs: [$($attr:tt)*],
            setters: [$($setters:tt)*],
            formula: $formula:literal, kernel: $kernel:expr,
        }
    ) => {
        $(#[$doc])*
        #[::radioflow_runtime::registry::library_block(
            id = $id, summary = $summary $(, dtypes = $dtypes)?,
            make = Self::new($($p),*)
                .with_vlen(vlen)
                .map_err(|e| ::radioflow_runtime::registry::Refused::param("vlen", e))?
        )]
        $($attr)*
        #[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
        #[derive(Debug)]
        pub struct $name $(<$T: ::radioflow_runtime::Item + $bound>)? {
            /// The items.
            #[input(name = "in")]
            input: ::radioflow_runtime::StreamInput<$in>,
            #[doc = ::core::concat!(" `", $formula, "`, with the input's tags.")]
            #[output(name = "out")]
            output: ::radioflow_runtime::StreamOutput<$out>,
            $($p: $pty,)*
        }

        #[::radioflow_runtime::block]
        impl $(<$T: ::radioflow_runtime::Item + $bound>)? $name $(<$T>)? {
            /// The item groups: `(input items, output items)`.
            const GROUPS: (usize, usize) = $crate::element_wise::groups!($($groups)?);

            #[doc = ::core::concat!("A block computing `", $formula, "`.")]
            #[allow(clippy::new_without_default)]
            pub fn new($($p: $pty),*) -> Self {
                let (a, b) = Self::GROUPS;
                Self {
                    input: ::radioflow_runtime::StreamInput::new().with_min_items(a),
                    output: ::radioflow_runtime::StreamOutput::new().with_min_items(b),
                    $($p,)*
                }
            }

            /// Works on vectors of `vlen` scalars (at least 1), position by position.
            ///
            /// # Errors
            /// If `vlen` is not 1 and the block makes groups of items from groups (interleaved
            /// I/Q): its groups are pairs in a stream, not vectors.
            pub fn with_vlen(mut self, vlen: usize) -> ::core::result::Result<Self, ::std::string::String> {
                if vlen > 1 && Self::GROUPS != (1, 1) {
                    return Err(::std::format!(
                        "this block reads and writes groups of {:?} items; vectors (vlen {vlen}) are not supported",
                        Self::GROUPS
                    ));
                }
                self.input.set_vlen(vlen);
                self.output.set_vlen(vlen);
                Ok(self)
            }

            $($setters)*

            fn work(
                &mut self,
            ) -> ::core::result::Result<::radioflow_runtime::WorkStatus, ::radioflow_runtime::BlockError>
            {
                $(let $p = self.$p;)*
                $crate::element_wise::grouped_work(
                    &mut self.input,
                    &mut self.output,
                    Self::GROUPS,
                    |i, o| ($kernel)(i, $($p,)* o),
                );
                Ok(::radioflow_runtime::WorkStatus::Continue)
            }
        }
    };
}

/// `(1, 1)`, or the groups given.
macro_rules! groups {
    () => {
        (1, 1)
    };
    (($a:literal, $b:literal)) => {
        ($a, $b)
    };
}

/// Whether anything is given: `true` for `given!(x)`, `false` for `given!()`.
macro_rules! given {
    () => {
        false
    };
    ($($t:tt)+) => {
        true
    };
}

/// Declares the block `$name` computing `out = $kernel(a, b)` from two input streams (ports
/// `$a_name` and `$b_name`, items `$a_ty` and `$b_ty`): `$kernel(a, b, output)`. With
/// `without_b: $alone`, the second input is optional and `$alone(a, output)` computes the
/// output while it is not connected. The doc comments given become the block's.
macro_rules! two_inputs {
    (
        $(#[$doc:meta])*
        $name:ident {
            id: $id:literal,
            summary: $summary:literal,
            $(dtypes: $dtypes:tt,)?
            inputs: ($a_name:literal: $a_ty:ty, $b_name:literal: $b_ty:ty),
            output: $out:ty,
            formula: $formula:literal,
            kernel: $kernel:path
            $(, without_b: $alone:path)? $(,)?
        }
    ) => {
        $(#[$doc])*
        #[::radioflow_runtime::registry::library_block(
            id = $id, summary = $summary $(, dtypes = $dtypes)?
        )]
        #[derive(Debug)]
        pub struct $name {
            /// The first operand.
            #[input(name = $a_name)]
            a: ::radioflow_runtime::StreamInput<$a_ty>,
            #[doc = ::core::concat!(" The second operand", $(" (optional: without it, `", ::core::stringify!($alone), "`)", )? ".")]
            #[input(name = $b_name)]
            b: ::radioflow_runtime::StreamInput<$b_ty>,
            #[doc = ::core::concat!(" `", $formula, "`; the tags of both inputs go to the same output items.")]
            #[output(name = "out")]
            output: ::radioflow_runtime::StreamOutput<$out>,
        }

        #[::radioflow_runtime::block]
        impl $name {
            #[doc = ::core::concat!("A block computing `", $formula, "`.")]
            #[allow(clippy::new_without_default)]
            pub fn new() -> Self {
                let optional = $crate::element_wise::given!($($alone)?);
                Self {
                    a: ::radioflow_runtime::StreamInput::new(),
                    b: if optional {
                        ::radioflow_runtime::StreamInput::optional()
                    } else {
                        ::radioflow_runtime::StreamInput::new()
                    },
                    output: ::radioflow_runtime::StreamOutput::new(),
                }
            }

            fn work(
                &mut self,
            ) -> ::core::result::Result<::radioflow_runtime::WorkStatus, ::radioflow_runtime::BlockError>
            {
                let both = self.b.is_connected();
                let mut n = self.a.slice().len().min(self.output.slice().len());
                if both {
                    n = n.min(self.b.slice().len());
                }
                if n == 0 {
                    return Ok(::radioflow_runtime::WorkStatus::Continue);
                }
                let out = &mut self.output.slice()[..n];
                if both {
                    $kernel(&self.a.slice()[..n], &self.b.slice()[..n], out);
                } $(else {
                    $alone(&self.a.slice()[..n], out);
                })?
                ::radioflow_runtime::propagate_tags(&self.a, &mut self.output, n);
                ::radioflow_runtime::propagate_tags(&self.b, &mut self.output, n);
                self.a.consume(n);
                self.b.consume(if both { n } else { 0 });
                self.output.produce(n);
                Ok(::radioflow_runtime::WorkStatus::Continue)
            }
        }
    };
}

/// Declares the block `$name` computing `(a, b) = $kernel(in)` into two output streams (ports
/// `$a_name` and `$b_name`): `$kernel(input, a, b)`. With `without_b: $alone`, the second
/// output is optional and `$alone(input, a)` fills the first while it is not connected. The
/// doc comments given become the block's.
macro_rules! two_outputs {
    (
        $(#[$doc:meta])*
        $name:ident {
            id: $id:literal,
            summary: $summary:literal,
            $(dtypes: $dtypes:tt,)?
            input: $in:ty,
            outputs: ($a_name:literal: $a_ty:ty, $b_name:literal: $b_ty:ty),
            formula: $formula:literal,
            kernel: $kernel:path
            $(, without_b: $alone:path)? $(,)?
        }
    ) => {
        $(#[$doc])*
        #[::radioflow_runtime::registry::library_block(
            id = $id, summary = $summary $(, dtypes = $dtypes)?
        )]
        #[derive(Debug)]
        pub struct $name {
            /// The items.
            #[input(name = "in")]
            input: ::radioflow_runtime::StreamInput<$in>,
            #[doc = ::core::concat!(" The first part of `", $formula, "`, with the input's tags.")]
            #[output(name = $a_name)]
            a: ::radioflow_runtime::StreamOutput<$a_ty>,
            #[doc = ::core::concat!(" The second part of `", $formula, "`, with the input's tags", $(" (optional: without it, `", ::core::stringify!($alone), "` fills the first)", )? ".")]
            #[output(name = $b_name)]
            b: ::radioflow_runtime::StreamOutput<$b_ty>,
        }

        #[::radioflow_runtime::block]
        impl $name {
            #[doc = ::core::concat!("A block computing `", $formula, "`.")]
            #[allow(clippy::new_without_default)]
            pub fn new() -> Self {
                let optional = $crate::element_wise::given!($($alone)?);
                Self {
                    input: ::radioflow_runtime::StreamInput::new(),
                    a: ::radioflow_runtime::StreamOutput::new(),
                    b: if optional {
                        ::radioflow_runtime::StreamOutput::optional()
                    } else {
                        ::radioflow_runtime::StreamOutput::new()
                    },
                }
            }

            fn work(
                &mut self,
            ) -> ::core::result::Result<::radioflow_runtime::WorkStatus, ::radioflow_runtime::BlockError>
            {
                let both = self.b.is_connected();
                let mut n = self.input.slice().len().min(self.a.slice().len());
                if both {
                    n = n.min(self.b.slice().len());
                }
                if n == 0 {
                    return Ok(::radioflow_runtime::WorkStatus::Continue);
                }
                let input = &self.input.slice()[..n];
                if both {
                    $kernel(input, &mut self.a.slice()[..n], &mut self.b.slice()[..n]);
                } $(else {
                    $alone(input, &mut self.a.slice()[..n]);
                })?
                ::radioflow_runtime::propagate_tags(&self.input, &mut self.a, n);
                ::radioflow_runtime::propagate_tags(&self.input, &mut self.b, n);
                self.input.consume(n);
                self.a.produce(n);
                self.b.produce(if both { n } else { 0 });
                Ok(::radioflow_runtime::WorkStatus::Continue)
            }
        }
    };
}

pub(crate) use {
    between_streams, given, groups, map, per_position, two_inputs, two_outputs, with_constant,
};
