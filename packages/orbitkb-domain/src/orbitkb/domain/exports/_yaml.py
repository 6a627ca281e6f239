"""A minimal YAML emitter for plain data (dicts, lists, strings, numbers, booleans, None), so the
domain needs no YAML library. Strings are emitted double-quoted (JSON escapes are valid YAML);
multi-line strings as literal blocks."""

from __future__ import annotations

import json
from typing import Any


def _scalar(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    return json.dumps(str(v), ensure_ascii=False)


def dump(data: Any, indent: int = 0) -> str:
    return "\n".join(_lines(data, indent)) + "\n"


def _lines(v: Any, indent: int) -> list[str]:
    pad = " " * indent
    out: list[str] = []
    if isinstance(v, dict):
        if not v:
            return [pad + "{}"]
        for k, item in v.items():
            key = _scalar(k) if not str(k).replace("_", "").replace("-", "").replace("/", "").replace(".", "").isalnum() else str(k)
            if isinstance(item, str) and "\n" in item:
                out.append(f"{pad}{key}: |-")
                out.extend(pad + "  " + line if line else "" for line in item.split("\n"))
            elif isinstance(item, (dict, list)) and item:
                out.append(f"{pad}{key}:")
                out.extend(_lines(item, indent + 2))
            else:
                out.append(f"{pad}{key}: {_scalar(item) if not isinstance(item, (dict, list)) else ('{}' if isinstance(item, dict) else '[]')}")
        return out
    if isinstance(v, list):
        if not v:
            return [pad + "[]"]
        for item in v:
            if isinstance(item, (dict, list)) and item:
                sub = _lines(item, indent + 2)
                out.append(pad + "- " + sub[0].lstrip())
                out.extend(sub[1:])
            else:
                out.append(pad + "- " + (_scalar(item) if not isinstance(item, (dict, list)) else "[]"))
        return out
    return [pad + _scalar(v)]
