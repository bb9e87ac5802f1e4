//! `#[block]`: the `Block` implementation of a block, from its inherent impl.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::spanned::Spanned;
use syn::{Error, FnArg, ImplItem, ImplItemFn, ItemImpl, LitStr, ReturnType, Type};

/// Arguments of `#[block(...)]`.
#[derive(Default)]
struct Args {
    blocking: bool,
    paced: bool,
    observer: bool,
    message_source: bool,
    external_messages: bool,
    type_name: Option<LitStr>,
}

fn parse_args(args: TokenStream) -> syn::Result<Args> {
    let mut a = Args::default();
    let parser = syn::meta::parser(|m| {
        if m.path.is_ident("blocking") {
            a.blocking = true;
            Ok(())
        } else if m.path.is_ident("paced") {
            a.paced = true;
            Ok(())
        } else if m.path.is_ident("observer") {
            a.observer = true;
            Ok(())
        } else if m.path.is_ident("message_source") {
            a.message_source = true;
            Ok(())
        } else if m.path.is_ident("external_messages") {
            a.external_messages = true;
            Ok(())
        } else if m.path.is_ident("type_name") {
            a.type_name = Some(m.value()?.parse()?);
            Ok(())
        } else {
            Err(m.error(
                "unknown #[block] option: use `blocking`, `paced`, `observer`, `message_source`, \
                 `external_messages` or `type_name = \"...\"`",
            ))
        }
    });
    syn::parse::Parser::parse2(parser, args)?;
    Ok(a)
}

/// How a message handler takes its message.
enum Takes {
    /// `&Pmt`
    Ref,
    /// `Pmt`
    Owned,
    /// Any other type, converted with `FromMessage`.
    Typed(Box<Type>),
}

struct Handler {
    method: syn::Ident,
    port: String,
    takes: Takes,
    returns_unit: bool,
}

/// Whether `ty` is `Pmt` (any path ending in `Pmt`).
fn is_pmt(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Pmt"))
}

fn is_unit(ret: &ReturnType) -> bool {
    match ret {
        ReturnType::Default => true,
        ReturnType::Type(_, ty) => matches!(&**ty, Type::Tuple(t) if t.elems.is_empty()),
    }
}

/// Whether `f` takes `&mut self` and then exactly `extra` more arguments.
fn takes_mut_self(f: &ImplItemFn, extra: usize) -> bool {
    let mut inputs = f.sig.inputs.iter();
    let receiver_ok = matches!(inputs.next(), Some(FnArg::Receiver(r)) if r.reference.is_some() && r.mutability.is_some());
    receiver_ok && inputs.count() == extra
}

/// Takes `#[message_input]` off `f` and describes the handler, if it is one.
fn handler(f: &mut ImplItemFn) -> syn::Result<Option<Handler>> {
    let Some(at) = f
        .attrs
        .iter()
        .position(|a| a.path().is_ident("message_input"))
    else {
        return Ok(None);
    };
    let attr = f.attrs.remove(at);
    let mut port = None;
    if !matches!(attr.meta, syn::Meta::Path(_)) {
        attr.parse_nested_meta(|m| {
            if m.path.is_ident("name") {
                port = Some(m.value()?.parse::<LitStr>()?.value());
                Ok(())
            } else {
                Err(m.error("unknown message input option: the only one is `name = \"...\"`"))
            }
        })?;
    }
    if !takes_mut_self(f, 1) {
        return Err(Error::new(
            f.sig.span(),
            "a #[message_input] method takes `&mut self` and the message: \
             `fn name(&mut self, msg: &Pmt)` (or `Pmt`, or a type like `f64`)",
        ));
    }
    let Some(FnArg::Typed(arg)) = f.sig.inputs.iter().nth(1) else {
        unreachable!("checked above")
    };
    let takes = match &*arg.ty {
        Type::Reference(r) if is_pmt(&r.elem) && r.mutability.is_none() => Takes::Ref,
        ty if is_pmt(ty) => Takes::Owned,
        Type::Reference(_) => {
            return Err(Error::new(
                arg.ty.span(),
                "a #[message_input] method takes `&Pmt`, `Pmt`, or an owned type like `f64`",
            ))
        }
        ty => Takes::Typed(Box::new(ty.clone())),
    };
    let method = f.sig.ident.clone();
    Ok(Some(Handler {
        port: port.unwrap_or_else(|| method.to_string().trim_start_matches("r#").to_owned()),
        method,
        takes,
        returns_unit: is_unit(&f.sig.output),
    }))
}

pub(crate) fn expand(args: TokenStream, mut item: ItemImpl) -> syn::Result<TokenStream> {
    let args = parse_args(args)?;
    if let Some((_, path, _)) = &item.trait_ {
        return Err(Error::new(
            path.span(),
            "#[block] goes on the block's own impl (`impl MyBlock { ... }`), not on a trait impl",
        ));
    }
    let mut handlers = Vec::new();
    let (mut work, mut start, mut stop) = (false, false, false);
    for it in &mut item.items {
        let ImplItem::Fn(f) = it else { continue };
        if let Some(h) = handler(f)? {
            if handlers.iter().any(|x: &Handler| x.port == h.port) {
                return Err(Error::new(
                    f.sig.ident.span(),
                    format!("two message inputs are named '{}'", h.port),
                ));
            }
            handlers.push(h);
            continue;
        }
        let name = f.sig.ident.to_string();
        let slot = match name.as_str() {
            "work" => &mut work,
            "start" => &mut start,
            "stop" => &mut stop,
            _ => continue,
        };
        if !takes_mut_self(f, 0) {
            return Err(Error::new(
                f.sig.span(),
                format!("`{name}` of a #[block] impl takes only `&mut self`"),
            ));
        }
        *slot = true;
    }
    let self_ty = &item.self_ty;
    let shown = self_ty.to_token_stream().to_string().replace(' ', "");
    let (impl_generics, _, where_clause) = item.generics.split_for_impl();
    let rt = quote!(::radioflow_runtime);
    let work_fn = if work {
        quote! { <#self_ty>::work(self) }
    } else {
        let message = format!(
            "block `{shown}` has stream ports but its #[block] impl has no \
             `fn work(&mut self) -> Result<WorkStatus, BlockError>`"
        );
        quote! {
            const { ::core::assert!(<Self as #rt::PortFields>::STREAM_PORT_FIELDS == 0, #message) };
            ::core::result::Result::Ok(#rt::WorkStatus::Continue)
        }
    };
    // A non-generic block is checked when the crate is checked (`cargo check` included); a
    // generic one when its `work` is compiled for a type (the assertion inside `work`).
    let no_work_check = (!work && item.generics.params.is_empty()).then(|| {
        let message = format!(
            "block `{shown}` has stream ports but its #[block] impl has no \
             `fn work(&mut self) -> Result<WorkStatus, BlockError>`"
        );
        quote! {
            const _: () = ::core::assert!(
                <#self_ty as #rt::PortFields>::STREAM_PORT_FIELDS == 0,
                #message
            );
        }
    });
    let declare_inputs = handlers.iter().map(|h| {
        let port = &h.port;
        match &h.takes {
            Takes::Typed(ty) => quote! {
                p.typed_message_input(#port, #rt::MessageType::of::<#ty>());
            },
            Takes::Ref | Takes::Owned => quote! { p.message_input(#port); },
        }
    });
    let names2 = handlers.iter().map(|h| &h.port);
    let arms = handlers.iter().enumerate().map(|(i, h)| {
        let method = &h.method;
        let port = &h.port;
        let call = match &h.takes {
            Takes::Ref => quote! { self.#method(&msg) },
            Takes::Owned => quote! { self.#method(msg) },
            Takes::Typed(ty) => quote! {
                match <#ty as #rt::FromMessage>::from_message(&msg) {
                    ::core::option::Option::Some(v) => self.#method(v),
                    ::core::option::Option::None => {
                        return ::core::result::Result::Err(#rt::BlockError::msg(::std::format!(
                            "message input '{}' takes {}, not {}",
                            #port,
                            <#ty as #rt::FromMessage>::EXPECTS,
                            msg
                        )))
                    }
                }
            },
        };
        let body = if h.returns_unit {
            quote! {{ #call; ::core::result::Result::Ok(()) }}
        } else {
            quote! { #call.map_err(::core::convert::Into::into) }
        };
        quote! { #i => #body, }
    });
    let hook = |present: bool, name: &str| {
        let ident = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
        present.then(|| {
            quote! {
                fn #ident(&mut self) -> ::core::result::Result<(), #rt::BlockError> {
                    <#self_ty>::#ident(self)
                }
            }
        })
    };
    let start_fn = hook(start, "start");
    let stop_fn = hook(stop, "stop");
    let blocking = args
        .blocking
        .then(|| quote! { fn is_blocking(&self) -> bool { true } });
    let paced = args
        .paced
        .then(|| quote! { fn is_paced(&self) -> bool { true } });
    let observer = args
        .observer
        .then(|| quote! { fn is_observer(&self) -> bool { true } });
    let message_source = args
        .message_source
        .then(|| quote! { fn is_message_source(&self) -> bool { true } });
    let external_messages = args
        .external_messages
        .then(|| quote! { fn takes_external_messages(&self) -> bool { true } });
    let type_name = args
        .type_name
        .map(|n| quote! { fn type_name(&self) -> &'static str { #n } });
    Ok(quote! {
        #item

        #no_work_check

        impl #impl_generics #rt::registry::MessageInputNames for #self_ty #where_clause {
            const MESSAGE_INPUTS: &'static [&'static str] = &[#(#names2),*];
        }

        impl #impl_generics #rt::Block for #self_ty #where_clause {
            fn ports(&mut self, p: &mut #rt::Ports<'_>) {
                <Self as #rt::PortFields>::list_ports(self, p);
                <Self as #rt::registry::SettableParams>::declare(p);
                #( #declare_inputs )*
            }

            fn work(&mut self) -> ::core::result::Result<#rt::WorkStatus, #rt::BlockError> {
                #work_fn
            }

            #[allow(unreachable_code)]
            fn handle_message(
                &mut self,
                port: usize,
                msg: #rt::Pmt,
            ) -> ::core::result::Result<(), #rt::BlockError> {
                let _ = &msg;
                // The settable parameters' inputs come first (see `ports`).
                let settable = <Self as #rt::registry::SettableParams>::NAMES.len();
                if port < settable {
                    return <Self as #rt::registry::SettableParams>::set(self, port, msg);
                }
                match port - settable {
                    #(#arms)*
                    _ => ::core::result::Result::Err(#rt::BlockError::msg(::std::format!(
                        "message input {port} has no handler"
                    ))),
                }
            }

            #start_fn
            #stop_fn
            #blocking
            #paced
            #observer
            #message_source
            #external_messages
            #type_name
        }
    })
}
