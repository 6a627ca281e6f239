"""What a recogniser sees of the one-pass extractor: the ``Extractor`` protocol.

``extract`` walks a syntax tree and hands nodes to the framework recognisers (``calls``,
``clients``, ``decorators``, ``messaging``, ``queues``, ``persistence``, ``stores``,
``event_store``, ``sdk_imports``); they read its scope and append to its output through this
protocol, so they never import ``extract`` back.
"""

from __future__ import annotations

from typing import Any, Protocol

from tree_sitter import Node

from .values import Scope


class Extractor(Protocol):
    """The extractor's state as a recogniser uses it (implemented by ``extract.Extractor``)."""

    #: the file's facts, by kind (``routes``, ``calls``, ``messages``, ``entities``...)
    out: dict[str, Any]
    scope: Scope
    #: client libraries the file imports (``kafkajs``, ``amqplib``...)
    providers: set[str]
    #: store-library packages the file imports (``connect-redis``, ``@keyv/redis``...)
    store_libraries: set[str]

    @property
    def fid(self) -> str | None: ...

    def where(self, node: Node) -> dict[str, Any]: ...

    def module_path(self, name: str | None) -> tuple[str, str] | None: ...

    def fid_for(self, node: Node) -> str: ...

    def visit(self, node: Node) -> None: ...

    def binding_for(self, value: Node, key: str) -> dict[str, Any] | None: ...
    def object_field(self, fields: dict[str, Any], key: str, name: str, value: Node, in_ctor: bool) -> None: ...
