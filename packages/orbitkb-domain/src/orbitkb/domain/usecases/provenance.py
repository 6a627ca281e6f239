"""FindProvenance: what is declared at or around a code location — the service, component, API,
call, message or entity — and who depends on it. For an agent editing a file."""

from __future__ import annotations

import posixpath

from attrs import frozen

from orbitkb.domain.errors import InvalidInput, RepositoryNotFound
from orbitkb.domain.model import Evidence, Repository
from orbitkb.domain.ports import FolderLocator, KnowledgeStore
from orbitkb.domain.usecases.feedback import owner_of

NEAR = 5  # lines around the location that still count as "at" it
MAX_PATH = 1000


@frozen
class ProvenanceItem:
    kind: str  # service | component | api | call | message | entity
    name: str
    service: str
    evidence: Evidence
    detail: str | None = None


@frozen
class Provenance:
    repository: str
    file: str
    line: int
    service: str | None
    items: tuple[ProvenanceItem, ...]
    dependents: tuple[str, ...]  # services that call this service / the APIs found here
    note: str | None = None


def _inside_as_written(path: str, root: str) -> str | None:
    top, real = posixpath.normpath(root.replace("\\", "/")), posixpath.normpath(path)
    if real == top or real.startswith(top.rstrip("/") + "/"):
        return posixpath.relpath(real, top)
    return None


def _normalize(path: str, repos: list[Repository], repository: str | None,
               folders: FolderLocator | None) -> tuple[Repository, str]:
    if not isinstance(path, str) or not path.strip() or len(path) > MAX_PATH or "\x00" in path:
        raise InvalidInput("file must be a non-empty path without NUL bytes")
    candidates = [r for r in repos if repository in (None, r.name)]
    if repository and not candidates:
        raise RepositoryNotFound(f"repository {repository!r} is not indexed", tuple(r.name for r in repos))
    p = path.replace("\\", "/")
    if p.startswith("/"):  # an absolute path: which repository holds it is the file system's answer
        for r in candidates:
            inside = folders.inside(p, r.root_path) if folders else _inside_as_written(p, r.root_path)
            if inside is not None:
                return r, inside
        raise InvalidInput("the path is outside every indexed repository", hint="pass a path relative to a repository")
    norm = posixpath.normpath(p)
    if norm.startswith("../") or norm == ".." or norm.startswith("/"):
        raise InvalidInput("the path leaves the repository", hint="pass a path inside an indexed repository")
    if not candidates:
        raise InvalidInput("no repository is indexed", hint="index a repository first: orbitkb index PATH")
    return candidates[0], norm.removeprefix("./")


@frozen
class FindProvenance:
    store: KnowledgeStore
    #: Resolves absolute paths (symlinks included); without it they are compared as written.
    folders: FolderLocator | None = None

    def __call__(self, file: str, line: int, repository: str | None = None) -> Provenance:
        if isinstance(line, bool) or not isinstance(line, int) or line < 1:
            raise InvalidInput(f"line must be a positive integer, got {line!r}")
        repos = self.store.list_repositories()
        repo, rel = _normalize(file, repos, repository, self.folders)
        if repository is None and len(repos) > 1:  # relative path: pick the repository that owns it
            for r in repos:
                if any(f.path == rel for f in self.store.list_indexed_files(r.name)):
                    repo = r
                    break
        services = self.store.list_services(repo.name)
        owner = owner_of(rel, services)
        if owner is None:
            return Provenance(repo.name, rel, line, None, (), (), note="no indexed service owns this file")
        names = {s.id: s.name for s in self.store.list_services()}
        items: list[ProvenanceItem] = []

        def near(ev: Evidence) -> bool:
            return ev.file == rel and ev.start_line - NEAR <= line <= ev.end_line + NEAR

        for c in self.store.list_components(owner.id):
            ev = Evidence(c.file_path, c.start_line, c.end_line)
            if near(ev):
                items.append(ProvenanceItem("component", c.name, owner.name, ev))
        api_ids = []
        for a in self.store.list_apis(owner.id):
            ev = Evidence(a.file, a.start_line, a.end_line)
            if near(ev):
                api_ids.append(a.id)
                items.append(ProvenanceItem("api", f"{a.method} {a.path}", owner.name, ev, a.handler))
        for call in self.store.list_calls(from_service_id=owner.id):
            for ev in call.evidence:
                if near(ev):
                    items.append(ProvenanceItem("call", call.target, owner.name, ev,
                                                f"{call.call_kind.value} {call.method or ''} {call.path or ''}".strip()))
                    break
        for m in self.store.list_messages(owner.id):
            for ev in m.evidence:
                if near(ev):
                    items.append(ProvenanceItem("message", m.channel, owner.name, ev, m.direction.value))
                    break
        for e in self.store.list_entities(owner.id):
            for ev in e.evidence:
                if near(ev):
                    items.append(ProvenanceItem("entity", e.name, owner.name, ev, e.engine))
                    break
        inbound = self.store.list_calls(to_service_id=owner.id)
        if api_ids:
            dependents = {names.get(c.from_service_id, "?") for c in inbound if c.to_api_id in api_ids}
        else:
            dependents = {names.get(c.from_service_id, "?") for c in inbound}
        items.sort(key=lambda i: (i.evidence.start_line, i.kind, i.name))
        return Provenance(repo.name, rel, line, owner.name, tuple(items), tuple(sorted(dependents)),
                          None if items else "nothing declared near this line; the file belongs to the service")
