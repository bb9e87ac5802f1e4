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
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    fg = rf.Flowgraph()
    fg.connect(blocks.null_source(), blocks.throttle(200_000), blocks.head(40_000), blocks.null_sink())
    t.start()
    t0 = time.monotonic()
    fg.run()  # about 0.2 s of throttled streaming
    elapsed = time.monotonic() - t0
    stop.set()
    t.join()
    assert elapsed > 0.1
    assert len(ticks) > 20  # the other thread ran meanwhile


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
