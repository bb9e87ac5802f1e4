"""Blocks written in Python (GNU Radio's ``gr.sync_block``)."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _native
from ._dtypes import dtype_name

#: Returned by ``work`` when the block will produce nothing more.
WORK_DONE = -1


class SyncBlock:
    """A block whose ``work`` is written in Python, one output item per input item.

    Subclass it, call ``super().__init__(name, in_sig, out_sig)`` and define
    ``work(input_items, output_items)``. ``input_items[i]`` and ``output_items[o]`` are numpy
    arrays of equal length that *are* the stream buffers (no copy): read the inputs, fill the
    outputs, return how many items were used (or ``WORK_DONE``). The arrays are valid only
    during the call; keeping one after returning fails the graph (copy what you need).

    Tags on the used input items go to every output. Message ports: register them in
    ``__init__`` with ``message_port_register_in/out``, handle input messages with
    ``set_msg_handler``, send with ``message_port_pub``: from ``work``, a handler,
    ``start``/``stop`` or any thread of the block's own (a timer, a reader thread started in
    ``start``), delivered at once while the block runs; outside a run it raises
    :class:`RunError`. Messages are Python values (see :mod:`radioflow.pmt`). A block with only
    message ports gets ``work([], [])`` calls if it has no message inputs (a message source:
    publish, then return ``WORK_DONE``); after returning 0 it is called again only when
    something wakes it, so a source that publishes over time does it from a thread it starts
    in ``start`` and joins in ``stop``, as in GNU Radio.

    ``start()`` and ``stop()`` are called before the graph runs and when the block finishes;
    returning ``False`` fails the graph.

    ::

        class Scale(radioflow.SyncBlock):
            def __init__(self, k):
                super().__init__("scale", in_sig=[np.float32], out_sig=[np.float32])
                self.k = k

            def work(self, input_items, output_items):
                np.multiply(input_items[0], self.k, out=output_items[0])
                return len(output_items[0])
    """

    _rf_ctx: Optional[_native.WorkContext]

    def __init__(
        self,
        name: str = "python_block",
        in_sig: Optional[Sequence[Any]] = None,
        out_sig: Optional[Sequence[Any]] = None,
    ) -> None:
        self._rf_name = str(name)
        self._rf_in_sig: List[str] = [dtype_name(t) for t in (in_sig or ())]
        self._rf_out_sig: List[str] = [dtype_name(t) for t in (out_sig or ())]
        self._rf_message_inputs: List[str] = []
        self._rf_message_outputs: List[str] = []
        self._rf_handlers: Dict[str, Callable[[Any], Any]] = {}
        self._rf_output_multiple = 1
        self._rf_decimation = 1
        self._rf_interpolation = 1
        self._rf_tag_policy = "all_to_all"
        self._rf_ctx = None
        # Only a flag: the native handle lives in the flowgraph, and the block must not refer
        # to it (the flowgraph owns the block; a reference back would be a cycle through Rust
        # that Python's garbage collector cannot see).
        self._rf_joined = False

    # -- what subclasses define -------------------------------------------------------------

    def work(self, input_items: List[np.ndarray], output_items: List[np.ndarray]) -> int:
        """Processes ``len(output_items[0])`` (or input) items; returns how many it used."""
        raise NotImplementedError(f"block '{self._rf_name}' does not define work()")

    def start(self) -> bool:
        """Called once before the graph runs."""
        return True

    def stop(self) -> bool:
        """Called once when the block has finished or the graph was stopped."""
        return True

    # -- GNU Radio's block API --------------------------------------------------------------

    def name(self) -> str:
        """The name given to the constructor."""
        return self._rf_name

    def _check_not_running(self, what: str) -> None:
        if self._rf_joined:
            raise _native.Error(
                f"block '{self._rf_name}': {what} must happen before the block joins a flowgraph"
            )

    def set_output_multiple(self, multiple: int) -> None:
        """Offers ``work`` a whole multiple of `multiple` items per call (frames), as GNU
        Radio's ``set_output_multiple``; the stream buffers are sized so that a frame always
        fits, however large."""
        self._check_not_running("setting the output multiple")
        if int(multiple) < 1:
            raise ValueError(f"block '{self._rf_name}': the output multiple must be at least 1")
        self._rf_output_multiple = int(multiple)

    def set_tag_propagation_policy(self, policy: Any) -> None:
        """GNU Radio's tag propagation policy: ``TPP_ALL_TO_ALL`` (1, the default: every
        input's tags to every output), ``TPP_ONE_TO_ONE`` (2: input i's to output i) or
        ``TPP_DONT`` (0: none; the block tags what it wants). ``TPP_CUSTOM`` is refused."""
        self._check_not_running("setting the tag propagation policy")
        words = {0: "dont", 1: "all_to_all", 2: "one_to_one"}
        if isinstance(policy, bool) or int(policy) not in words:
            raise ValueError(
                f"block '{self._rf_name}': tag propagation policy {policy!r}: radioflow runs "
                "TPP_DONT, TPP_ALL_TO_ALL and TPP_ONE_TO_ONE (TPP_CUSTOM's forwarding is the "
                "block's own: use TPP_DONT and add_item_tag)"
            )
        if int(policy) == 2 and len(self._rf_in_sig) != len(self._rf_out_sig):
            raise ValueError(
                f"block '{self._rf_name}': TPP_ONE_TO_ONE needs as many inputs as outputs"
            )
        self._rf_tag_policy = words[int(policy)]

    def tag_propagation_policy(self) -> int:
        """The tag propagation policy's number (GNU Radio's ``gr.TPP_*``)."""
        return {"dont": 0, "all_to_all": 1, "one_to_one": 2}[self._rf_tag_policy]

    def output_multiple(self) -> int:
        """The output multiple (1 unless set)."""
        return self._rf_output_multiple

    def message_port_register_in(self, port: str) -> None:
        """Declares message input `port` (handle it with ``set_msg_handler``)."""
        self._check_not_running("registering a message port")
        self._rf_message_inputs.append(str(port))

    def message_port_register_out(self, port: str) -> None:
        """Declares message output `port`."""
        self._check_not_running("registering a message port")
        self._rf_message_outputs.append(str(port))

    def set_msg_handler(self, port: str, handler: Callable[[Any], Any]) -> None:
        """Calls ``handler(msg)`` for every message arriving on input `port`."""
        if port not in self._rf_message_inputs:
            raise ValueError(
                f"block '{self._rf_name}' has no message input '{port}' "
                "(register it with message_port_register_in first)"
            )
        self._rf_handlers[port] = handler

    def message_port_pub(self, port: str, msg: Any) -> None:
        """Sends `msg` (any value PMTs can hold) on message output `port`, from any thread,
        while the block runs (from its ``start`` on; delivered when the run begins). Raises
        RunError when the block is not running (its flowgraph has not started, or the block
        has finished) and ValueError for an unknown port."""
        if self._rf_ctx is None:
            raise _native.RunError(
                f"block '{self._rf_name}' is not in a flowgraph yet: message_port_pub works "
                "while its flowgraph runs"
            )
        self._rf_ctx.publish(port, msg)

    def nitems_read(self, which_input: int) -> int:
        """Items consumed so far on input `which_input` (absolute offset of ``input_items[i][0]``)."""
        return self._ctx().nitems_read(which_input)

    def nitems_written(self, which_output: int) -> int:
        """Items produced so far on output `which_output` (offset of ``output_items[o][0]``)."""
        return self._ctx().nitems_written(which_output)

    def get_tags_in_window(
        self, which_input: int, rel_start: int, rel_end: int
    ) -> List[Tuple[int, Any, Any]]:
        """Tags on items ``rel_start..rel_end`` of this call's ``input_items[which_input]``,
        as ``(absolute_offset, key, value)``."""
        base = self.nitems_read(which_input)
        lo, hi = base + rel_start, base + rel_end
        return [t for t in self._ctx().tags(which_input) if lo <= t[0] < hi]

    def add_item_tag(self, which_output: int, offset: int, key: Any, value: Any) -> None:
        """Tags item `offset` (absolute) of output `which_output`; it must be produced by
        this call."""
        self._ctx().add_tag(which_output, offset, key, value)

    # -- plumbing ---------------------------------------------------------------------------

    def _ctx(self) -> _native.WorkContext:
        if self._rf_ctx is None:
            raise _native.Error(f"block '{self._rf_name}' is not running")
        return self._rf_ctx

    def _rf_handle_message(self, port: str, msg: Any) -> None:
        handler = self._rf_handlers.get(port)
        if handler is None:
            raise _native.Error(
                f"block '{self._rf_name}' got a message on '{port}' but has no handler for it "
                "(set_msg_handler)"
            )
        handler(msg)

    def _rf_rate(self) -> Tuple[int, int]:
        """The relative rate that moves a ``general_work`` block's tags, as a fraction."""
        return (1, 1)

    def _rf_general(self) -> Optional[bool]:
        """None for a block with a fixed rate; for a ``general_work`` block (GNU Radio's
        ``gr.basic_block`` with streams), whether its class defines ``forecast``."""
        return None

    def _rf_make_native(self) -> _native.Block:
        if not hasattr(self, "_rf_name"):
            raise TypeError(
                f"{type(self).__name__}.__init__ must call SyncBlock.__init__(self, name, in_sig, out_sig)"
            )
        if self._rf_joined:
            raise _native.ConnectError(
                f"Python block '{self._rf_name}' already belongs to another flowgraph"
            )
        native = _native.python_block(
            self,
            self._rf_name,
            self._rf_in_sig,
            self._rf_out_sig,
            self._rf_message_inputs,
            self._rf_message_outputs,
            self._rf_output_multiple,
            self._rf_decimation,
            self._rf_interpolation,
            self._rf_general(),
            self._rf_rate(),
            self._rf_tag_policy,
        )
        self._rf_joined = True
        return native


class DecimBlock(SyncBlock):
    """A Python block that makes one output item of every `decim` input items (GNU Radio's
    ``gr.decim_block``): ``work`` gets ``len(input_items[i]) == decim * len(output_items[o])``
    and returns how many *output* items it made; ``decim`` times as many inputs are consumed.
    Tags move as GNU Radio moves them: input offset times ``1/decim``, rounded to the nearest
    output item (halves up).

    ::

        class Average(radioflow.DecimBlock):
            def __init__(self, n):
                super().__init__("average", [np.float32], [np.float32], decim=n)

            def work(self, input_items, output_items):
                out = output_items[0]
                out[:] = input_items[0].reshape(len(out), -1).mean(axis=1)
                return len(out)
    """

    def __init__(
        self,
        name: str = "decim_block",
        in_sig: Optional[Sequence[Any]] = None,
        out_sig: Optional[Sequence[Any]] = None,
        decim: int = 1,
    ) -> None:
        super().__init__(name, in_sig, out_sig)
        if int(decim) < 1:
            raise ValueError(f"block '{name}': decim must be at least 1, not {decim}")
        self._rf_decimation = int(decim)

    def decimation(self) -> int:
        """Input items per output item."""
        return self._rf_decimation


class InterpBlock(SyncBlock):
    """A Python block that makes `interp` output items of every input item (GNU Radio's
    ``gr.interp_block``): ``work`` gets ``len(output_items[o]) == interp * len(input_items[i])``
    and returns how many *output* items it made (a multiple of `interp`); a `interp`-th as
    many inputs are consumed. Tags move to the first output item of their input item.

    ::

        class Repeat(radioflow.InterpBlock):
            def __init__(self, n):
                super().__init__("repeat", [np.float32], [np.float32], interp=n)

            def work(self, input_items, output_items):
                output_items[0][:] = np.repeat(input_items[0], self.interpolation())
                return len(output_items[0])
    """

    def __init__(
        self,
        name: str = "interp_block",
        in_sig: Optional[Sequence[Any]] = None,
        out_sig: Optional[Sequence[Any]] = None,
        interp: int = 1,
    ) -> None:
        super().__init__(name, in_sig, out_sig)
        if int(interp) < 1:
            raise ValueError(f"block '{name}': interp must be at least 1, not {interp}")
        self._rf_interpolation = int(interp)

    def interpolation(self) -> int:
        """Output items per input item."""
        return self._rf_interpolation
