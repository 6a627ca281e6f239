"""Use cases named by where they live and imported on first use, so that a command loads only the
use case it runs: `orbitkb list` does not pay for the change surface, indexing or enrichment."""

from __future__ import annotations

import importlib
from typing import Any

#: Where the use cases live; ``Deferred("describe.ListServices")`` is relative to it.
USE_CASES = "orbitkb.domain.usecases"


class Deferred:
    """Stands for ``package.module.Class``: calling it imports the module (once: Python keeps it)
    and calls the class with the same arguments. A misspelt name fails on that call with the
    ImportError or AttributeError naming it (the bootstrap tests resolve every one)."""

    def __init__(self, name: str, package: str = USE_CASES) -> None:
        self.module, _, self.attribute = f"{package}.{name}".rpartition(".")

    def resolve(self) -> Any:
        return getattr(importlib.import_module(self.module), self.attribute)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Deferred({self.module}.{self.attribute})"
