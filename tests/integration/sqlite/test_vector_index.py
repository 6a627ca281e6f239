"""The SQLite store's vector matrix: built once, reused, rebuilt after any process writes vectors."""

from __future__ import annotations

import subprocess
import sys

from orbitkb.domain.runs import Embedding
from orbitkb.sql import vectors as vectors_sql
from orbitkb.sqlite import SqliteKnowledgeStore

MODEL = "mini-test"


def emb(owner: str, vector: tuple[float, ...]) -> Embedding:
    return Embedding("service", owner, "name", f"h-{owner}-{vector}", MODEL, vector)


def test_the_matrix_is_loaded_once_and_reloaded_after_a_write_from_another_store(tmp_path, monkeypatch):
    path = str(tmp_path / "kb.db")
    loads: list[str] = []
    real = vectors_sql._load

    def counting(conn, model_id, token):
        loads.append(model_id)
        return real(conn, model_id, token)

    monkeypatch.setattr(vectors_sql, "_load", counting)
    server = SqliteKnowledgeStore(path)
    writer = SqliteKnowledgeStore(path)  # another process's store, on the same file
    writer.put_embeddings([emb("svc:a", (1.0, 0.0)), emb("svc:b", (0.0, 1.0))])
    for _ in range(5):
        assert [h.owner_id for h in server.nearest_embeddings(MODEL, (1.0, 0.2), 1)] == ["svc:a"]
    assert loads == [MODEL]
    writer.put_embeddings([emb("svc:b", (1.0, 0.3))])
    assert [h.owner_id for h in server.nearest_embeddings(MODEL, (1.0, 0.3), 1)] == ["svc:b"]
    writer.delete_embeddings(["svc:b"])
    assert [h.owner_id for h in server.nearest_embeddings(MODEL, (1.0, 0.3), 1)] == ["svc:a"]
    writer.delete_embeddings([])  # nothing deleted: nothing to reload
    server.nearest_embeddings(MODEL, (1.0, 0.3), 1)
    assert len(loads) == 3
    server.close()
    writer.close()


def test_opening_a_store_and_reading_facts_does_not_import_numpy(tmp_path):
    path = tmp_path / "kb.db"
    SqliteKnowledgeStore(str(path)).close()
    code = ("import sys\nfrom orbitkb.sqlite import SqliteKnowledgeStore\n"
            f"s = SqliteKnowledgeStore({str(path)!r}, read_only=True)\n"
            "s.list_services(); s.count_apis(); s.count_embeddings('m')\n"
            "print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
