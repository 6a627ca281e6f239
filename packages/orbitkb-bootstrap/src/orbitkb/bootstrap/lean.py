"""dependency-injector without the integrations orbitkb never uses, so the container imports fast.

On import, dependency-injector probes for optional integrations and imports them when they are
installed: pydantic(-settings) for ``Configuration.from_pydantic``, PyYAML for ``from_yaml``,
starlette, FastAPI, werkzeug and fast-depends for wiring. The MCP SDK installs pydantic and
starlette next to orbitkb, so every ``orbitkb list`` paid ~0.15 s for modules it never touches.
While dependency-injector loads, a finder answers "not installed" for those not imported yet
(``import`` raises ImportError, exactly as when they are absent) and is removed right after, so the MCP server
and anything else still import them normally later. The container uses none of these features.
"""

from __future__ import annotations

import importlib.abc
import sys

#: What dependency-injector imports on its own when present; nothing in orbitkb's container needs it.
OPTIONAL_INTEGRATIONS = ("pydantic_settings", "pydantic", "yaml", "starlette", "fastapi", "werkzeug", "fast_depends")


class _Absent(importlib.abc.MetaPathFinder):
    """A finder that answers "not installed" for the optional integrations, and nothing else."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if fullname.split(".", 1)[0] in self.names:
            raise ModuleNotFoundError(f"No module named {fullname!r} (skipped while the container loads)",
                                      name=fullname)
        return None


def _import_lean() -> None:
    if "dependency_injector.containers" in sys.modules:
        return
    absent = _Absent(frozenset(n for n in OPTIONAL_INTEGRATIONS if n not in sys.modules))
    sys.meta_path.insert(0, absent)
    try:
        import dependency_injector.containers
        import dependency_injector.providers  # noqa: F401
    finally:
        sys.meta_path.remove(absent)


_import_lean()

from dependency_injector import containers, providers  # noqa: E402

__all__ = ["containers", "providers"]
