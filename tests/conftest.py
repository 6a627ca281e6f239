"""Session fixtures shared by every test folder: the throwaway PostgreSQL cluster."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support import postgres


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[postgres.Cluster]:
    """A PostgreSQL server for the session. Cannot start: skipped with the reason locally, a
    failure when ``CI`` is set (a CI run must never pass without testing the store)."""
    try:
        cluster = postgres.start()
    except postgres.Unavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL could not start in CI: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL unavailable: {exc}")
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def pgvector_cluster() -> Iterator[postgres.Cluster]:
    """A second server, with the pgvector extension (see tests/support/postgres.py); skipped or
    failed like ``postgres_cluster``."""
    try:
        cluster = postgres.start(postgres.pgvector_bin())
    except postgres.Unavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL with pgvector could not start in CI: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL with pgvector unavailable: {exc}")
    yield cluster
    cluster.stop()


@pytest.fixture
def pgvector_url(pgvector_cluster: postgres.Cluster) -> str:
    """A new, empty database on the pgvector server."""
    return pgvector_cluster.create_database()


@pytest.fixture
def postgres_url(postgres_cluster: postgres.Cluster) -> str:
    """A new, empty database on the session's server."""
    return postgres_cluster.create_database()
