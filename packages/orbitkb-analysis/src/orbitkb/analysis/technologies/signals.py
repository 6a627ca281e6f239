"""Technologies read from file names rather than manifest contents: languages from source
suffixes, build tools from lock files and wrappers, frameworks from declared libraries."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from functools import cache

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis import paths
from orbitkb.analysis.technologies.found import Found, is_dev, tables


def languages(owned: Iterable[str]) -> list[Found]:
    """One language per source suffix present; evidence is its first non-test file (else first)."""
    table: dict[str, str] = tables()["languages"]
    first: dict[str, tuple[bool, str]] = {}
    for path in owned:
        language = table.get(ft.suffix_of(paths.basename(path)))
        if language is None:
            continue
        key = (ft.is_test_path(path), path)
        if language not in first or key < first[language]:
            first[language] = key
    return [Found("language", lang, None, path, 1) for lang, (_, path) in sorted(first.items())]


def build_files(folders: Iterable[str], present: Collection[str]) -> list[Found]:
    """Build tools whose lock file or wrapper sits in one of ``folders``."""
    out = []
    for folder in folders:
        for name, tool in sorted(tables()["build_files"].items()):
            path = paths.join(folder, name)
            if path is not None and path in present:
                out.append(Found("build_tool", tool, None, path, 1))
    return out


@cache
def _rules() -> list[tuple[str, list[tuple[bool, str]]]]:
    """(framework, [(is_prefix, text)]) from the table, patterns in their order."""
    return [
        (framework, [(p.endswith("*"), p.rstrip("*")) for p in patterns])
        for framework, patterns in sorted(tables()["frameworks"].items())
    ]


def frameworks(libraries: Iterable[Found]) -> list[Found]:
    """Frameworks named by declared runtime libraries; the version of the most telling one."""
    by_name: dict[str, list[Found]] = {}
    for f in sorted(libraries, key=lambda f: (f.note is not None, f.file, f.line)):
        if not is_dev(f.note):
            by_name.setdefault(re.sub(r"/v\d+$", "", f.name), []).append(f)  # Go major-version suffixes
    out = []
    for framework, patterns in _rules():
        for prefix, text in patterns:
            if prefix:
                hits = [f for name, found in sorted(by_name.items()) if name.startswith(text) for f in found]
            else:
                hits = by_name.get(text, [])
            if hits:
                best = next((h for h in hits if h.version), hits[0])
                out.append(Found("framework", framework, best.version, best.file, best.line, best.note))
                break
    return out
