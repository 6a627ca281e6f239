"""The in-repository Python modules no service owns that a service imports from outside its folder.

Several services built from one repository often share a package beside them (``common/``,
``shared/``, ``libs/``) and import it by its name from the import root (``from common.http import
client``). The linker reads those modules for declarations only — the helper that builds a client,
the settings class a base URL comes from — so a call in the service's own code through them
resolves; facts located in the shared files are never the service's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from orbitkb.analysis import paths

#: At most this many shared files per service: a vendored tree would cost every service's link.
MAX_FILES = 300


def _candidates(name: str, bases: Iterable[str]) -> list[str]:
    """Files a dotted module name may be under each base folder: ``a/b.py`` or ``a/b/__init__.py``."""
    rel = name.replace(".", "/")
    out: list[str] = []
    for base in bases:
        stem = rel if base in ("", ".") else f"{base}/{rel}"
        out += [stem + ".py", stem + "/__init__.py"]
    return out


def imported_files(
    own: Iterable[str], python_files: set[str], refs_of: Callable[[str], Iterable[str]], root: str
) -> list[str]:
    """The files of ``python_files`` (not in ``own``) that ``own`` imports, directly or through one
    another: a dotted reference ``common.http.client`` names ``common/http.py`` (or the package's
    ``__init__.py``) under the service's folder or any folder above it up to the repository root."""
    mine = set(own)
    bases = [root, *paths.ancestors(root + "/x")[1:]] if root not in ("", ".") else ["."]
    found: list[str] = []
    seen: set[str] = set()
    todo = sorted(mine)
    while todo and len(found) < MAX_FILES:
        path = todo.pop()
        for ref in refs_of(path):
            parts = ref.split(".")
            for k in range(len(parts), 0, -1):  # the longest prefix that is a module wins
                hit = next((c for c in _candidates(".".join(parts[:k]), bases) if c in python_files), None)
                if hit is None:
                    continue
                if hit not in mine and hit not in seen:
                    seen.add(hit)
                    found.append(hit)
                    todo.append(hit)
                break
    return sorted(found)


def refs_in(parsed: Mapping[str, object]) -> list[str]:
    """The dotted names a parsed file imports (its symbol table's references)."""
    sym = parsed.get("sym")
    if not isinstance(sym, dict):
        return []
    return sorted({str(v["q"]) for v in sym.values() if isinstance(v, dict) and v.get("t") == "ref" and v.get("q")})
