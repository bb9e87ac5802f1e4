//! What one row of the GNU Radio table says, and how a row turns a GNU Radio block's
//! parameters into a radioflow block's.

use radioflow_runtime::registry::Dtype;
use radioflow_runtime::Pmt;

/// A GNU Radio block that radioflow runs: its GRC id, how GNU Radio's Python makes it, and
/// what each of its parameters becomes. Every parameter of GNU Radio's GRC definition is in
/// [`params`](Self::params) or is the item type ([`types`](Self::types)): none is dropped
/// without a word (a test reads GNU Radio's own `.block.yml` files and checks it).
#[derive(Debug)]
pub struct GrBlock {
    /// The GRC id (`blocks_add_xx`).
    pub id: &'static str,
    /// GNU Radio's Python constructor as the first line of its GRC template writes it, with
    /// `${...}` written `{...}` and blanks removed (`blocks.add_v{type.fcn}({vlen})`): the
    /// module, the name (by the item type's attributes) and the positional order of the
    /// parameters. Empty where the GNU Radio this table is checked against (3.10.5) has no
    /// such block.
    pub make: &'static str,
    /// The radioflow block it becomes (see [`choose`](Self::choose) where it depends on the
    /// parameters).
    pub block: &'static str,
    /// The options of GRC's `type` parameter, each with the radioflow item type it means
    /// (`None`: refused, with [`GrType::why`]); empty for a block without one.
    pub types: &'static [GrType],
    /// Every other parameter of the GRC definition, with what it becomes.
    pub params: &'static [GrParam],
    /// Parameters radioflow's block has that GNU Radio's does not, fixed by the id (gr-zeromq's
    /// socket pattern).
    pub fixed: &'static [(&'static str, Fixed)],
    /// Parameters passed under the same name where a `.grc` file gives them, though GNU
    /// Radio's definition of the block lacks them: radioflow's own (ZeroMQ's
    /// `drop_malformed`), or one GRC writes anyway (`key: ''` on every ZeroMQ block).
    pub extra: &'static [&'static str],
    /// Picks another radioflow block by the parameters' values (a decimating FIR filter
    /// where `decim` is not 1), after the rows have been applied.
    pub choose: Option<Choose>,
}

/// Changes a mapping by its values (the block it becomes); an error says why not.
pub type Choose = fn(&mut Mapped) -> Result<(), String>;

/// One option of GRC's `type`.
#[derive(Debug, Clone, Copy)]
pub struct GrType {
    /// GRC's name of the option (`complex`, `ccf`).
    pub option: &'static str,
    /// The radioflow item type, or `None` where radioflow's block has no such version.
    pub dtype: Option<Dtype>,
    /// Why an option is refused (shown in the error and in `radioflow grc list`).
    pub why: &'static str,
    /// The radioflow block this option becomes where it is not the row's
    /// [`block`](GrBlock::block) (`fir_filter_xxx`'s complex-taps `ccc`), before
    /// [`choose`](GrBlock::choose).
    pub block: Option<&'static str>,
}

/// What one GRC parameter becomes.
#[derive(Debug, Clone, Copy)]
pub struct GrParam {
    /// The GRC key (`samp_rate`).
    pub key: &'static str,
    /// What its value becomes.
    pub to: To,
}

/// What a GRC parameter's value becomes.
#[derive(Debug, Clone, Copy)]
pub enum To {
    /// The radioflow parameter of that name, the value as it is.
    Param(&'static str),
    /// The radioflow parameter of that name, the value converted (an error names what is
    /// wrong with it).
    Convert(&'static str, fn(&Pmt) -> Result<Pmt, String>),
    /// Accepted only where `accepts` holds; anything else is refused with `why` (what
    /// radioflow's block does instead, or what it lacks).
    Only(fn(&Pmt) -> bool, &'static str),
    /// Has no effect on what the block computes (GRC's display options), with why.
    NoEffect(&'static str),
    /// A GRC enumeration (`dtype: enum`) whose options are not expressions (gr-dtv's
    /// `FECFRAME_NORMAL`): the option's name as written, a symbol under the radioflow
    /// parameter of that name (the row's [`choose`](GrBlock::choose) turns it into the
    /// block's words). A `.grc` loader passes such a key's text unevaluated.
    Word(&'static str),
}

/// A fixed parameter value.
#[derive(Debug, Clone, Copy)]
pub enum Fixed {
    /// A symbol (`pub`).
    Symbol(&'static str),
}

impl std::fmt::Display for Fixed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fixed::Symbol(s) => f.write_str(s),
        }
    }
}

impl Fixed {
    fn pmt(self) -> Pmt {
        match self {
            Fixed::Symbol(s) => Pmt::symbol(s),
        }
    }
}

/// A GNU Radio block's parameters, however they were given (a `.grc` file's evaluated
/// expressions, a Python call's arguments).
pub trait GrValues {
    /// The value of `key`: `None` where it is not given, `Err` where it could not be
    /// evaluated (an error only if the row uses it).
    fn value(&self, key: &str) -> Option<Result<Pmt, String>>;
    /// Every key given.
    fn keys(&self) -> Vec<String>;
    /// The value as the user wrote or sees it (Python's `True`, not a PMT's `#t`), for
    /// errors.
    fn show(&self, key: &str) -> String;
}

/// What a GNU Radio block becomes: a radioflow block id, its item type and parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapped {
    /// The radioflow block.
    pub block: &'static str,
    /// Its item type, where GNU Radio's block has one.
    pub dtype: Option<Dtype>,
    /// Its parameters, by radioflow name.
    pub params: Vec<(String, Pmt)>,
    /// What the user should be told (a parameter GNU Radio's definition no longer has).
    pub notes: Vec<String>,
}

impl Mapped {
    /// The parameter `name`, if given.
    pub fn param(&self, name: &str) -> Option<&Pmt> {
        self.params.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// The parameters GRC gives every block, none of which changes what a block computes.
pub const GRC_COMMON: &[(&str, &str)] = &[
    ("alias", "a name GNU Radio's control port shows"),
    ("affinity", "the cores GNU Radio pins the block's thread to; radioflow's schedulers place blocks themselves"),
    ("comment", "a note (radioflow reads a `host=NAME` line in it, see `radioflow run --hosts`)"),
    ("minoutbuf", "a smallest output buffer; radioflow sizes its buffers itself"),
    ("maxoutbuf", "a largest output buffer; radioflow sizes its buffers itself"),
];

impl GrBlock {
    /// The radioflow block, item type and parameters for GNU Radio parameters `values`, or
    /// why not (naming the GRC id and key).
    pub fn map(&self, values: &dyn GrValues) -> Result<Mapped, String> {
        let id = self.id;
        let option = self.option(values)?;
        let mut mapped = Mapped {
            block: option.and_then(|t| t.block).unwrap_or(self.block),
            dtype: option.and_then(|t| t.dtype),
            params: Vec::new(),
            notes: Vec::new(),
        };
        let mut keys = values.keys();
        keys.sort();
        for key in keys {
            let known = key == "type" && !self.types.is_empty()
                || self.params.iter().any(|p| p.key == key)
                || self.extra.contains(&key.as_str())
                || GRC_COMMON.iter().any(|(k, _)| *k == key);
            if !known {
                // GRC drops a parameter its block definition does not have (one an older
                // GNU Radio wrote) when it loads the file: it has no effect there either.
                mapped.notes.push(format!(
                    "{id}: parameter '{key}' is not one of GNU Radio 3.10's for this block; \
                     ignored, as GNU Radio Companion ignores it"
                ));
            }
        }
        for p in self.params {
            let Some(value) = values.value(p.key) else {
                continue;
            };
            match &p.to {
                To::NoEffect(_) => {}
                To::Param(name) | To::Word(name) => {
                    let v = value.map_err(|e| format!("{id}: {}: {e}", p.key))?;
                    mapped.params.push(((*name).to_owned(), v));
                }
                To::Convert(name, convert) => {
                    let v = value.map_err(|e| format!("{id}: {}: {e}", p.key))?;
                    let v = convert(&v)
                        .map_err(|e| format!("{id}: {} = {}: {e}", p.key, values.show(p.key)))?;
                    mapped.params.push(((*name).to_owned(), v));
                }
                To::Only(accepts, why) => {
                    let v = value.map_err(|e| format!("{id}: {}: {e}", p.key))?;
                    if !accepts(&v) {
                        return Err(format!(
                            "{id}: {} = {} is not supported ({why})",
                            p.key,
                            values.show(p.key)
                        ));
                    }
                }
            }
        }
        for (name, value) in self.fixed {
            mapped.params.push(((*name).to_owned(), value.pmt()));
        }
        for key in self.extra {
            if let Some(value) = values.value(key) {
                let v = value.map_err(|e| format!("{id}: {key}: {e}"))?;
                mapped.params.push(((*key).to_owned(), v));
            }
        }
        if let Some(choose) = self.choose {
            choose(&mut mapped).map_err(|e| format!("{id}: {e}"))?;
        }
        Ok(mapped)
    }

    /// Whether GRC key `key` is an enumeration whose option names are taken as written
    /// ([`To::Word`]).
    pub fn is_word(&self, key: &str) -> bool {
        self.params
            .iter()
            .any(|p| p.key == key && matches!(p.to, To::Word(_)))
    }

    /// The option GRC's `type` names (`None` for a block without one), if radioflow has it.
    fn option(&self, values: &dyn GrValues) -> Result<Option<&GrType>, String> {
        if self.types.is_empty() {
            return Ok(None);
        }
        let id = self.id;
        let option: std::sync::Arc<str> = match &values.value("type") {
            // A file that leaves `type` out has GRC's default, the first option.
            None => self.types[0].option.into(),
            Some(Ok(Pmt::Symbol(s))) => s.clone(),
            Some(Ok(_)) => {
                return Err(format!(
                    "{id}: type {} is not a type name",
                    values.show("type")
                ))
            }
            Some(Err(e)) => return Err(format!("{id}: type: {e}")),
        };
        let Some(t) = self.types.iter().find(|t| t.option == &*option) else {
            let known: Vec<&str> = self.types.iter().map(|t| t.option).collect();
            return Err(format!(
                "{id}: type {} is not one of GNU Radio's ({})",
                values.show("type"),
                known.join(", ")
            ));
        };
        match t.dtype {
            Some(_) => Ok(Some(t)),
            None => Err(format!("{id}: type {option} is not supported ({})", t.why)),
        }
    }
}
