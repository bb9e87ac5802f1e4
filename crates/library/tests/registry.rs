//! The block library's descriptions: every block file registers one, and each description
//! makes, for every item type it lists, a block whose ports are the ports it describes.

// Every block of the library registers itself once linked.
use radioflow_library as _;
use radioflow_runtime::registry::{self, DefaultValue, Dtype, FloatRange, ParamKind};
use radioflow_runtime::{Direction, Flowgraph, Pmt};
use std::path::{Path, PathBuf};

/// A value of `kind` for a required parameter, so that every block can be made.
fn example(kind: ParamKind, dir: &Path) -> Pmt {
    match kind {
        ParamKind::Bool => Pmt::Bool(false),
        ParamKind::Int { min } => Pmt::Int(min.max(1)),
        ParamKind::Float(range) => Pmt::Double(inside(range)),
        ParamKind::Item => Pmt::Int(1),
        ParamKind::Floats | ParamKind::Items => Pmt::list([Pmt::Int(1), Pmt::Int(2), Pmt::Int(3)]),
        ParamKind::Choice(words) => Pmt::symbol(words[0]),
        ParamKind::Text => Pmt::symbol("x"),
        ParamKind::Path(_) => {
            let path = dir.join("registry-example.bin");
            std::fs::write(&path, [0u8; 64]).unwrap();
            Pmt::symbol(path.to_str().unwrap())
        }
        ParamKind::Messages => Pmt::list([Pmt::Int(1)]),
        // Nil: an empty dict, which every message parameter takes (extra_dict must be a dict).
        ParamKind::Message => Pmt::Null,
    }
}

/// The source files of the library's blocks, in every crate it links.
fn library_sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    // The applications' library blocks are in their `blocks/` (their other blocks are parts of
    // their receivers, not of the library).
    for dir in [
        "blocks/src",
        "interop/src",
        "dvbs2/src/blocks",
        "digital/src/blocks",
        "channels/src",
        "fm/src/blocks",
        "fec/src/blocks",
        "dvbt2/src/blocks",
        "dvbt/src/blocks",
        // gr-digital's adaptive equalizers, with their algorithm and filter.
        "digital/src/equalizer",
        "atsc/src/blocks",
    ] {
        walk(&crates.join(dir), &mut files);
    }
    files
}

/// A value `range` holds: 1000 if it does, else the smallest it holds.
fn inside(range: FloatRange) -> f64 {
    use std::ops::Bound;
    if range.contains(1000.0) {
        return 1000.0;
    }
    match range.min {
        Bound::Included(a) => a,
        Bound::Excluded(a) => a.next_up(),
        Bound::Unbounded => -f64::MAX,
    }
}

/// The declarations of library blocks in a file: `#[library_block(` on a struct, or an
/// element-wise family's macro (`crates/blocks/src/element_wise.rs`), at the start of a line.
fn declarations(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            l.starts_with("#[library_block(")
                || l.starts_with("with_constant! {")
                || l.starts_with("between_streams! {")
                || l.starts_with("map! {")
                || l.starts_with("two_inputs! {")
                || l.starts_with("two_outputs! {")
                || l.starts_with("per_position! {")
        })
        .count()
}

#[test]
fn every_block_file_registers_a_description() {
    let mut missing = Vec::new();
    let mut registering = 0;
    for path in library_sources() {
        let text = std::fs::read_to_string(&path).unwrap();
        let declares = text.contains("#[block]") || text.contains("#[block(");
        let registers = declarations(&text);
        if declares && registers == 0 {
            missing.push(path.display().to_string());
        }
        // The SoapySDR blocks are compiled with the `soapysdr` feature only.
        let soapy = path.components().any(|c| c.as_os_str() == "soapy");
        if cfg!(feature = "soapysdr") || !soapy {
            registering += registers;
        }
    }
    assert!(
        missing.is_empty(),
        "blocks without #[library_block]: {missing:?}"
    );
    // Blocks of other crates linked into this test (the runtime's test blocks) do not
    // register; every description comes from one of the library's files.
    assert_eq!(
        registry::descriptions().len(),
        registering,
        "every declaration reaches the registry"
    );
}

#[test]
fn ids_are_unique_snake_case_and_documented() {
    let all = registry::descriptions();
    for pair in all.windows(2) {
        assert_ne!(pair[0].id, pair[1].id, "duplicate id");
    }
    for d in &all {
        assert!(
            d.id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{}",
            d.id
        );
        assert!(!d.summary.is_empty(), "{} has no summary", d.id);
        for p in d.params {
            assert!(!p.doc.is_empty(), "{}.{} has no doc", d.id, p.name);
            assert_ne!(p.name, "dtype", "{}: 'dtype' is every front end's", d.id);
            assert_ne!(p.name, "name", "{}: 'name' is every front end's", d.id);
        }
    }
}

#[test]
fn every_description_makes_its_block_with_the_ports_it_describes() {
    let dir = std::env::temp_dir().join(format!("radioflow-registry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for d in registry::descriptions() {
        let types: Vec<Option<Dtype>> = if d.dtypes.is_empty() {
            vec![None]
        } else {
            d.dtypes.iter().copied().map(Some).collect()
        };
        for dtype in types {
            let given: Vec<(String, Pmt)> = d
                .params
                .iter()
                .filter(|p| p.default.is_none())
                .map(|p| {
                    let value = match p.example {
                        Some(e) => registry::default_pmt(e),
                        None => example(p.kind, &dir),
                    };
                    (p.name.to_owned(), value)
                })
                .collect();
            let block = registry::make(d, dtype, given)
                .unwrap_or_else(|e| panic!("{} ({dtype:?}): {e}", d.id));
            let mut fg = Flowgraph::new();
            let id = fg.add_boxed(Some(d.id), block);
            for direction in [
                Direction::StreamInput,
                Direction::StreamOutput,
                Direction::MessageInput,
                Direction::MessageOutput,
            ] {
                let actual = fg.port_names(id, direction);
                let declared: Vec<_> = (d.ports)()
                    .into_iter()
                    .filter(|p| p.direction == direction)
                    .collect();
                let expected: Vec<String> = declared
                    .iter()
                    .flat_map(|p| {
                        if p.many {
                            let n = actual.iter().filter(|a| a.starts_with(p.name)).count();
                            (0..n).map(|i| format!("{}{i}", p.name)).collect()
                        } else {
                            vec![p.name.to_owned()]
                        }
                    })
                    .collect();
                assert_eq!(actual, expected, "{} {direction}s", d.id);
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_parameters_are_errors_naming_block_and_parameter() {
    let head = registry::find("head").unwrap();
    let err = registry::make(head, None, Vec::new()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "head: parameter 'n' (an integer >= 0) is required"
    );
    let err = registry::make(head, None, vec![("n".into(), Pmt::Int(-3))]).unwrap_err();
    assert_eq!(err.to_string(), "head: n must be >= 0, not -3");
    let err = registry::make(head, None, vec![("m".into(), Pmt::Int(3))]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "head: has no parameter 'm' (its parameters: n, vlen)"
    );
    let fir = registry::find("fir_filter").unwrap();
    let err = registry::make(fir, Some(Dtype::Int8), vec![]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "fir_filter: has no int8 version: its item types are complex64, float32"
    );
    let err = registry::make(fir, None, vec![("taps".into(), Pmt::Null)]).unwrap_err();
    assert_eq!(err.to_string(), "fir_filter: taps needs at least one value");
    let add = registry::find("add_const").unwrap();
    let err =
        registry::make(add, Some(Dtype::Int8), vec![("k".into(), Pmt::Int(300))]).unwrap_err();
    assert_eq!(err.to_string(), "add_const: k: 300 does not fit in i8");
    let sig = registry::find("signal_source").unwrap();
    let given = vec![
        ("sample_rate".into(), Pmt::Double(1e3)),
        ("waveform".into(), Pmt::symbol("chirp")),
        ("frequency".into(), Pmt::Double(1.0)),
    ];
    let err = registry::make(sig, None, given).unwrap_err();
    assert_eq!(
        err.to_string(),
        "signal_source: unknown waveform 'chirp' (use sine, cosine, constant, square, triangle, sawtooth)"
    );
    let src = registry::find("file_source").unwrap();
    let given = vec![("path".into(), Pmt::symbol("/nonexistent/radioflow.bin"))];
    let err = registry::make(src, None, given).unwrap_err();
    assert!(
        err.io && err.to_string().contains("/nonexistent/radioflow.bin"),
        "{err}"
    );
}

#[test]
fn a_made_block_runs_like_the_typed_one() {
    let mut fg = Flowgraph::new();
    let make = |id: &str, dtype: Dtype, given: Vec<(&str, Pmt)>| {
        let given = given.into_iter().map(|(k, v)| (k.to_owned(), v));
        registry::make(registry::find(id).unwrap(), Some(dtype), given).unwrap()
    };
    let data = Pmt::list((1..=5).map(Pmt::Int));
    let src = fg.add_boxed(
        None,
        make("vector_source", Dtype::Int16, vec![("data", data)]),
    );
    let add = fg.add_boxed(
        None,
        make("add_const", Dtype::Int16, vec![("k", Pmt::Int(10))]),
    );
    let sink = fg.add_boxed(Some("sink"), make("vector_sink", Dtype::Int16, vec![]));
    fg.connect(src, add).unwrap();
    fg.connect(add, sink).unwrap();
    fg.run().unwrap();
    let sink = fg.block::<radioflow_blocks::VectorSink<i16>>(sink).unwrap();
    assert_eq!(sink.data(), &[11, 12, 13, 14, 15]);
    assert_eq!(fg.name(src), "vector_source0");
}

#[test]
fn defaults_are_of_their_parameters_kind() {
    for d in registry::descriptions() {
        for p in d.params {
            let ok = match (p.kind, p.default) {
                (_, None) => true,
                (ParamKind::Bool, Some(DefaultValue::Bool(_))) => true,
                (ParamKind::Int { min }, Some(DefaultValue::Int(i))) => i >= min,
                (ParamKind::Item, Some(DefaultValue::Float(_))) => true,
                (ParamKind::Float(range), Some(DefaultValue::Float(x))) => range.contains(x),
                (ParamKind::Choice(w), Some(DefaultValue::Word(x))) => w.contains(&x),
                (ParamKind::Text, Some(DefaultValue::Word(_))) => true,
                (
                    ParamKind::Items | ParamKind::Messages | ParamKind::Floats,
                    Some(DefaultValue::Empty),
                ) => true,
                _ => false,
            };
            assert!(
                ok,
                "{}.{}: default {:?} is not a {:?}",
                d.id, p.name, p.default, p.kind
            );
        }
    }
}

#[test]
fn a_throttle_rate_whose_sleep_cannot_be_represented_is_refused_when_made() {
    // 1e-300 items per second: the wait for the second item (1e300 s) panicked in `work`
    // ("cannot convert float seconds to Duration"); 1e-9 left the second item 30 years away.
    let throttle = registry::find("throttle").unwrap();
    for (rate, shown) in [(1e-300, "1e-300"), (1e-9, "1e-9"), (0.0, "0"), (-1.0, "-1")] {
        let err = registry::make(
            throttle,
            None,
            vec![("sample_rate".into(), Pmt::Double(rate))],
        )
        .map(drop)
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            format!("throttle: sample_rate must be >= 0.001, not {shown}"),
            "{rate}"
        );
    }
}

/// Every float parameter of every block has a declared range (its kind carries one) holding
/// its default and example. Just outside the range, making the block is an error naming the
/// block, the parameter, the value and the range; at the range's edges (or ±f64::MAX where it
/// has none) the block is made, or refused with an error by a check of its own, never a
/// panic.
#[test]
fn every_float_parameter_is_checked_against_its_declared_range() {
    use std::ops::Bound;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let dir = std::env::temp_dir().join(format!("radioflow-ranges-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for d in registry::descriptions() {
        for p in d.params {
            let ParamKind::Float(range) = p.kind else {
                continue;
            };
            for given in [p.default, p.example].into_iter().flatten() {
                assert!(
                    matches!(given, DefaultValue::Float(x) if range.contains(x)),
                    "{}.{}: {given:?} is not {range}",
                    d.id,
                    p.name
                );
            }
            let (mut inside, mut outside) = (Vec::new(), vec![f64::NAN, f64::INFINITY]);
            match range.min {
                Bound::Included(a) => (inside.push(a), outside.push(a.next_down())),
                Bound::Excluded(a) => (inside.push(a.next_up()), outside.push(a)),
                Bound::Unbounded => (inside.push(-f64::MAX), outside.push(f64::NEG_INFINITY)),
            };
            match range.max {
                Bound::Included(b) => (inside.push(b), outside.push(b.next_up())),
                Bound::Excluded(b) => (inside.push(b.next_down()), outside.push(b)),
                Bound::Unbounded => (inside.push(f64::MAX), ()),
            };
            let make = |x: f64| {
                let mut given: Vec<(String, Pmt)> = d
                    .params
                    .iter()
                    .filter(|q| q.default.is_none() && q.name != p.name)
                    .map(|q| {
                        let value = match q.example {
                            Some(e) => registry::default_pmt(e),
                            None => example(q.kind, &dir),
                        };
                        (q.name.to_owned(), value)
                    })
                    .collect();
                given.push((p.name.to_owned(), Pmt::Double(x)));
                catch_unwind(AssertUnwindSafe(|| {
                    registry::make(d, None, given).map(drop)
                }))
                .unwrap_or_else(|_| panic!("{}.{} = {x:e} panicked", d.id, p.name))
            };
            for x in inside {
                if let Err(e) = make(x) {
                    let text = e.to_string();
                    assert!(text.starts_with(&format!("{}: ", d.id)), "{text}");
                }
            }
            for x in outside {
                let e = make(x).unwrap_err().to_string();
                let range_words = range.to_string();
                assert!(
                    e.starts_with(&format!("{}: {} must be ", d.id, p.name))
                        && (e.contains(&range_words) || e.contains("finite")),
                    "{}.{} = {x:e}: {e}",
                    d.id,
                    p.name
                );
            }
            checked += 1;
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(checked >= 10, "{checked} float parameters");
}

#[test]
fn ranges_are_shown_where_parameters_are_described() {
    let throttle = registry::find("throttle").unwrap();
    assert_eq!(throttle.params[0].kind.describe(), "a number >= 0.001");
    let dvbs2 = registry::find("dvbs2_rx").unwrap();
    assert_eq!(
        dvbs2.param("sps").unwrap().kind.describe(),
        "a number in [1.25, 64]"
    );
    let err = registry::make(dvbs2, None, vec![("sps".into(), Pmt::Double(1e300))])
        .map(drop)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "dvbs2_rx: sps must be in [1.25, 64], not 1e300"
    );
}

/// How the docs show a default or an example: as the registry displays it, the empty word as
/// `""`.
fn shown(v: DefaultValue) -> String {
    match v {
        DefaultValue::Word("") => "\"\"".into(),
        v => v.to_string(),
    }
}

/// The lines of section `title` (`# Parameters`) of a block's generated docs.
fn section<'a>(doc: &'a str, title: &str) -> Vec<&'a str> {
    let mut lines = doc.lines().skip_while(|l| *l != title);
    assert_eq!(lines.next(), Some(title), "no {title} in:\n{doc}");
    lines
        .take_while(|l| !l.starts_with("# "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The doc sections `#[library_block]` writes on every block (its rustdoc, kept in
/// `BlockDescription::doc` too) say what the registry says: each port under its section, each
/// parameter with its doc, default or example, whether it is settable, and what it takes
/// (`ParamKind::describe`'s words, which the macro writes when it compiles the block), and
/// nothing else.
#[test]
fn every_blocks_docs_describe_it_as_the_registry_does() {
    for d in registry::descriptions() {
        let doc = d.doc;
        let ports = (d.ports)();
        let of = |direction: Direction| ports.iter().filter(move |p| p.direction == direction);
        for (title, direction) in [
            ("# Stream inputs", Direction::StreamInput),
            ("# Stream outputs", Direction::StreamOutput),
        ] {
            let lines = section(doc, title);
            let want: Vec<String> = of(direction)
                .map(|p| match p.many {
                    true => format!("- `{0}0`, `{0}1`, … (", p.name),
                    false => format!("- `{}` (", p.name),
                })
                .collect();
            if want.is_empty() {
                assert_eq!(lines, ["None."], "{} {title}", d.id);
            } else {
                assert_eq!(lines.len(), want.len(), "{} {title}: {lines:?}", d.id);
                for (line, want) in lines.iter().zip(&want) {
                    assert!(line.starts_with(want), "{} {title}: {line}", d.id);
                }
            }
        }
        let lines = section(doc, "# Message ports");
        let want: Vec<String> = of(Direction::MessageInput)
            .map(|p| format!("- input `{}`: ", p.name))
            .chain(of(Direction::MessageOutput).map(|p| format!("- output `{}`", p.name)))
            .collect();
        if want.is_empty() {
            assert_eq!(lines, ["None."], "{} message ports", d.id);
        } else {
            assert_eq!(lines.len(), want.len(), "{} message ports: {lines:?}", d.id);
            for (line, want) in lines.iter().zip(&want) {
                assert!(line.starts_with(want), "{} message ports: {line}", d.id);
            }
        }
        let lines = section(doc, "# Parameters");
        assert!(
            lines[0].starts_with(&format!("Registered as `{}`", d.id)),
            "{}: {}",
            d.id,
            lines[0]
        );
        for t in d.dtypes {
            assert!(lines[0].contains(&format!("`{t}`")), "{}: {t}", d.id);
        }
        assert_eq!(lines.len(), 1 + d.params.len(), "{} parameters", d.id);
        for (p, line) in d.params.iter().zip(&lines[1..]) {
            let mut notes = match p.default {
                Some(v) => format!("default `{}`", shown(v)),
                None => "required".into(),
            };
            if let Some(e) = p.example {
                notes += &format!(", e.g. `{}`", shown(e));
            }
            if p.settable {
                notes += ", settable";
            }
            let want = format!(
                "- `{}` ({notes}): {}; {}.",
                p.name,
                p.doc,
                p.kind.describe()
            );
            assert_eq!(*line, want, "{}.{}", d.id, p.name);
            if p.settable {
                assert!(
                    of(Direction::MessageInput).any(|i| i.name == p.name),
                    "{}.{} is settable: a message input of its name sets it",
                    d.id,
                    p.name
                );
            }
        }
    }
}

/// A value for each required parameter of `d`, so that it can be made.
fn required(d: &registry::BlockDescription, dir: &Path) -> Vec<(String, Pmt)> {
    d.params
        .iter()
        .filter(|p| p.default.is_none())
        .map(|p| {
            let value = match p.example {
                Some(e) => registry::default_pmt(e),
                None => example(p.kind, dir),
            };
            (p.name.to_owned(), value)
        })
        .collect()
}

/// A choice's words are declared beside the type that reads them (`FromStr` of an enum, or
/// the block's own mapping): every word makes the block.
#[test]
fn every_word_of_every_choice_makes_its_block() {
    let dir = std::env::temp_dir().join(format!("radioflow-words-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for d in registry::descriptions() {
        for p in d.params {
            let ParamKind::Choice(words) = p.kind else {
                continue;
            };
            for w in words {
                let mut given = required(d, &dir);
                given.retain(|(name, _)| name != p.name);
                given.push((p.name.to_owned(), Pmt::symbol(*w)));
                if let Err(e) = registry::make(d, None, given) {
                    panic!("{}.{} = {w}: {e}", d.id, p.name);
                }
                checked += 1;
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(checked >= 30, "{checked} words");
}
