"""SqlKnowledgeStore: the store roles over any SQLAlchemy database, composing one module per aggregate.

A concrete store (SQLite, PostgreSQL) gives it a unit of work (``read()`` / ``write()``), its
full-text search module and its schema-version reader; everything else — the facts, the runs, the
caches, the embeddings, the snapshot — is the same SQL on both.

Every write is one transaction. ``replace_repository_facts`` deletes the repository's previous
snapshot (services cascade to their components, APIs, calls, messages and entities; resources,
gaps, indexed files and search documents go by repository) and inserts the new one inside a
single transaction, so a crash half-way leaves the previous snapshot whole. Replacement is
plain: what enrichment wrote over the old snapshot (descriptions, LLM-proposed calls) goes with
it, and enrichment re-applies its cached answers after a re-index.

Orders (stable, documented): repositories by name; services by (repository, name, id);
components by (service_id, file_path, start_line, name, id); APIs by (service_id, path, method,
id); calls by (from_service_id, target, id); messages by (service_id, channel, direction, id);
entities by (service_id, name, id); resources by (repository, name, kind, engine); gaps by
(repository, path, kind, reason); indexed files by path; embeddings by (owner_kind, owner_id,
field); index, change-surface and architecture runs and verifications newest first; per-service
index costs by run (newest first), service name and id; feedback in the order it was given.
Search hits by score, best first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

import attrs
import sqlalchemy as sa

from orbitkb.domain.errors import RepositoryNotFound
from orbitkb.domain.model import (
    Api,
    Component,
    Gap,
    Message,
    PersistenceEntity,
    Repository,
    Resource,
    Service,
    ServiceCall,
    ServiceFacts,
    Technology,
)
from orbitkb.domain.ports import AnalysisCache, NearestQuery, Retrieved, SearchDocument, SearchQuery
from orbitkb.domain.runs import (
    ArchitectureRun,
    ChangeHistory,
    ChangeSurfaceRun,
    Embedding,
    Feedback,
    IndexedFile,
    IndexRun,
    SearchHit,
    ServiceIndexCost,
    VectorHit,
    Verification,
)
from orbitkb.domain.system_model import SystemModel
from orbitkb.sql import apis as apis_sql
from orbitkb.sql import architecture as architecture_sql
from orbitkb.sql import caches as caches_sql
from orbitkb.sql import calls as calls_sql
from orbitkb.sql import change_surface as change_surface_sql
from orbitkb.sql import codec
from orbitkb.sql import components as components_sql
from orbitkb.sql import embeddings as embeddings_sql
from orbitkb.sql import entities as entities_sql
from orbitkb.sql import files as files_sql
from orbitkb.sql import history as history_sql
from orbitkb.sql import messages as messages_sql
from orbitkb.sql import repositories as repositories_sql
from orbitkb.sql import resources as resources_sql
from orbitkb.sql import runs as runs_sql
from orbitkb.sql import services as services_sql
from orbitkb.sql import snapshot as snapshot_sql
from orbitkb.sql import technologies as technologies_sql
from orbitkb.sql import vectors as vectors_sql
from orbitkb.sql.rows import EngineRows, RowSource
from orbitkb.sql.unit import UnitOfWork

#: The children of a service, each with the module that stores them.
_CHILDREN: tuple[tuple[Any, str], ...] = (
    (components_sql, "components"),
    (apis_sql, "apis"),
    (calls_sql, "calls"),
    (entities_sql, "entities"),
    (messages_sql, "messages"),
    (technologies_sql, "technologies"),
)
_Owned = TypeVar("_Owned", Resource, Gap, IndexedFile)


class FullTextSearch(Protocol):
    """What a dialect's search module provides (``orbitkb.sqlite.search``: FTS5 bm25;
    ``orbitkb.postgres.search``: weighted tsvector)."""

    def match_expression(self, terms: Sequence[str]) -> str | None: ...

    def search(self, conn: sa.Connection, terms: Sequence[str], limit: int = 20,
               kinds: Sequence[str] | None = None, snippets: bool = True) -> list[SearchHit]: ...

    def insert(self, conn: sa.Connection, repository: str, documents: Sequence[SearchDocument]) -> None: ...

    def delete_repository(self, conn: sa.Connection, repository: str) -> None: ...

    def kinds_present(self, rows: RowSource) -> frozenset[str]: ...


class SqlKnowledgeStore:
    """Every store role over ``db``; ``search`` is the dialect's full-text module and
    ``read_version`` reads the schema version (for ``schema_version()``)."""

    _db: UnitOfWork

    def _setup(self, db: UnitOfWork, search: Any, read_version: Callable[[sa.Connection], int]) -> None:
        self._db = db
        self._search: FullTextSearch = search
        self._read_version = read_version
        self._analysis_cache = caches_sql.SqlAnalysisCache(db)
        self._history = history_sql.HistoryReader()
        self._architecture_runs = architecture_sql.kept_runs()
        self._vectors = vectors_sql.VectorIndex()
        self._unit_rows = vectors_sql.UnitRows()
        self._search_kinds: tuple[str, frozenset[str]] | None = None  # see _kinds_present

    def _lock_repository(self, conn: sa.Connection, name: str) -> None:
        """Serialise writers of one repository (PostgreSQL: an advisory lock); SQLite's single
        writer already does."""

    # -- repositories
    def upsert_repository(self, repo: Repository, *, if_indexed: bool = False) -> None:
        with self._db.write() as conn:
            if if_indexed:
                _require_indexed(conn, repo.name)
            repositories_sql.upsert(conn, repo)
            snapshot_sql.touch(conn)

    def get_repository(self, name: str) -> Repository | None:
        with self._db.read() as conn:
            return repositories_sql.get(conn, name)

    def list_repositories(self) -> list[Repository]:
        with self._db.read() as conn:
            return repositories_sql.list_all(conn)

    def remove_repository(self, name: str) -> bool:
        with self._db.write() as conn:
            self._lock_repository(conn, name)
            if repositories_sql.get(conn, name) is None:
                return False
            self._delete_snapshot(conn, name)
            repositories_sql.delete(conn, name)  # cascades to resources, gaps and indexed files
            snapshot_sql.touch(conn)
            return True

    # -- facts
    def replace_repository_facts(
        self,
        repository: Repository,
        services: Sequence[ServiceFacts],
        resources: Sequence[Resource],
        gaps: Sequence[Gap],
        files: Sequence[IndexedFile],
        documents: Iterable[SearchDocument],
        *,
        if_indexed: bool = False,
    ) -> None:
        name = repository.name
        facts = {f.service.id: f for f in reversed(services)}  # first occurrence of an id wins
        owned = [attrs.evolve(f.service, repository=name) for f in facts.values()]
        with self._db.write() as conn:
            self._lock_repository(conn, name)
            if if_indexed:
                _require_indexed(conn, name)
            repositories_sql.upsert(conn, repository)
            self._delete_snapshot(conn, name)
            services_sql.insert_many(conn, sorted(owned, key=lambda s: s.id))
            for module, attr in _CHILDREN:
                children = [child for f in facts.values() for child in getattr(f, attr)]
                module.insert_many(conn, codec.unique_by_id(children))
            resources_sql.replace(conn, name, [_own(r, name) for r in resources])
            files_sql.replace_gaps(conn, name, [_own(g, name) for g in gaps])
            files_sql.replace_files(conn, name, [_own(f, name) for f in files])
            batch: Sequence[SearchDocument] = []
            for batch in codec.batches(documents, codec.WRITE_BATCH):  # built as they are written
                self._search.insert(conn, name, batch)
            if not batch:  # no documents: the index is still told (it may keep per-repository state)
                self._search.insert(conn, name, batch)
            snapshot_sql.touch(conn)

    def _delete_snapshot(self, conn: sa.Connection, name: str) -> None:
        services_sql.delete_repository(conn, name)  # cascades to everything a service owns
        self._search.delete_repository(conn, name)

    def update_calls(self, calls: Sequence[ServiceCall]) -> None:
        with self._db.write() as conn:
            calls_sql.upsert(conn, calls)
            snapshot_sql.touch(conn)

    def list_services(self, repository: str | None = None) -> list[Service]:
        with self._db.read() as conn:
            return services_sql.list_services(conn, repository)

    def get_service_by_id(self, service_id: str) -> Service | None:
        with self._db.read() as conn:
            return services_sql.get(conn, service_id)

    def list_components(self, service_id: str | None = None) -> list[Component]:
        with self._db.read() as conn:
            return components_sql.list_components(conn, service_id)

    def list_apis(self, service_id: str | None = None) -> list[Api]:
        with self._db.read() as conn:
            return apis_sql.list_apis(conn, service_id)

    def count_apis(self) -> dict[str, int]:
        with self._db.read() as conn:
            return apis_sql.count_by_service(conn)

    def list_calls(
        self, from_service_id: str | None = None, to_service_id: str | None = None
    ) -> list[ServiceCall]:
        with self._db.read() as conn:
            return calls_sql.list_calls(conn, from_service_id, to_service_id)

    def list_calls_to_target(self, targets: Sequence[str]) -> list[ServiceCall]:
        if not targets:
            return []
        with self._db.read() as conn:
            return calls_sql.list_to_target(conn, targets)

    def list_messages(self, service_id: str | None = None, channel: str | None = None) -> list[Message]:
        with self._db.read() as conn:
            return messages_sql.list_messages(conn, service_id, channel)

    def list_technologies(self, service_id: str | None = None) -> list[Technology]:
        with self._db.read() as conn:
            return technologies_sql.list_technologies(conn, service_id)

    def list_entities(self, service_id: str | None = None) -> list[PersistenceEntity]:
        with self._db.read() as conn:
            return entities_sql.list_entities(conn, service_id)

    def list_resources(self, repository: str | None = None) -> list[Resource]:
        with self._db.read() as conn:
            return resources_sql.list_resources(conn, repository)

    def list_gaps(self, repository: str | None = None) -> list[Gap]:
        with self._db.read() as conn:
            return files_sql.list_gaps(conn, repository)

    def list_indexed_files(self, repository: str) -> list[IndexedFile]:
        with self._db.read() as conn:
            return files_sql.list_files(conn, repository)

    # -- enrichment
    def update_services(self, services: Sequence[Service]) -> None:
        with self._db.write() as conn:
            services_sql.update_descriptions(conn, services)
            snapshot_sql.touch(conn)

    def update_apis(self, apis: Sequence[Api]) -> None:
        with self._db.write() as conn:
            apis_sql.update_descriptions(conn, apis)
            snapshot_sql.touch(conn)

    def update_components(self, components: Sequence[Component]) -> None:
        with self._db.write() as conn:
            components_sql.update_summaries(conn, components)
            snapshot_sql.touch(conn)

    def update_entities(self, entities: Sequence[PersistenceEntity]) -> None:
        with self._db.write() as conn:
            entities_sql.update_descriptions(conn, entities)
            snapshot_sql.touch(conn)

    def update_messages(self, messages: Sequence[Message]) -> None:
        with self._db.write() as conn:
            messages_sql.update_descriptions(conn, messages)
            snapshot_sql.touch(conn)

    # -- the whole snapshot
    def snapshot_fingerprint(self) -> str:
        with self._db.read() as conn:
            return snapshot_sql.fingerprint(conn)

    def load_model(self) -> SystemModel:
        with self._db.read() as conn:
            return snapshot_sql.load(conn)

    # -- search
    def search(
        self, terms: Sequence[str], limit: int = 20, kinds: Sequence[str] | None = None
    ) -> list[SearchHit]:
        return self.search_many([SearchQuery(tuple(terms), limit, tuple(kinds) if kinds is not None else None)])[0]

    def search_many(self, queries: Sequence[SearchQuery]) -> list[list[SearchHit]]:
        """Asked several times a change surface, some for a kind the snapshot has none of (its
        history before any commit was read): those are answered empty without reading the index."""
        out: list[list[SearchHit]] = [[] for _ in queries]
        todo = self._searchable(queries)
        if todo:
            with self._db.read() as conn:
                self._search_into(conn, todo, out)
        return out

    def retrieve(self, queries: Sequence[SearchQuery], nearest: NearestQuery | None = None) -> Retrieved:
        """The keyword batch and the vector query in one transaction."""
        out: list[list[SearchHit]] = [[] for _ in queries]
        todo = self._searchable(queries)
        found: list[VectorHit] = []
        if todo or nearest is not None:
            with self._db.read() as conn:
                self._search_into(conn, todo, out)
                if nearest is not None:
                    found = self._nearest(conn, nearest.model_id, nearest.vector, nearest.limit, nearest.floor,
                                          nearest.kinds)
        return Retrieved(tuple(tuple(hits) for hits in out), tuple(found))

    def _searchable(self, queries: Sequence[SearchQuery]) -> list[tuple[int, SearchQuery]]:
        return [(i, q) for i, q in enumerate(queries) if self._search.match_expression(q.terms) is not None]

    def _search_into(self, conn: sa.Connection, todo: Sequence[tuple[int, SearchQuery]],
                     out: list[list[SearchHit]]) -> None:
        if not todo:
            return
        present = self._kinds_present(conn) if any(q.kinds is not None for _, q in todo) else frozenset()
        for i, q in todo:
            if q.kinds is None or not present.isdisjoint(q.kinds):
                out[i] = self._search.search(conn, q.terms, q.limit, q.kinds, q.snippets)

    def _kinds_present(self, conn: sa.Connection) -> frozenset[str]:
        """The kinds with search documents, read once per snapshot: search documents change only
        with the facts, which move the snapshot token (read here in the same transaction)."""
        token = snapshot_sql.fingerprint(conn)
        held = self._search_kinds
        if held is None or held[0] != token:
            held = self._search_kinds = (token, self._search.kinds_present(EngineRows(conn)))
        return held[1]

    # -- caches
    def analysis_cache(self) -> AnalysisCache:
        return self._analysis_cache

    def get_llm_cache(self, key: str) -> str | None:
        with self._db.read() as conn:
            return caches_sql.get_llm(conn, key)

    def put_llm_cache(self, key: str, value: str) -> None:
        with self._db.write() as conn:
            caches_sql.put_llm(conn, key, value)

    # -- runs
    def add_index_run(self, run: IndexRun) -> int:
        with self._db.write() as conn:
            return runs_sql.add(conn, run)

    def update_index_run(self, run: IndexRun) -> None:
        with self._db.write() as conn:
            runs_sql.update(conn, run)

    def list_index_runs(self, repository: str | None = None, limit: int = 20) -> list[IndexRun]:
        with self._db.read() as conn:
            return runs_sql.list_runs(conn, repository, limit)

    def latest_index_statuses(self) -> dict[str, str]:
        with self._db.read() as conn:
            return runs_sql.latest_statuses(conn)

    def add_index_costs(self, costs: Sequence[ServiceIndexCost]) -> None:
        if not costs:
            return
        with self._db.write() as conn:
            runs_sql.add_costs(conn, costs)
            snapshot_sql.touch(conn)  # describe_service shows them: a kept model must see them

    def list_index_costs(self, repository: str | None = None,
                         service_id: str | None = None) -> list[ServiceIndexCost]:
        with self._db.read() as conn:
            return runs_sql.list_costs(conn, repository, service_id)

    def add_change_surface_run(self, run: ChangeSurfaceRun) -> int:
        with self._db.write() as conn:
            return change_surface_sql.add_run(conn, run)

    def get_change_surface_run(self, run_id: int) -> ChangeSurfaceRun | None:
        with self._db.read() as conn:
            return change_surface_sql.get_run(conn, run_id)

    def list_change_surface_runs(self, limit: int = 100) -> list[ChangeSurfaceRun]:
        with self._db.read() as conn:
            return change_surface_sql.list_runs(conn, limit)

    def add_feedback(self, feedback: Feedback) -> None:
        with self._db.write() as conn:
            change_surface_sql.add_feedback(conn, feedback)

    def list_feedback(self, service: str | None = None) -> list[Feedback]:
        with self._db.read() as conn:
            return change_surface_sql.list_feedback(conn, service)

    def add_verification(self, verification: Verification) -> int:
        with self._db.write() as conn:
            return change_surface_sql.add_verification(conn, verification)

    def list_verifications(self, run_id: int | None = None) -> list[Verification]:
        with self._db.read() as conn:
            return change_surface_sql.list_verifications(conn, run_id)

    def change_history(self, limit: int = 500, model_id: str | None = None,
                       task_vector: Sequence[float] | None = None) -> ChangeHistory:
        with self._db.read() as conn:
            rows = EngineRows(conn)
            if model_id is None or task_vector is None:
                return self._history.read(rows, limit, model_id)
            history = self._history.read(rows, limit, None)
            return history.with_similarities(self._unit_rows.similarities(
                rows, model_id, task_vector, vectors_sql.HISTORY_KIND, history.run_keys()))

    def add_architecture_run(self, run: ArchitectureRun) -> int:
        with self._db.write() as conn:
            return architecture_sql.add(conn, run)

    def list_architecture_runs(self, limit: int = 2) -> list[ArchitectureRun]:
        with self._db.read() as conn:
            return self._architecture_runs.newest(EngineRows(conn), limit)

    # -- embeddings
    def list_embeddings(self, model_id: str, owner_kind: str | None = None) -> list[Embedding]:
        with self._db.read() as conn:
            return embeddings_sql.list_embeddings(conn, model_id, owner_kind)

    def put_embeddings(self, embeddings: Sequence[Embedding]) -> None:
        with self._db.write() as conn:
            embeddings_sql.put(conn, embeddings)

    def count_embeddings(self, model_id: str) -> int:
        with self._db.read() as conn:
            return self._vectors.count(conn, model_id)

    def nearest_embeddings(
        self, model_id: str, vector: Sequence[float], limit: int, floor: float = -1.0,
        kinds: Sequence[str] | None = None,
    ) -> list[VectorHit]:
        with self._db.read() as conn:
            return self._nearest(conn, model_id, vector, limit, floor, kinds)

    def _nearest(self, conn: sa.Connection, model_id: str, vector: Sequence[float], limit: int, floor: float,
                 kinds: Sequence[str] | None) -> list[VectorHit]:
        """Nearest vectors inside a read already open (a store with its own vector index overrides it)."""
        return self._vectors.nearest(conn, model_id, vector, limit, floor, kinds)

    def similarities(self, model_id: str, vector: Sequence[float], owner_kind: str,
                     owner_ids: Sequence[str]) -> dict[str, float]:
        with self._db.read() as conn:
            return self._unit_rows.similarities(EngineRows(conn), model_id, vector, owner_kind, owner_ids)

    def delete_embeddings(self, owner_ids: Sequence[str]) -> None:
        with self._db.write() as conn:
            embeddings_sql.delete(conn, owner_ids)

    # -- meta
    def schema_version(self) -> int:
        with self._db.read() as conn:
            return self._read_version(conn)

    def close(self) -> None:
        self._db.dispose()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def _require_indexed(conn: sa.Connection, name: str) -> None:
    if repositories_sql.get(conn, name) is None:
        raise RepositoryNotFound(f"repository {name!r} is no longer indexed (it was removed)",
                                 hint=f"index it again with orbitkb index PATH --repository-name {name}")


def _own(obj: _Owned, repository: str) -> _Owned:
    """``obj`` filed under the snapshot's repository, whatever the caller wrote in it."""
    return obj if obj.repository == repository else attrs.evolve(obj, repository=repository)
