"""The unit of work every SQL store hands its modules: ``read()`` (one consistent snapshot) and
``write()`` (one transaction, committed on success, rolled back on any exception)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

from sqlalchemy.engine import Connection


class UnitOfWork(Protocol):
    path: str

    def read(self) -> AbstractContextManager[Connection]: ...

    def write(self) -> AbstractContextManager[Connection]: ...

    def dispose(self) -> None: ...


def first_line(exc: BaseException) -> str:
    """The driver's own message of a database error (the first line), for a one-line error."""
    orig = getattr(exc, "orig", None) or exc
    return str(orig).splitlines()[0] if str(orig) else type(orig).__name__
