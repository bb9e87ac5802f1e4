//! Declarative blocks for radioflow: a block's ports are declared on its fields with
//! `#[derive(Ports)]`, and its behaviour in one impl marked `#[block]`, which writes the
//! `Block` implementation (port listing, `work`, message routing to named methods, hooks).
//!
//! Use them through `radioflow_runtime` (`use radioflow_runtime::prelude::*`), which re-exports
//! both; the generated code names `::radioflow_runtime`.
//!
//! ```ignore
//! use radioflow_runtime::prelude::*;
//!
//! /// Multiplies by a gain that a message can change.
//! #[derive(Ports)]
//! struct Gain {
//!     #[input(name = "in")]
//!     input: StreamInput<f32>,
//!     #[output(name = "out")]
//!     output: StreamOutput<f32>,
//!     k: f32,
//! }
//!
//! #[block]
//! impl Gain {
//!     fn work(&mut self) -> Result<WorkStatus, BlockError> {
//!         let k = self.k;
//!         one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
//!             for (o, i) in o.iter_mut().zip(i) {
//!                 *o = k * i;
//!             }
//!         });
//!         Ok(WorkStatus::Continue)
//!     }
//!
//!     /// The `gain` message input: a number.
//!     #[message_input]
//!     fn gain(&mut self, k: f64) {
//!         self.k = k as f32;
//!     }
//! }
//! ```
//! (Tested in `radioflow-runtime`'s docs and `crates/macros/tests`.)

mod block;
mod library;
mod param;
mod ports;

use proc_macro::TokenStream;

/// Lists a block's ports from its fields, in field order: `#[input]` on a `StreamInput<T>`,
/// `#[output]` on a `StreamOutput<T>`, `#[message_output]` on a `MessageOutput` (each also on a
/// `Vec` of them, for blocks with N ports named `name0`, `name1`, ...). A port is named after
/// its field unless given `#[input(name = "in")]`.
#[proc_macro_derive(Ports, attributes(input, output, message_output))]
pub fn derive_ports(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    ports::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Implements `Block` from the block's inherent impl: `fn work(&mut self)` (optional for a
/// block without stream ports), `fn start` / `fn stop` hooks (optional), and message inputs as
/// methods marked `#[message_input]` taking `&Pmt`, `Pmt`, or any `FromMessage` type (a number,
/// a bool, a string...), returning `()` or a `Result`. Arguments: `blocking` (its `work` may
/// block its thread), `paced` (its `work` waits on a clock or a device by design: see
/// `Block::is_paced`), `observer` (a cheap sink that only watches a stream, such as a live
/// view's probe: see `Block::is_observer`), `message_source` (it makes messages on a clock of
/// its own: see `Block::is_message_source`), `external_messages` (its messages come from
/// outside the graph: see `Block::takes_external_messages`), `type_name = "..."` (the default
/// instance name's stem).
#[proc_macro_attribute]
pub fn block(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemImpl);
    block::expand(args.into(), item)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Declares a block of the library on its struct, once: its registry id, summary and item
/// types, its parameters and the docs of its message inputs; the ports are its fields, as
/// with `#[derive(Ports)]` (which it replaces). Re-exported as
/// `radioflow_runtime::registry::library_block`; see the `registry` module for an example.
///
/// `#[library_block(id = "...", summary = "...", dtypes = all | [Complex32, Float32],
/// make = EXPR)]`, then on the struct:
/// - `#[param(name: Type [= default], doc = "...", ...)]` per parameter, in the order front
///   ends take them. The type is the one the constructor takes; it gives the kind: `bool`,
///   integers (`min = N`; unsigned from 0), `f64` (`at_least`, `above`, `at_most`, `below`;
///   any finite number by default) and `f32` (what it holds by default), `String`/`&str`
///   (`words = ["a", "b"]` for a choice), `PathBuf`/`&Path` (`path = read | write |
///   read_sigmf | write_sigmf`), `Vec<f32>`/`&[f32]` (taps), `Vec<Pmt>`, `Vec<Tag>`, the
///   item type `T` and `Vec<T>`; any other type is a word it parses (`FromStr`), with `words`
///   for a choice. `example = ...` gives a required parameter a typical value; `settable`
///   makes it settable while the graph runs: a message input of its name calls the block's
///   `set_NAME(value)` with a value checked against the declaration (one it does not take is
///   ignored), typed as that method's argument (`Pmt` for any message).
/// - `#[message_input(name = "...", doc = "...")]` per `#[message_input]` method of the
///   block's `#[block]` impl, in the same order (checked when compiled), for the docs.
///
/// The block is made by `Self::new(p1, p2, ...)` with the parameters in order (a reference
/// type lent), or by `make = EXPR`, which names the parameters and gives the block or a
/// `Result` whose error converts into `registry::Refused`. Written: the `PortFields`
/// listing, the registered `BlockDescription`, `FromArguments`, the settable parameters'
/// message inputs, and the doc sections Stream inputs, Stream outputs, Message ports and
/// Parameters (before the `# Example` heading), from the ports' field docs and the
/// declaration.
#[proc_macro_attribute]
pub fn library_block(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemStruct);
    library::expand(args.into(), item)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
