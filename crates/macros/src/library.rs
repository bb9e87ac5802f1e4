//! `#[library_block]`: a block of the library declared once, on its struct.
//!
//! From the declaration (id, summary, item types, `#[param]`s, `#[message_input]` docs) and
//! the port fields, it writes the `PortFields` listing (as `#[derive(Ports)]`), the registry's
//! description, `FromArguments` (each parameter read into its declared type, then the
//! `make` expression), the settable parameters' message inputs, and the struct's doc sections.

use crate::param::{self, Param};
use crate::ports::{self, Kind, Port};
use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::{Error, Expr, GenericParam, Ident, ItemStruct, LitStr};

/// The arguments of `#[library_block(...)]`.
struct Args {
    id: LitStr,
    summary: Expr,
    /// The item types' `Dtype` variants, the default first (empty: no item type).
    dtypes: Vec<Ident>,
    /// Whether they were given as `all` (the registry's `Dtype::ALL`).
    all: bool,
    make: Option<Expr>,
}

/// The `Dtype` variants in `Dtype::ALL`'s order, with numpy's name and the Rust type.
const DTYPES: &[(&str, &str, &str)] = &[
    ("Float32", "float32", "f32"),
    ("Complex32", "complex64", "::radioflow_runtime::Complex32"),
    ("Int16", "int16", "i16"),
    ("Int8", "int8", "i8"),
    ("Uint8", "uint8", "u8"),
    ("Float64", "float64", "f64"),
    ("Int32", "int32", "i32"),
];

fn parse_args(args: TokenStream) -> syn::Result<Args> {
    let (mut id, mut summary, mut dtypes, mut all, mut make) =
        (None, None, Vec::new(), false, None);
    let parser = syn::meta::parser(|m| {
        if m.path.is_ident("id") {
            id = Some(m.value()?.parse::<LitStr>()?);
        } else if m.path.is_ident("summary") {
            summary = Some(m.value()?.parse::<Expr>()?);
        } else if m.path.is_ident("make") {
            make = Some(m.value()?.parse::<Expr>()?);
        } else if m.path.is_ident("dtypes") {
            match m.value()?.parse::<Expr>()? {
                Expr::Path(p) if p.path.is_ident("all") => {
                    all = true;
                    dtypes = DTYPES
                        .iter()
                        .map(|(v, _, _)| Ident::new(v, p.span()))
                        .collect();
                }
                Expr::Array(list) => {
                    for e in &list.elems {
                        let known = match e {
                            Expr::Path(p) => p
                                .path
                                .get_ident()
                                .filter(|i| DTYPES.iter().any(|(v, _, _)| i == v)),
                            _ => None,
                        };
                        let Some(ident) = known else {
                            return Err(Error::new(
                                e.span(),
                                "an item type is a `Dtype` variant: Float32, Complex32, Int16, \
                                 Int8, Uint8, Float64 or Int32",
                            ));
                        };
                        dtypes.push(ident.clone());
                    }
                }
                other => {
                    return Err(Error::new(
                        other.span(),
                        "dtypes = all, or a list of `Dtype` variants: [Complex32, Float32]",
                    ))
                }
            }
        } else {
            return Err(m.error(
                "unknown #[library_block] option: use `id`, `summary`, `dtypes` or `make`",
            ));
        }
        Ok(())
    });
    parser.parse2(args)?;
    let span = Span::call_site();
    Ok(Args {
        id: id.ok_or_else(|| Error::new(span, "#[library_block] needs `id = \"...\"`"))?,
        summary: summary
            .ok_or_else(|| Error::new(span, "#[library_block] needs `summary = \"...\"`"))?,
        dtypes,
        all,
        make,
    })
}

/// A message input a `#[message_input]` method of the block's impl handles, as the struct
/// declares it for the docs: `#[message_input(name = "in", doc = "...")]`.
struct MessageInput {
    name: LitStr,
    doc: Expr,
}

fn parse_message_input(attr: &syn::Attribute) -> syn::Result<MessageInput> {
    let (mut name, mut doc) = (None, None);
    attr.parse_nested_meta(|m| {
        if m.path.is_ident("name") {
            name = Some(m.value()?.parse::<LitStr>()?);
        } else if m.path.is_ident("doc") {
            doc = Some(m.value()?.parse::<Expr>()?);
        } else {
            return Err(m.error(
                "a message input is declared `#[message_input(name = \"...\", doc = \"...\")]`",
            ));
        }
        Ok(())
    })?;
    match (name, doc) {
        (Some(name), Some(doc)) => Ok(MessageInput { name, doc }),
        _ => Err(Error::new(
            attr.span(),
            "a message input is declared `#[message_input(name = \"...\", doc = \"...\")]`",
        )),
    }
}

/// `text` as a string literal token.
fn lit(text: &str) -> LitStr {
    LitStr::new(text, Span::call_site())
}

/// A doc line: `concat!` of its parts, literal text or expressions (a doc comment's value).
fn line(parts: Vec<TokenStream>) -> TokenStream {
    quote! { ::core::concat!(#(#parts),*) }
}

/// The doc lines of the generated sections.
struct Doc {
    lines: Vec<TokenStream>,
}

impl Doc {
    fn text(&mut self, text: &str) {
        let t = lit(text);
        self.lines.push(quote!(#t));
    }

    fn parts(&mut self, parts: Vec<TokenStream>) {
        self.lines.push(line(parts));
    }
}

/// `- `name` (`T`): doc` for a stream port.
fn port_line(p: &Port) -> Vec<TokenStream> {
    let item = p
        .item
        .as_ref()
        .map(|t| t.to_token_stream().to_string().replace(' ', ""))
        .unwrap_or_default();
    let names = if p.is_vec {
        format!("`{0}0`, `{0}1`, …", p.name)
    } else {
        format!("`{}`", p.name)
    };
    let head = lit(&format!("- {names} (`{item}`)"));
    doc_after(quote!(#head), &p.doc)
}

/// `head`, then `:` and the doc comment's lines (each starts with a space), or a full stop.
fn doc_after(head: TokenStream, doc: &[Expr]) -> Vec<TokenStream> {
    if doc.is_empty() {
        return vec![head, quote!(".")];
    }
    let mut parts = vec![head, quote!(":")];
    parts.extend(doc.iter().map(|d| d.to_token_stream()));
    parts
}

/// The sections written from the declaration.
fn sections(
    args: &Args,
    ports: &[Port],
    params: &[Param],
    inputs: &[MessageInput],
) -> Vec<TokenStream> {
    let mut doc = Doc { lines: Vec::new() };
    for (title, kind) in [
        ("# Stream inputs", Kind::Input),
        ("# Stream outputs", Kind::Output),
    ] {
        doc.text(title);
        let mut none = true;
        for p in ports.iter().filter(|p| p.kind == kind) {
            doc.parts(port_line(p));
            none = false;
        }
        if none {
            doc.text("None.");
        }
        doc.text("");
    }
    doc.text("# Message ports");
    let mut none = true;
    for p in params.iter().filter(|p| p.settable) {
        doc.text(&format!(
            "- input `{0}`: sets `{0}` while the graph runs (a value the parameter does not \
             take is ignored, with a warning).",
            p.name
        ));
        none = false;
    }
    for m in inputs {
        let head = lit(&format!("- input `{}`: ", m.name.value()));
        let d = &m.doc;
        doc.parts(vec![quote!(#head), quote!(#d), quote!(".")]);
        none = false;
    }
    for p in ports.iter().filter(|p| p.kind == Kind::MessageOutput) {
        let head = lit(&format!("- output `{}`", p.name));
        doc.parts(doc_after(quote!(#head), &p.doc));
        none = false;
    }
    if none {
        doc.text("None.");
    }
    doc.text("");
    doc.text("# Parameters");
    let id = args.id.value();
    let types: Vec<String> = args
        .dtypes
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let name = DTYPES.iter().find(|(v, _, _)| d == v).expect("checked").1;
            if i == 0 && args.dtypes.len() > 1 {
                format!("`{name}` (the default)")
            } else {
                format!("`{name}`")
            }
        })
        .collect();
    let types = match types.as_slice() {
        [] => String::new(),
        [one] => format!(", for items of type {one}"),
        [init @ .., last] => format!(", for items of type {} or {last}", init.join(", ")),
    };
    if params.is_empty() {
        doc.text(&format!("Registered as `{id}`{types}, without parameters."));
    } else {
        doc.text(&format!("Registered as `{id}`{types}:"));
        for p in params {
            doc.parts(p.doc_line());
        }
    }
    doc.lines
}

/// The generic parameter that is the item type: the first type parameter without a default.
fn item_param(item: &ItemStruct) -> syn::Result<Option<Ident>> {
    let mut found = None;
    for g in &item.generics.params {
        match g {
            GenericParam::Type(t) if t.default.is_none() => {
                if found.is_some() {
                    return Err(Error::new(
                        t.span(),
                        "a library block is generic over its item type only (other type \
                         parameters need a default)",
                    ));
                }
                found = Some(t.ident.clone());
            }
            GenericParam::Type(_) => {}
            other => {
                return Err(Error::new(
                    other.span(),
                    "a library block is generic over its item type only",
                ))
            }
        }
    }
    Ok(found)
}

pub(crate) fn expand(args: TokenStream, mut item: ItemStruct) -> syn::Result<TokenStream> {
    let args = parse_args(args)?;
    let rt = quote!(::radioflow_runtime);
    let reg = quote!(::radioflow_runtime::registry);
    let ident = item.ident.clone();
    let fields = ports::named_fields(&ident, &item.fields)?;
    let ports = ports::analyze(fields)?;
    let item_ty = item_param(&item)?;
    if item_ty.is_some() && args.dtypes.is_empty() {
        return Err(Error::new(
            ident.span(),
            "a block generic over its item type lists its item types: `dtypes = all` or \
             `dtypes = [Complex32, Float32]`",
        ));
    }

    // The declaration's attributes, taken off the struct.
    let mut params: Vec<Param> = Vec::new();
    let mut inputs = Vec::new();
    let mut kept = Vec::new();
    for attr in std::mem::take(&mut item.attrs) {
        if attr.path().is_ident("param") {
            let p: Param = attr
                .parse_args_with(|s: syn::parse::ParseStream| param::parse(s, item_ty.as_ref()))?;
            if params.iter().any(|q| q.name == p.name) {
                return Err(Error::new(
                    p.name.span(),
                    format!("two parameters are named '{}'", p.name),
                ));
            }
            params.push(p);
        } else if attr.path().is_ident("message_input") {
            inputs.push(parse_message_input(&attr)?);
        } else {
            kept.push(attr);
        }
    }
    if let syn::Fields::Named(fields) = &mut item.fields {
        for field in &mut fields.named {
            field.attrs.retain(|a| !ports::is_port_attribute(a));
        }
    }

    // The docs: the author's, with the sections inserted before `# Example`.
    let generated = sections(&args, &ports, &params, &inputs);
    let example_at = kept.iter().position(|a| {
        a.path().is_ident("doc")
            && matches!(&a.meta, syn::Meta::NameValue(nv)
                if matches!(&nv.value, Expr::Lit(l)
                    if matches!(&l.lit, syn::Lit::Str(s) if s.value().trim() == "# Example")))
    });
    let at = example_at.unwrap_or_else(|| {
        kept.iter()
            .rposition(|a| a.path().is_ident("doc"))
            .map_or(0, |i| i + 1)
    });
    let mut attrs = kept[..at].to_vec();
    attrs.push(syn::parse_quote!(#[doc = ""]));
    for l in &generated {
        attrs.push(syn::parse_quote!(#[doc = #l]));
    }
    if example_at.is_some() {
        attrs.push(syn::parse_quote!(#[doc = ""]));
    }
    attrs.extend_from_slice(&kept[at..]);
    item.attrs = attrs;
    let mut doc_text = Vec::new();
    for (i, l) in generated.iter().enumerate() {
        if i > 0 {
            doc_text.push(quote!("\n"));
        }
        doc_text.push(l.clone());
    }

    // The description.
    let (impl_generics, ty_generics, where_clause) = item.generics.split_for_impl();
    let port_fields = ports::port_fields_impl(&ident, &item.generics, &ports);
    let id = &args.id;
    let summary = &args.summary;
    let dtypes = if args.all {
        quote!(#reg::Dtype::ALL)
    } else {
        let d = &args.dtypes;
        quote!(&[#(#reg::Dtype::#d),*])
    };
    let param_descriptions = params.iter().map(|p| p.description());
    // The block as made for item type `T` (other type parameters take their defaults).
    let made_type = |t: TokenStream| match &item_ty {
        Some(_) => quote!(#ident<#t>),
        None => quote!(#ident),
    };
    let first_type = args.dtypes.first().map(|d| {
        let rust = DTYPES.iter().find(|(v, _, _)| d == v).expect("checked").2;
        rust.parse::<TokenStream>().expect("a type")
    });
    let ports_type = made_type(first_type.unwrap_or_default());
    let make = match &item_ty {
        Some(_) => {
            let d = &args.dtypes;
            let made = made_type(quote!(__Item));
            quote! {
                |args| #rt::with_dtype!(args.item_dtype()?, __Item in [#(#d),*] =>
                    #reg::make_boxed::<#made>(args),
                    other d => ::core::result::Result::Err(#reg::ParamError::new(
                        args.block(),
                        ::std::format!("has no {d} version"),
                    )))
            }
        }
        None => quote!(#reg::make_boxed::<#ident>),
    };

    // FromArguments, for the block with its item type (other type parameters defaulted).
    let mut from_generics = item.generics.clone();
    from_generics.params = from_generics
        .params
        .into_iter()
        .filter(|g| !matches!(g, GenericParam::Type(t) if t.default.is_some()))
        .collect();
    if let Some(t) = &item_ty {
        from_generics
            .make_where_clause()
            .predicates
            .push(syn::parse_quote!(#t: #reg::FromParam));
    }
    let (from_impl, _, from_where) = from_generics.split_for_impl();
    let from_type = made_type(item_ty.to_token_stream());
    // Not visible to the declaration's tokens: a parameter may be called `args`.
    let args_ident = Ident::new("args", Span::mixed_site());
    let reads = params.iter().map(|p| p.read(&args_ident));
    let make_expr = match &args.make {
        Some(e) => e.to_token_stream(),
        None => {
            let pass = params.iter().map(|p| p.pass());
            quote!(Self::new(#(#pass),*))
        }
    };
    let input_names: Vec<&LitStr> = inputs.iter().map(|m| &m.name).collect();
    let inputs_message = format!(
        "block `{ident}`: the #[message_input] methods of its #[block] impl are not the message \
         inputs its #[library_block] declares with #[message_input(name = ...)], in that order"
    );

    // The #[message_input] methods are the declared inputs: a non-generic block is checked
    // when its crate is checked (`cargo check` included), a generic one when it is made for a
    // type (the registry makes it for each of its item types).
    let same_inputs = |ty: TokenStream| {
        quote! {
            ::core::assert!(
                #reg::same_names(
                    <#ty as #reg::MessageInputNames>::MESSAGE_INPUTS,
                    &[#(#input_names),*],
                ),
                #inputs_message
            )
        }
    };
    let (inputs_check, inputs_check_in_fn) = if item_ty.is_some() {
        let check = same_inputs(quote!(Self));
        (quote!(), quote!(const { #check };))
    } else {
        let check = same_inputs(quote!(#ident));
        (quote!(const _: () = #check;), quote!())
    };

    // The settable parameters' message inputs.
    let settable: Vec<(usize, &Param)> = params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.settable)
        .collect();
    let settable_impl = if settable.is_empty() {
        quote! {
            impl #impl_generics #reg::SettableParams for #ident #ty_generics #where_clause {}
        }
    } else {
        let names = settable.iter().map(|(_, p)| p.name.to_string());
        let setter = |p: &Param| Ident::new(&format!("set_{}", p.name), p.name.span());
        let declare = settable.iter().map(|(_, p)| {
            let (name, set) = (p.name.to_string(), setter(p));
            quote! { #reg::settable_input(p, #name, Self::#set); }
        });
        let arms = settable.iter().enumerate().map(|(i, (at, p))| {
            let set = setter(p);
            quote! { #i => #reg::apply_setting(self, Self::#set, #id, &DESCRIPTION.params[#at], msg), }
        });
        quote! {
            impl #impl_generics #reg::SettableParams for #ident #ty_generics #where_clause {
                const NAMES: &'static [&'static str] = &[#(#names),*];

                fn declare(p: &mut #rt::Ports<'_>) {
                    #(#declare)*
                }

                fn set(
                    &mut self,
                    index: usize,
                    msg: #rt::Pmt,
                ) -> ::core::result::Result<(), #rt::BlockError> {
                    match index {
                        #(#arms)*
                        _ => ::core::result::Result::Err(#rt::BlockError::msg(::std::format!(
                            "no settable parameter {index}"
                        ))),
                    }
                }
            }
        }
    };

    Ok(quote! {
        #item

        #port_fields

        const _: () = {
            static DESCRIPTION: #reg::BlockDescription = #reg::BlockDescription {
                id: #id,
                summary: #summary,
                dtypes: #dtypes,
                params: &[#(#param_descriptions),*],
                ports: #reg::declared_ports::<#ports_type>,
                make: #make,
                doc: ::core::concat!(#(#doc_text),*),
            };
            #rt::register_block!(DESCRIPTION);

            #inputs_check

            impl #impl_generics #reg::Declared for #ident #ty_generics #where_clause {
                const DESCRIPTION: &'static #reg::BlockDescription = &DESCRIPTION;
            }

            #settable_impl

            impl #from_impl #reg::FromArguments for #from_type #from_where {
                fn from_arguments(
                    #args_ident: &#reg::Arguments,
                ) -> ::core::result::Result<Self, #reg::ParamError> {
                    #inputs_check_in_fn
                    #(#reads)*
                    #[allow(clippy::redundant_closure_call)]
                    let made = (|| -> ::core::result::Result<Self, #reg::Refused> {
                        #reg::Made::made(#make_expr)
                    })();
                    made.map_err(|r| r.in_block(#args_ident.block()))
                }
            }
        };
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The docs the struct ends up with, one string per `#[doc]` attribute (a generated line
    /// is a `concat!` of its parts, kept as written).
    fn struct_docs(args: TokenStream, item: TokenStream) -> Vec<String> {
        let out = expand(args, syn::parse2(item).unwrap()).unwrap();
        let file: syn::File = syn::parse2(out).unwrap();
        let s = file
            .items
            .iter()
            .find_map(|i| match i {
                syn::Item::Struct(s) => Some(s),
                _ => None,
            })
            .expect("the struct");
        assert!(
            s.attrs
                .iter()
                .all(|a| !a.path().is_ident("param") && !a.path().is_ident("message_input")),
            "the declaration's attributes are taken off"
        );
        s.attrs
            .iter()
            .filter(|a| a.path().is_ident("doc"))
            .map(|a| match &a.meta {
                syn::Meta::NameValue(nv) => nv.value.to_token_stream().to_string(),
                _ => panic!("a doc attribute"),
            })
            .collect()
    }

    #[test]
    fn the_sections_go_on_the_struct_before_its_example() {
        let docs = struct_docs(
            quote!(id = "gain", summary = "Scales.", dtypes = all),
            quote! {
                /// Scales its input.
                ///
                /// # Example
                /// (none)
                #[param(k: T = 1.0, settable, doc = "the gain")]
                struct Gain<T: Item> {
                    /// The samples.
                    #[input(name = "in")]
                    input: StreamInput<T>,
                    #[output(name = "out")]
                    output: StreamOutput<T>,
                }
            },
        );
        let at = |text: &str| {
            docs.iter()
                .position(|d| d.contains(text))
                .unwrap_or_else(|| panic!("no {text} in {docs:#?}"))
        };
        assert_eq!(at("Scales its input"), 0);
        let sections = [
            "# Stream inputs",
            "- `in` (`T`)",
            "# Stream outputs",
            "- `out` (`T`)",
            "# Message ports",
            "- input `k`: sets `k`",
            "# Parameters",
            "Registered as `gain`, for items of type `float32` (the default)",
            "- `k` (default `1`, settable): ",
            "; a value of the item type.",
            "# Example",
        ];
        let places: Vec<usize> = sections.iter().map(|s| at(s)).collect();
        assert!(places.windows(2).all(|w| w[0] <= w[1]), "{docs:#?}");
        assert!(docs[at("- `in` (`T`)")].contains("The samples."));
    }

    #[test]
    fn the_kind_is_written_as_the_registry_describes_it() {
        let docs = struct_docs(
            quote!(id = "b", summary = "B."),
            quote! {
                #[param(rate: f64, above = 0.0, at_most = 1e10, doc = "per second")]
                #[param(amplitude: f32 = 1.0, doc = "peak")]
                #[param(min_items: usize = 64, min = 1, doc = "a window")]
                #[param(mode: String = "a", words = ["a", "b"], doc = "how")]
                #[param(file: &Path, path = write, doc = "the output")]
                struct B {}
            },
        )
        .join("\n");
        for words in [
            "(required): \" , \"per second\" , \"; a number in (0, 1e10].\"",
            "; a number in [-3.4e38, 3.4e38].",
            "(default `64`): \" , \"a window\" , \"; an integer >= 1.\"",
            "(default `a`): \" , \"how\" , \"; one of a, b.\"",
            "; a file path.",
            "Registered as `b`:",
        ] {
            assert!(docs.contains(words), "{words} in\n{docs}");
        }
    }
}
