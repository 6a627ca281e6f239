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
