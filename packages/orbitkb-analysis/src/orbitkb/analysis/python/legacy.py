"""Python 2 source read as Python 3: the statements old services still carry (``print x``,
``except E, e:``, ``raise E, "msg"``) rewritten line by line, so a file that fails to parse only
because of them still yields its routes and calls. Line numbers are kept: evidence stays true."""

from __future__ import annotations

import re

_PRINT = re.compile(r"^(\s*)print(?:\s+(?!\()(?:>>\s*[\w.]+\s*,\s*)?(.*?))?\s*,?\s*$")
_EXCEPT = re.compile(r"^(\s*except\s+)(.+?)\s*,\s*([A-Za-z_]\w*)\s*:(.*)$")
_RAISE = re.compile(r"^(\s*raise\s+)([\w.]+)\s*,\s*(.+?)\s*$")


def as_python3(text: str) -> str | None:
    """The text with Python 2 statements rewritten, or None when there was none to rewrite."""
    out: list[str] = []
    changed = False
    for line in text.split("\n"):
        new = _rewrite(line)
        changed |= new != line
        out.append(new)
    return "\n".join(out) if changed else None


def _rewrite(line: str) -> str:
    stripped = line.lstrip()
    if stripped.startswith("print") and not stripped.startswith(("print(", "print (")):
        m = _PRINT.match(line)
        if m and (m.group(2) is None or not m.group(2).startswith(("=", "."))):
            return f"{m.group(1)}print({m.group(2) or ''})"
    if stripped.startswith("except"):
        m = _EXCEPT.match(line)
        if m:
            return f"{m.group(1)}{m.group(2)} as {m.group(3)}:{m.group(4)}"
    if stripped.startswith("raise"):
        m = _RAISE.match(line)
        if m:
            return f"{m.group(1)}{m.group(2)}({m.group(3)})"
    return line
