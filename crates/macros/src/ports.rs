//! `#[derive(Ports)]`: the port listing of a block, from its annotated fields.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Error, Fields, GenericArgument, LitStr, PathArguments, Type};

/// Which kind of port a field is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
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

/// One port field of a block.
pub(crate) struct Port {
    pub(crate) kind: Kind,
    pub(crate) ident: syn::Ident,
    /// Its name (a `Vec`'s prefix).
    pub(crate) name: String,
    /// A `Vec` of ports.
    pub(crate) is_vec: bool,
    /// The item type (`T` of `StreamInput<T>`); `None` for a message output.
    pub(crate) item: Option<Type>,
    /// The field's doc comment, one expression per line (`#[doc = ...]`).
    pub(crate) doc: Vec<syn::Expr>,
}

impl Port {
    /// Whether it is a stream port.
    pub(crate) fn is_stream(&self) -> bool {
        self.kind != Kind::MessageOutput
    }
}

/// The struct's named fields, or the error `#[derive(Ports)]` gives for anything else.
pub(crate) fn named_fields<'a>(
    ident: &syn::Ident,
    data: &'a Fields,
) -> syn::Result<&'a syn::FieldsNamed> {
    match data {
        Fields::Named(fields) => Ok(fields),
        _ => Err(Error::new(
            ident.span(),
            "#[derive(Ports)] needs a struct with named fields: the ports are its fields",
        )),
    }
}

/// The `T` of `StreamInput<T>` (or of `Vec<StreamInput<T>>`).
fn item_type(ty: &Type) -> Option<Type> {
    let Type::Path(p) = ty else { return None };
    let mut last = p.path.segments.last()?;
    if last.ident == "Vec" {
        let PathArguments::AngleBracketed(args) = &last.arguments else {
            return None;
        };
        let Some(GenericArgument::Type(Type::Path(inner))) = args.args.first() else {
            return None;
        };
        last = inner.path.segments.last()?;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first() {
        Some(GenericArgument::Type(t)) => Some(t.clone()),
        _ => None,
    }
}

/// The values of a field's or item's `#[doc = ...]` attributes.
pub(crate) fn doc_lines(attrs: &[syn::Attribute]) -> Vec<syn::Expr> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => Some(nv.value.clone()),
            _ => None,
        })
        .collect()
}

/// Whether `attr` declares a port (`#[input]`, `#[output]`, `#[message_output]`).
pub(crate) fn is_port_attribute(attr: &syn::Attribute) -> bool {
    Kind::of(attr).is_some()
}

/// The port fields of a block, in field order, checked: one port attribute per field, of the
/// port's type, names unique per direction.
pub(crate) fn analyze(fields: &syn::FieldsNamed) -> syn::Result<Vec<Port>> {
    let mut ports: Vec<Port> = Vec::new();
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
        if ports
            .iter()
            .any(|p| direction(p.kind) == direction(kind) && p.name == name)
        {
            return Err(Error::new(
                attr.span(),
                format!("two ports of this direction are named '{name}'"),
            ));
        }
        ports.push(Port {
            kind,
            ident: ident.clone(),
            name,
            is_vec,
            item: (kind != Kind::MessageOutput)
                .then(|| item_type(&field.ty))
                .flatten(),
            doc: doc_lines(&field.attrs),
        });
    }
    Ok(ports)
}

/// `impl PortFields` for the block `ident` with these ports.
pub(crate) fn port_fields_impl(
    ident: &syn::Ident,
    generics: &syn::Generics,
    ports: &[Port],
) -> TokenStream {
    let stream_ports = ports.iter().filter(|p| p.is_stream()).count();
    let port_list = ports.iter().map(|p| {
        let (name, direction, is_vec) = (&p.name, p.kind.direction(), p.is_vec);
        quote! { (#name, ::radioflow_runtime::Direction::#direction, #is_vec) }
    });
    let listing = ports.iter().map(|p| {
        let (visit, ident, name) = (p.kind.visitor(), &p.ident, &p.name);
        if p.is_vec {
            quote! {
                for (i, port) in self.#ident.iter_mut().enumerate() {
                    p.#visit(&::std::format!("{}{}", #name, i), port);
                }
            }
        } else {
            quote! { p.#visit(#name, &mut self.#ident); }
        }
    });
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        impl #impl_generics ::radioflow_runtime::PortFields for #ident #ty_generics #where_clause {
            const STREAM_PORT_FIELDS: usize = #stream_ports;
            const PORT_LIST: &'static [(&'static str, ::radioflow_runtime::Direction, bool)] =
                &[#(#port_list),*];

            fn list_ports(&mut self, p: &mut ::radioflow_runtime::Ports<'_>) {
                #(#listing)*
            }
        }
    }
}

pub(crate) fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let Data::Struct(data) = &input.data else {
        return Err(Error::new(
            input.ident.span(),
            "#[derive(Ports)] needs a struct with named fields: the ports are its fields",
        ));
    };
    let fields = named_fields(&input.ident, &data.fields)?;
    let ports = analyze(fields)?;
    let ident = &input.ident;
    let port_fields = port_fields_impl(ident, &input.generics, &ports);
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        #port_fields

        // No settable parameters: those are declared with `#[library_block]`.
        impl #impl_generics ::radioflow_runtime::registry::SettableParams
            for #ident #ty_generics #where_clause {}
    })
}
