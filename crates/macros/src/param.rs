//! One `#[param(...)]` of a `#[library_block]`: `name: Type [= default], key = value, ...`.
//!
//! The Rust type gives the kind (`bool`, integers, `f32`/`f64` with their range, `String`,
//! `PathBuf`, taps, messages, tags, the item type `T` and `Vec<T>`; any other type is a word
//! it parses); the keys refine it. The kind's words for the docs are written here, as
//! `ParamKind::describe` writes them at run time (a test compares the two for every block).

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{Error, Expr, Ident, Lit, LitStr, Token, Type};

/// What a parameter's Rust type makes it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Bool,
    /// An unsigned integer (`min` 0 unless given).
    Unsigned,
    /// A signed integer.
    Signed,
    /// `f64`: any finite number unless a range is given.
    F64,
    /// `f32`: what an `f32` holds unless a range is given.
    F32,
    /// `String` / `&str`.
    Text,
    /// `PathBuf` / `&Path`.
    Path,
    /// `Vec<f32>`, `Vec<f64>`, `&[f32]`, `&[f64]`: filter taps.
    Floats,
    /// `Vec<Pmt>`.
    Messages,
    /// `Pmt`.
    Message,
    /// `Vec<Tag>`: each `[offset, key, value]`.
    Tags,
    /// The block's item type.
    Item,
    /// `Vec` of the item type.
    Items,
    /// Any other type: a word it parses (`FromStr`).
    Parsed,
}

/// A bound of a float's range, as given.
#[derive(Clone, Copy)]
enum Bound {
    Included(f64),
    Excluded(f64),
    Unbounded,
}

/// A declared parameter.
pub(crate) struct Param {
    pub(crate) name: Ident,
    ty: Type,
    class: Class,
    default: Option<Expr>,
    example: Option<Expr>,
    doc: Expr,
    /// A float's range.
    range: (Bound, Bound),
    /// An integer's smallest value.
    min: i64,
    words: Option<Vec<LitStr>>,
    path_use: Option<Ident>,
    pub(crate) settable: bool,
}

/// The last segment of a type path, and its single generic type argument if it has one.
fn last_segment(ty: &Type) -> Option<(String, Option<&Type>)> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    let arg = match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => match a.args.first() {
            Some(syn::GenericArgument::Type(t)) => Some(t),
            _ => None,
        },
        _ => None,
    };
    Some((last.ident.to_string(), arg))
}

fn is_ident(ty: &Type, name: &str) -> bool {
    matches!(last_segment(ty), Some((n, None)) if n == name)
}

fn classify(ty: &Type, item: Option<&Ident>) -> Class {
    let is_item = |t: &Type| item.is_some_and(|i| matches!(t, Type::Path(p) if p.path.is_ident(i)));
    if is_item(ty) {
        return Class::Item;
    }
    if let Type::Reference(r) = ty {
        return match &*r.elem {
            t if is_ident(t, "str") => Class::Text,
            t if is_ident(t, "Path") => Class::Path,
            Type::Slice(s) if is_ident(&s.elem, "f32") || is_ident(&s.elem, "f64") => Class::Floats,
            _ => Class::Parsed,
        };
    }
    match last_segment(ty) {
        Some((n, None)) => match n.as_str() {
            "bool" => Class::Bool,
            "u8" | "u16" | "u32" | "u64" | "usize" => Class::Unsigned,
            "i8" | "i16" | "i32" | "i64" | "isize" => Class::Signed,
            "f64" => Class::F64,
            "f32" => Class::F32,
            "String" => Class::Text,
            "PathBuf" => Class::Path,
            "Pmt" => Class::Message,
            _ => Class::Parsed,
        },
        Some((n, Some(arg))) if n == "Vec" => {
            if is_item(arg) {
                Class::Items
            } else if is_ident(arg, "f32") || is_ident(arg, "f64") {
                Class::Floats
            } else if is_ident(arg, "Pmt") {
                Class::Messages
            } else if is_ident(arg, "Tag") {
                Class::Tags
            } else {
                Class::Parsed
            }
        }
        _ => Class::Parsed,
    }
}

/// The expression inside any invisible groups (a `macro_rules!` fragment).
fn ungroup(e: &Expr) -> &Expr {
    match e {
        Expr::Group(g) => ungroup(&g.expr),
        Expr::Paren(p) => ungroup(&p.expr),
        e => e,
    }
}

/// A number literal, possibly negative.
fn number(e: &Expr) -> syn::Result<f64> {
    match ungroup(e) {
        Expr::Lit(l) => match &l.lit {
            Lit::Float(f) => f.base10_parse(),
            Lit::Int(i) => i.base10_parse::<i64>().map(|i| i as f64),
            _ => Err(Error::new(e.span(), "needs a number")),
        },
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => number(&u.expr).map(|x| -x),
        _ => Err(Error::new(e.span(), "needs a number (a literal)")),
    }
}

/// An integer literal, possibly negative.
fn integer(e: &Expr) -> syn::Result<i64> {
    match ungroup(e) {
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => i.base10_parse(),
            _ => Err(Error::new(e.span(), "needs an integer")),
        },
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => integer(&u.expr).map(|x| -x),
        _ => Err(Error::new(e.span(), "needs an integer (a literal)")),
    }
}

fn string(e: &Expr) -> syn::Result<LitStr> {
    match ungroup(e) {
        Expr::Lit(l) => match &l.lit {
            Lit::Str(s) => Ok(s.clone()),
            _ => Err(Error::new(e.span(), "needs a string")),
        },
        _ => Err(Error::new(e.span(), "needs a string (a literal)")),
    }
}

/// A real number as `Number` (the registry's) writes it: as written from 0.0001 to below a
/// million, else in exponent form.
fn shown(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || (1e-4..1e6).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// `f64` tokens for `x`.
fn float_tokens(x: f64) -> TokenStream {
    proc_macro2::Literal::f64_suffixed(x).into_token_stream()
}

/// Parses `name: Type [= default], key = value, ...`; `item` is the block's item type
/// parameter.
pub(crate) fn parse(s: ParseStream<'_>, item: Option<&Ident>) -> syn::Result<Param> {
    let name: Ident = s.parse()?;
    if name == "dtype" || name == "name" {
        return Err(Error::new(
            name.span(),
            format!("'{name}' is every front end's own (the item type, the instance name)"),
        ));
    }
    s.parse::<Token![:]>()?;
    let ty: Type = s.parse()?;
    let default = if s.peek(Token![=]) {
        s.parse::<Token![=]>()?;
        Some(s.parse::<Expr>()?)
    } else {
        None
    };
    let class = classify(&ty, item);
    let mut p = Param {
        name,
        ty,
        class,
        default,
        example: None,
        doc: syn::parse_quote!(""),
        range: match class {
            Class::F32 => (Bound::Included(-3.4e38), Bound::Included(3.4e38)),
            _ => (Bound::Unbounded, Bound::Unbounded),
        },
        min: if class == Class::Signed { i64::MIN } else { 0 },
        words: None,
        path_use: None,
        settable: false,
    };
    let (mut doc, mut ranged) = (false, false);
    while !s.is_empty() {
        s.parse::<Token![,]>()?;
        if s.is_empty() {
            break;
        }
        let key: Ident = s.parse()?;
        if key == "settable" {
            p.settable = true;
            continue;
        }
        s.parse::<Token![=]>()?;
        let value: Expr = s.parse()?;
        let float_only = |what: &str| {
            if matches!(class, Class::F32 | Class::F64) {
                Ok(())
            } else {
                Err(Error::new(
                    key.span(),
                    format!("`{what}` is for f32 and f64 parameters"),
                ))
            }
        };
        match key.to_string().as_str() {
            "doc" => {
                p.doc = value;
                doc = true;
            }
            "example" => p.example = Some(value),
            "at_least" | "above" => {
                float_only("at_least/above")?;
                if !ranged {
                    p.range = (Bound::Unbounded, Bound::Unbounded);
                    ranged = true;
                }
                let x = number(&value)?;
                p.range.0 = if key == "above" {
                    Bound::Excluded(x)
                } else {
                    Bound::Included(x)
                };
            }
            "at_most" | "below" => {
                float_only("at_most/below")?;
                if !ranged {
                    p.range = (Bound::Unbounded, Bound::Unbounded);
                    ranged = true;
                }
                let x = number(&value)?;
                p.range.1 = if key == "below" {
                    Bound::Excluded(x)
                } else {
                    Bound::Included(x)
                };
            }
            "min" => {
                if !matches!(class, Class::Unsigned | Class::Signed) {
                    return Err(Error::new(key.span(), "`min` is for integer parameters"));
                }
                p.min = integer(&value)?;
            }
            "words" => {
                let Expr::Array(list) = ungroup(&value) else {
                    return Err(Error::new(value.span(), "words = [\"a\", \"b\"]"));
                };
                let words = list
                    .elems
                    .iter()
                    .map(string)
                    .collect::<syn::Result<Vec<_>>>()?;
                if words.is_empty() {
                    return Err(Error::new(value.span(), "a choice needs words"));
                }
                p.words = Some(words);
            }
            "path" => {
                let Expr::Path(path) = ungroup(&value) else {
                    return Err(Error::new(value.span(), PATH_USES));
                };
                let use_ = match path.path.get_ident().map(Ident::to_string).as_deref() {
                    Some("read") => "Read",
                    Some("write") => "Write",
                    Some("read_sigmf") => "ReadSigmf",
                    Some("write_sigmf") => "WriteSigmf",
                    _ => return Err(Error::new(value.span(), PATH_USES)),
                };
                p.path_use = Some(Ident::new(use_, value.span()));
            }
            _ => {
                return Err(Error::new(
                    key.span(),
                    "unknown parameter option: use doc, example, at_least, above, at_most, \
                     below, min, words, path or settable",
                ))
            }
        }
    }
    if !doc {
        return Err(Error::new(
            p.name.span(),
            format!("parameter '{}' needs `doc = \"...\"`", p.name),
        ));
    }
    if p.class == Class::Path && p.path_use.is_none() {
        return Err(Error::new(p.name.span(), PATH_USES));
    }
    if p.words.is_some() && !matches!(p.class, Class::Text | Class::Parsed | Class::F64) {
        return Err(Error::new(
            p.ty.span(),
            "`words` is for a parameter read as a word: a String, or a type parsed from it",
        ));
    }
    // Checked here so that a bad default is an error at the declaration.
    if let Some(d) = &p.default {
        p.value(d)?;
    }
    if let Some(e) = &p.example {
        p.value(e)?;
    }
    Ok(p)
}

const PATH_USES: &str = "a path parameter says what the block does with the file: \
                         `path = read`, `write`, `read_sigmf` or `write_sigmf`";

impl Param {
    /// Whether it is read as a word (a `Choice` with words, else `Text`).
    fn is_word(&self) -> bool {
        self.words.is_some() || matches!(self.class, Class::Text | Class::Parsed)
    }

    /// The `ParamKind` tokens and the words `ParamKind::describe` gives.
    fn kind(&self) -> (TokenStream, String) {
        let reg = quote!(::radioflow_runtime::registry);
        if let Some(words) = &self.words {
            let text = words
                .iter()
                .map(LitStr::value)
                .collect::<Vec<_>>()
                .join(", ");
            return (
                quote!(#reg::ParamKind::Choice(&[#(#words),*])),
                format!("one of {text}"),
            );
        }
        match self.class {
            Class::Bool => (quote!(#reg::ParamKind::Bool), "true or false".into()),
            Class::Unsigned | Class::Signed => {
                let min = self.min;
                (
                    quote!(#reg::ParamKind::Int { min: #min }),
                    format!("an integer >= {min}"),
                )
            }
            Class::F32 | Class::F64 => {
                let bound = |b: Bound| match b {
                    Bound::Included(x) => {
                        let x = float_tokens(x);
                        quote!(::core::ops::Bound::Included(#x))
                    }
                    Bound::Excluded(x) => {
                        let x = float_tokens(x);
                        quote!(::core::ops::Bound::Excluded(#x))
                    }
                    Bound::Unbounded => quote!(::core::ops::Bound::Unbounded),
                };
                let (min, max) = (bound(self.range.0), bound(self.range.1));
                let tokens =
                    quote!(#reg::ParamKind::Float(#reg::FloatRange { min: #min, max: #max }));
                let text = match self.range {
                    (Bound::Unbounded, Bound::Unbounded) => "a finite number".into(),
                    range => format!("a number {}", range_text(range)),
                };
                (tokens, text)
            }
            Class::Text | Class::Parsed => (quote!(#reg::ParamKind::Text), "a word".into()),
            Class::Path => {
                let u = self.path_use.as_ref().expect("checked");
                (
                    quote!(#reg::ParamKind::Path(#reg::PathUse::#u)),
                    "a file path".into(),
                )
            }
            Class::Floats => (
                quote!(#reg::ParamKind::Floats),
                "a non-empty list of finite numbers".into(),
            ),
            Class::Messages | Class::Tags => (
                quote!(#reg::ParamKind::Messages),
                "a list of messages".into(),
            ),
            Class::Message => (quote!(#reg::ParamKind::Message), "a message".into()),
            Class::Item => (
                quote!(#reg::ParamKind::Item),
                "a value of the item type".into(),
            ),
            Class::Items => (
                quote!(#reg::ParamKind::Items),
                "a list of values of the item type".into(),
            ),
        }
    }

    /// A default or example as `DefaultValue` tokens, and as its `Display` writes it.
    fn value(&self, e: &Expr) -> syn::Result<(TokenStream, String)> {
        let reg = quote!(::radioflow_runtime::registry);
        if self.is_word() {
            let w = string(e)?;
            if let Some(words) = &self.words
                && !words.iter().any(|x| x.value() == w.value())
            {
                return Err(Error::new(w.span(), "not one of the parameter's words"));
            }
            // An empty word is shown as the empty string it is.
            let shown = if w.value().is_empty() {
                "\"\"".to_owned()
            } else {
                w.value()
            };
            return Ok((quote!(#reg::DefaultValue::Word(#w)), shown));
        }
        match self.class {
            Class::Bool => match ungroup(e) {
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Bool(b), ..
                }) => {
                    let v = b.value;
                    Ok((quote!(#reg::DefaultValue::Bool(#v)), v.to_string()))
                }
                _ => Err(Error::new(e.span(), "needs true or false")),
            },
            Class::Unsigned | Class::Signed => {
                let i = integer(e)?;
                if i < self.min {
                    return Err(Error::new(
                        e.span(),
                        format!("below the minimum {}", self.min),
                    ));
                }
                Ok((quote!(#reg::DefaultValue::Int(#i)), i.to_string()))
            }
            Class::F32 | Class::F64 | Class::Item => {
                let x = number(e)?;
                let inside = |b: Bound, above: bool| match b {
                    Bound::Included(a) => {
                        if above {
                            x >= a
                        } else {
                            x <= a
                        }
                    }
                    Bound::Excluded(a) => {
                        if above {
                            x > a
                        } else {
                            x < a
                        }
                    }
                    Bound::Unbounded => true,
                };
                if self.class != Class::Item
                    && !(inside(self.range.0, true) && inside(self.range.1, false))
                {
                    return Err(Error::new(e.span(), "outside the parameter's range"));
                }
                let t = float_tokens(x);
                Ok((quote!(#reg::DefaultValue::Float(#t)), format!("{x}")))
            }
            Class::Floats | Class::Messages | Class::Tags | Class::Items => match ungroup(e) {
                Expr::Array(a) if a.elems.is_empty() => {
                    Ok((quote!(#reg::DefaultValue::Empty), "[]".into()))
                }
                _ => Err(Error::new(e.span(), "a list's default is `[]`")),
            },
            // A message's default or example may be a symbol (a string literal), which a
            // block can read as text (a matrix as "1 0; 0 1", say).
            Class::Message => {
                let w = string(e).map_err(|_| {
                    Error::new(
                        e.span(),
                        "a message's default or example is a string (a symbol)",
                    )
                })?;
                Ok((quote!(#reg::DefaultValue::Word(#w)), w.value()))
            }
            Class::Path | Class::Text | Class::Parsed => {
                Err(Error::new(e.span(), "no default for this parameter"))
            }
        }
    }

    /// The `ParamDescription` tokens.
    pub(crate) fn description(&self) -> TokenStream {
        let reg = quote!(::radioflow_runtime::registry);
        let name = self.name.to_string();
        let (kind, _) = self.kind();
        let doc = &self.doc;
        let mut d = match &self.default {
            Some(v) => {
                let (v, _) = self.value(v).expect("checked when parsed");
                quote!(#reg::ParamDescription::optional(#name, #kind, #v, #doc))
            }
            None => quote!(#reg::ParamDescription::required(#name, #kind, #doc)),
        };
        if let Some(e) = &self.example {
            let (v, _) = self.value(e).expect("checked when parsed");
            d = quote!(#d.with_example(#v));
        }
        if self.settable {
            d = quote!(#d.with_setter());
        }
        d
    }

    /// `let name: Type = ...?;`: the value read from the checked arguments `args` (a reference
    /// type read into its owned form).
    pub(crate) fn read(&self, args: &Ident) -> TokenStream {
        let reg = quote!(::radioflow_runtime::registry);
        let (ident, name) = (&self.name, self.name.to_string());
        let owned = match &self.ty {
            Type::Reference(r) => {
                let elem = &r.elem;
                quote!(<#elem as ::std::borrow::ToOwned>::Owned)
            }
            ty => ty.to_token_stream(),
        };
        let read = match self.class {
            Class::Item => quote!(#reg::read_item(#args, #name)),
            Class::Items => quote!(#reg::read_items(#args, #name)),
            Class::Parsed | Class::F64 if self.words.is_some() || self.class == Class::Parsed => {
                quote!(#reg::read_word::<#owned>(#args, #name))
            }
            _ => quote!(<#owned as #reg::Param>::read(#args, #name)),
        };
        quote! { let #ident: #owned = #read?; }
    }

    /// How the default `make` passes it to `new`: lent if declared as a reference.
    pub(crate) fn pass(&self) -> TokenStream {
        let ident = &self.name;
        match &self.ty {
            Type::Reference(_) => quote!(&#ident),
            _ => quote!(#ident),
        }
    }

    /// Its line of the docs' parameters: `- `name` (default `1`, settable): doc; kind.`
    pub(crate) fn doc_line(&self) -> Vec<TokenStream> {
        let mut notes = match &self.default {
            Some(v) => format!("default `{}`", self.value(v).expect("checked").1),
            None => "required".to_owned(),
        };
        if let Some(e) = &self.example {
            notes += &format!(", e.g. `{}`", self.value(e).expect("checked").1);
        }
        if self.settable {
            notes += ", settable";
        }
        let head = LitStr::new(&format!("- `{}` ({notes}): ", self.name), Span::call_site());
        let tail = LitStr::new(&format!("; {}.", self.kind().1), Span::call_site());
        let doc = &self.doc;
        vec![quote!(#head), quote!(#doc), quote!(#tail)]
    }
}

/// A range as `FloatRange`'s `Display` writes it.
fn range_text(range: (Bound, Bound)) -> String {
    let lower = match range.0 {
        Bound::Included(a) => Some(('[', shown(a))),
        Bound::Excluded(a) => Some(('(', shown(a))),
        Bound::Unbounded => None,
    };
    let upper = match range.1 {
        Bound::Included(b) => Some((shown(b), ']')),
        Bound::Excluded(b) => Some((shown(b), ')')),
        Bound::Unbounded => None,
    };
    match (lower, upper) {
        (None, None) => "finite".into(),
        (Some(('[', a)), None) => format!(">= {a}"),
        (Some((_, a)), None) => format!("> {a}"),
        (None, Some((b, ']'))) => format!("<= {b}"),
        (None, Some((b, _))) => format!("< {b}"),
        (Some((open, a)), Some((b, close))) => format!("in {open}{a}, {b}{close}"),
    }
}
