"""orbitkb-bootstrap: the composition root. Builds adapters from settings and hands use cases to
the CLI, the MCP server and users' scripts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from orbitkb.bootstrap.container import Application, build_application
    from orbitkb.bootstrap.settings import Settings

__all__ = ["Application", "Settings", "build_application"]

#: Loaded on first use (PEP 562): reading ``orbitkb.bootstrap.settings`` (the CLI's choices) does
#: not import the container and its dependency-injector.
_LAZY = {"Application": "orbitkb.bootstrap.container", "build_application": "orbitkb.bootstrap.container",
         "Settings": "orbitkb.bootstrap.settings"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'orbitkb.bootstrap' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LAZY[name]), name)
