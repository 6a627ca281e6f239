"""Pagination rules shared by every list answer (use cases, MCP tools, UI endpoints): the default
and cap of a page, the error for a bad limit or offset, and one page of a sequence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from orbitkb.domain.errors import InvalidInput
from orbitkb.domain.views import DEFAULT_LIMIT, MAX_LIMIT, ListPage

T = TypeVar("T")


def check_page(limit: int | None, offset: int | None) -> tuple[int, int]:
    """limit defaults to 50 and is capped at 500 silently; zero/negative limit or negative offset
    is an error (the reference's rule)."""
    if limit is None:
        limit = DEFAULT_LIMIT
    if offset is None:
        offset = 0
    if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
        raise InvalidInput(f"limit must be a positive integer, got {limit!r}")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise InvalidInput(f"offset must be zero or a positive integer, got {offset!r}")
    return min(limit, MAX_LIMIT), offset


def page(items: Sequence[T], limit: int, offset: int) -> tuple[tuple[T, ...], ListPage]:
    chunk = tuple(items[offset : offset + limit])
    return chunk, ListPage(total=len(items), truncated=offset + len(chunk) < len(items))
