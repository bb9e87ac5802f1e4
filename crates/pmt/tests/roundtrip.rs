//! Properties of the wire format over fixed-seed random values, and hostile input: garbage,
//! truncations, deep nesting and absurd length fields must give errors, never panics.

use std::sync::Arc;

use radioflow_pmt::{Complex32, Complex64, Pmt, PmtError, MAX_DEPTH};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Random values that survive a round trip unchanged: no NaN (it is not equal to itself) and
/// no empty dict (it is written as, and so read back as, null).
fn random_pmt(rng: &mut StdRng, depth: u32) -> Pmt {
    let kinds = if depth == 0 { 20 } else { 25 };
    match rng.gen_range(0..kinds) {
        0 => Pmt::Null,
        1 => Pmt::Bool(rng.r#gen()),
        2 => Pmt::Symbol(random_symbol(rng).into()),
        3 => Pmt::Int(rng.r#gen::<i32>().into()),
        4 => Pmt::Int(rng.r#gen()),
        5 => Pmt::Uint64(rng.r#gen()),
        6 => Pmt::Double(random_f64(rng)),
        7 => Pmt::Complex(Complex64::new(random_f64(rng), random_f64(rng))),
        8 => Pmt::U8Vector(random_vec(rng, |r| r.r#gen())),
        9 => Pmt::S8Vector(random_vec(rng, |r| r.r#gen())),
        10 => Pmt::U16Vector(random_vec(rng, |r| r.r#gen())),
        11 => Pmt::S16Vector(random_vec(rng, |r| r.r#gen())),
        12 => Pmt::U32Vector(random_vec(rng, |r| r.r#gen())),
        13 => Pmt::S32Vector(random_vec(rng, |r| r.r#gen())),
        14 => Pmt::U64Vector(random_vec(rng, |r| r.r#gen())),
        15 => Pmt::S64Vector(random_vec(rng, |r| r.r#gen())),
        16 => Pmt::F32Vector(random_vec(rng, |r| random_f64(r) as f32)),
        17 => Pmt::F64Vector(random_vec(rng, random_f64)),
        18 => Pmt::C32Vector(random_vec(rng, |r| {
            Complex32::new(random_f64(r) as f32, random_f64(r) as f32)
        })),
        19 => Pmt::C64Vector(random_vec(rng, |r| {
            Complex64::new(random_f64(r), random_f64(r))
        })),
        20 => Pmt::pair(random_pmt(rng, depth - 1), random_pmt(rng, depth - 1)),
        21 => Pmt::list((0..rng.gen_range(0..6)).map(|_| random_pmt(rng, depth - 1))),
        22 => {
            let entries = (0..rng.gen_range(1..5))
                .map(|_| (random_pmt(rng, depth - 1), random_pmt(rng, depth - 1)))
                .collect();
            Pmt::Dict(Arc::new(entries))
        }
        23 => Pmt::Vector(random_vec(rng, |r| random_pmt(r, depth - 1))),
        _ => Pmt::Tuple(random_vec(rng, |r| random_pmt(r, depth - 1))),
    }
}

fn random_symbol(rng: &mut StdRng) -> String {
    const CHARS: [char; 8] = ['a', 'z', '_', ' ', 'é', '📡', '\0', '\u{7f}'];
    (0..rng.gen_range(0..10))
        .map(|_| CHARS[rng.gen_range(0..CHARS.len())])
        .collect()
}

fn random_f64(rng: &mut StdRng) -> f64 {
    let x = f64::from_bits(rng.r#gen());
    if x.is_nan() {
        f64::INFINITY
    } else {
        x
    }
}

fn random_vec<T>(rng: &mut StdRng, mut item: impl FnMut(&mut StdRng) -> T) -> Arc<[T]> {
    (0..rng.gen_range(0..6)).map(|_| item(rng)).collect()
}

fn random_values(seed: u64, count: usize) -> Vec<Pmt> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count).map(|_| random_pmt(&mut rng, 5)).collect()
}

#[test]
fn random_values_round_trip() {
    for value in random_values(1, 3000) {
        let bytes = value.to_bytes();
        let (decoded, used) = Pmt::deserialize(&bytes).unwrap_or_else(|e| panic!("{value}: {e}"));
        assert_eq!(used, bytes.len());
        assert_eq!(decoded, value);
        assert_eq!(decoded.to_bytes(), bytes);
    }
}

#[test]
fn every_truncation_is_an_error() {
    for value in random_values(2, 300) {
        let bytes = value.to_bytes();
        for end in 0..bytes.len() {
            let err = Pmt::deserialize(&bytes[..end]).unwrap_err();
            assert!(
                matches!(err, PmtError::Truncated { .. }),
                "{value} cut at {end}: {err}"
            );
            assert!(err.offset() <= end);
        }
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = StdRng::seed_from_u64(3);
    let valid: Vec<Vec<u8>> = random_values(4, 200).iter().map(Pmt::to_bytes).collect();
    for i in 0..100_000 {
        let bytes: Vec<u8> = if i % 2 == 0 {
            // Mostly valid tags, so the decoder gets past the first byte.
            let len = rng.gen_range(0..48);
            (0..len)
                .map(|_| {
                    if rng.gen_bool(0.7) {
                        rng.gen_range(0..0x0f)
                    } else {
                        rng.r#gen()
                    }
                })
                .collect()
        } else {
            let mut bytes = valid[rng.gen_range(0..valid.len())].clone();
            for _ in 0..rng.gen_range(1..4) {
                if !bytes.is_empty() {
                    let at = rng.gen_range(0..bytes.len());
                    bytes[at] = rng.r#gen();
                }
            }
            bytes
        };
        match Pmt::deserialize(&bytes) {
            Ok((value, used)) => {
                assert!(used <= bytes.len());
                let _ = value.to_string();
            }
            Err(err) => assert!(err.offset() <= bytes.len(), "{err}"),
        }
    }
}

/// `n` vectors, each holding the next.
fn nested_vectors(n: usize) -> Vec<u8> {
    let mut bytes = [0x08, 0, 0, 0, 1].repeat(n);
    bytes.push(0x06);
    bytes
}

/// A list of `n` items.
fn long_list(n: usize) -> Vec<u8> {
    let mut bytes = [0x07, 0x01].repeat(n);
    bytes.push(0x06);
    bytes
}

/// `n` pairs, each in the car of the next: `((((#f . #f) . #f) ...) . #f)`.
fn car_nested_pairs(n: usize) -> Vec<u8> {
    let mut bytes = vec![0x07; n];
    bytes.push(0x01);
    bytes.extend(std::iter::repeat_n(0x01, n));
    bytes
}

#[test]
fn nesting_is_bounded() {
    assert!(Pmt::from_bytes(&nested_vectors(MAX_DEPTH)).is_ok());
    assert!(Pmt::from_bytes(&car_nested_pairs(MAX_DEPTH)).is_ok());
    // The cdr of a pair is not nesting: GNU Radio reads lists of any length.
    assert!(Pmt::from_bytes(&long_list(MAX_DEPTH + 1)).is_ok());
    assert!(Pmt::from_bytes(&long_list(1_000_000)).is_ok());
    for bytes in [
        nested_vectors(MAX_DEPTH + 1),
        car_nested_pairs(MAX_DEPTH + 1),
        nested_vectors(1_000_000),
        car_nested_pairs(1_000_000),
    ] {
        let err = Pmt::from_bytes(&bytes).unwrap_err();
        assert!(
            matches!(err, PmtError::TooDeep { max: MAX_DEPTH, .. }),
            "{err}"
        );
    }
}

#[test]
fn deepest_values_fit_in_a_small_stack() {
    // No walk over a value recurses more than a few dozen levels; 256 KiB is far below the
    // 2 MiB that Rust gives spawned threads.
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            for bytes in [
                nested_vectors(MAX_DEPTH),
                car_nested_pairs(MAX_DEPTH),
                long_list(100_000),
            ] {
                let value = Pmt::from_bytes(&bytes).unwrap();
                assert_eq!(value.to_bytes(), bytes);
                assert_eq!(value.clone(), value);
                let _ = value.to_string();
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn length_fields_are_checked_before_allocating() {
    let cases: [&[u8]; 5] = [
        &[0x08, 0xff, 0xff, 0xff, 0xff, 0x06],
        &[0x0c, 0xff, 0xff, 0xff, 0xff],
        &[0x0a, 0x0b, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00],
        &[0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff],
        &[0x02, 0xff, 0xff, b'a'],
    ];
    for bytes in cases {
        let err = Pmt::from_bytes(bytes).unwrap_err();
        assert!(matches!(err, PmtError::Truncated { .. }), "{err}");
    }
}

#[test]
fn errors_say_what_and_where() {
    let err = |bytes: &[u8]| Pmt::from_bytes(bytes).unwrap_err();
    // An unknown tag as the second item of a vector.
    assert_eq!(
        err(&[0x08, 0, 0, 0, 2, 0x06, 0x0e]),
        PmtError::UnknownTag {
            offset: 6,
            tag: 0x0e
        }
    );
    // Comments are part of GNU Radio's tag set but not decodable there either.
    assert_eq!(
        err(&[0x3b]),
        PmtError::UnknownTag {
            offset: 0,
            tag: 0x3b
        }
    );
    assert_eq!(
        err(&[0x0a, 0x0c, 0, 0, 0, 0, 1, 0]),
        PmtError::UnknownUniformType {
            offset: 1,
            kind: 0x0c
        }
    );
    assert_eq!(
        err(&[0x07, 0x06, 0x02, 0x00, 0x01, 0xff]),
        PmtError::InvalidSymbol { offset: 2 }
    );
    assert_eq!(
        err(&[0x09, 0x03, 0, 0, 0, 1, 0x06]),
        PmtError::DictEntryNotPair { offset: 1 }
    );
    assert_eq!(
        err(&[0x09, 0x07, 0x06, 0x06, 0x00]),
        PmtError::ImproperDict {
            offset: 4,
            tag: 0x00
        }
    );
    assert_eq!(
        err(&[0x00, 0x00]),
        PmtError::TrailingBytes {
            offset: 1,
            count: 1
        }
    );
    let truncated = err(&[0x03, 0, 0]);
    assert_eq!(
        truncated.to_string(),
        "truncated PMT: int32 at byte 1 needs 4 bytes, only 2 left"
    );
}

#[test]
fn accepts_what_gnu_radio_reads_but_never_writes() {
    // An INT64 tag holding a small number, and two padding bytes in a uniform vector.
    assert_eq!(
        Pmt::from_bytes(&[0x0d, 0, 0, 0, 0, 0, 0, 0, 5]).unwrap(),
        Pmt::Int(5)
    );
    assert_eq!(
        Pmt::from_bytes(&[0x0a, 0x00, 0, 0, 0, 1, 2, 0, 0, 9]).unwrap(),
        Pmt::blob(vec![9])
    );
    // A dict continued by a PAIR tag instead of DICT.
    assert_eq!(
        Pmt::from_bytes(&[0x09, 0x07, 0x00, 0x01, 0x07, 0x07, 0x01, 0x00, 0x06]).unwrap(),
        Pmt::Dict(Arc::new(vec![
            (Pmt::Bool(true), Pmt::Bool(false)),
            (Pmt::Bool(false), Pmt::Bool(true)),
        ]))
    );
}

/// `value` inside `n` one-item vectors: deep enough that serializing and comparing it go on
/// past their recursion (32 levels) on a heap stack.
fn wrapped(value: Pmt, n: usize) -> Pmt {
    (0..n).fold(value, |inner, _| Pmt::Vector(Arc::new([inner])))
}

#[test]
fn deep_values_serialize_and_compare_as_shallow_ones_do() {
    let values = random_values(5, 500);
    for (value, other) in values.iter().zip(values.iter().skip(1)) {
        let deep = wrapped(value.clone(), 40);
        let mut expected = [0x08, 0, 0, 0, 1].repeat(40);
        expected.extend_from_slice(&value.to_bytes());
        assert_eq!(deep.to_bytes(), expected, "{value}");
        assert_eq!(Pmt::from_bytes(&expected).unwrap(), deep);
        assert_eq!(wrapped(value.clone(), 40), deep);
        assert_eq!(wrapped(other.clone(), 40) == deep, other == value);
        assert_eq!(
            deep.to_string(),
            format!("{}{value}{}", "#(".repeat(40), ")".repeat(40))
        );
    }
}
