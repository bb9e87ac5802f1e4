"""The examples run and check their own results."""

import pathlib
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def run(script, *args):
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True,
                          text=True, timeout=300)


def test_receiver_example_plots_its_spectrum(tmp_path):
    png = tmp_path / "receiver.png"
    r = run("receiver.py", "--out", str(png))
    assert r.returncode == 0, r.stderr
    assert "dB apart" in r.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_python_block_speed_example_runs():
    r = run("python_block_speed.py", "--items", "2e5", "--loop-items", "2e3", "--runs", "1")
    assert r.returncode == 0, r.stderr
    assert "Python SyncBlock (numpy)" in r.stdout
