"""The library target of a workspace crate that is also a service: the files another service's crate
builds against when it depends on it by path (``auth = { path = "../auth" }`` for the generated
gRPC client ``auth::client::AuthClient``).

A crate with both ``src/main.rs`` and ``src/lib.rs`` compiles two targets; a dependent links only
the library: ``src/lib.rs`` and the module files it declares (``pub mod client;``), recursively.
The binary's modules (handlers, database access) never run in the dependent, so they are not read.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from orbitkb.analysis import paths
from orbitkb.analysis.layout.model import ServiceUnit

#: files whose module children live in their own folder (``src/lib.rs`` -> ``src/client.rs``)
_TREE_ROOTS = frozenset({"lib.rs", "main.rs", "mod.rs"})


def library_tree(root: str, files: Collection[str], mods_of: Callable[[str], Sequence[str]]) -> list[str]:
    """The files of the crate at ``root`` that its library target compiles, lib.rs first; none
    when the crate has no ``src/lib.rs``."""
    src = "src" if root in ("", ".") else f"{root}/src"
    out: list[str] = []
    stack = [f"{src}/lib.rs"]
    while stack:
        path = stack.pop()
        if path not in files or path in out:
            continue
        out.append(path)
        name = paths.basename(path)
        base = paths.parent(path) if name in _TREE_ROOTS else path.removesuffix(".rs")
        for module in reversed(mods_of(path)):
            stack += [f"{base}/{module}/mod.rs", f"{base}/{module}.rs"]
    return out


def service_libraries(
    units: Sequence[ServiceUnit], owned: Mapping[int, Sequence[str]], mods_of: Callable[[str], Sequence[str]]
) -> dict[int, list[str]]:
    """unit index -> the library-target files of the other Rust services it depends on by name."""
    names: dict[str, int] = {}
    for j, unit in enumerate(units):
        if unit.stack == "rust":
            names.setdefault(paths.basename(unit.root), j)
            for m in unit.manifests[:1]:
                if m.name:
                    names.setdefault(m.name, j)
    out: dict[int, list[str]] = {}
    for i, unit in enumerate(units):
        if unit.stack != "rust":
            continue
        found: list[str] = []
        for dep in sorted(unit.deps()):
            other = names.get(dep)
            if other is not None and other != i:
                found += library_tree(units[other].root, set(owned.get(other, ())), mods_of)
        if found:
            out[i] = sorted(set(found))
    return out
