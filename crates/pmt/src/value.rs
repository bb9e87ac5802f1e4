//! [`Pmt`]: its variants, constructors, accessors and GNU Radio's dict operations.

use std::sync::Arc;

use crate::{Complex32, Complex64};

/// A polymorphic value, modelled on GNU Radio's `pmt::pmt_t`.
///
/// Dropping, comparing, printing and serializing a value take a bounded amount of call stack
/// however long a list (a chain of [`Pair`](Pmt::Pair)s) or however deep a nest of containers
/// it holds. For that `Pmt` implements [`Drop`], so a pattern cannot move a field out of it:
/// match on `&pmt` and clone the `Arc` you need (a reference count), or use the `as_*`
/// accessors.
#[derive(Clone)]
pub enum Pmt {
    /// `pmt::PMT_NIL` (also the empty list and the empty dict in GNU Radio).
    Null,
    Bool(bool),
    Symbol(Arc<str>),
    /// A signed integer (GNU Radio `from_long`).
    Int(i64),
    Uint64(u64),
    Double(f64),
    Complex(Complex64),
    Pair(Arc<(Pmt, Pmt)>),
    /// Key/value pairs in GNU Radio's order (most recently added key first).
    Dict(Arc<Vec<(Pmt, Pmt)>>),
    Vector(Arc<[Pmt]>),
    Tuple(Arc<[Pmt]>),
    U8Vector(Arc<[u8]>),
    S8Vector(Arc<[i8]>),
    U16Vector(Arc<[u16]>),
    S16Vector(Arc<[i16]>),
    U32Vector(Arc<[u32]>),
    S32Vector(Arc<[i32]>),
    U64Vector(Arc<[u64]>),
    S64Vector(Arc<[i64]>),
    F32Vector(Arc<[f32]>),
    F64Vector(Arc<[f64]>),
    C32Vector(Arc<[Complex32]>),
    C64Vector(Arc<[Complex64]>),
}

impl Pmt {
    /// A symbol (GNU Radio `pmt::intern`).
    pub fn symbol(name: impl Into<Arc<str>>) -> Pmt {
        Pmt::Symbol(name.into())
    }

    /// The pair `(car . cdr)` (GNU Radio `pmt::cons`).
    pub fn pair(car: impl Into<Pmt>, cdr: impl Into<Pmt>) -> Pmt {
        Pmt::Pair(Arc::new((car.into(), cdr.into())))
    }

    /// The list `(a b c ...)`: a chain of pairs ending in [`Pmt::Null`] (GNU Radio `pmt::list*`).
    pub fn list(items: impl IntoIterator<Item = Pmt>) -> Pmt {
        let items: Vec<Pmt> = items.into_iter().collect();
        items
            .into_iter()
            .rev()
            .fold(Pmt::Null, |tail, item| Pmt::pair(item, tail))
    }

    /// A byte blob: a [`Pmt::U8Vector`] (GNU Radio `pmt::init_u8vector`).
    pub fn blob(bytes: impl Into<Arc<[u8]>>) -> Pmt {
        Pmt::U8Vector(bytes.into())
    }

    /// A dict made by [`dict_add`](Self::dict_add)ing each entry in turn, as GNU Radio's
    /// `dict_from_mapping` and Python's `pmt.to_pmt(dict)` do: the last entry comes first, and a
    /// repeated key keeps its last value. No entries give [`Pmt::Null`], GNU Radio's empty dict.
    pub fn dict_from<K, V>(entries: impl IntoIterator<Item = (K, V)>) -> Pmt
    where
        K: Into<Pmt>,
        V: Into<Pmt>,
    {
        let mut dict = Pmt::Null;
        for (key, value) in entries {
            dict.dict_add(key, value);
        }
        dict
    }

    /// Associates `key` with `value`, as GNU Radio's `dict_add`: an existing entry for `key` is
    /// removed and the new entry goes first. [`Pmt::Null`] is the empty dict and becomes a
    /// [`Pmt::Dict`]. Keys compare with `==` (GNU Radio's `eqv` compares containers by identity,
    /// which only differs for keys that are not atoms).
    ///
    /// # Panics
    ///
    /// If `self` is neither a dict nor null (GNU Radio throws `wrong_type`); check
    /// [`is_dict`](Self::is_dict) first for values from outside.
    pub fn dict_add(&mut self, key: impl Into<Pmt>, value: impl Into<Pmt>) {
        let (key, value) = (key.into(), value.into());
        if matches!(self, Pmt::Null) {
            *self = Pmt::Dict(Arc::default());
        }
        let Pmt::Dict(entries) = self else {
            panic!("dict_add on a PMT that is not a dict: {self}");
        };
        let entries = Arc::make_mut(entries);
        if let Some(old) = entries.iter().position(|(k, _)| *k == key) {
            entries.remove(old);
        }
        entries.insert(0, (key, value));
    }

    /// The value of the first entry for `key`, or `None` if there is none or `self` is not a
    /// dict (GNU Radio `dict_ref`). Symbol keys can be looked up by `&str`.
    pub fn dict_get<K>(&self, key: &K) -> Option<&Pmt>
    where
        K: ?Sized,
        Pmt: PartialEq<K>,
    {
        let entries = self.as_dict()?;
        entries.iter().find(|(k, _)| *k == *key).map(|(_, v)| v)
    }

    /// Whether `self` is a dict; [`Pmt::Null`] is the empty dict.
    pub fn is_dict(&self) -> bool {
        self.as_dict().is_some()
    }

    /// The entries of a dict (none for [`Pmt::Null`]), most recently added first.
    pub fn as_dict(&self) -> Option<&[(Pmt, Pmt)]> {
        match self {
            Pmt::Dict(entries) => Some(entries),
            Pmt::Null => Some(&[]),
            _ => None,
        }
    }

    /// The `(car, cdr)` of a pair.
    pub fn as_pair(&self) -> Option<(&Pmt, &Pmt)> {
        match self {
            Pmt::Pair(pair) => Some((&pair.0, &pair.1)),
            _ => None,
        }
    }

    /// The name of a symbol.
    pub fn as_symbol(&self) -> Option<&str> {
        match self {
            Pmt::Symbol(name) => Some(name),
            _ => None,
        }
    }

    /// The value of a bool.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Pmt::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// An integer ([`Pmt::Int`], or a [`Pmt::Uint64`] that fits) as `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Pmt::Int(i) => Some(i),
            Pmt::Uint64(u) => i64::try_from(u).ok(),
            _ => None,
        }
    }

    /// An integer ([`Pmt::Uint64`], or a non-negative [`Pmt::Int`]) as `u64` (GNU Radio
    /// `to_uint64`).
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Pmt::Uint64(u) => Some(u),
            Pmt::Int(i) => u64::try_from(i).ok(),
            _ => None,
        }
    }

    /// A real number ([`Pmt::Double`] or an integer, possibly rounded) as `f64` (GNU Radio
    /// `to_double`).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Pmt::Double(d) => Some(d),
            Pmt::Int(i) => Some(i as f64),
            Pmt::Uint64(u) => Some(u as f64),
            _ => None,
        }
    }

    /// A number as a complex value (GNU Radio `to_complex`).
    pub fn as_complex(&self) -> Option<Complex64> {
        match *self {
            Pmt::Complex(c) => Some(c),
            _ => self.as_f64().map(|re| Complex64::new(re, 0.0)),
        }
    }

    /// The bytes of a [`Pmt::U8Vector`].
    pub fn as_blob(&self) -> Option<&[u8]> {
        match self {
            Pmt::U8Vector(bytes) => Some(bytes),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dict_add_prepends_and_moves_replaced_keys_to_the_front() {
        let mut dict = Pmt::dict_from([("a", 1), ("b", 2), ("c", 3)]);
        assert_eq!(dict.to_string(), "((c . 3) (b . 2) (a . 1))");
        dict.dict_add("b", 9);
        assert_eq!(dict.to_string(), "((b . 9) (c . 3) (a . 1))");
        assert_eq!(dict.dict_get("b"), Some(&Pmt::Int(9)));
        assert_eq!(dict.dict_get(&Pmt::symbol("a")), Some(&Pmt::Int(1)));
        assert_eq!(dict.dict_get("z"), None);
        assert_eq!(Pmt::Int(1).dict_get("a"), None);
    }

    #[test]
    fn null_is_the_empty_dict() {
        assert_eq!(Pmt::dict_from(Vec::<(Pmt, Pmt)>::new()), Pmt::Null);
        assert_eq!(Pmt::Null.as_dict(), Some(&[][..]));
        assert_eq!(Pmt::Dict(Arc::default()).to_bytes(), Pmt::Null.to_bytes());
    }

    #[test]
    #[should_panic(expected = "not a dict")]
    fn dict_add_on_a_number_panics() {
        Pmt::Int(1).dict_add("a", 1);
    }

    #[test]
    fn numeric_accessors_convert_like_gnu_radio() {
        assert_eq!(Pmt::Uint64(u64::MAX).as_i64(), None);
        assert_eq!(Pmt::Int(-1).as_u64(), None);
        assert_eq!(Pmt::Int(3).as_f64(), Some(3.0));
        assert_eq!(
            Pmt::Double(2.0).as_complex(),
            Some(Complex64::new(2.0, 0.0))
        );
        assert_eq!(Pmt::Double(2.0).as_i64(), None);
    }
}
