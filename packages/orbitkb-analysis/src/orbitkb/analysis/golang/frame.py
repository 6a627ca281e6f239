"""The shared types of the Go interpreter: a call ``Frame`` and the ``Interp`` protocol the library
actions see.

The library actions (``clients``, ``routing``, ``messaging``, ``grpcserver``, ``sqltext``) and the
interpreter that dispatches to them (``interp``, ``resolve``) all import this module; it imports
none of them, so the actions never import the interpreter back.
"""

from __future__ import annotations

import posixpath
from typing import Any, Protocol

from orbitkb.analysis.golang.program import FuncKey, Program
from orbitkb.analysis.golang.sink import Sink
from orbitkb.analysis.golang.values import FuncRef, Obj, V


class HasProgram(Protocol):
    """Anything that knows the parsed program (the interpreter and its resolver)."""

    @property
    def prog(self) -> Program: ...


class Interp(HasProgram, Protocol):
    """What a library action may use of the interpreter (implemented by ``interp.Interp``)."""

    sink: Sink
    probe: bool
    library: frozenset[str]  # files of packages outside the service's folder (read where reached)
    prop_defaults: dict[str, str]
    default_mux: Obj | None

    def assign(self, target: list[Any], v: V, fr: Frame, op: str) -> None: ...

    def call_value(
        self, fv: V, args: list[V], fr: Frame, line: int, arg_ir: list[Any] | None = None
    ) -> V: ...

    def run_handler(self, ref: V, symbol: str) -> None: ...

    def wrapper_lines(self, key: FuncKey) -> frozenset[int]: ...


class Frame:
    """One activation of a function: its variables, the frame it was called from and the route
    handler, component and call site it is attributed to."""

    __slots__ = (
        "vars",
        "parent",
        "file",
        "dir",
        "fn",
        "handler",
        "hop",
        "component",
        "caller",
        "site",
        "depth",
        "pending",
        "returns",
        "refs",
    )

    def __init__(self, file: str, fn: Any, parent: Frame | None = None) -> None:
        self.vars: dict[str, V] = {}
        self.parent = parent
        self.file = file
        self.dir = posixpath.dirname(file)
        self.fn = fn
        self.handler: str | None = None
        self.hop = 0
        self.component = ""
        self.caller: Frame | None = None
        self.site = 0
        self.depth = 0
        self.pending: list[FuncRef] = []
        self.returns: list[list[V]] = []
        #: pointer parameters -> (the caller's frame, the expression it passed): ``*p = v`` writes there
        self.refs: dict[str, tuple[Frame, list[Any]]] = {}

    def imports(self, it: HasProgram) -> dict[str, str]:
        return it.prog.files[self.file]["imports"]  # type: ignore[no-any-return]
