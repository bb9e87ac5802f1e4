"""The package itself: stubs match the compiled module, the interpreter is free during runs."""

import ast
import importlib.resources
import threading
import time

import numpy as np

import radioflow as rf
from radioflow import _native, blocks


def stub_names():
    text = importlib.resources.files("radioflow").joinpath("_native.pyi").read_text()
    tree = ast.parse(text)
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names


def test_stubs_list_exactly_the_native_names():
    native = {n for n in dir(_native) if not n.startswith("__")}
    assert stub_names() == native


def test_typed_package_marker():
    assert importlib.resources.files("radioflow").joinpath("py.typed").is_file()


def test_interpreter_is_released_while_a_graph_runs():
    # Python code on another thread sees the graph streaming and stops it: possible only if
    # run() released the interpreter. (Without that the graph would end by itself after 10 s
    # and the thread would find it stopped.)
    fg = rf.Flowgraph()
    sink = blocks.null_sink()
    fg.connect(blocks.null_source(), blocks.throttle(200_000), blocks.head(2_000_000), sink)
    ran = []

    def stop_once_streaming():
        deadline = time.monotonic() + 60  # only keeps a broken build from hanging
        while time.monotonic() < deadline:
            if fg.is_running() and fg.stats(sink)["items_consumed"] > 0:
                ran.append(True)
                break
            time.sleep(0.001)
        fg.stop()

    t = threading.Thread(target=stop_once_streaming)
    t.start()
    fg.run()
    t.join()
    assert ran == [True]


def test_public_api():
    assert set(rf.SCHEDULERS) == {"flow", "tpb", "single"}
    assert {"float32", "complex64", "int16", "int8", "uint8"} <= set(rf.DTYPES)
    assert issubclass(rf.ConnectError, rf.Error) and issubclass(rf.RunError, rf.Error)
    assert rf.blocks.vector_sink(np.uint8).type_name == "vector_sink"


def test_readme_and_docs_python_snippets_run():
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[3]
    for doc in [root / "README.md", root / "docs" / "python.md"]:
        snippets = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
        assert snippets, doc
        for code in snippets:
            exec(compile(code, str(doc), "exec"), {})
