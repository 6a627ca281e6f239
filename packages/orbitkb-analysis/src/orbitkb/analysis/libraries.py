"""The shared-library code each service builds against, by its manifests' sibling-module dependencies.

A multi-module build keeps constants (channel names, paths), supertypes and entities in library
modules (``orders-api``, ``common``) that a service declares as a dependency (Gradle
``project(":orders-api")``, a Maven sibling artifact). A linker that opts in reads these files for
declarations only: they never produce facts of the service.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from orbitkb.analysis import paths
from orbitkb.analysis.layout.model import ServiceUnit


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
        root = next((r for r in roots if r != "." and paths.is_under(path, r)), None)
        if root is not None:
            files.setdefault(root, []).append(path)
    out: dict[int, list[str]] = {}
    for i, unit in enumerate(units):
        wanted = sorted({r for dep in unit.deps() for r in by_name.get(dep, ())})
        found = sorted(p for r in wanted for p in files.get(r, ()))
        if found:
            out[i] = found
    return out
