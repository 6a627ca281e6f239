"""Code excerpts for prompts: a handler's own lines plus one hop of local functions it calls.

Reading is best-effort: a missing, binary or undecodable file gives an empty excerpt, never an
error, and the unit is described from its facts alone.
"""

from __future__ import annotations

import re

from attrs import frozen

from orbitkb.domain.ports import SourceTree

#: A handler recorded on one line (a decorator, a route registration) is widened to this many.
MIN_SPAN = 25
MAX_EXCERPT_LINES = 220
MAX_HELPERS = 3
MAX_LINE_CHARS = 400
MAX_HELPER_LINES = 40
#: Files larger than this are not read for excerpts (generated bundles, vendored code).
MAX_FILE_BYTES = 2_000_000

_MODIFIERS = (
    r"^\s*(?:(?:public|private|protected|internal|static|final|suspend|override|open|async|"
    r"synchronized|virtual|abstract)\s+)*"
)
# Statement keywords that can precede a call and look like a return type.
_NOT_A_TYPE = (
    r"(?!(?:return|await|yield|throw|raise|new|else|elif|if|while|not|and|or|assert|del|in|case|"
    r"when|go|defer|echo|print)\b)"
)
_CALLED = re.compile(r"(?<![\w.$])(?:self\.|this\.|cls\.)?([A-Za-z_$][\w$]*)\s*\(")
# One row per definition style; {name} is the called identifier.
_DEFINITION_PATTERNS = (
    r"^\s*(?:async\s+)?def\s+{name}\s*\(",  # Python
    r"^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*{name}\s*\(",  # JS/TS function
    r"^\s*(?:export\s+)?(?:const|let|var)\s+{name}\s*=\s*(?:async\s*)?(?:\([^)]*\)|[\w$]+)\s*=>",  # arrow
    r"^\s*func\s+(?:\([^)]*\)\s*)?{name}\s*\(",  # Go
    _MODIFIERS + r"fun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?{name}\s*\(",  # Kotlin
    # Java / C#: a return type before the name, no statement keyword, no ';' or '=' after.
    _MODIFIERS + _NOT_A_TYPE + r"[\w<>\[\],.?]+\s+{name}\s*\([^;]*$",
    _MODIFIERS + r"{name}\s*\([^;]*\)\s*(?::\s*[^{;=]+)?\{\s*$",  # TS/JS class method
)
_NOT_HELPERS = frozenset(
    "if for while switch return catch function typeof new super print len str int dict list set "
    "tuple isinstance range require await yield assert sizeof make append panic".split()
)


@frozen
class Excerpt:
    text: str
    start_line: int
    end_line: int
    helpers: tuple[tuple[str, str], ...] = ()  # (label, text)


def read_lines(tree: SourceTree | None, path: str) -> list[str] | None:
    if tree is None or not path:
        return None
    try:
        data = tree.read_bytes(path)
    except (OSError, KeyError, ValueError):
        return None
    if len(data) > MAX_FILE_BYTES or b"\x00" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace").splitlines()


def excerpt(
    tree: SourceTree | None, path: str, start_line: int, end_line: int, handler: str | None = None
) -> Excerpt | None:
    """The span's lines, numbered. A span of one or two lines is a route registration or a
    decorator: the named handler's definition is appended when it lives elsewhere in the file,
    otherwise the span is widened to ``MIN_SPAN`` lines."""
    lines = read_lines(tree, path)
    if not lines:
        return None
    start = max(1, min(start_line, len(lines)))
    end = max(start, min(end_line, len(lines)))
    short = end - start < 3
    if short and handler:
        found = _find_definition(lines, handler.rsplit(".", 1)[-1], start, end)
        if found is not None:
            first, last = found[0], _block_end(lines, found[0], MAX_EXCERPT_LINES)
            body = lines[first - 1 : last]
            text = _numbered(lines, start, end) + "\n...\n" + _numbered(lines, first, last)
            return Excerpt(text, start, end, _helpers(lines, body, path, first, last))
    if short:
        end = min(len(lines), start + MIN_SPAN - 1)
    end = min(end, start + MAX_EXCERPT_LINES - 1)
    return Excerpt(
        _numbered(lines, start, end), start, end, _helpers(lines, lines[start - 1 : end], path, start, end)
    )


def _numbered(lines: list[str], first: int, last: int) -> str:
    return "\n".join(f"{first + i}: {_cut(line)}" for i, line in enumerate(lines[first - 1 : last]))


def _cut(line: str) -> str:
    """One minified or data line must not crowd the rest of the handler out of its section."""
    if len(line) <= MAX_LINE_CHARS:
        return line
    return f"{line[:MAX_LINE_CHARS]} [... {len(line) - MAX_LINE_CHARS} more characters on this line]"


def _helpers(
    lines: list[str], body: list[str], path: str, start: int, end: int
) -> tuple[tuple[str, str], ...]:
    called: dict[str, None] = {}
    for line in body[1:]:  # the first line is the handler's own signature/route
        for name in _CALLED.findall(line):
            if name not in _NOT_HELPERS and len(name) > 2:
                called.setdefault(name, None)
    out: list[tuple[str, str]] = []
    for name in called:
        found = _find_definition(lines, name, start, end)
        if found is not None:
            first, last = found
            out.append((f"{path}:{first}-{last} {name}", _numbered(lines, first, last)))
            if len(out) == MAX_HELPERS:
                break
    return tuple(out)


def _find_definition(lines: list[str], name: str, start: int, end: int) -> tuple[int, int] | None:
    patterns = [re.compile(p.replace("{name}", re.escape(name))) for p in _DEFINITION_PATTERNS]
    for idx, line in enumerate(lines, start=1):
        if start <= idx <= end:
            continue  # defined inside the excerpt already
        if any(p.search(line) for p in patterns):
            return idx, _block_end(lines, idx)
    return None


def _block_end(lines: list[str], first: int, max_lines: int = MAX_HELPER_LINES) -> int:
    """Last line of the block opened at ``first``: braces when it has them, indentation otherwise."""
    limit = min(len(lines), first + max_lines - 1)
    opener = lines[first - 1].rstrip()
    # A Python def ends with ':'; a C-like one opens its brace on that line or the next (Allman).
    head = "\n".join(lines[first - 1 : min(limit, first + 1)])
    if not opener.endswith(":") and "{" in head:
        depth = 0
        for idx in range(first, limit + 1):
            depth += lines[idx - 1].count("{") - lines[idx - 1].count("}")
            if depth <= 0 and "}" in lines[idx - 1]:
                return idx
        return limit
    indent = len(lines[first - 1]) - len(lines[first - 1].lstrip())
    last = first
    for idx in range(first + 1, limit + 1):
        line = lines[idx - 1]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        if line.strip():
            last = idx
    return last
