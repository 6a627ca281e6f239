"""What a site detector sees of a method-body walk: the ``Walker`` protocol and its ``BodyContext``.

``body`` walks a method and hands every call to the detectors (``http_sites``, ``msg_sites``,
``eventuate``, ``axon``, ``store_sites``, ``routes``); they read the walk's state and add sites
through this protocol, so they never import ``body`` back.
"""

from __future__ import annotations

from typing import Any, Protocol

from orbitkb.analysis.jvm.evaluate import Parts, Scope
from orbitkb.analysis.jvm.syntax import E


class BodyContext:
    """What a body walk knows about its class: field types, the file's imports, the class name."""

    __slots__ = ("cls", "fields", "imports", "targets", "package")

    def __init__(self, cls: str, fields: dict[str, str], imports: list[str], package: str = "") -> None:
        self.cls = cls
        self.fields = fields  # field name -> simple type
        self.imports = imports
        self.package = package
        self.targets: dict[str, Parts] = {}  # field name -> address known in this file


class Walker(Protocol):
    """The state of one body walk as a detector uses it (implemented by ``body.Walker``)."""

    ctx: BodyContext
    scope: Scope
    in_chain: set[int]
    sites: list[dict[str, Any]]  # the sites added so far (a later call may complete one)

    def recv_type(self, recv: E | None) -> str | None: ...

    def field_of(self, recv: E | None) -> str | None: ...

    def target_of(self, e: E | None) -> Parts | None: ...

    def add(self, site: dict[str, Any]) -> None: ...
