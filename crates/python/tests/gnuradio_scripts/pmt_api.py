"""GNU Radio's pmt functions: what each gives, and the bytes serialize_str writes."""

import os
import sys

import numpy
import pmt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

d = pmt.make_dict()
d = pmt.dict_add(d, pmt.intern("freq"), pmt.from_double(1e6))
d = pmt.dict_add(d, pmt.intern("n"), pmt.from_long(-5))
pair = pmt.cons(pmt.intern("key"), pmt.from_long(7))
u8 = pmt.init_u8vector(4, [1, 2, 3, 250])
f32 = pmt.init_f32vector(3, [0.5, -1.0, 2.25])
values = {
    "nil": pmt.PMT_NIL, "t": pmt.PMT_T, "f": pmt.PMT_F, "sym": pmt.intern("hello"),
    "long": pmt.from_long(123456), "neg": pmt.from_long(-3), "dbl": pmt.from_double(2.5),
    "cpx": pmt.from_complex(1.0, -2.0), "bool": pmt.from_bool(True), "dict": d, "pair": pair,
    "u8": u8, "f32": f32, "tuple": pmt.make_tuple(pmt.from_long(1), pmt.intern("x")),
    "vector": pmt.make_vector(2, pmt.from_long(9)), "pdu": pmt.cons(d, u8),
}
results = {k: pmt.serialize_str(v).hex() for k, v in values.items()}
back = {k: pmt.equal(pmt.deserialize_str(pmt.serialize_str(v)), v) for k, v in values.items()}
results["roundtrip"] = back
results["checks"] = [
    pmt.symbol_to_string(pmt.intern("abc")), pmt.to_long(pmt.from_long(42)),
    pmt.to_double(pmt.from_double(0.25)), pmt.to_bool(pmt.PMT_T),
    pmt.is_symbol(pmt.intern("s")), pmt.is_integer(pmt.from_long(1)),
    pmt.is_real(pmt.from_double(1.0)), pmt.is_complex(pmt.from_complex(1j)),
    pmt.is_dict(d), pmt.is_pair(pair), pmt.is_u8vector(u8), pmt.is_f32vector(f32),
    pmt.is_null(pmt.PMT_NIL), pmt.is_true(pmt.PMT_T), pmt.is_false(pmt.PMT_F),
    pmt.is_tuple(values["tuple"]), pmt.is_vector(values["vector"]),
    pmt.symbol_to_string(pmt.car(pair)), pmt.to_long(pmt.cdr(pair)),
    pmt.dict_has_key(d, pmt.intern("freq")), pmt.to_double(pmt.dict_ref(d, pmt.intern("freq"), pmt.PMT_NIL)),
    pmt.is_null(pmt.dict_ref(d, pmt.intern("nope"), pmt.PMT_NIL)),
    sorted(pmt.symbol_to_string(pmt.nth(i, pmt.dict_keys(d))) for i in range(pmt.length(pmt.dict_keys(d)))),
    pmt.u8vector_elements(u8), pmt.f32vector_elements(f32), pmt.length(u8),
    pmt.eq(pmt.intern("a"), pmt.intern("a")), pmt.equal(d, pmt.dict_add(pmt.make_dict(), pmt.intern("x"), pmt.PMT_T)),
    pmt.to_python(pmt.to_pmt({"a": 1, "b": [1.5, "s"]})),
    pmt.to_python(pmt.from_long(5)), pmt.to_python(pmt.intern("q")),
    list(pmt.to_python(pmt.init_s16vector(2, [-1, 2]))),
    pmt.serialize_str(pmt.to_pmt(numpy.arange(3, dtype=numpy.complex64))).hex(),
    pmt.to_long(pmt.tuple_ref(values["tuple"], 0)), pmt.to_long(pmt.vector_ref(values["vector"], 1)),
]
_results.write(results)
