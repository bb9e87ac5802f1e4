"""The GNU Radio table as Python reads it: the same rows and mappings as `.grc` files."""

import pytest

from radioflow import _native, blocks


def test_every_row_names_a_library_block_and_gnu_radio_s_constructor():
    rows = _native.gnuradio_table()
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids))
    for r in rows:
        assert r["block"] in blocks.LIBRARY, r["id"]
        for option, dtype, why in r["types"]:
            assert dtype is not None or why, (r["id"], option)
    add = next(r for r in rows if r["id"] == "blocks_add_xx")
    assert add["make"] == "blocks.add_v{type.fcn}({vlen})"
    assert ("num_inputs", "param", "inputs") in add["params"]


def test_a_gnu_radio_block_maps_onto_radioflow_s_and_is_made():
    block, dtype, params = _native.gnuradio_map(
        "blocks_add_xx", {"type": "short", "num_inputs": 3, "vlen": 1}
    )
    assert (block, dtype, params) == ("add", "int16", {"inputs": 3, "vlen": 1})
    made = _native.make_block(block, dtype, params)
    assert made is not None
    block, dtype, params = _native.gnuradio_map(
        "fir_filter_xxx", {"type": "fff", "decim": 4, "taps": [0.5, 0.5], "samp_delay": 7}
    )
    assert (block, dtype) == ("decimating_fir_filter", "float32")
    # GNU Radio's declared sample delay moves the tags.
    assert params == {"decimation": 4, "taps": [0.5, 0.5], "delay": 7}


def test_what_radioflow_does_not_do_is_refused_naming_the_parameter():
    # (tags_strobe's vlen, refused here before, is supported since it takes vectors.)
    with pytest.raises(
        ValueError, match=r"blocks_file_source: offset = 4 is not supported \(reading from the start"
    ):
        _native.gnuradio_map(
            "blocks_file_source",
            {"type": "float", "file": "x.f32", "repeat": False, "vlen": 1, "offset": 4, "length": 0},
        )
    # Complex taps on float samples (ccc runs: radioflow's complex-taps FIR).
    with pytest.raises(ValueError, match="fir_filter_xxx: type fcc is not supported"):
        _native.gnuradio_map("fir_filter_xxx", {"type": "fcc", "taps": [1.0]})
    with pytest.raises(ValueError, match="parameter 'gain' is not one of GNU Radio 3.10's"):
        _native.gnuradio_map("blocks_head", {"num_items": 4, "gain": 2})
    with pytest.raises(ValueError, match="does not run GNU Radio block 'qtgui_nope'"):
        _native.gnuradio_map("qtgui_nope", {})
