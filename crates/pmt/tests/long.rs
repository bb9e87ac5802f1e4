//! Long and deep PMTs: a list is a chain of pairs, so a long list must cost no stack in
//! proportion to its length in any operation, and real nesting (containers inside containers)
//! must not overflow a small stack either, however deep a value built in Rust goes.

use std::sync::Arc;

use radioflow_pmt::{Pmt, PmtError, MAX_DEPTH};

/// Far below the 2 MiB Rust gives spawned threads and the 8 MiB of a main thread.
const SMALL_STACK: usize = 256 * 1024;

/// Runs `f` on a thread with a [`SMALL_STACK`]; a stack overflow aborts the test binary.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// `(0 1 2 ... n-1)`, as GNU Radio writes it: `PAIR INT32 i` per item, then `NULL`.
fn list_bytes(n: usize) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(6 * n + 1);
    for i in 0..n {
        bytes.extend_from_slice(&[0x07, 0x03]);
        bytes.extend_from_slice(&(i as i32).to_be_bytes());
    }
    bytes.push(0x06);
    bytes
}

fn list(n: usize) -> Pmt {
    Pmt::list((0..n).map(|i| Pmt::Int(i as i64)))
}

fn check_long_list(n: usize) {
    let value = list(n);
    let bytes = value.to_bytes();
    assert_eq!(bytes, list_bytes(n));
    let decoded = Pmt::from_bytes(&bytes).unwrap_or_else(|e| panic!("{n} items: {e}"));
    assert_eq!(decoded, value);
    assert_ne!(decoded, list(n - 1));
    let text = decoded.to_string();
    assert!(text.starts_with("(0 1 2 "), "{}", &text[..20]);
    assert!(text.ends_with(&format!(" {})", n - 1)));
    let debug = format!("{decoded:?}");
    assert!(debug.starts_with("Pair((Int(0), Pair((Int(1), "));
    assert!(debug.ends_with(&format!("Int({}), Null{}", n - 1, "))".repeat(n))));
    drop(decoded);
    drop(value);
}

#[test]
fn list_of_10_000_items_round_trips_on_a_small_stack() {
    on_small_stack(|| check_long_list(10_000));
}

#[test]
fn list_of_100_000_items_round_trips_on_a_small_stack() {
    on_small_stack(|| check_long_list(100_000));
}

#[test]
fn list_of_1_000_000_items_round_trips_on_a_small_stack() {
    on_small_stack(|| check_long_list(1_000_000));
}

#[test]
fn dropping_a_list_of_1_000_000_items_needs_little_stack() {
    let value = list(1_000_000);
    on_small_stack(move || drop(value));
}

#[test]
fn a_shared_tail_survives_the_drop_of_a_list() {
    let tail = list(100_000);
    let longer = Pmt::pair(-1, tail.clone());
    on_small_stack(move || drop(longer));
    assert_eq!(tail, list(100_000));
}

#[test]
fn lists_longer_than_max_depth_read_as_one_level() {
    for n in [MAX_DEPTH + 1, 300, 10_000] {
        let value = Pmt::from_bytes(&list_bytes(n)).unwrap_or_else(|e| panic!("{n} items: {e}"));
        assert_eq!(value, list(n));
    }
    // An improper list, a list ending in a dict and a dict entry whose value is a list.
    let improper = Pmt::pair(1, Pmt::pair(2, Pmt::pair(3, Pmt::blob(vec![4]))));
    let dict_tail = Pmt::pair(1, Pmt::pair(2, Pmt::dict_from([("a", 3)])));
    let dict = Pmt::dict_from([("k", list(1000)), ("e", Pmt::Null)]);
    for value in [improper, dict_tail, dict] {
        assert_eq!(Pmt::from_bytes(&value.to_bytes()).unwrap(), value);
    }
}

/// Values whose containers nest `n` deep, one kind of nesting each: lists in the car of lists,
/// vectors, tuples, dicts as values, and pairs nested in the car.
fn nested(n: usize) -> [Pmt; 5] {
    let mut values = [
        Pmt::Int(0),
        Pmt::Int(0),
        Pmt::Int(0),
        Pmt::Int(0),
        Pmt::Int(0),
    ];
    for _ in 0..n {
        let [list, vector, tuple, dict, pair] = values;
        values = [
            Pmt::list([list, Pmt::Int(1)]),
            Pmt::Vector(Arc::new([vector])),
            Pmt::Tuple(Arc::new([Pmt::Null, tuple])),
            Pmt::dict_from([("k", dict)]),
            Pmt::pair(pair, 2),
        ];
    }
    values
}

#[test]
fn real_nesting_up_to_max_depth_works_on_a_small_stack() {
    on_small_stack(|| {
        for value in nested(MAX_DEPTH) {
            let bytes = value.to_bytes();
            let decoded = Pmt::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(decoded, value);
            assert_eq!(decoded.to_bytes(), bytes);
            assert_eq!(decoded.to_string(), value.to_string());
            assert_eq!(format!("{decoded:?}"), format!("{value:?}"));
        }
    });
}

#[test]
fn real_nesting_beyond_max_depth_is_too_deep() {
    for value in nested(MAX_DEPTH + 1) {
        let err = Pmt::from_bytes(&value.to_bytes()).unwrap_err();
        assert!(
            matches!(err, PmtError::TooDeep { max: MAX_DEPTH, .. }),
            "{value}: {err}"
        );
    }
}

#[test]
fn values_built_deeper_than_max_depth_still_work_on_a_small_stack() {
    on_small_stack(|| {
        for value in nested(100_000) {
            let bytes = value.to_bytes();
            assert!(matches!(
                Pmt::from_bytes(&bytes),
                Err(PmtError::TooDeep { max: MAX_DEPTH, .. })
            ));
            assert_eq!(value.clone(), value);
            assert!(!value.to_string().is_empty());
            assert!(!format!("{value:?}").is_empty());
        }
    });
}

#[test]
fn equality_sees_a_difference_deep_inside() {
    let [a, ..] = nested(1000);
    let mut b = Pmt::Int(0);
    for i in 0..1000 {
        b = Pmt::list([b, Pmt::Int(if i == 500 { 7 } else { 1 })]);
    }
    on_small_stack(move || {
        assert_ne!(a, b);
        assert_ne!(list(100_000), Pmt::pair(0, 1));
    });
}
