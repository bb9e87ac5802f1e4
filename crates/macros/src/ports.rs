//! `#[derive(Ports)]`: the port listing of a block, from its annotated fields.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Error, Fields, GenericArgument, LitStr, PathArguments, Type};

/// Which kind of port a field is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Input,
    Output,
    MessageOutput,
}

impl Kind {
    fn of(attr: &syn::Attribute) -> Option<Self> {
        let p = attr.path();
        if p.is_ident("input") {
            Some(Self::Input)
        } else if p.is_ident("output") {
            Some(Self::Output)
        } else if p.is_ident("message_output") {
            Some(Self::MessageOutput)
        } else {
            None
        }
    }

    fn attribute(self) -> &'static str {
        match self {
            Self::Input => "input",
            Self::Output => "output",
            Self::MessageOutput => "message_output",
        }
    }

    /// The port type the field must have.
    fn port_type(self) -> &'static str {
        match self {
            Self::Input => "StreamInput",
            Self::Output => "StreamOutput",
            Self::MessageOutput => "MessageOutput",
        }
    }

    fn visitor(self) -> proc_macro2::Ident {
        let name = match self {
            Self::Input => "stream_input",
            Self::Output => "stream_output",
            Self::MessageOutput => "message_output",
        };
        proc_macro2::Ident::new(name, proc_macro2::Span::call_site())
    }

    /// The runtime's `Direction` variant of this kind of port.
    fn direction(self) -> proc_macro2::Ident {
        let name = match self {
            Self::Input => "StreamInput",
            Self::Output => "StreamOutput",
            Self::MessageOutput => "MessageOutput",
        };
        proc_macro2::Ident::new(name, proc_macro2::Span::call_site())
    }
}

/// The last path segment of `ty` and, for `Vec<X>`, the last segment of `X`.
fn classify(ty: &Type) -> Option<(bool, String)> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident == "Vec" {
        let PathArguments::AngleBracketed(args) = &last.arguments else {
            return None;
        };
        let Some(GenericArgument::Type(Type::Path(inner))) = args.args.first() else {
            return None;
        };
        return Some((true, inner.path.segments.last()?.ident.to_string()));
    }
    Some((false, last.ident.to_string()))
}

/// `name = "..."` from `#[input(name = "...")]`, `None` for a bare `#[input]`.
fn port_name(attr: &syn::Attribute) -> syn::Result<Option<LitStr>> {
    if matches!(attr.meta, syn::Meta::Path(_)) {
        return Ok(None);
    }
    let mut name = None;
    attr.parse_nested_meta(|m| {
        if m.path.is_ident("name") {
            name = Some(m.value()?.parse::<LitStr>()?);
            Ok(())
        } else {
            Err(m.error("unknown port option: the only one is `name = \"...\"`"))
        }
    })?;
    Ok(name)
}

pub(crate) fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let Data::Struct(data) = &input.data else {
        return Err(Error::new(
            input.ident.span(),
            "#[derive(Ports)] needs a struct with named fields: the ports are its fields",
        ));
    };
    let Fields::Named(fields) = &data.fields else {
        return Err(Error::new(
            input.ident.span(),
            "#[derive(Ports)] needs a struct with named fields: the ports are its fields",
        ));
    };
    let mut listing = Vec::new();
    let mut seen: Vec<(Kind, String)> = Vec::new();
    let mut stream_ports = 0usize;
    let mut port_list = Vec::new();
    for field in &fields.named {
        let mut found: Option<(Kind, &syn::Attribute)> = None;
        for attr in &field.attrs {
            let Some(kind) = Kind::of(attr) else { continue };
            if let Some((first, _)) = found {
                return Err(Error::new(
                    attr.span(),
                    format!(
                        "a field is one port: it already has #[{}]",
                        first.attribute()
                    ),
                ));
            }
            found = Some((kind, attr));
        }
        let Some((kind, attr)) = found else { continue };
        let ident = field.ident.as_ref().expect("named fields have names");
        let expected = kind.port_type();
        let (is_vec, found_ty) = classify(&field.ty).unwrap_or((false, String::new()));
        if found_ty != expected {
            let ty = &field.ty;
            return Err(Error::new(
                field.ty.span(),
                format!(
                    "#[{}] needs a field of type {expected}<..> (or Vec<{expected}<..>>), not `{}`",
                    kind.attribute(),
                    quote!(#ty).to_string().replace(' ', "")
                ),
            ));
        }
        let name = match port_name(attr)? {
            Some(n) => n.value(),
            None => ident.to_string().trim_start_matches("r#").to_owned(),
        };
        // Inputs share one namespace, outputs (stream and message) another, as `connect` sees
        // them per direction; a duplicate would make one port unreachable by name.
        let direction = |k: Kind| {
            if k == Kind::Input {
                0
            } else {
                1 + (k == Kind::MessageOutput) as u8
            }
        };
        if seen
            .iter()
            .any(|(k, n)| direction(*k) == direction(kind) && *n == name)
        {
            return Err(Error::new(
                attr.span(),
                format!("two ports of this direction are named '{name}'"),
            ));
        }
        seen.push((kind, name.clone()));
        if kind != Kind::MessageOutput {
            stream_ports += 1;
        }
        let visit = kind.visitor();
        let direction = kind.direction();
        port_list.push(quote! { (#name, ::radioflow_runtime::Direction::#direction, #is_vec) });
        listing.push(if is_vec {
            quote! {
                for (i, port) in self.#ident.iter_mut().enumerate() {
                    p.#visit(&::std::format!("{}{}", #name, i), port);
                }
            }
        } else {
            quote! { p.#visit(#name, &mut self.#ident); }
        });
    }
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics ::radioflow_runtime::PortFields for #ident #ty_generics #where_clause {
            const STREAM_PORT_FIELDS: usize = #stream_ports;
            const PORT_LIST: &'static [(&'static str, ::radioflow_runtime::Direction, bool)] =
                &[#(#port_list),*];

            fn list_ports(&mut self, p: &mut ::radioflow_runtime::Ports<'_>) {
                #(#listing)*
            }
        }
    })
}
