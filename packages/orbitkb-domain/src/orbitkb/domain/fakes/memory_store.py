"""InMemoryKnowledgeStore: the KnowledgeStore port in plain Python, for tests and users' scripts.

It behaves like the SQLite store (the contract suite in tests/contract runs against both): the
same orders, the same replacement semantics, vectors rounded to float32, free-form JSON detail
normalized as JSON would, and a search that mimics FTS5 — word tokens folded for case and
accents, prefix match on a term's last word, OR across terms, ranked by bm25 with the column
weights name 10 / keywords 4 / text 1.
"""

from __future__ import annotations

import json
import math
import re
import threading
import unicodedata
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from orbitkb.domain.errors import RepositoryNotFound, RunNotFound, StoreError
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
from orbitkb.domain.ports import AnalysisCache, SearchDocument, SearchQuery
from orbitkb.domain.retrieval import rank_nearest
from orbitkb.domain.runs import (
    ArchitectureRun,
    ChangeHistory,
    ChangeSurfaceRun,
    Embedding,
    Feedback,
    IndexedFile,
    IndexRun,
    SearchHit,
    VectorHit,
    Verification,
)
from orbitkb.domain.system_model import SystemModel

T = TypeVar("T")
SCHEMA_VERSION = 5  # the SQLite store's latest schema: the fake answers like a fresh database
WEIGHTS: tuple[tuple[str, float], ...] = (("name_text", 10.0), ("keywords", 4.0), ("text", 1.0))
_TOKEN = re.compile(r"[^\W_]+")
_K1, _B = 1.2, 0.75  # FTS5's bm25 constants


def tokens(text: str) -> list[str]:
    """Word tokens as FTS5's unicode61 tokenizer (remove_diacritics 2) produces them."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return _TOKEN.findall("".join(ch for ch in folded if not unicodedata.combining(ch)))


def _phrases(terms: Sequence[str]) -> list[tuple[str, ...]]:
    seen: dict[tuple[str, ...], None] = {}
    for term in terms:
        phrase = tuple(tokens(str(term)[:100]))
        if phrase:
            seen.setdefault(phrase, None)
    return list(seen)[:32]


def _count(column: Sequence[str], phrase: tuple[str, ...]) -> int:
    """Occurrences of ``phrase`` in ``column``, the last word matched as a prefix."""
    n, head = len(phrase), list(phrase[:-1])
    return sum(
        1
        for i in range(len(column) - n + 1)
        if column[i : i + n - 1] == head and column[i + n - 1].startswith(phrase[-1])
    )


def _float32(vector: Iterable[float]) -> tuple[float, ...]:
    return tuple(array("f", vector))


def _by(*keys: str) -> Callable[[Any], tuple[Any, ...]]:
    return lambda obj: tuple(getattr(obj, k) for k in keys)


class _MemoryAnalysisCache:
    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def get_many(self, keys: Sequence[str]) -> dict[str, str]:
        return {k: self.items[k] for k in keys if k in self.items}

    def put_many(self, items: Mapping[str, str]) -> None:
        self.items.update(items)


class InMemoryKnowledgeStore:
    """A KnowledgeStore held in dictionaries. Thread-safe (one lock); nothing touches the disk."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._repos: dict[str, Repository] = {}
        self._services: dict[str, Service] = {}
        self._children: dict[str, dict[str, Any]] = {k: {} for k in _CHILD_KINDS}
        self._resources: dict[str, list[Resource]] = {}
        self._gaps: dict[str, list[Gap]] = {}
        self._files: dict[str, dict[str, IndexedFile]] = {}
        self._docs: dict[str, list[SearchDocument]] = {}
        self._cache = _MemoryAnalysisCache()
        self._llm_cache: dict[str, str] = {}
        self._index_runs: dict[int, IndexRun] = {}
        self._surface_runs: dict[int, ChangeSurfaceRun] = {}
        self._feedback: list[Feedback] = []
        self._verifications: dict[int, Verification] = {}
        self._architecture: dict[int, ArchitectureRun] = {}
        self._embeddings: dict[tuple[str, str, str, str], Embedding] = {}
        self._next_id = {"index": 1, "surface": 1, "verification": 1, "architecture": 1}
        self._snapshot = 0  # bumped by every write of facts or search documents

    def _changed(self) -> None:
        """The snapshot changed (the caller holds the lock): a new fingerprint."""
        self._snapshot += 1

    def _new_id(self, counter: str) -> int:
        value = self._next_id[counter]
        self._next_id[counter] = value + 1
        return value

    # -- repositories
    def upsert_repository(self, repo: Repository, *, if_indexed: bool = False) -> None:
        with self._lock:
            if if_indexed:
                self._require_indexed(repo.name)
            self._repos[repo.name] = repo
            self._changed()

    def _require_indexed(self, name: str) -> None:
        if name not in self._repos:
            raise RepositoryNotFound(f"repository {name!r} is no longer indexed (it was removed)",
                                     hint=f"index it again with orbitkb index PATH --repository-name {name}")

    def _drop_services_of(self, repository: str) -> None:
        """Forget the repository's services and every child they own (the caller holds the lock)."""
        gone = {sid for sid, s in self._services.items() if s.repository == repository}
        for sid in gone:
            del self._services[sid]
        for kind, owner in _CHILD_KINDS.items():
            table = self._children[kind]
            for cid in [cid for cid, c in table.items() if getattr(c, owner) in gone]:
                del table[cid]

    def remove_repository(self, name: str) -> bool:
        with self._lock:
            if name not in self._repos:
                return False
            del self._repos[name]
            self._drop_services_of(name)
            for held in (self._resources, self._gaps, self._files, self._docs):
                held.pop(name, None)
            self._changed()
            return True

    def get_repository(self, name: str) -> Repository | None:
        return self._repos.get(name)

    def list_repositories(self) -> list[Repository]:
        with self._lock:
            return sorted(self._repos.values(), key=_by("name"))

    # -- facts
    def replace_repository_facts(
        self,
        repository: Repository,
        services: Sequence[ServiceFacts],
        resources: Sequence[Resource],
        gaps: Sequence[Gap],
        files: Sequence[IndexedFile],
        documents: Sequence[SearchDocument],
        *,
        if_indexed: bool = False,
    ) -> None:
        name = repository.name
        facts = {f.service.id: f for f in reversed(services)}  # the first occurrence of an id wins
        with self._lock:
            if if_indexed:
                self._require_indexed(name)
            for sid in facts:
                other = self._services.get(sid)
                if other is not None and other.repository != name:
                    raise StoreError(f"service id {sid} already belongs to repository {other.repository}")
            mine = set(facts) | {sid for sid, s in self._services.items() if s.repository == name}
            children: dict[str, dict[str, Any]] = {kind: {} for kind in _CHILD_KINDS}
            for f in facts.values():
                for kind, owner in _CHILD_KINDS.items():
                    for child in getattr(f, kind):
                        held = self._children[kind].get(child.id)
                        if held is not None and getattr(held, owner) not in mine:
                            raise StoreError(f"{kind[:-1]} id {child.id} already belongs to another service")
                        children[kind].setdefault(child.id, child)
            # Everything is computed above; below only assignments, so a failure leaves no half.
            self._repos[name] = repository
            self._drop_services_of(name)
            for kind in _CHILD_KINDS:
                self._children[kind].update(children[kind])
            for f in facts.values():
                self._services[f.service.id] = attrs.evolve(f.service, repository=name)
            self._resources[name] = [_own(r, name) for r in resources]
            self._gaps[name] = [_own(g, name) for g in gaps]
            self._files[name] = {}
            for file in files:
                self._files[name].setdefault(file.path, _own(file, name))
            self._docs[name] = list(documents)
            self._changed()

    def update_calls(self, calls: Sequence[ServiceCall]) -> None:
        latest = {c.id: c for c in calls}  # a later duplicate id wins, as sequential writes would
        with self._lock:
            table = self._children["calls"]
            for call in latest.values():
                if call.id not in table and call.from_service_id not in self._services:
                    raise StoreError(
                        f"call {call.id} comes from service {call.from_service_id}, which is not stored"
                    )
            # Checked above; below only assignments, so a refused batch writes nothing.
            for cid, call in latest.items():
                held = table.get(cid)
                table[cid] = (
                    call if held is None else attrs.evolve(call, from_service_id=held.from_service_id)
                )
            self._changed()

    def list_services(self, repository: str | None = None) -> list[Service]:
        with self._lock:
            found = [s for s in self._services.values() if repository is None or s.repository == repository]
        return sorted(found, key=_by("repository", "name", "id"))

    def get_service_by_id(self, service_id: str) -> Service | None:
        return self._services.get(service_id)

    def _children_of(self, kind: str, **filters: str | None) -> list[Any]:
        with self._lock:
            items = list(self._children[kind].values())
        for attr, value in filters.items():
            if value is not None:
                items = [c for c in items if getattr(c, attr) == value]
        return sorted(items, key=_ORDERS[kind])

    def list_components(self, service_id: str | None = None) -> list[Component]:
        return self._children_of("components", service_id=service_id)

    def list_apis(self, service_id: str | None = None) -> list[Api]:
        return self._children_of("apis", service_id=service_id)

    def count_apis(self) -> dict[str, int]:
        with self._lock:
            return dict(Counter(a.service_id for a in self._children["apis"].values()))

    def list_calls(
        self, from_service_id: str | None = None, to_service_id: str | None = None
    ) -> list[ServiceCall]:
        return self._children_of("calls", from_service_id=from_service_id, to_service_id=to_service_id)

    def list_calls_to_target(self, targets: Sequence[str]) -> list[ServiceCall]:
        wanted = set(targets)
        return [c for c in self._children_of("calls") if c.target in wanted]

    def list_messages(self, service_id: str | None = None, channel: str | None = None) -> list[Message]:
        return self._children_of("messages", service_id=service_id, channel=channel)

    def list_entities(self, service_id: str | None = None) -> list[PersistenceEntity]:
        return self._children_of("entities", service_id=service_id)

    def list_technologies(self, service_id: str | None = None) -> list[Technology]:
        return self._children_of("technologies", service_id=service_id)

    def list_resources(self, repository: str | None = None) -> list[Resource]:
        with self._lock:
            found = [
                r for repo, rs in sorted(self._resources.items()) if repository in (None, repo) for r in rs
            ]
        return sorted(found, key=_by("repository", "name", "kind", "engine"))

    def list_gaps(self, repository: str | None = None) -> list[Gap]:
        with self._lock:
            found = [g for repo, gs in sorted(self._gaps.items()) if repository in (None, repo) for g in gs]
        return sorted(found, key=_by("repository", "path", "kind", "reason"))

    def list_indexed_files(self, repository: str) -> list[IndexedFile]:
        with self._lock:
            return sorted(self._files.get(repository, {}).values(), key=_by("path"))

    # -- enrichment: descriptive fields only, unknown ids skipped
    def _rewrite(self, table: dict[str, Any], items: Iterable[Any], fields: Sequence[str]) -> None:
        with self._lock:
            for item in items:
                if item.id in table:
                    table[item.id] = attrs.evolve(table[item.id], **{f: getattr(item, f) for f in fields})
            self._changed()

    def update_services(self, services: Sequence[Service]) -> None:
        self._rewrite(self._services, services, ("short_desc", "long_desc", "desc_provenance"))

    def update_apis(self, apis: Sequence[Api]) -> None:
        self._rewrite(self._children["apis"], apis, _API_DESCRIPTIVE)

    def update_components(self, components: Sequence[Component]) -> None:
        self._rewrite(self._children["components"], components, ("summary", "summary_provenance"))

    def update_entities(self, entities: Sequence[PersistenceEntity]) -> None:
        self._rewrite(self._children["entities"], entities, ("description",))

    def update_messages(self, messages: Sequence[Message]) -> None:
        self._rewrite(self._children["messages"], messages, ("description",))

    # -- search
    def search(
        self, terms: Sequence[str], limit: int = 20, kinds: Sequence[str] | None = None
    ) -> list[SearchHit]:
        found = _phrases(terms)
        if not found or limit <= 0 or (kinds is not None and not kinds):
            return []
        with self._lock:
            docs = [d for _, ds in sorted(self._docs.items()) for d in ds]
        return _rank(docs, found, min(limit, 500), set(kinds) if kinds is not None else None)

    def search_many(self, queries: Sequence[SearchQuery]) -> list[list[SearchHit]]:
        return [self.search(q.terms, q.limit, q.kinds) for q in queries]

    # -- the whole snapshot
    def snapshot_fingerprint(self) -> str:
        return f"memory:{id(self):x}:{self._snapshot}"

    def load_model(self) -> SystemModel:
        with self._lock:
            return SystemModel(
                self.snapshot_fingerprint(), tuple(self.list_repositories()), tuple(self.list_services()),
                tuple(self.list_components()), tuple(self.list_apis()), tuple(self.list_calls()),
                tuple(self.list_messages()), tuple(self.list_entities()), tuple(self.list_technologies()),
                tuple(self.list_resources()),
            )

    # -- caches
    def analysis_cache(self) -> AnalysisCache:
        return self._cache

    def get_llm_cache(self, key: str) -> str | None:
        return self._llm_cache.get(key)

    def put_llm_cache(self, key: str, value: str) -> None:
        with self._lock:
            self._llm_cache[key] = value

    # -- runs
    def add_index_run(self, run: IndexRun) -> int:
        with self._lock:
            run_id = self._new_id("index")
            self._index_runs[run_id] = attrs.evolve(run, id=run_id)
            return run_id

    def update_index_run(self, run: IndexRun) -> None:
        with self._lock:
            if run.id is None or run.id not in self._index_runs:
                raise RunNotFound(f"index run {run.id} does not exist")
            self._index_runs[run.id] = run

    def list_index_runs(self, repository: str | None = None, limit: int = 20) -> list[IndexRun]:
        with self._lock:
            runs = [r for _, r in sorted(self._index_runs.items(), reverse=True)]
        return [r for r in runs if repository in (None, r.repository)][: max(limit, 0)]

    def add_change_surface_run(self, run: ChangeSurfaceRun) -> int:
        with self._lock:
            run_id = self._new_id("surface")
            self._surface_runs[run_id] = attrs.evolve(run, id=run_id)
            return run_id

    def get_change_surface_run(self, run_id: int) -> ChangeSurfaceRun | None:
        return self._surface_runs.get(run_id)

    def list_change_surface_runs(self, limit: int = 100) -> list[ChangeSurfaceRun]:
        with self._lock:
            return [r for _, r in sorted(self._surface_runs.items(), reverse=True)][: max(limit, 0)]

    def _require_run(self, run_id: int) -> None:
        if run_id not in self._surface_runs:
            raise RunNotFound(f"change-surface run {run_id} does not exist")

    def add_feedback(self, feedback: Feedback) -> None:
        with self._lock:
            self._require_run(feedback.run_id)
            self._feedback = [f for f in self._feedback
                              if (f.run_id, f.service) != (feedback.run_id, feedback.service)]
            self._feedback.append(feedback)

    def list_feedback(self, service: str | None = None) -> list[Feedback]:
        with self._lock:
            return [f for f in self._feedback if service in (None, f.service)]

    def add_verification(self, verification: Verification) -> int:
        with self._lock:
            self._require_run(verification.run_id)
            vid = self._new_id("verification")
            self._verifications[vid] = attrs.evolve(verification, id=vid)
            return vid

    def list_verifications(self, run_id: int | None = None) -> list[Verification]:
        with self._lock:
            found = [v for _, v in sorted(self._verifications.items(), reverse=True)]
        return [v for v in found if run_id in (None, v.run_id)]

    def change_history(self, limit: int = 500, model_id: str | None = None) -> ChangeHistory:
        with self._lock:
            vectors = {e.owner_id: e.vector for e in self.list_embeddings(model_id, "run")} if model_id else {}
            return ChangeHistory(tuple(self.list_change_surface_runs(limit)), tuple(self.list_feedback()),
                                 tuple(self.list_verifications()), vectors)

    def add_architecture_run(self, run: ArchitectureRun) -> int:
        # Detail is free-form JSON in a real store: normalize it the same way (tuples -> lists).
        findings = tuple(
            attrs.evolve(f, detail=json.loads(json.dumps(f.detail, sort_keys=True, default=str)))
            for f in run.findings
        )
        with self._lock:
            run_id = self._new_id("architecture")
            self._architecture[run_id] = attrs.evolve(run, id=run_id, findings=findings)
            return run_id

    def list_architecture_runs(self, limit: int = 2) -> list[ArchitectureRun]:
        with self._lock:
            return [r for _, r in sorted(self._architecture.items(), reverse=True)][: max(limit, 0)]

    # -- embeddings
    def list_embeddings(self, model_id: str, owner_kind: str | None = None) -> list[Embedding]:
        with self._lock:
            found = [
                e
                for e in self._embeddings.values()
                if e.model_id == model_id and owner_kind in (None, e.owner_kind)
            ]
        return sorted(found, key=_by("owner_kind", "owner_id", "field"))

    def put_embeddings(self, embeddings: Sequence[Embedding]) -> None:
        with self._lock:
            for e in embeddings:
                key = (e.model_id, e.owner_kind, e.owner_id, e.field)
                self._embeddings[key] = attrs.evolve(e, vector=_float32(e.vector))

    def count_embeddings(self, model_id: str) -> int:
        with self._lock:
            return sum(1 for key in self._embeddings if key[0] == model_id)

    def nearest_embeddings(
        self, model_id: str, vector: Sequence[float], limit: int, floor: float = -1.0,
        kinds: Sequence[str] | None = None,
    ) -> list[VectorHit]:
        facts = [e for e in self.list_embeddings(model_id) if e.owner_kind != "run"]  # runs are history
        return rank_nearest(facts, vector, limit, floor, kinds)

    def delete_embeddings(self, owner_ids: Sequence[str]) -> None:
        gone = set(owner_ids)
        with self._lock:
            for key in [k for k in self._embeddings if k[2] in gone]:
                del self._embeddings[key]

    # -- meta
    def schema_version(self) -> int:
        return SCHEMA_VERSION

    def close(self) -> None:
        pass


_API_DESCRIPTIVE = (
    "summary",
    "description",
    "summary_provenance",
    "validations",
    "request_shape",
    "response_shape",
)
#: Children of a service -> the attribute naming their owner.
_CHILD_KINDS = {
    "components": "service_id",
    "apis": "service_id",
    "calls": "from_service_id",
    "entities": "service_id",
    "messages": "service_id",
    "technologies": "service_id",
}
_ORDERS = {
    "components": _by("service_id", "file_path", "start_line", "name", "id"),
    "apis": _by("service_id", "path", "method", "id"),
    "calls": _by("from_service_id", "target", "id"),
    "entities": _by("service_id", "name", "id"),
    "messages": _by("service_id", "channel", "direction", "id"),
    "technologies": _by("service_id", "kind", "name", "id"),
}
_Owned = TypeVar("_Owned", Resource, Gap, IndexedFile)


def _own(obj: _Owned, repository: str) -> _Owned:
    return obj if obj.repository == repository else attrs.evolve(obj, repository=repository)


def _rank(
    docs: Sequence[SearchDocument], found: Sequence[tuple[str, ...]], limit: int, kinds: set[str] | None
) -> list[SearchHit]:
    """bm25 as FTS5 computes it: per phrase, column-weighted term frequency, length-normalized."""
    columns = [{name: tokens(getattr(d, name)) for name, _ in WEIGHTS} for d in docs]
    counts = [{p: {name: _count(cols[name], p) for name, _ in WEIGHTS} for p in found} for cols in columns]
    lengths = [sum(len(c) for c in cols.values()) for cols in columns]
    avg = (sum(lengths) / len(lengths)) if lengths else 1.0
    total = len(docs)
    idf = {}
    for p in found:
        having = sum(1 for c in counts if any(c[p].values()))
        idf[p] = max(math.log((total - having + 0.5) / (having + 0.5)), 1e-6)
    scored = []
    for doc, cols, doc_counts, length in zip(docs, columns, counts, lengths):
        if kinds is not None and doc.kind not in kinds:
            continue
        score = 0.0
        for p in found:
            freq = sum(weight * doc_counts[p][name] for name, weight in WEIGHTS)
            if freq:
                norm = _K1 * (1 - _B + _B * length / (avg or 1.0))
                score += idf[p] * freq * (_K1 + 1) / (freq + norm)
        if score > 0:
            # as the SQLite store: the best of the weighted columns, the free text only when none matched
            named = [(w * sum(1 for p in found if doc_counts[p][n]), n) for n, w in WEIGHTS[:-1]]
            top = max(named, key=lambda x: x[0])
            field = top[1] if top[0] > 0 else WEIGHTS[-1][0]
            scored.append((score, doc, field, cols[field]))
    scored.sort(key=lambda s: (-s[0], s[1].kind, s[1].name, s[1].ref_id))
    return [
        SearchHit(d.kind, d.service, d.name, score, field, _snippet(getattr(d, field), found), d.ref_id)
        for score, d, field, _ in scored[:limit]
    ]


def _snippet(text: str, found: Sequence[tuple[str, ...]], width: int = 12) -> str | None:
    """About ``width`` words of ``text`` around the first word matching a term."""
    words = text.split()
    for i, word in enumerate(words):
        folded = tokens(word)
        if any(w.startswith(p[0]) for w in folded for p in found):
            start = max(i - width // 2, 0)
            return " ".join(words[start : start + width]) or None
    return " ".join(words[:width]) or None
