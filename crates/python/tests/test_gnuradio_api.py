"""radioflow.gnuradio: GNU Radio 3.10's Python API. Scripts written for GNU Radio (in
tests/gnuradio_scripts, and the Python grcc writes for GNU Radio's examples) run unchanged with
the import hook and give GNU Radio's results: each runs with GNU Radio's Python and with
radioflow's (on every scheduler) and the results are compared. The comparisons are skipped,
saying so, where GNU Radio is not installed."""

import importlib
import inspect
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import radioflow as rf

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "gnuradio_scripts")
GNURADIO_PYTHON = "/usr/bin/python3"
EXAMPLES = "/usr/share/gnuradio/examples"


def gnuradio_available():
    if not shutil.which(GNURADIO_PYTHON):
        return False
    r = subprocess.run([GNURADIO_PYTHON, "-c", "from gnuradio import gr, blocks"],
                       capture_output=True)
    return r.returncode == 0


GNURADIO = gnuradio_available()
needs_gnuradio = pytest.mark.skipif(
    not GNURADIO, reason="GNU Radio 3.10 (/usr/bin/python3 with gnuradio) is not installed: "
    "nothing to compare with")


def run(python, script, out, *args, env=None):
    cmd = python + [script, str(out), *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, f"{' '.join(cmd)} failed:\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}"
    with open(out) as f:
        return json.load(f)


def run_both(tmp_path, script, *args):
    """GNU Radio's results, and radioflow's on each scheduler: ``(theirs, {scheduler: ours})``."""
    theirs = run([GNURADIO_PYTHON], script, tmp_path / "gr.json", *args)
    ours = {}
    for scheduler in rf.SCHEDULERS:
        env = dict(os.environ, RADIOFLOW_SCHEDULER=scheduler)
        ours[scheduler] = run([sys.executable, "-m", "radioflow.gnuradio"], script,
                              tmp_path / f"rf_{scheduler}.json", *args, env=env)
    return theirs, ours


@needs_gnuradio
def test_python_blocks_and_their_tags_give_gnu_radio_s_results(tmp_path):
    theirs, ours = run_both(tmp_path, os.path.join(SCRIPTS, "python_blocks.py"))
    assert len(theirs["out"]) == 750 and len(theirs["scaled_tags"]) > 10
    for scheduler, results in ours.items():
        assert results == theirs, scheduler


@needs_gnuradio
def test_pmt_functions_and_bytes_are_gnu_radio_s(tmp_path):
    theirs = run([GNURADIO_PYTHON], os.path.join(SCRIPTS, "pmt_api.py"), tmp_path / "gr.json")
    ours = run([sys.executable, "-m", "radioflow.gnuradio"], os.path.join(SCRIPTS, "pmt_api.py"),
               tmp_path / "rf.json")
    assert all(theirs["roundtrip"].values())
    assert ours == theirs


@needs_gnuradio
def test_hier_blocks_nested_give_gnu_radio_s_results(tmp_path):
    theirs, ours = run_both(tmp_path, os.path.join(SCRIPTS, "hier_blocks.py"))
    assert len(theirs["a"]) == 300 and theirs["b"] == theirs["a"]
    for scheduler, results in ours.items():
        assert results == theirs, scheduler


@needs_gnuradio
def test_message_driven_retuning_gives_gnu_radio_s_tones(tmp_path):
    theirs, ours = run_both(tmp_path, os.path.join(SCRIPTS, "retune.py"))
    assert theirs == {"items": 400000, "first": 1000.0, "last": 4000.0}
    for scheduler, results in ours.items():
        assert results == theirs, scheduler


@needs_gnuradio
def test_gnu_radio_s_dvbt2_example_as_grcc_writes_it_gives_gnu_radio_s_samples(tmp_path):
    """vv011-1kfft's transmitter (BB header to P1 symbol, 20 arguments of gr-dtv's
    constants to the frame mapper) called as grcc writes it, one T2 frame; and the numbers of
    dtv's and digital's constants."""
    theirs, ours = run_both(tmp_path, os.path.join(SCRIPTS, "dvbt2_vv011.py"))
    assert theirs["dtv"]["C3_5"] == 4 and theirs["digital"]["TED_GARDNER"] == 4
    samples = np.fromfile(tmp_path / "gr.json.cfile", np.complex64)
    # P1 (2048 samples), then 16 P2 symbols (1K FFT) and 1966 data symbols of 1024 + 128.
    assert len(samples) == 2048 + (16 + 1966) * 1152
    peak = np.max(np.abs(samples))
    for scheduler, results in ours.items():
        assert results == theirs, scheduler
        mine = np.fromfile(tmp_path / f"rf_{scheduler}.json.cfile", np.complex64)
        assert len(mine) == len(samples), scheduler
        # The inverse FFTs round differently: within 1e-5 of the peak, as the GRC tests.
        assert np.max(np.abs(mine - samples)) < 1e-5 * peak, scheduler


@needs_gnuradio
def test_the_objects_grc_variables_make_work_as_gnu_radio_s(tmp_path):
    """Constellations (points, arity, base; through chunks_to_symbols and
    constellation_decoder), a header format through protocol_formatter, a convolutional
    coder through extended_encoder."""
    theirs, ours = run_both(tmp_path, os.path.join(SCRIPTS, "grc_objects.py"))
    names = ["bpsk", "qpsk", "dqpsk", "8psk", "16qam", "rect", "calcdist"]
    assert all(theirs[n]["symbols_back"] for n in names)
    assert len(theirs["header"]) == 12 and len(theirs["cc"]) == 512
    for scheduler, results in ours.items():
        for n in names:
            for key in ("points", "base"):
                np.testing.assert_allclose(results[n][key], theirs[n][key], atol=1e-6,
                                           err_msg=f"{scheduler} {n} {key}")
            for key in ("arity", "bits", "decoded"):
                assert results[n][key] == theirs[n][key], (scheduler, n, key)
        for key in ("header", "cc", "repetition"):
            assert results[key] == theirs[key], (scheduler, key)


@needs_gnuradio
def test_setters_called_while_running_change_the_blocks_as_in_gnu_radio(tmp_path):
    theirs, ours = run_both(tmp_path, os.path.join(SCRIPTS, "setters.py"))
    assert theirs["first"] == 1000.0 and theirs["last"] == 4000.0
    assert theirs["last_mean"] == 3.0 and theirs["last_rms"] < theirs["first_rms"]
    for scheduler, results in ours.items():
        assert results == theirs, scheduler


@needs_gnuradio
def test_general_work_blocks_give_gnu_radio_s_results(tmp_path):
    theirs, ours = run_both(tmp_path, os.path.join(SCRIPTS, "general_work.py"))
    assert len(theirs["summed"]) == 10000 and len(theirs["kept_tags"]) == 7
    for scheduler, results in ours.items():
        assert results == theirs, scheduler


def grcc(tmp_path, example):
    if not shutil.which("grcc"):
        pytest.skip("grcc (GNU Radio's GRC compiler) is not installed")
    r = subprocess.run(["grcc", "-o", str(tmp_path), os.path.join(EXAMPLES, example)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    name = os.path.splitext(os.path.basename(example))[0]
    return str(tmp_path / f"{name}.py"), name


@needs_gnuradio
def test_grcc_s_python_for_burst_shaper_gives_gnu_radio_s_bursts(tmp_path):
    """digital/burst_shaper.grc: vector sources with a length tag, burst shapers (float and
    complex, a Hann window from fft.window), throttles, tag debug, PDUs to message debug."""
    script, cls = grcc(tmp_path, "digital/burst_shaper.grc")
    outputs = ["digital_burst_shaper_xx_0:0:f", "digital_burst_shaper_xx_0_0:0:c"]
    theirs, ours = run_both(tmp_path, os.path.join(SCRIPTS, "run_example.py"), script, cls,
                            *outputs)
    assert len(theirs[outputs[0]]["data"]) >= 20 and theirs[outputs[0]]["tags"]
    for scheduler, results in ours.items():
        for out in outputs:
            np.testing.assert_allclose(results[out]["data"], theirs[out]["data"], rtol=1e-6,
                                       atol=1e-7, err_msg=f"{scheduler} {out}")
            assert results[out]["tags"] == theirs[out]["tags"], (scheduler, out)


# -- without GNU Radio -------------------------------------------------------------------------

def test_constructors_have_gnu_radio_s_names_arguments_and_defaults():
    from radioflow.gnuradio import analog, blocks, filter

    assert str(inspect.signature(blocks.multiply_const_ff)) == "(k, vlen=1)"
    assert str(inspect.signature(blocks.head)) == "(sizeof_stream_item, nitems)"
    assert list(inspect.signature(analog.sig_source_c).parameters) == [
        "sampling_freq", "waveform", "wave_freq", "ampl", "offset", "phase"]
    assert str(inspect.signature(filter.rational_resampler_ccf)) == (
        "(interpolation, decimation, taps=[], fractional_bw=0.0)")
    assert callable(filter.pfb.arb_resampler_ccf)


@needs_gnuradio
def test_the_generated_constructors_are_up_to_date():
    """_names.py is what _generate.py makes from the table and GNU Radio now (regenerate with
    python3 -m radioflow.gnuradio._generate > crates/python/python/radioflow/gnuradio/_names.py)."""
    from radioflow.gnuradio import _names

    r = subprocess.run([sys.executable, "-m", "radioflow.gnuradio._generate"],
                       capture_output=True, text=True, check=True, timeout=300)
    with open(_names.__file__) as f:
        assert f.read() == r.stdout


def test_a_parameter_radioflow_does_not_run_is_refused_naming_block_and_parameter():
    from radioflow.gnuradio import analog, blocks, gr

    with pytest.raises(ValueError, match=r"blocks.file_source: .*offset"):
        blocks.file_source(gr.sizeof_float, "/nonexistent", False, 4, 0)
    with pytest.raises(ValueError, match=r"analog.sig_source_i: .*type int"):
        analog.sig_source_i(32000, analog.GR_COS_WAVE, 1000, 1)
    # A value of the wrong kind, at construction as in GNU Radio.
    with pytest.raises(ValueError, match=r"blocks.multiply_const_ff: .*k: needs a number"):
        blocks.multiply_const_ff("x", 1)
    with pytest.raises(TypeError, match=r"blocks.head: missing a required argument"):
        blocks.head(gr.sizeof_float)


def test_item_sizes_take_the_neighbour_s_type_and_vectors():
    from radioflow.gnuradio import blocks, gr

    tb = gr.top_block()
    src = blocks.vector_source_s(list(range(20)), False, 2)
    head = blocks.head(gr.sizeof_short * 2, 5)
    copy = blocks.copy(gr.sizeof_short * 2)
    sink = blocks.vector_sink_s(2)
    tb.connect(src, head, copy, sink)
    tb.run()
    assert sink.data() == list(range(10))


def test_top_block_refuses_changes_once_started_and_disconnects_before():
    from radioflow.gnuradio import blocks, gr

    tb = gr.top_block("t")
    src = blocks.vector_source_f([1.0, 2.0, 3.0])
    a, b = blocks.vector_sink_f(), blocks.vector_sink_f()
    tb.connect(src, a)
    tb.connect(src, b)
    tb.disconnect(src, b)
    tb.connect(blocks.null_source(gr.sizeof_float), blocks.head(gr.sizeof_float, 4), b)
    tb.lock()
    tb.unlock()
    tb.run()
    assert a.data() == [1.0, 2.0, 3.0] and b.data() == [0.0] * 4
    with pytest.raises(rf.ConnectError, match="does not reconfigure a started graph"):
        tb.connect(src, blocks.null_sink(gr.sizeof_float))


def test_firdes_and_window_are_gnu_radio_s_designs():
    from radioflow.gnuradio.fft import window
    from radioflow.gnuradio.filter import firdes

    taps = firdes.low_pass(1, 32000, 4000, 1000, window.WIN_HAMMING, 6.76)
    # GNU Radio's length: attenuation 53 dB (Hamming) * fs / (22 * transition), made odd.
    assert len(taps) == 53 * 32000 // (22 * 1000) | 1 and abs(sum(taps) - 1) < 1e-5
    assert int(window.WIN_HAMMING) == 0 and window.WIN_BLACKMAN_HARRIS == 5
    np.testing.assert_allclose(window.hann(5), [0, 0.5, 1, 0.5, 0], atol=1e-12)


@needs_gnuradio
def test_firdes_taps_are_gnu_radio_s():
    from radioflow.gnuradio.fft import window
    from radioflow.gnuradio.filter import firdes

    calls = [
        "firdes.low_pass(1, 32000, 4000, 1000, window.WIN_HAMMING, 6.76)",
        "firdes.high_pass(2, 48000, 6000, 2000, window.WIN_BLACKMAN, 6.76)",
        "firdes.band_pass(1, 48000, 3000, 9000, 1500, window.WIN_KAISER, 5.0)",
        "firdes.low_pass_2(1, 32000, 4000, 1000, 60)",
        "firdes.root_raised_cosine(1, 8, 1, 0.35, 45)",
        "firdes.gaussian(1, 4, 0.3, 17)",
        "window.blackman_harris(31)",
    ]
    script = ("import sys\nfrom gnuradio.filter import firdes\nfrom gnuradio.fft import window\n"
              "for c in sys.stdin.read().splitlines():\n    print(list(eval(c)))\n")
    r = subprocess.run([GNURADIO_PYTHON, "-c", script], input="\n".join(calls),
                       capture_output=True, text=True, check=True)
    for call, theirs in zip(calls, r.stdout.splitlines(), strict=True):
        ours = eval(call, {"firdes": firdes, "window": window})
        np.testing.assert_allclose(ours, eval(theirs), rtol=1e-5, atol=1e-7, err_msg=call)


def test_the_import_hook_is_opt_in_and_maps_gnuradio_and_pmt():
    code = (
        "import numpy, radioflow.gnuradio as g; g.install()\n"
        "from gnuradio import gr, blocks; import pmt\n"
        "assert gr.__name__ == 'radioflow.gnuradio.gr', gr.__name__\n"
        "assert pmt.__name__ == 'radioflow.gnuradio.pmt'\n"
        "from gnuradio.filter import firdes, pfb\n"
        "from gnuradio import qtgui\n"
        "try:\n    qtgui.time_sink_f\nexcept NotImplementedError as e:\n"
        "    assert 'qtgui.time_sink_f' in str(e) and 'live page' in str(e)\n"
        "else:\n    raise AssertionError('qtgui made a block')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    assert "gnuradio" not in sys.modules or importlib.import_module("gnuradio").__name__ != (
        "radioflow.gnuradio")


def test_a_script_run_through_the_hook_imports_its_neighbours(tmp_path):
    """grcc writes a flowgraph's embedded Python blocks beside the script, which imports them."""
    (tmp_path / "flowgraph_epy_block_0.py").write_text(
        "import numpy\nfrom gnuradio import gr\n"
        "class blk(gr.sync_block):\n"
        "    def __init__(self, k=2.0):\n"
        "        gr.sync_block.__init__(self, 'blk', [numpy.float32], [numpy.float32])\n"
        "        self.k = k\n"
        "    def work(self, input_items, output_items):\n"
        "        output_items[0][:] = input_items[0] * self.k\n"
        "        return len(output_items[0])\n")
    script = tmp_path / "flowgraph.py"
    script.write_text(
        "import sys\nfrom gnuradio import blocks, gr\nimport flowgraph_epy_block_0 as epy\n"
        "tb = gr.top_block()\nsink = blocks.vector_sink_f()\n"
        "tb.connect(blocks.vector_source_f([1.0, 2.0]), epy.blk(3.0), sink)\ntb.run()\n"
        "assert sink.data() == [3.0, 6.0], sink.data()\nprint(sys.argv[1:])\n")
    r = subprocess.run([sys.executable, "-m", "radioflow.gnuradio", str(script), "--x", "1"],
                       capture_output=True, text=True, timeout=60, cwd="/")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['--x', '1']"


def test_a_setter_refuses_what_the_running_block_cannot_change():
    """A GRC callback changing a parameter that radioflow's block takes only at construction
    (fir_filter's taps) raises while the graph runs, naming it; before the start it makes the
    block again."""
    from radioflow.gnuradio import analog, blocks, filter, gr

    tb = gr.top_block()
    src = analog.sig_source_f(32000, analog.GR_COS_WAVE, 1000, 1, 0, 0)
    fir = filter.fir_filter_fff(1, [1.0])
    fir.set_taps([0.5, 0.5])  # before the start: made again
    head, sink = blocks.head(gr.sizeof_float, 10**9), blocks.null_sink(gr.sizeof_float)
    tb.connect(src, fir, head, sink)
    with pytest.raises(AttributeError, match="set_frequecy is not one of .*set_frequency"):
        src.set_frequecy(5)
    tb.start()
    try:
        with pytest.raises(ValueError, match=r"set_taps: .*fir_filter cannot change taps while"):
            fir.set_taps([1.0, 0.0])
        src.set_frequency(2000.0)
    finally:
        tb.stop()
        tb.wait()


def test_a_dtv_argument_takes_only_its_own_constants():
    from radioflow.gnuradio import dtv

    with pytest.raises(ValueError, match=r"dtv.dvb_bch_bb: rate=.*MOD_QPSK.* is not one of"):
        dtv.dvb_bch_bb(dtv.STANDARD_DVBT2, dtv.FECFRAME_NORMAL, dtv.MOD_QPSK)
    assert int(dtv.C3_5) == 4 and dtv.STANDARD_DVBT2 == 1


def test_a_general_work_block_s_wrong_counts_fail_naming_them():
    import numpy
    from radioflow.gnuradio import blocks, gr

    class greedy(gr.basic_block):
        def __init__(self):
            gr.basic_block.__init__(self, "greedy", [numpy.float32], [numpy.float32])

        def general_work(self, input_items, output_items):
            self.consume_each(len(input_items[0]) + 1)
            return 0

    tb = gr.top_block()
    tb.connect(blocks.vector_source_f([1.0] * 10), greedy(), blocks.null_sink(gr.sizeof_float))
    with pytest.raises(rf.RunError) as e:
        tb.run()
    assert "consume(0, " in str(e.value.__cause__) and "offered" in str(e.value.__cause__)
