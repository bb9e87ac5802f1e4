#!/usr/bin/python3
"""Writes vectors.txt: PMTs serialized by GNU Radio itself, for radioflow-pmt's golden tests.

Run with the Python that has GNU Radio's `pmt` module (Debian: `apt-get install gnuradio`):

    /usr/bin/python3 crates/pmt/golden/make_golden.py

Each line of vectors.txt is `name<TAB>hex of pmt.serialize_str(value)<TAB>pmt.write_string(value)`.
tests/golden.rs builds the value with the same name in Rust and checks both columns. Cases
named `random_*` are random nested values with no Rust twin: for those the test checks that
decoding and re-encoding reproduces GNU Radio's bytes, and that printing matches.

list_10000.bin holds the bytes of a 10,000-item list (`long_list_item(i)` for each i), which
tests/golden.rs rebuilds, serializes and decodes.
"""

import os
import random

import pmt
from gnuradio import gr

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.txt")
LIST_LEN = 10_000
LIST_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"list_{LIST_LEN}.bin")

L = pmt.from_long
S = pmt.intern


def vec(*items):
    v = pmt.make_vector(len(items), pmt.PMT_NIL)
    for i, item in enumerate(items):
        pmt.vector_set(v, i, item)
    return v


def tup(*items):
    # make_tuple takes at most ten arguments; to_tuple converts a vector of any length.
    return pmt.to_tuple(vec(*items)) if items else pmt.make_tuple()


def lst(*items):
    out = pmt.PMT_NIL
    for item in reversed(items):
        out = pmt.cons(item, out)
    return out


def dict_of(*entries):
    d = pmt.make_dict()
    for k, v in entries:
        d = pmt.dict_add(d, k, v)
    return d


def cases():
    c = []
    add = lambda name, value: c.append((name, value))

    add("true", pmt.PMT_T)
    add("false", pmt.PMT_F)
    add("nil", pmt.PMT_NIL)

    add("symbol_empty", S(""))
    add("symbol_ascii", S("hello"))
    add("symbol_utf8", S("grüße 📡"))
    add("symbol_1000", S("x" * 1000))

    for name, v in [
        ("int_0", 0),
        ("int_1", 1),
        ("int_neg1", -1),
        ("int_i32_max", 2**31 - 1),
        ("int_i32_min_plus1", -(2**31) + 1),
        ("int_i32_min", -(2**31)),
        ("int_2p31", 2**31),
        ("int_neg_2p31_minus1", -(2**31) - 1),
        ("int_1e15", 10**15 + 7),
        ("int_neg_1e15", -(10**15) - 7),
        ("int_i64_max", 2**63 - 1),
        ("int_i64_min", -(2**63)),
    ]:
        add(name, L(v))

    add("uint64_0", pmt.from_uint64(0))
    add("uint64_1", pmt.from_uint64(1))
    add("uint64_2p32", pmt.from_uint64(2**32))
    add("uint64_max", pmt.from_uint64(2**64 - 1))

    for name, v in [
        ("double_0", 0.0),
        ("double_neg0", -0.0),
        ("double_neg1_5", -1.5),
        ("double_pi", 3.141592653589793),
        ("double_1e300", 1e300),
        ("double_min_subnormal", 5e-324),
        ("double_100000", 100000.0),
        ("double_1e6", 1e6),
        ("double_1e_5", 1e-5),
        ("double_inf", float("inf")),
        ("double_neg_inf", float("-inf")),
        ("double_nan", float("nan")),
    ]:
        add(name, pmt.from_double(v))
    add("float_0_1", pmt.from_float(0.1))  # rounded to f32, stored as a double

    add("complex_0", pmt.from_complex(0j))
    add("complex_1_neg2", pmt.from_complex(1 - 2j))
    add("complex_small_big", pmt.from_complex(complex(1e-3, 1e10)))

    add("pair_ints", pmt.cons(L(1), L(2)))
    add("pair_symbol_nil", pmt.cons(S("a"), pmt.PMT_NIL))
    add("pair_nested", pmt.cons(pmt.cons(L(1), L(2)), pmt.cons(L(3), L(4))))
    add("list_3", lst(L(1), L(2), L(3)))
    add("list_improper", pmt.cons(L(1), pmt.cons(L(2), L(3))))
    add("list_of_pairs", lst(pmt.cons(S("a"), L(1)), pmt.cons(S("b"), L(2))))
    add("list_nested", lst(lst(L(1)), lst(), lst(S("x"), lst(pmt.PMT_T))))

    add("dict_empty", pmt.make_dict())
    add("dict_one", dict_of((S("a"), L(1))))
    abc = [(S("a"), L(1)), (S("b"), L(2)), (S("c"), L(3))]
    add("dict_three", dict_of(*abc))
    add("dict_replace_middle", dict_of(*abc, (S("b"), L(9))))
    add("dict_replace_first_added", dict_of(*abc, (S("a"), L(9))))
    add("dict_replace_last_added", dict_of(*abc, (S("c"), L(9))))
    add(
        "dict_mixed",
        dict_of(
            (L(7), pmt.from_double(0.5)),
            (S("pair_value"), pmt.cons(L(1), L(2))),
            (S("list_value"), lst(L(1), L(2))),
            (S("vector"), vec(pmt.PMT_T, pmt.PMT_NIL)),
            (S("nested"), dict_of((S("inner"), pmt.PMT_F))),
            (S("empty"), pmt.make_dict()),
            (pmt.from_uint64(5), pmt.init_u8vector(2, [1, 2])),
        ),
    )

    add("vector_empty", vec())
    add("vector_one", vec(L(42)))
    add(
        "vector_mixed",
        vec(
            L(1),
            S("sym"),
            pmt.from_double(2.5),
            pmt.cons(L(1), L(2)),
            vec(pmt.PMT_T, vec()),
            tup(L(1), L(2)),
            pmt.init_f32vector(2, [1.0, -2.0]),
            dict_of((S("k"), S("v"))),
            pmt.PMT_NIL,
        ),
    )
    deep = L(0)
    for _ in range(50):
        deep = vec(deep)
    add("vector_nested_50", deep)

    add("tuple_0", tup())
    add("tuple_1", tup(pmt.PMT_T))
    add("tuple_2", tup(S("a"), L(1)))
    add("tuple_10", tup(*[L(i) for i in range(10)]))
    add("tuple_15", tup(*[L(i * i) for i in range(15)]))
    add("tuple_nested", tup(tup(), vec(tup(pmt.PMT_F)), pmt.cons(L(1), tup(L(2)))))

    uniform = [
        ("u8", pmt.init_u8vector, [0, 1, 127, 255]),
        ("s8", pmt.init_s8vector, [-128, -1, 0, 1, 127]),
        ("u16", pmt.init_u16vector, [0, 1, 0x1234, 65535]),
        ("s16", pmt.init_s16vector, [-32768, -1, 0, 0x1234, 32767]),
        ("u32", pmt.init_u32vector, [0, 1, 0xDEADBEEF, 2**32 - 1]),
        ("s32", pmt.init_s32vector, [-(2**31), -1, 0, 0x12345678, 2**31 - 1]),
        ("u64", pmt.init_u64vector, [0, 1, 0x0123456789ABCDEF, 2**64 - 1]),
        ("s64", pmt.init_s64vector, [-(2**63), -1, 0, 0x0123456789ABCDEF, 2**63 - 1]),
        # f32 values that are exact in binary, so Python -> float and Rust literals agree.
        ("f32", pmt.init_f32vector, [0.0, -1.5, 0.25, 3.0e38, 2.0**-149, float("inf")]),
        ("f64", pmt.init_f64vector, [0.0, -1.5, 0.1, 1e300, 5e-324, float("-inf")]),
        ("c32", pmt.init_c32vector, [1 - 2j, complex(0.5, 1e10), complex(-0.0, 0.0)]),
        ("c64", pmt.init_c64vector, [1 - 2j, complex(1e-300, -1e300), complex(0.1, 0.2)]),
    ]
    for name, init, values in uniform:
        add(f"{name}vector_empty", init(0, []))
        add(f"{name}vector", init(len(values), values))

    blob = [(i * 7 + 3) % 256 for i in range(500)]
    add("blob_500", pmt.init_u8vector(len(blob), blob))

    meta = dict_of((S("packet_len"), L(5)), (S("freq"), pmt.from_double(2.4e9)))
    add("pdu", pmt.cons(meta, pmt.init_u8vector(5, [0x48, 0x65, 0x6C, 0x6C, 0x6F])))
    add("pdu_empty_meta", pmt.cons(pmt.make_dict(), pmt.init_u8vector(3, [1, 2, 3])))
    add("pdu_f32", pmt.cons(meta, pmt.init_f32vector(2, [0.5, -0.25])))
    add("pair_dict_cdr", pmt.cons(L(1), dict_of((S("a"), L(2)))))

    # Lists longer than radioflow's nesting limit (256): the cdr of a pair is not nesting.
    add("list_300", lst(*[long_list_item(i) for i in range(300)]))
    add("list_of_lists", lst(*[lst(*[L(j) for j in range(i)]) for i in range(20)]))
    add("dict_long_list_value", dict_of((S("items"), lst(*[L(i) for i in range(300)]))))
    car_nested = L(0)
    for i in range(200):
        car_nested = lst(car_nested, L(i))
    add("list_car_nested_200", car_nested)

    rng = random.Random(20240611)
    for i in range(60):
        add(f"random_{i:03}", random_pmt(rng, 4))
    return c


def long_list_item(i):
    """Item `i` of the long golden lists; tests/golden.rs builds the same."""
    return [L(i), S(f"s{i % 7}"), pmt.PMT_T][i % 3]


def random_pmt(rng, depth):
    kinds = ["bool", "nil", "symbol", "int", "uint64", "double", "complex", "uniform"]
    if depth > 0:
        kinds += ["pair", "list", "dict", "vector", "tuple"] * 2
    kind = rng.choice(kinds)
    small = lambda: rng.randint(0, 4)
    if kind == "bool":
        return pmt.from_bool(rng.random() < 0.5)
    if kind == "nil":
        return pmt.PMT_NIL
    if kind == "symbol":
        return S("".join(rng.choice("abcxyz_é") for _ in range(rng.randint(0, 8))))
    if kind == "int":
        return L(rng.choice([rng.randint(-(2**31), 2**31 - 1), rng.randint(-(2**63), 2**63 - 1)]))
    if kind == "uint64":
        return pmt.from_uint64(rng.randint(0, 2**64 - 1))
    if kind == "double":
        return pmt.from_double(rng.choice([rng.uniform(-1e6, 1e6), rng.random() * 1e-7, 2.0**rng.randint(-60, 60)]))
    if kind == "complex":
        return pmt.from_complex(complex(rng.uniform(-100, 100), rng.uniform(-100, 100)))
    if kind == "uniform":
        n = small()
        which = rng.randrange(12)
        if which < 8:
            bits = [8, 8, 16, 16, 32, 32, 64, 64][which]
            lo = -(2 ** (bits - 1)) if which % 2 else 0
            hi = 2 ** (bits - 1) - 1 if which % 2 else 2**bits - 1
            init = [pmt.init_u8vector, pmt.init_s8vector, pmt.init_u16vector, pmt.init_s16vector,
                    pmt.init_u32vector, pmt.init_s32vector, pmt.init_u64vector, pmt.init_s64vector][which]
            return init(n, [rng.randint(lo, hi) for _ in range(n)])
        # Multiples of 1/8 are exact in f32 as well as f64.
        real = lambda: rng.randint(-8000, 8000) / 8
        if which == 8:
            return pmt.init_f32vector(n, [real() for _ in range(n)])
        if which == 9:
            return pmt.init_f64vector(n, [rng.uniform(-1e3, 1e3) for _ in range(n)])
        if which == 10:
            return pmt.init_c32vector(n, [complex(real(), real()) for _ in range(n)])
        return pmt.init_c64vector(n, [complex(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(n)])
    sub = lambda: random_pmt(rng, depth - 1)
    if kind == "pair":
        return pmt.cons(sub(), sub())
    if kind == "list":
        return lst(*[sub() for _ in range(small())])
    if kind == "dict":
        # Non-empty: an empty dict is nil, and dict_add rejects nil keys (nil is a list).
        d = pmt.make_dict()
        for _ in range(rng.randint(1, 4)):
            key = S(rng.choice(["a", "b", "c", "freq", "time"])) if rng.random() < 0.8 else sub()
            d = pmt.dict_add(d, key, sub())
        return d
    if kind == "vector":
        return vec(*[sub() for _ in range(small())])
    return tup(*[sub() for _ in range(small())])


def main():
    lines = [
        f"# Written by make_golden.py with GNU Radio {gr.version()}: name, serialize_str hex, write_string.",
    ]
    for name, value in cases():
        text = pmt.write_string(value)
        assert "\t" not in text and "\n" not in text, name
        lines.append(f"{name}\t{pmt.serialize_str(value).hex()}\t{text}")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines) - 1} cases to {OUT}")
    # Too long for a line of vectors.txt: the raw bytes of a list of LIST_LEN items.
    value = lst(*[long_list_item(i) for i in range(LIST_LEN)])
    with open(LIST_OUT, "wb") as f:
        f.write(pmt.serialize_str(value))
    print(f"wrote a list of {LIST_LEN} items to {LIST_OUT}")


if __name__ == "__main__":
    main()
