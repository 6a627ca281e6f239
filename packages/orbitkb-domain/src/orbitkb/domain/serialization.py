"""cattrs converters between the model and JSON-compatible data (used by exports, the MCP server
and the CLI's --json output). Enums become their string values; tuples become lists."""

from __future__ import annotations

import json
from typing import Any

import cattrs

converter = cattrs.Converter()


def to_data(obj: Any) -> Any:
    """Model object (or list/dict of them) -> plain JSON-compatible data."""
    return converter.unstructure(obj)


def to_json(obj: Any, indent: int | None = None) -> str:
    return json.dumps(to_data(obj), indent=indent, sort_keys=False, ensure_ascii=False)
