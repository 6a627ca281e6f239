"""One module per sub-command; each exposes ``register(subparsers)``. ``COMMANDS`` names the module of
every command, so a run imports only the module of the command it runs (`orbitkb list` never loads
what `analyze`, `smells` or `setup` import); help and the man page load them all."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

#: Command -> the module (in this package) that registers it, in the order help lists them.
COMMANDS: dict[str, str] = {
    "index": "index",
    "update": "index",
    "list": "listing",
    "describe": "describe",
    "search": "describe",
    "status": "status",
    "analyze": "analyze",
    "verify": "analyze",
    "export": "export",
    "relationships": "architecture",
    "trace": "architecture",
    "smells": "architecture",
    "serve": "serve",
    "ui": "ui",
    "remove": "remove",
    "backup": "backup",
    "restore": "restore",
    "copy": "copy",
    "setup": "setup",
}


def modules(commands: tuple[str, ...] | None = None) -> list[ModuleType]:
    """The modules registering ``commands`` (all of them when None), each once, in help order."""
    wanted = COMMANDS if commands is None else {c: COMMANDS[c] for c in COMMANDS if c in commands}
    return [import_module(f"{__name__}.{name}") for name in dict.fromkeys(wanted.values())]
