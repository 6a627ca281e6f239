"""An application's config mapping (Flask ``app.config``, Quart's, any ``<app>.config``): the keys
the code writes, so a read elsewhere (``current_app.config["ORDERS_ADDR"]``) folds to the value.

Written as ``app.config["K"] = v``, ``app.config.update(K=v)`` / ``update({"K": v})``,
``app.config.from_mapping(...)`` or ``app.config.from_object(Settings)`` (a class or module whose
UPPERCASE names become keys, a dotted string naming one). Read as ``<x>.config["K"]`` or
``<x>.config.get("K", default)``. Scan records the writes of each file (``cfg``); the resolver
merges them into one table per service.

An application's state (Starlette / FastAPI ``app.state``) is kept alike: ``app.state.orders =
httpx.AsyncClient(...)`` in a lifespan or a startup hook (``st``), read back anywhere as
``request.app.state.orders``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from orbitkb.analysis.python.ir import Node

#: the config methods that write keys
WRITERS = frozenset({"update", "from_mapping", "from_object"})
#: the key that stands for an object whose UPPERCASE attributes are keys (``from_object``)
OBJECT = "*"


def is_config(e: ast.expr) -> bool:
    """Whether ``e`` is an application's config mapping: ``<something>.config``."""
    return isinstance(e, ast.Attribute) and e.attr == "config"


def entries(method: str, call: ast.Call, build: Callable[[ast.expr], Node]) -> list[list[Any]]:
    """[key, value] pairs one writer call records."""
    if method == "from_object":
        return [[OBJECT, build(call.args[0])]] if call.args else []
    out: list[list[Any]] = []
    if call.args and isinstance(call.args[0], ast.Dict):
        for k, v in zip(call.args[0].keys, call.args[0].values, strict=False):
            if isinstance(k, ast.Constant) and isinstance(k.value, str):
                out.append([k.value, build(v)])
    out += [[k.arg, build(k.value)] for k in call.keywords if k.arg]
    return out


def table(files: Mapping[str, Mapping[str, Any]]) -> tuple[dict[str, Node], list[Node]]:
    """(key -> the first value written, in path order; the objects handed to ``from_object``)."""
    keys: dict[str, Node] = {}
    objects: list[Node] = []
    for path in sorted(files):
        written: Iterable[list[Any]] = files[path].get("cfg") or ()
        for key, value in written:
            if key == OBJECT:
                objects.append(value)
            else:
                keys.setdefault(key, value)
    return keys, objects


def is_config_node(o: Node) -> bool:
    """Whether a resolved value is an application's config mapping (``app.config`` on an instance
    or a parameter, ``flask.current_app.config``)."""
    if o["t"] == "bm":
        return bool(o["n"] == "config")
    return o["t"] == "ext" and str(o["q"]).endswith(".config")


def is_config_get(fv: Node) -> bool:
    """Whether a callee is ``<config>.get`` (on an instance's config, or ``flask.current_app.config``)."""
    if fv["t"] == "bm":
        return fv["n"] == "get" and is_config_node(fv["o"])
    return fv["t"] == "ext" and str(fv["q"]).endswith(".config.get")


def state_name(tgt: ast.expr) -> str | None:
    """The name an assignment target writes in an application's state: ``<x>.state.NAME``."""
    if isinstance(tgt, ast.Attribute) and isinstance(tgt.value, ast.Attribute) and tgt.value.attr == "state":
        return tgt.attr
    return None


def state_table(files: Mapping[str, Mapping[str, Any]]) -> dict[str, Node]:
    """Name -> the value written to the application's state under it, when every write agrees
    on one value (a name written with two different values stays unknown)."""
    found: dict[str, Node] = {}
    clash: set[str] = set()
    for path in sorted(files):
        for name, value in files[path].get("st") or ():
            if name in found and found[name] != value:
                clash.add(name)
            found.setdefault(name, value)
    return {k: v for k, v in found.items() if k not in clash}


def is_state_node(o: Node) -> bool:
    """Whether a resolved value is an application's state (``app.state`` on an instance, a
    parameter or ``request.app``)."""
    if o["t"] == "bm":
        return bool(o["n"] == "state")
    return o["t"] == "ext" and str(o["q"]).endswith(".state")
