"""The shared-library code each service builds against: its manifests' sibling-module dependencies,
the in-repository Go packages it imports, the library projects of its NestJS monorepo, the
in-repository npm packages its package.json depends on by name, the library target of another
Rust service's crate it depends on (its generated client).

A multi-module build keeps constants (channel names, paths), supertypes and entities in library
modules (``orders-api``, ``common``) that a service declares as a dependency (Gradle
``project(":orders-api")``, a Maven sibling artifact). A linker that opts in reads these files:
the JVM one for declarations only; the Go and Node ones keep the facts of shared code the service's
own code uses (see their linkers).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis import paths
from orbitkb.analysis.golang import gopath
from orbitkb.analysis.layout.candidates import is_harness
from orbitkb.analysis.layout.manifests import nest_monorepo
from orbitkb.analysis.layout.model import ServiceUnit
from orbitkb.analysis.node.resolve import ModuleIndex
from orbitkb.analysis.python import libraries as pylibs
from orbitkb.analysis.reading.parsing import ParsedResults, decode
from orbitkb.analysis.rust import crates as rust_crates

if TYPE_CHECKING:
    from orbitkb.analysis.reading.sources import Sources

_GO_MODULE = re.compile(r"^module\s+(\S+)", re.M)


def library_files(
    units: Sequence[ServiceUnit],
    libraries: Iterable[str],
    file_paths: Iterable[str],
    owners: Mapping[str, int],
) -> dict[int, list[str]]:
    """unit index -> files (not owned by any service) of the library folders it depends on."""
    roots = sorted(set(libraries), key=lambda r: (-r.count("/"), r))
    by_name: dict[str, list[str]] = {}
    for root in roots:
        if root != ".":
            by_name.setdefault(paths.basename(root), []).append(root)
    if not by_name:
        return {}
    files: dict[str, list[str]] = {}
    for path in file_paths:
        if path in owners:
            continue
        holder = next((r for r in roots if r != "." and paths.is_under(path, r)), None)
        if holder is not None:
            files.setdefault(holder, []).append(path)
    out: dict[int, list[str]] = {}
    for i, unit in enumerate(units):
        wanted = sorted({r for dep in unit.deps() for r in by_name.get(dep, ())})
        found = sorted(p for r in wanted for p in files.get(r, ()))
        if found:
            out[i] = found
    return out


#: stacks whose services are built from modules (Gradle subprojects, Maven modules) of one folder
MODULE_STACKS = frozenset({"jvm-spring"})


def grouped_modules(
    units: Sequence[ServiceUnit], libraries: Iterable[str], owners: Mapping[str, int], file_paths: Iterable[str]
) -> dict[str, int]:
    """path -> unit index for the files of library modules that sit in one service's own folder
    (``orders/orders-main`` the deployed module beside ``orders/orders-domain``, ``orders/orders-web``):
    that service's code split into modules, read as its own (controllers, handlers, entities).
    A module another service depends on stays a shared library; so does any module of a folder
    holding two services, or of the repository's top folder, and a test harness (``orders-e2e``)."""
    roots = [r for r in sorted(set(libraries)) if r != "." and paths.parent(r) != "." and not is_harness(r)]
    if not roots:
        return {}
    module: dict[str, int] = {}
    for root in roots:
        group = paths.parent(root)
        inside = [i for i, u in enumerate(units) if paths.is_under(u.root, group)]
        if len({units[i].root for i in inside}) != 1:
            continue
        i = inside[0]
        unit = units[i]
        if unit.stack not in MODULE_STACKS or paths.parent(unit.root) != group:
            continue
        name = paths.basename(root)
        if any(name in other.deps() for j, other in enumerate(units) if units[j].root != unit.root):
            continue  # a contract other services build against
        module[root] = i
    if not module:
        return {}
    out: dict[str, int] = {}
    for path in file_paths:
        if path in owners:
            continue
        holder = next((r for r in module if paths.is_under(path, r)), None)
        if holder is not None:
            out[path] = module[holder]
    return out


def go_library_files(
    units: Sequence[ServiceUnit],
    owned: Mapping[int, Sequence[str]],
    go_files: Iterable[str],
    modules: Mapping[str, str],
    imports_of: Callable[[str], Iterable[str]],
) -> dict[int, list[str]]:
    """unit index -> the Go files of the in-repository packages a Go service imports, directly or
    through them: one go.mod for the repository and a shared ``pkg/`` or ``internal/<x>`` beside
    ``cmd/<service>`` is how Go monorepos are laid out. A package another service owns counts too
    (a monolith built from the services' packages, a client package kept in the callee's folder):
    the linker keeps its facts only where the importing service's own code reaches them.
    ``modules``: module path -> the folder of its go.mod (``example.com/shop/pkg/kafka`` -> ``pkg/kafka``)."""
    owner_of = {p: i for i, files in owned.items() for p in files}
    by_dir: dict[str, list[str]] = {}
    for path in go_files:
        by_dir.setdefault(paths.parent(path), []).append(path)
    if not by_dir or not modules:
        return {}

    def folder(import_path: str) -> str | None:
        for module, root in modules.items():
            if import_path.startswith(module + "/"):
                d = paths.join(root, import_path[len(module) + 1 :])
                if d in by_dir:
                    return d
        return None

    out: dict[int, list[str]] = {}
    for i, unit in enumerate(units):
        if unit.stack != "go":
            continue
        seen: set[str] = set()
        todo = [imp for p in owned.get(i, ()) if p.endswith(".go") for imp in imports_of(p)]
        while todo:
            d = folder(todo.pop())
            if d is None or d in seen:
                continue
            seen.add(d)
            todo.extend(imp for p in by_dir[d] for imp in imports_of(p))
        found = sorted(p for d in seen for p in by_dir[d] if owner_of.get(p) != i)
        if found:
            out[i] = found
    return out


def shared_code_files(
    units: Sequence[ServiceUnit], owned: Mapping[int, Sequence[str]], src: Sources
) -> dict[int, list[str]]:
    """unit index -> shared code it reads: Go packages it imports, NestJS library projects, npm
    packages, Node files outside every service it imports by relative path, Python modules no
    service owns, the library target of another Rust service's crate."""
    out: dict[int, list[str]] = {}
    finders = (_go_libraries, _nest_libraries, _package_libraries, _relative_libraries, _python_libraries,
               _rust_libraries)  # fmt: skip
    for found in (finder(units, owned, src) for finder in finders):
        for i, files in found.items():
            out[i] = sorted({*out.get(i, ()), *files})
    return out


def _go_libraries(units: Sequence[ServiceUnit], owned: Mapping[int, Sequence[str]], src: Sources) -> dict[int, list[str]]:
    if not any(u.stack == "go" for u in units):
        return {}
    go_files = [r.path for r in src.records if not r.test and r.path.endswith(".go")]
    modules = {
        m.group(1): paths.parent(p)
        for p, t in src.texts.items()
        if paths.basename(p) == "go.mod" and (m := _GO_MODULE.search(t))
    }
    if isinstance(src.parsed, ParsedResults):
        src.parsed.load(go_files)
    parsed = src.parsed

    def imports_of(path: str) -> list[str]:
        data = decode(parsed[path]) if path in parsed else {}
        found = data.get("imports")
        return [str(v) for v in found.values()] if isinstance(found, dict) else []

    if not modules:  # a GOPATH project: its own import root is declared nowhere
        modules = gopath.gopath_roots((i for p in go_files for i in imports_of(p)), {paths.parent(p) for p in go_files})
    return go_library_files(units, owned, go_files, modules, imports_of)


def _python_libraries(units: Sequence[ServiceUnit], owned: Mapping[int, Sequence[str]], src: Sources) -> dict[int, list[str]]:
    """The in-repository modules no service owns (a shared ``common/``) that a Python service imports
    (python/libraries); read only when such modules exist."""
    if not any(u.stack == "python" for u in units):
        return {}
    taken = {p for files in owned.values() for p in files}
    shared = {r.path for r in src.records if not r.test and r.path.endswith(".py") and r.path not in taken}
    if not shared:
        return {}  # every module belongs to a service: nothing to read beside one (no parse results loaded)
    own = [p for i, u in enumerate(units) if u.stack == "python" for p in owned.get(i, ()) if p.endswith(".py")]
    if isinstance(src.parsed, ParsedResults):
        src.parsed.load(sorted({*own, *shared}))
    parsed = src.parsed

    def refs_of(path: str) -> list[str]:
        return pylibs.refs_in(decode(parsed[path])) if path in parsed else []

    out: dict[int, list[str]] = {}
    for i, unit in enumerate(units):
        if unit.stack == "python":
            found = pylibs.imported_files([p for p in owned.get(i, ()) if p.endswith(".py")], shared, refs_of, unit.root)
            if found:
                out[i] = found
    return out


def _rust_libraries(units: Sequence[ServiceUnit], owned: Mapping[int, Sequence[str]], src: Sources) -> dict[int, list[str]]:
    """The library target of another Rust service a service's crate depends on (rust/crates)."""
    if sum(u.stack == "rust" for u in units) < 2:
        return {}
    rust = sorted(p for i, u in enumerate(units) if u.stack == "rust" for p in owned.get(i, ()) if p.endswith(".rs"))
    if isinstance(src.parsed, ParsedResults):
        src.parsed.load(rust)
    parsed = src.parsed

    def mods_of(path: str) -> list[str]:
        found = decode(parsed[path]).get("mods") if path in parsed else None
        return [str(m) for m in found] if isinstance(found, list) else []

    return rust_crates.service_libraries(units, owned, mods_of)


def _nest_libraries(units: Sequence[ServiceUnit], owned: Mapping[int, Sequence[str]], src: Sources) -> dict[int, list[str]]:
    """The library projects of a NestJS monorepo (``libs/common`` behind ``@app/common``), read by
    each of its apps: the linker keeps what an app imports from them."""
    monorepos = {
        paths.parent(p): [paths.join(paths.parent(p), lib) or lib for lib in nest_monorepo(t) or ()]
        for p, t in src.texts.items()
        if paths.basename(p) == "nest-cli.json"
    }
    roots = [root for libs in monorepos.values() for root in libs]
    if not roots:
        return {}
    bases = [b for b, libs in monorepos.items() if libs]
    taken = {p for files in owned.values() for p in files}
    lib_files = [
        r.path for r in src.records
        if not r.test and r.path not in taken and ft.CODE_STACKS.get(ft.suffix_of(r.name)) == "node-ts"
        and any(paths.is_under(r.path, root) for root in roots)
    ]  # fmt: skip
    if not lib_files:
        return {}
    return {
        i: lib_files
        for i, u in enumerate(units)
        if u.stack == "node-ts" and any(paths.is_under(u.root, b) for b in bases)
    }


def _package_libraries(
    units: Sequence[ServiceUnit], owned: Mapping[int, Sequence[str]], src: Sources
) -> dict[int, list[str]]:
    """In-repository npm packages no service owns (a ``common/`` whose package.json is named
    ``@shop/common``) that a Node service's manifests depend on by that name: read like a library
    project (base classes, constants, schemas the service imports from it)."""
    if not any(u.stack == "node-ts" for u in units):
        return {}
    taken = {p for files in owned.values() for p in files}
    packages: dict[str, str] = {}  # package name -> folder
    for path, text in sorted(src.texts.items()):
        if paths.basename(path) == "package.json" and path not in taken:
            name, folder = _package_name(text), paths.parent(path)
            # a package holding services (a workspace root) is no library of theirs
            if name and folder not in ("", ".") and not any(paths.is_under(u.root, folder) for u in units):
                packages.setdefault(name, folder)
    if not packages:
        return {}
    out: dict[int, list[str]] = {}
    for i, unit in enumerate(units):
        if unit.stack != "node-ts":
            continue
        roots = sorted({packages[d] for d in unit.deps() if d in packages})
        found = sorted(
            r.path for r in src.records
            if not r.test and r.path not in taken and ft.CODE_STACKS.get(ft.suffix_of(r.name)) == "node-ts"
            and any(paths.is_under(r.path, root) for root in roots)
        )  # fmt: skip
        if found:
            out[i] = found
    return out


#: What a relative Node import may name: the file as written, with a code suffix, or a folder's index.
def relative_import_files(
    start: Iterable[str], candidates: Iterable[str], imports_of: Callable[[str], Iterable[str]]
) -> list[str]:
    """The ``candidates`` (Node files no service owns) that files in ``start`` import by relative
    path (``../../lib/db/entities/order.entity``), directly or through one another: a shared
    ``lib/`` folder of a package built once and deployed as several services. Specifiers resolve
    as the Node analyzer resolves them (node/resolve.ModuleIndex: extensions, ``.js`` for ``.ts``,
    index files)."""
    index = ModuleIndex(dict.fromkeys(candidates), "")
    found: set[str] = set()
    todo = list(start)
    seen = set(todo)
    while todo:
        path = todo.pop()
        for spec in imports_of(path):
            target = index.resolve(path, spec) if spec.startswith(".") else None
            if target is not None and target not in seen:
                seen.add(target)
                found.add(target)
                todo.append(target)
    return sorted(found)


def _relative_libraries(
    units: Sequence[ServiceUnit], owned: Mapping[int, Sequence[str]], src: Sources
) -> dict[int, list[str]]:
    if not any(u.stack == "node-ts" for u in units):
        return {}
    taken = {p for files in owned.values() for p in files}
    loose = [
        r.path for r in src.records
        if not r.test and r.path not in taken and ft.CODE_STACKS.get(ft.suffix_of(r.name)) == "node-ts"
    ]  # fmt: skip
    if not loose:
        return {}
    node = [p for i, u in enumerate(units) if u.stack == "node-ts" for p in owned.get(i, ())]
    if isinstance(src.parsed, ParsedResults):
        src.parsed.load([*node, *loose])
    parsed = src.parsed

    def imports_of(path: str) -> list[str]:
        data = decode(parsed[path]) if path in parsed else {}
        found = data.get("imports")
        return [str(v[0]) for v in found.values() if isinstance(v, list) and v] if isinstance(found, dict) else []

    out: dict[int, list[str]] = {}
    for i, unit in enumerate(units):
        if unit.stack == "node-ts" and (files := relative_import_files(owned.get(i, ()), loose, imports_of)):
            out[i] = files
    return out


def _package_name(text: str) -> str | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name.strip() else None
