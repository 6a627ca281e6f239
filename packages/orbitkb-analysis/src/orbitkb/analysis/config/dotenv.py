"""``.env`` files and compose-style ``${VAR:-default}`` interpolation."""

from __future__ import annotations

import re
from collections.abc import Callable

_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.\-]*)\s*[=:]\s*(.*?)\s*$")


def parse_dotenv(text: str) -> list[tuple[str, str, int]]:
    """(key, value, line) for every assignment; quotes removed, inline `` #`` comments dropped."""
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        match = _LINE.match(raw)
        if not match:
            continue
        key, value = match.groups()
        if value[:1] in ("'", '"') and value.find(value[0], 1) > 0:
            value = value[1 : value.find(value[0], 1)]
        else:
            value = re.split(r"\s+#", value, maxsplit=1)[0]
        out.append((key, value, number))
    return out


_VAR = re.compile(
    r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)"
)


def interpolate(text: str, lookup: Callable[[str], str | None]) -> str:
    """Compose interpolation. Unknown variables without a default are kept as ``${VAR}``."""

    def repl(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name = match.group(1) or match.group(4)
        op, arg = match.group(2), match.group(3) or ""
        value = lookup(name)
        if op in (":-", "-"):
            if value is None or (op == ":-" and value == ""):
                return interpolate(arg, lookup)
            return value
        if op in (":+", "+"):
            return interpolate(arg, lookup) if value else ""
        return value if value is not None else "${" + name + "}"

    return _VAR.sub(repl, text)
