//! Byte-for-byte agreement with GNU Radio 3.10, checked against `golden/vectors.txt`, which
//! GNU Radio's own `pmt.serialize_str` and `pmt.write_string` wrote (see
//! `golden/make_golden.py`).

use std::sync::Arc;

use radioflow_pmt::{Complex32, Complex64, Pmt};

const VECTORS: &str = include_str!("../golden/vectors.txt");

/// GNU Radio's bytes for `long_list(10_000)`, too long for a line of `vectors.txt`.
const LIST_10000: &[u8] = include_bytes!("../golden/list_10000.bin");

struct Golden {
    name: &'static str,
    bytes: Vec<u8>,
    text: &'static str,
}

fn golden() -> Vec<Golden> {
    VECTORS
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.split('\t');
            let (Some(name), Some(hex), Some(text), None) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                panic!("malformed golden line {line:?}");
            };
            Golden {
                name,
                bytes: decode_hex(hex),
                text,
            }
        })
        .collect()
}

fn decode_hex(hex: &str) -> Vec<u8> {
    assert!(hex.len().is_multiple_of(2), "odd hex length");
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digit"))
        .collect()
}

fn vector(items: impl IntoIterator<Item = Pmt>) -> Pmt {
    Pmt::Vector(items.into_iter().collect())
}

fn tuple(items: impl IntoIterator<Item = Pmt>) -> Pmt {
    Pmt::Tuple(items.into_iter().collect())
}

fn sym(name: &str) -> Pmt {
    Pmt::symbol(name)
}

/// The Rust value behind each golden case that has one (all but `random_*`).
fn expected() -> Vec<(&'static str, Pmt)> {
    let mut cases: Vec<(&'static str, Pmt)> = vec![
        ("true", true.into()),
        ("false", false.into()),
        ("nil", Pmt::Null),
        ("symbol_empty", sym("")),
        ("symbol_ascii", sym("hello")),
        ("symbol_utf8", sym("grüße 📡")),
        ("symbol_1000", sym(&"x".repeat(1000))),
        ("int_0", 0.into()),
        ("int_1", 1.into()),
        ("int_neg1", (-1).into()),
        ("int_i32_max", i32::MAX.into()),
        ("int_i32_min_plus1", (i32::MIN + 1).into()),
        ("int_i32_min", i32::MIN.into()),
        ("int_2p31", (1i64 << 31).into()),
        ("int_neg_2p31_minus1", (-(1i64 << 31) - 1).into()),
        ("int_1e15", 1_000_000_000_000_007i64.into()),
        ("int_neg_1e15", (-1_000_000_000_000_007i64).into()),
        ("int_i64_max", i64::MAX.into()),
        ("int_i64_min", i64::MIN.into()),
        ("uint64_0", 0u64.into()),
        ("uint64_1", 1u64.into()),
        ("uint64_2p32", (1u64 << 32).into()),
        ("uint64_max", u64::MAX.into()),
        ("double_0", 0.0.into()),
        ("double_neg0", (-0.0).into()),
        ("double_neg1_5", (-1.5).into()),
        ("double_pi", std::f64::consts::PI.into()),
        ("double_1e300", 1e300.into()),
        ("double_min_subnormal", f64::from_bits(1).into()),
        ("double_100000", 100000.0.into()),
        ("double_1e6", 1e6.into()),
        ("double_1e_5", 1e-5.into()),
        ("double_inf", f64::INFINITY.into()),
        ("double_neg_inf", f64::NEG_INFINITY.into()),
        ("double_nan", f64::NAN.into()),
        ("float_0_1", 0.1f32.into()),
        ("complex_0", Complex64::new(0.0, 0.0).into()),
        ("complex_1_neg2", Complex64::new(1.0, -2.0).into()),
        ("complex_small_big", Complex64::new(1e-3, 1e10).into()),
        ("pair_ints", Pmt::pair(1, 2)),
        ("pair_symbol_nil", Pmt::pair("a", Pmt::Null)),
        ("pair_nested", Pmt::pair(Pmt::pair(1, 2), Pmt::pair(3, 4))),
        ("list_3", Pmt::list([1.into(), 2.into(), 3.into()])),
        ("list_improper", Pmt::pair(1, Pmt::pair(2, 3))),
        (
            "list_of_pairs",
            Pmt::list([Pmt::pair("a", 1), Pmt::pair("b", 2)]),
        ),
        (
            "list_nested",
            Pmt::list([
                Pmt::list([1.into()]),
                Pmt::Null,
                Pmt::list([sym("x"), Pmt::list([true.into()])]),
            ]),
        ),
        ("dict_empty", Pmt::dict_from(Vec::<(Pmt, Pmt)>::new())),
        ("dict_one", Pmt::dict_from([("a", 1)])),
        ("dict_three", Pmt::dict_from([("a", 1), ("b", 2), ("c", 3)])),
        (
            "dict_replace_middle",
            Pmt::dict_from([("a", 1), ("b", 2), ("c", 3), ("b", 9)]),
        ),
        (
            "dict_replace_first_added",
            Pmt::dict_from([("a", 1), ("b", 2), ("c", 3), ("a", 9)]),
        ),
        (
            "dict_replace_last_added",
            Pmt::dict_from([("a", 1), ("b", 2), ("c", 3), ("c", 9)]),
        ),
        (
            "dict_mixed",
            Pmt::dict_from([
                (Pmt::from(7), Pmt::from(0.5)),
                (sym("pair_value"), Pmt::pair(1, 2)),
                (sym("list_value"), Pmt::list([1.into(), 2.into()])),
                (sym("vector"), vector([true.into(), Pmt::Null])),
                (sym("nested"), Pmt::dict_from([("inner", false)])),
                (sym("empty"), Pmt::Null),
                (Pmt::from(5u64), Pmt::blob(vec![1, 2])),
            ]),
        ),
        ("vector_empty", vector([])),
        ("vector_one", vector([42.into()])),
        (
            "vector_mixed",
            vector([
                1.into(),
                sym("sym"),
                2.5.into(),
                Pmt::pair(1, 2),
                vector([true.into(), vector([])]),
                tuple([1.into(), 2.into()]),
                vec![1.0f32, -2.0].into(),
                Pmt::dict_from([("k", "v")]),
                Pmt::Null,
            ]),
        ),
        (
            "vector_nested_50",
            (0..50).fold(Pmt::Int(0), |inner, _| vector([inner])),
        ),
        ("tuple_0", tuple([])),
        ("tuple_1", tuple([true.into()])),
        ("tuple_2", tuple([sym("a"), 1.into()])),
        ("tuple_10", tuple((0..10).map(Pmt::from))),
        ("tuple_15", tuple((0..15).map(|i| Pmt::from(i * i)))),
        (
            "tuple_nested",
            tuple([
                tuple([]),
                vector([tuple([false.into()])]),
                Pmt::pair(1, tuple([2.into()])),
            ]),
        ),
        ("u8vector", vec![0u8, 1, 127, 255].into()),
        ("s8vector", vec![-128i8, -1, 0, 1, 127].into()),
        ("u16vector", vec![0u16, 1, 0x1234, 65535].into()),
        ("s16vector", vec![-32768i16, -1, 0, 0x1234, 32767].into()),
        ("u32vector", vec![0u32, 1, 0xDEAD_BEEF, u32::MAX].into()),
        (
            "s32vector",
            vec![i32::MIN, -1, 0, 0x1234_5678, i32::MAX].into(),
        ),
        (
            "u64vector",
            vec![0u64, 1, 0x0123_4567_89AB_CDEF, u64::MAX].into(),
        ),
        (
            "s64vector",
            vec![i64::MIN, -1, 0, 0x0123_4567_89AB_CDEF, i64::MAX].into(),
        ),
        (
            "f32vector",
            // 3.0e38 goes through a double in Python, hence the cast.
            vec![
                0.0f32,
                -1.5,
                0.25,
                3.0e38f64 as f32,
                f32::from_bits(1),
                f32::INFINITY,
            ]
            .into(),
        ),
        (
            "f64vector",
            vec![
                0.0f64,
                -1.5,
                0.1,
                1e300,
                f64::from_bits(1),
                f64::NEG_INFINITY,
            ]
            .into(),
        ),
        (
            "c32vector",
            vec![
                Complex32::new(1.0, -2.0),
                Complex32::new(0.5, 1e10),
                Complex32::new(-0.0, 0.0),
            ]
            .into(),
        ),
        (
            "c64vector",
            vec![
                Complex64::new(1.0, -2.0),
                Complex64::new(1e-300, -1e300),
                Complex64::new(0.1, 0.2),
            ]
            .into(),
        ),
        (
            "blob_500",
            Pmt::blob(
                (0..500u32)
                    .map(|i| ((i * 7 + 3) % 256) as u8)
                    .collect::<Vec<_>>(),
            ),
        ),
        ("pdu", Pmt::pair(pdu_meta(), Pmt::blob(*b"Hello"))),
        (
            "pdu_empty_meta",
            Pmt::pair(Pmt::Null, Pmt::blob(vec![1, 2, 3])),
        ),
        ("pdu_f32", Pmt::pair(pdu_meta(), vec![0.5f32, -0.25])),
        ("pair_dict_cdr", Pmt::pair(1, Pmt::dict_from([("a", 2)]))),
        ("list_300", long_list(300)),
        (
            "list_of_lists",
            Pmt::list((0..20).map(|i| Pmt::list((0..i).map(Pmt::from)))),
        ),
        (
            "dict_long_list_value",
            Pmt::dict_from([("items", Pmt::list((0..300).map(Pmt::from)))]),
        ),
        (
            "list_car_nested_200",
            (0..200).fold(Pmt::Int(0), |inner, i| Pmt::list([inner, i.into()])),
        ),
    ];
    cases.extend([
        ("u8vector_empty", Pmt::U8Vector(Arc::new([]))),
        ("s8vector_empty", Pmt::S8Vector(Arc::new([]))),
        ("u16vector_empty", Pmt::U16Vector(Arc::new([]))),
        ("s16vector_empty", Pmt::S16Vector(Arc::new([]))),
        ("u32vector_empty", Pmt::U32Vector(Arc::new([]))),
        ("s32vector_empty", Pmt::S32Vector(Arc::new([]))),
        ("u64vector_empty", Pmt::U64Vector(Arc::new([]))),
        ("s64vector_empty", Pmt::S64Vector(Arc::new([]))),
        ("f32vector_empty", Pmt::F32Vector(Arc::new([]))),
        ("f64vector_empty", Pmt::F64Vector(Arc::new([]))),
        ("c32vector_empty", Pmt::C32Vector(Arc::new([]))),
        ("c64vector_empty", Pmt::C64Vector(Arc::new([]))),
    ]);
    cases
}

/// `make_golden.py`'s `lst(*[long_list_item(i) for i in range(n)])`.
fn long_list(n: i64) -> Pmt {
    Pmt::list((0..n).map(|i| match i % 3 {
        0 => Pmt::Int(i),
        1 => sym(&format!("s{}", i % 7)),
        _ => Pmt::Bool(true),
    }))
}

fn pdu_meta() -> Pmt {
    Pmt::dict_from([("packet_len", Pmt::from(5)), ("freq", Pmt::from(2.4e9))])
}

fn expected_for(name: &str) -> Option<Pmt> {
    expected()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v)
}

#[test]
fn golden_cases_and_rust_values_match_one_to_one() {
    let golden = golden();
    assert!(golden.len() > 100, "only {} golden cases", golden.len());
    for case in &golden {
        assert!(
            case.name.starts_with("random_") || expected_for(case.name).is_some(),
            "golden case {} has no Rust value",
            case.name
        );
    }
    for (name, _) in expected() {
        assert!(
            golden.iter().any(|case| case.name == name),
            "Rust value {name} has no golden case"
        );
    }
}

#[test]
fn serialize_writes_gnu_radio_bytes() {
    for (name, value) in expected() {
        let case = golden().into_iter().find(|c| c.name == name).unwrap();
        assert_eq!(value.to_bytes(), case.bytes, "{name}");
    }
}

#[test]
fn deserialize_reads_gnu_radio_bytes() {
    for case in golden() {
        let (decoded, used) =
            Pmt::deserialize(&case.bytes).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(used, case.bytes.len(), "{}", case.name);
        assert_eq!(decoded.to_bytes(), case.bytes, "{} round trip", case.name);
        if let Some(value) = expected_for(case.name) {
            if case.name == "double_nan" {
                assert!(decoded.as_f64().unwrap().is_nan());
            } else {
                assert_eq!(decoded, value, "{}", case.name);
            }
        }
    }
}

#[test]
fn display_prints_like_gnu_radio() {
    for case in golden() {
        let decoded = Pmt::from_bytes(&case.bytes).unwrap();
        assert_eq!(decoded.to_string(), case.text, "{}", case.name);
    }
}

#[test]
fn trailing_bytes_are_left_for_the_caller() {
    let mut bytes = Pmt::pair(1, 2).to_bytes();
    let len = bytes.len();
    bytes.extend_from_slice(&[0x06, 0xff]);
    assert_eq!(Pmt::deserialize(&bytes).unwrap(), (Pmt::pair(1, 2), len));
    assert!(Pmt::from_bytes(&bytes).is_err());
}

#[test]
fn a_list_of_10_000_items_reads_and_writes_as_gnu_radio_does() {
    let value = long_list(10_000);
    assert_eq!(value.to_bytes(), LIST_10000);
    let decoded = Pmt::from_bytes(LIST_10000).unwrap();
    assert_eq!(decoded, value);
    let text = decoded.to_string();
    assert!(
        text.starts_with("(0 s1 #t 3 s4 #t 6 s0 "),
        "{}",
        &text[..40]
    );
    assert!(text.ends_with(" 9999)"));
}
