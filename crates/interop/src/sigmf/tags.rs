//! SigMF captures and annotations as GNU Radio's stream tags ([`stream_tags`]) and back
//! ([`CaptureLog`]).

use super::{time, Annotation, Capture, Datatype, Metadata};
use radioflow_runtime::{Pmt, Tag};

/// GNU Radio's tag key for the sample rate (a double, samples per second).
pub const RX_RATE: &str = "rx_rate";
/// GNU Radio's tag key for the center frequency (a double, Hz).
pub const RX_FREQ: &str = "rx_freq";
/// GNU Radio's tag key for the time of a sample: a tuple (`u64` whole seconds since the Unix
/// epoch, `f64` fraction of a second), as UHD's source sends it.
pub const RX_TIME: &str = "rx_time";
/// The tag key of a SigMF annotation: a dict from field names (`core:label`, ...) to values.
pub const ANNOTATION: &str = "annotation";

/// The stream tags of a recording, sorted by offset: at sample 0 and at the start of every
/// capture `rx_rate` (if the sample rate is known); at a capture's start `rx_freq` (if it has
/// `core:frequency`) and `rx_time` (if it has `core:datetime`); at an annotation's start an
/// `annotation` dict of its fields.
pub fn stream_tags(meta: &Metadata) -> Vec<Tag> {
    let mut tags = Vec::new();
    let rate = meta.global.sample_rate.map(Pmt::Double);
    if meta.captures.first().is_none_or(|c| c.sample_start != 0)
        && let Some(rate) = &rate
    {
        tags.push(Tag::new(0, Pmt::symbol(RX_RATE), rate.clone()));
    }
    for c in &meta.captures {
        let at = c.sample_start;
        if let Some(rate) = &rate {
            tags.push(Tag::new(at, Pmt::symbol(RX_RATE), rate.clone()));
        }
        if let Some(f) = c.frequency {
            tags.push(Tag::new(at, Pmt::symbol(RX_FREQ), Pmt::Double(f)));
        }
        if let Some((secs, frac)) = c.datetime.as_deref().and_then(|t| time::parse(t).ok()) {
            let value = Pmt::Tuple(vec![Pmt::Uint64(secs), Pmt::Double(frac)].into());
            tags.push(Tag::new(at, Pmt::symbol(RX_TIME), value));
        }
    }
    for a in &meta.annotations {
        tags.push(Tag::new(
            a.sample_start,
            Pmt::symbol(ANNOTATION),
            annotation_to_pmt(a),
        ));
    }
    // Stable: at one offset, capture tags before annotations.
    tags.sort_by_key(|t| t.offset);
    tags
}

fn annotation_to_pmt(a: &Annotation) -> Pmt {
    let mut dict = Pmt::dict_from(Vec::<(Pmt, Pmt)>::new());
    let mut add = |k: &str, v: Pmt| dict.dict_add(Pmt::symbol(k), v);
    if let Some(n) = a.sample_count {
        add("core:sample_count", Pmt::Uint64(n));
    }
    if let Some(f) = a.freq_lower_edge {
        add("core:freq_lower_edge", Pmt::Double(f));
    }
    if let Some(f) = a.freq_upper_edge {
        add("core:freq_upper_edge", Pmt::Double(f));
    }
    for (k, v) in [
        ("core:label", &a.label),
        ("core:comment", &a.comment),
        ("core:generator", &a.generator),
        ("core:uuid", &a.uuid),
    ] {
        if let Some(v) = v {
            add(k, Pmt::symbol(v.as_str()));
        }
    }
    for (k, v) in &a.extra {
        if let Some(v) = json_to_pmt(v) {
            add(k, v);
        }
    }
    dict
}

fn json_to_pmt(v: &serde_json::Value) -> Option<Pmt> {
    use serde_json::Value;
    Some(match v {
        Value::Bool(b) => Pmt::Bool(*b),
        Value::String(s) => Pmt::symbol(s.as_str()),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Pmt::Uint64(u),
            (None, Some(i)) => Pmt::Int(i),
            _ => Pmt::Double(n.as_f64()?),
        },
        _ => return None,
    })
}

fn pmt_to_json(v: &Pmt) -> Option<serde_json::Value> {
    use serde_json::Value;
    Some(match v {
        Pmt::Bool(b) => Value::Bool(*b),
        Pmt::Symbol(s) => Value::String(s.to_string()),
        Pmt::Uint64(u) => Value::from(*u),
        Pmt::Int(i) => Value::from(*i),
        Pmt::Double(d) => serde_json::Number::from_f64(*d).map(Value::Number)?,
        _ => return None,
    })
}

/// Builds a recording's captures and annotations from stream tags, in stream order: the
/// inverse of [`stream_tags`]. `rx_freq` and `rx_time` start (or complete) a capture at their
/// offset; the first `rx_rate` sets `core:sample_rate` unless it is set already; an
/// `annotation` dict becomes an annotation. Tags with other keys, or values of other types,
/// are left out.
#[derive(Clone, Debug)]
pub struct CaptureLog {
    /// The document being built.
    pub meta: Metadata,
}

impl CaptureLog {
    /// A log for a recording of `datatype` (at `sample_rate`, if known).
    pub fn new(datatype: Datatype, sample_rate: Option<f64>) -> Self {
        Self {
            meta: Metadata::new(datatype, sample_rate),
        }
    }

    fn capture_at(&mut self, offset: u64) -> &mut Capture {
        if self
            .meta
            .captures
            .last()
            .is_none_or(|c| c.sample_start != offset)
        {
            self.meta.captures.push(Capture {
                sample_start: offset,
                ..Capture::default()
            });
        }
        self.meta.captures.last_mut().unwrap()
    }

    /// Takes in one tag (tags must come in offset order).
    pub fn add(&mut self, tag: &Tag) {
        match tag.key.as_symbol() {
            Some(RX_RATE) => {
                if let (None, Some(rate)) = (self.meta.global.sample_rate, tag.value.as_f64()) {
                    self.meta.global.sample_rate = Some(rate);
                }
            }
            Some(RX_FREQ) => {
                if let Some(f) = tag.value.as_f64() {
                    self.capture_at(tag.offset).frequency = Some(f);
                }
            }
            Some(RX_TIME) => {
                if let Pmt::Tuple(t) = &tag.value
                    && let [secs, frac] = &t[..]
                    && let (Some(s), Some(f)) = (secs.as_u64(), frac.as_f64())
                {
                    self.capture_at(tag.offset).datetime = Some(time::format(s, f));
                }
            }
            Some(ANNOTATION) => {
                if let Some(entries) = tag.value.as_dict() {
                    let mut a = Annotation {
                        sample_start: tag.offset,
                        ..Annotation::default()
                    };
                    for (k, v) in entries {
                        let Some(k) = k.as_symbol() else { continue };
                        let text = || v.as_symbol().map(str::to_owned);
                        match k {
                            "core:sample_count" => a.sample_count = v.as_u64(),
                            "core:freq_lower_edge" => a.freq_lower_edge = v.as_f64(),
                            "core:freq_upper_edge" => a.freq_upper_edge = v.as_f64(),
                            "core:label" => a.label = text(),
                            "core:comment" => a.comment = text(),
                            "core:generator" => a.generator = text(),
                            "core:uuid" => a.uuid = text(),
                            other => {
                                if let Some(v) = pmt_to_json(v) {
                                    a.extra.insert(other.to_owned(), v);
                                }
                            }
                        }
                    }
                    self.meta.annotations.push(a);
                }
            }
            _ => {}
        }
    }

    /// The finished document: a capture at sample 0 is added if there is none.
    pub fn finish(mut self) -> Metadata {
        if self
            .meta
            .captures
            .first()
            .is_none_or(|c| c.sample_start != 0)
        {
            self.meta.captures.insert(0, Capture::default());
        }
        self.meta
    }
}
