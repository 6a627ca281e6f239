"""Which files are API description documents, and loading them with line numbers.

A document is recognised by its top-level version key (``openapi``, ``swagger``, ``asyncapi``),
never by its name; the cheap text test keeps ordinary YAML/JSON from being parsed twice. Documents
under folders that hold other parties' contracts (client code generation, mocks, examples) are
not the service's own.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from orbitkb.analysis.yamlines import LDict, LList, load_all

_SUFFIXES = (".yaml", ".yml", ".json")
_KEY = re.compile(r"""^\s*["']?(openapi|swagger|asyncapi)["']?\s*:""", re.M)
#: folder names whose documents describe someone else's API (a client generated from it, a mock)
FOREIGN_DIRS = frozenset(
    {"client", "clients", "external", "thirdparty", "third_party", "third-party", "mocks", "mock",
     "examples", "example", "fixtures", "node_modules", "vendor"}
)  # fmt: skip


def kind_of(path: str, text: str) -> str | None:
    """``openapi`` | ``asyncapi`` for a document's text (cheap: the key near the top), else None."""
    if not path.lower().endswith(_SUFFIXES):
        return None
    if any(part.lower() in FOREIGN_DIRS for part in path.split("/")[:-1]):
        return None
    match = _KEY.search(text[:4000])
    if match is None:
        return None
    return "asyncapi" if match.group(1) == "asyncapi" else "openapi"


def load(text: str) -> tuple[LDict | None, str | None]:
    """(the document's root mapping, error): JSON is read as YAML, so both keep their lines; JSON
    that YAML refuses (tabs for indentation) is read as JSON, every line then being 1."""
    try:
        docs = load_all(text)
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        try:
            docs = [_lined(json.loads(text))]
        except (ValueError, RecursionError):
            return None, f"API document could not be parsed: {str(exc).splitlines()[0][:200] or exc}"
    root = docs[0] if docs else None
    return (root, None) if isinstance(root, LDict) else (None, "API document is not a mapping")


def _lined(value: Any) -> Any:
    if isinstance(value, dict):
        out = LDict((str(k), _lined(v)) for k, v in value.items())
        out.lines = {}
        return out
    if isinstance(value, list):
        seq = LList(_lined(v) for v in value)
        seq.lines = []
        return seq
    return value


def text_of(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None
