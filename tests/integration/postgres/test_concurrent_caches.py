"""Two indexers of different repositories caching the same file content at once: both succeed
(the analysis and LLM caches are keyed by content, shared by every repository of the database)."""

from __future__ import annotations

import threading
import time

import sqlalchemy as sa

from orbitkb.postgres import PostgresKnowledgeStore
from orbitkb.sql.caches import pack


def _hold_an_insert(url: str, key: str, value: bytes | str, table: str) -> tuple[sa.Connection, sa.Engine]:
    """Another indexer's transaction that inserted ``key`` and has not committed yet."""
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    conn = engine.connect()
    conn.begin()
    conn.execute(sa.text(f"INSERT INTO {table} (key, value) VALUES (:k, :v)"), {"k": key, "v": value})
    return conn, engine


def _while_held(url: str, key: str, value: bytes | str, table: str, write: object) -> list[BaseException]:
    conn, engine = _hold_an_insert(url, key, value, table)
    errors: list[BaseException] = []

    def second() -> None:
        try:
            write()  # type: ignore[operator]
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    thread = threading.Thread(target=second)
    thread.start()
    time.sleep(0.5)  # the second writer now waits on the first's uncommitted key
    conn.commit()
    thread.join(30)
    conn.close()
    engine.dispose()
    return errors


def test_the_same_analysis_cache_key_written_by_two_indexers_at_once(postgres_url):
    with PostgresKnowledgeStore(postgres_url) as store:
        cache = store.analysis_cache()
        errors = _while_held(postgres_url, "sha-shared:v1", pack('{"first": 1}'), "analysis_cache",
                             lambda: cache.put_many({"sha-shared:v1": '{"second": 2}', "sha-own:v1": "{}"}))
        assert errors == []
        assert cache.get_many(["sha-shared:v1", "sha-own:v1"]) == {"sha-shared:v1": '{"second": 2}',
                                                                   "sha-own:v1": "{}"}


def test_the_same_llm_cache_key_written_by_two_indexers_at_once(postgres_url):
    with PostgresKnowledgeStore(postgres_url) as store:
        errors = _while_held(postgres_url, "prompt-hash", "first", "llm_cache",
                             lambda: store.put_llm_cache("prompt-hash", "second"))
        assert errors == []
        assert store.get_llm_cache("prompt-hash") == "second"
