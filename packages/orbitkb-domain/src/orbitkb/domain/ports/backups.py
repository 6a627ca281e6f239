"""Backup port: consistent copies of the whole knowledge base, taken and restored live."""

from __future__ import annotations

from typing import Protocol

from attrs import frozen


@frozen
class BackupReport:
    """One copy made or restored: the file, its schema version and what it holds."""

    path: str
    bytes: int
    schema_version: int
    repositories: tuple[str, ...]
    #: restore only: the copy of the database as it was before (nothing is lost), if there was one
    previous_copy: str | None = None


class KnowledgeBackups(Protocol):
    """Consistent copies of the whole knowledge base, taken and restored while others use it."""

    def backup(self, destination: str, overwrite: bool = False) -> BackupReport:
        """Copy the live database to ``destination`` (a consistent snapshot, even mid-write).
        An existing file is refused (RepositoryConflict) unless ``overwrite``."""
        ...

    def restore(self, source: str) -> BackupReport:
        """Replace the live database with ``source`` after checking that it is an orbitkb database
        this version understands (else StoreError / SchemaTooNew and nothing changes); the previous
        database is kept as a copy first."""
        ...
