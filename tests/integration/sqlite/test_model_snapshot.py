"""The SystemModel kept by a long-lived process follows the database: writes through another
connection, and a restore from a backup, give a new fingerprint and a reload; reads do not."""

from __future__ import annotations

from orbitkb.domain.model_cache import CachedModelReader
from orbitkb.sqlite import SqliteKnowledgeStore
from orbitkb.sqlite.backup import SqliteBackups


def test_the_kept_model_is_reused_until_another_connection_writes(tmp_path, make_snapshot):
    path = str(tmp_path / "kb.db")
    writer = SqliteKnowledgeStore(path)
    writer.replace_repository_facts(**make_snapshot("shop", 3))
    server = SqliteKnowledgeStore(path, read_only=True)
    models = CachedModelReader(server)
    first = models.load_model()
    assert models.load_model() is first and models.loads == 1
    writer.replace_repository_facts(**make_snapshot("crm", 2))
    second = models.load_model()
    assert second is not first and models.loads == 2
    assert sorted({s.repository for s in second.services}) == ["crm", "shop"]
    writer.close()
    server.close()


def test_a_restore_gives_a_new_fingerprint_even_to_an_identical_copy(tmp_path, make_snapshot):
    path = str(tmp_path / "kb.db")
    store = SqliteKnowledgeStore(path)
    store.replace_repository_facts(**make_snapshot("shop", 3))
    backups = SqliteBackups(path)
    backups.backup(str(tmp_path / "copy.db"))
    models = CachedModelReader(store)
    before = models.load_model()
    store.replace_repository_facts(**make_snapshot("shop", 1, tag="v2"))
    assert len(models.load_model().services) == 1
    backups.restore(str(tmp_path / "copy.db"))
    restored = models.load_model()
    assert restored.fingerprint not in (before.fingerprint,)
    assert len(restored.services) == 3 and models.loads == 3
    store.close()


def test_the_change_history_read_after_a_restore_is_the_restored_one(tmp_path):
    from orbitkb.domain.runs import ChangeSurfaceRun, Embedding

    path = str(tmp_path / "kb.db")
    store = SqliteKnowledgeStore(path)
    store.add_change_surface_run(ChangeSurfaceRun(None, "first task", "2024-01-01T00:00:00Z"))
    store.put_embeddings([Embedding("run", "run:1", "task", "h", "m", (1.0, 0.0))])
    SqliteBackups(path).backup(str(tmp_path / "copy.db"))
    other = SqliteKnowledgeStore(str(tmp_path / "other.db"))
    other.add_change_surface_run(ChangeSurfaceRun(None, "another task", "2024-02-01T00:00:00Z"))
    other.put_embeddings([Embedding("run", "run:1", "task", "h", "m", (0.0, 1.0))])
    other.close()
    assert [r.task for r in store.change_history(model_id="m").runs] == ["first task"]
    assert store.change_history(model_id="m") == store.change_history(model_id="m")  # decoded once, same answer
    SqliteBackups(path).restore(str(tmp_path / "other.db"))
    history = store.change_history(model_id="m")
    assert [r.task for r in history.runs] == ["another task"]  # same run id, another row
    assert history.task_vectors == {"run:1": (0.0, 1.0)}
    store.close()
