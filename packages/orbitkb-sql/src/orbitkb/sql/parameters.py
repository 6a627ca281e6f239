"""Statement parameters made storable before they reach the driver, shared by both stores.

``cleaner(clean)`` returns a ``before_cursor_execute`` listener that applies ``clean`` to every
bound value of a statement (one row, or each row of an executemany)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection

SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(value: str) -> str:
    """A lone surrogate (an undecodable file name read with surrogateescape) cannot be encoded as
    UTF-8 and would abort the whole statement: U+FFFD stands in for it."""
    if value.isascii():
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return SURROGATE.sub("\ufffd", value)
    return value


def cleaner(clean: Callable[[Any], Any]) -> Callable[..., tuple[str, Any]]:
    def listener(
        _conn: Connection, _cursor: Any, statement: str, parameters: Any, _context: Any, executemany: bool
    ) -> tuple[str, Any]:
        rows = parameters if executemany else [parameters]
        cleaned: list[Any] = []
        for row in rows:
            if isinstance(row, dict):
                cleaned.append({k: clean(v) for k, v in row.items()})
            elif isinstance(row, list | tuple):
                cleaned.append(type(row)(clean(v) for v in row))
            else:
                cleaned.append(row)
        return statement, (cleaned if executemany else cleaned[0])

    return listener
