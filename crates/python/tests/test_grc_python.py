"""GNU Radio Companion files with embedded Python (epy_block, epy_module, snippet) run through
radioflow.gnuradio.grc: the Rust GRC loader builds the rest of the graph, the Python parts are
made here. tests/grc holds the flowgraphs (epy_blocks.grc: a sync block copied from GNU Radio's
symbol_sync_test_float.grc example, a decimating block with parameters, variables calling an
epy_module; snippets.grc: snippets in every section and priority). Where GNU Radio and grcc
are installed, GRC's generated script runs too and the results are compared; those
comparisons are skipped, saying so, elsewhere."""

import os
import shutil
import subprocess
import sys

import pytest

import radioflow as rf
from radioflow.gnuradio import grc

from test_gnuradio_api import GNURADIO, GNURADIO_PYTHON, SCRIPTS, run

HERE = os.path.dirname(os.path.abspath(__file__))
EPY_BLOCKS = os.path.join(HERE, "grc", "epy_blocks.grc")
SNIPPETS = os.path.join(HERE, "grc", "snippets.grc")
needs_grcc = pytest.mark.skipif(
    not (GNURADIO and shutil.which("grcc")),
    reason="GNU Radio 3.10 and grcc are not installed: nothing to compare with")


@needs_grcc
def test_embedded_blocks_and_module_give_grc_s_generated_script_s_items(tmp_path):
    """The same 300 items as GRC's script: the example's ConstMap (sync), a decim_block whose
    arguments are expressions of variables (`k` = an epy_module's function of 1.5), the
    source's vector made by the module; on every scheduler."""
    script = os.path.join(SCRIPTS, "run_grc.py")
    theirs = run([GNURADIO_PYTHON], script, tmp_path / "gr.json", EPY_BLOCKS, "scale:0:f")
    assert len(theirs["scale:0:f"]["data"]) == 300
    assert set(theirs["scale:0:f"]["data"]) == {-3.0, 3.0}
    for scheduler in rf.SCHEDULERS:
        env = dict(os.environ, RADIOFLOW_SCHEDULER=scheduler)
        ours = run([sys.executable, "-m", "radioflow.gnuradio"], script,
                   tmp_path / f"rf_{scheduler}.json", EPY_BLOCKS, "scale:0:f", env=env)
        assert ours == theirs, scheduler


def test_a_flowgraph_with_embedded_blocks_runs_in_process():
    fg = grc.load(EPY_BLOCKS)
    fg.run()
    out = fg.tb.sink.data()
    assert len(out) == 300 and set(out) == {-3.0, 3.0}
    assert fg.tb.k == 3.0 and fg.tb.scale.decim == 2


# What GRC's generated main prints: sections in their order, the higher priority first.
SNIPPET_LINES = [
    "before blocks 32000",
    "after init 200 8",
    "after init 100",
    "after start 500",
    "after start 200",
    "after start 0",
    "after start -400",
    "after stop 500",
    "after stop 200 [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 0.0, 1.0, 2.0, 3.0, 4.0]",
]


def test_snippets_run_at_their_points_in_grc_s_order(tmp_path):
    r = subprocess.run([sys.executable, "-m", "radioflow.gnuradio", SNIPPETS],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == SNIPPET_LINES
    if not (GNURADIO and shutil.which("grcc")):
        print("SKIPPED the comparison with GRC's script: GNU Radio and grcc are not installed")
        return
    subprocess.run(["grcc", "-o", str(tmp_path), SNIPPETS], check=True, capture_output=True)
    theirs = subprocess.run([GNURADIO_PYTHON, str(tmp_path / "snippets.py")],
                            capture_output=True, text=True, timeout=60,
                            stdin=subprocess.DEVNULL)
    assert theirs.returncode == 0, theirs.stderr
    assert theirs.stdout.splitlines() == SNIPPET_LINES


def broken(tmp_path, name, old, new):
    """A copy of a test flowgraph with `old` replaced by `new` in its text."""
    with open(os.path.join(HERE, "grc", name)) as f:
        text = f.read()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new))
    return str(path)


def test_an_error_in_an_embedded_block_names_the_block_and_line(tmp_path):
    path = broken(tmp_path, "epy_blocks.grc", r"self.k = k\n", r"self.k = k / 0\n")
    with pytest.raises(grc.GrcError) as e:
        grc.load(path)
    message = str(e.value)
    assert "block 'scale'" in message and "line 11" in message, message
    assert "ZeroDivisionError" in message, message


def test_a_syntax_error_in_an_embedded_module_names_the_block_and_line(tmp_path):
    path = broken(tmp_path, "epy_blocks.grc", r"return 2 * x\n", r"return 2 * x)\n")
    with pytest.raises(grc.GrcError) as e:
        grc.load(path)
    message = str(e.value)
    assert "block 'helpers' (epy_module), line 4" in message, message


def test_an_error_in_a_snippet_names_the_block_and_line(tmp_path):
    path = broken(tmp_path, "snippets.grc", "print('after start 200')",
                  "print('after start 200')\n\n      missing_name")
    r = subprocess.run([sys.executable, "-m", "radioflow.gnuradio", path],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode != 0
    assert "block 's1' (snippet main_after_start), line 2: NameError" in r.stderr, r.stderr


def test_a_block_radioflow_lacks_is_named_beside_the_python(tmp_path):
    path = broken(tmp_path, "epy_blocks.grc", "id: blocks_vector_sink_x",
                  "id: blocks_no_such_sink")
    with pytest.raises(grc.GrcError) as e:
        grc.load(path)
    assert "does not run: blocks_no_such_sink (sink) (" in str(e.value), str(e.value)


def test_gnu_radio_s_snippets_example_runs_its_snippets_in_order():
    """blocks/py_snippets_demo.grc (an epy_module called from a snippet, snippets in three
    sections): the lines in the order of GRC's generated main (s5 s4, s0 s1 s3 s2, s6 s7)."""
    example = "/usr/share/gnuradio/examples/blocks/py_snippets_demo.grc"
    if not os.path.exists(example):
        pytest.skip(f"{example} is not installed (GNU Radio's examples)")
    r = subprocess.run([sys.executable, "-m", "radioflow.gnuradio", "--seconds", "20", example],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "8",
        "After init - 200 priority",
        "After Init - 100 priority",
        "After start - 500 priority",
        "After start - 200 priority",
        "After start - 0 priority",
        "After start - negative priority",
        "After Stop - 500 priority",
        "After Stop - 200 priority",
        # The head block's 12 items of the repeated source, as GNU Radio's vector sink's list.
        str([float(x % 10) for x in range(12)]),
    ]


def test_an_embedded_block_s_message_ports_are_connected_as_the_file_says(scheduler, monkeypatch):
    """tests/grc/epy_messages.grc: 12 bytes cut into tagged packets of 4, made PDUs by
    pdu_tagged_stream_to_pdu, sent to an embedded basic_block's message input; its handler
    keeps each and sends its length on to a message_debug."""
    monkeypatch.setenv("RADIOFLOW_SCHEDULER", scheduler)
    fg = grc.load(os.path.join(HERE, "grc", "epy_messages.grc"))
    fg.run(60)  # ends by itself; the limit only keeps a broken build from hanging
    assert not fg.stopped
    assert fg.tb.collect.pdus == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    assert fg.tb.debug.messages() == [4, 4, 4]
