//! The element-wise family: blocks whose output item `n` is an operation on the input items
//! at position `n` (GNU Radio's math blocks), each declared by naming its operation, a
//! kernel of [`radioflow_dsp`] over a window of items. A block of the family is the struct,
//! its declaration (registry entry, docs) and its `work`, written here once:
//!
//! - [`with_constant!`]: `out = in ∘ k` with a constant `k` of the item type
//!   ([`AddConst`](crate::AddConst), [`MultiplyConst`](crate::MultiplyConst));
//! - [`between_streams!`]: `out = in0 ∘ in1 ∘ …` over a number of input streams
//!   ([`Add`](crate::Add), [`Subtract`](crate::Subtract), [`Multiply`](crate::Multiply)).
//!
//! Every item type with [`Arith`](radioflow_dsp::Arith) is taken (integers wrap on overflow);
//! tags go to the same output items.

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
        #[::radioflow_runtime::registry::library_block(id = $id, summary = $summary, dtypes = all)]
        #[param(k: T, doc = "the constant")]
        #[derive(Debug)]
        pub struct $name<T: ::radioflow_runtime::Item + ::radioflow_dsp::Arith> {
            /// The items.
            #[input(name = "in")]
            input: ::radioflow_runtime::StreamInput<T>,
            #[doc = ::core::concat!(" `", $formula, "`, with the input's tags.")]
            #[output(name = "out")]
            output: ::radioflow_runtime::StreamOutput<T>,
            k: T,
        }

        #[::radioflow_runtime::block]
        impl<T: ::radioflow_runtime::Item + ::radioflow_dsp::Arith> $name<T> {
            #[doc = ::core::concat!("A block computing `", $formula, "`.")]
            pub fn new(k: T) -> Self {
                Self {
                    input: ::radioflow_runtime::StreamInput::new(),
                    output: ::radioflow_runtime::StreamOutput::new(),
                    k,
                }
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
        #[::radioflow_runtime::registry::library_block(id = $id, summary = $summary, dtypes = $dtypes)]
        #[param(inputs: usize = 2, min = 1, doc = "how many inputs")]
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

            fn work(
                &mut self,
            ) -> ::core::result::Result<::radioflow_runtime::WorkStatus, ::radioflow_runtime::BlockError>
            {
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

pub(crate) use {between_streams, with_constant};
