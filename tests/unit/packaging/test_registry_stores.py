"""One list of store URL schemes: the PostgreSQL adapter's ``orbitkb.postgres.urls`` names the
``--db`` values it opens; the settings decide file or server from it, without loading the store."""

from __future__ import annotations

import subprocess
import sys

import pytest

from orbitkb.bootstrap.settings import Settings
from orbitkb.postgres import is_postgres_url, urls


@pytest.mark.parametrize("db", ["postgresql://u:p@h/db", "postgres://h/db", "postgresql+psycopg://h:5433/db"])
def test_a_url_of_the_adapters_schemes_is_a_server(db: str) -> None:
    assert is_postgres_url(db) and Settings(db_path=db).db_is_url


@pytest.mark.parametrize("db", ["~/kb.db", ":memory:", "postgresql.db", "mysql://h/db", "./postgres://x"])
def test_anything_else_is_a_file(db: str) -> None:
    assert not is_postgres_url(db) and not Settings(db_path=db).db_is_url


def test_a_new_scheme_of_the_adapter_is_one_the_settings_know(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(urls, "SCHEMES", (*urls.SCHEMES, "postgresql+pg8000://"))
    assert Settings(db_path="postgresql+pg8000://h/db").db_is_url


def test_reading_the_schemes_loads_no_store() -> None:
    code = ("import sys\nfrom orbitkb.bootstrap.settings import Settings\n"
            "Settings(db_path='postgres://h/db').db_is_url\n"
            "print([m for m in ('sqlalchemy', 'psycopg', 'orbitkb.postgres.store') if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stderr
