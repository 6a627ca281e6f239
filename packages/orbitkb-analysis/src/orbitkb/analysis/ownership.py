"""Which service owns each file, and small per-service lookups (README first paragraph)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from orbitkb.analysis import paths
from orbitkb.analysis.layout.model import ServiceUnit
from orbitkb.domain.prose import is_prose


def assign_owners(file_paths: Iterable[str], units: Sequence[ServiceUnit]) -> dict[str, int]:
    """path -> index of the owning unit: the deepest unit folder above it. Files of a split
    folder outside every unit (shared packages) go to the unit named in their path, if exactly one."""
    roots = {u.root: i for i, u in enumerate(units)}
    split: dict[str, list[int]] = {}
    for i, unit in enumerate(units):
        if unit.split_of is not None:
            split.setdefault(unit.split_of, []).append(i)
    owners: dict[str, int] = {}
    by_folder: dict[str, int | None] = {}
    for path in file_paths:
        folder = paths.parent(path)
        if folder not in by_folder:
            by_folder[folder] = next((roots[d] for d in paths.ancestors(path) if d in roots), None)
        owner = by_folder[folder]
        if owner is None and split:
            base = next((d for d in paths.ancestors(path) if d in split), None)
            if base is not None:
                segments = set(path.split("/")[:-1])
                named = [i for i in split[base] if paths.basename(units[i].root) in segments]
                owner = named[0] if len(named) == 1 else None
        if owner is not None:
            owners[path] = owner
    return owners


#: README paragraphs read looking for one that describes the service.
MAX_README_PARAGRAPHS = 12
_README = re.compile(r"^readme(\.(md|markdown|rst|txt))?$", re.I)
_SKIP = re.compile(r"^\s*(#|=+\s*$|-+\s*$|\[!\[|!\[|<(?!/?(p|b|i|em|strong)\b)|\.\. |\*\*\*|---)")


def readme_index(texts: Mapping[str, str]) -> dict[str, list[str]]:
    """folder -> README paths directly in it."""
    out: dict[str, list[str]] = {}
    for path in sorted(texts):
        if _README.match(paths.basename(path)):
            out.setdefault(paths.parent(path), []).append(path)
    return out


def readme_paragraph(
    root: str, texts: Mapping[str, str], index: Mapping[str, list[str]]
) -> tuple[str, str] | None:
    """(path, first prose paragraph verbatim) of the README directly in ``root``: headings, badges,
    images, HTML, rules and fenced code skipped, and paragraphs that are not prose about something
    (build instructions, shell commands, configuration) passed over."""
    for path in index.get(root, []):
        for block in _paragraphs(texts[path]):
            if is_prose("\n".join(block)):
                return path, "\n".join(block).strip()
    return None


def _paragraphs(text: str, limit: int = MAX_README_PARAGRAPHS) -> list[list[str]]:
    out: list[list[str]] = []
    block: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if fence is not None:  # inside ``` or ~~~: code, never a description
            fence = None if stripped.startswith(fence) else fence
            continue
        if stripped.startswith(("```", "~~~")):
            fence, block = stripped[:3], _flush(out, block)
            continue
        if not stripped:
            block = _flush(out, block)
            continue
        if re.fullmatch(r"[=\-~^*#]{3,}", stripped):
            block = []  # a setext/RST underline: the lines above were a title
            continue
        if not block and _SKIP.match(line):
            continue
        block.append(line.rstrip())
    _flush(out, block)
    return out[:limit]


def _flush(out: list[list[str]], block: list[str]) -> list[str]:
    if block:
        out.append(block)
    return []
