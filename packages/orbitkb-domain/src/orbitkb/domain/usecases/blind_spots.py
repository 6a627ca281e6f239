"""ListBlindSpots: what the indexer could not understand, per repository — so an agent can tell
"not there" from "not seen" before it trusts an absence.

Business rules:
- Gaps (skipped or unparsed files, unknown stacks, config and link errors, ...) are counted per
  repository by kind, each kind with its most frequent reasons (reasons naming a file or a line
  are grouped by their wording before the first ``:``).
- Besides gaps, the facts that are known to be incomplete are counted: calls whose target could
  not be resolved, calls to an internal-looking name that no indexed service answers to, entities
  whose database engine is unknown, message sites whose broker is unknown, services of an unknown
  stack.
- The list of gaps itself is one bounded page (``limit``/``offset``), optionally one repository
  and/or one kind; an unknown repository is RepositoryNotFound with the closest names.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter

from attrs import frozen

from orbitkb.domain.errors import EmptyKnowledgeBase, RepositoryNotFound
from orbitkb.domain.model import Gap, TargetKind
from orbitkb.domain.ports import KnowledgeStore
from orbitkb.domain.usecases._common import check_page, page

REASONS_PER_KIND = 5
#: what varies between two reports of the same reason: parentheses and quoted names
_DETAILS = re.compile(r"\([^)]*\)|'[^']*'|\"[^\"]*\"|`[^`]*`")


@frozen
class ReasonCount:
    reason: str
    count: int


@frozen
class GapKindCount:
    kind: str
    count: int
    reasons: tuple[ReasonCount, ...]


@frozen
class RepositoryBlindSpots:
    repository: str
    gaps: int
    gaps_by_kind: tuple[GapKindCount, ...]
    unresolved_calls: int  # target not resolved to a service nor a known vendor
    unmapped_internal_calls: int  # an internal-looking target no indexed service answers to
    unknown_engine_entities: int
    unknown_provider_messages: int
    unknown_stack_services: int


@frozen
class BlindSpots:
    repositories: tuple[RepositoryBlindSpots, ...]
    gaps: tuple[Gap, ...]
    total: int
    truncated: bool
    limit: int
    offset: int


def reason_group(reason: str) -> str:
    """"unexpected indent (line 3)" and "unexpected indent (line 9)" count as one reason."""
    head = _DETAILS.sub(" ", reason.split(":", 1)[0])
    words = [w for w in head.split() if not any(ch.isdigit() or ch in "/\\" for ch in w)]
    return " ".join(words)[:120] or "unspecified"


@frozen
class ListBlindSpots:
    store: KnowledgeStore

    def __call__(self, repository: str | None = None, kind: str | None = None, limit: int | None = None,
                 offset: int | None = None) -> BlindSpots:
        lim, off = check_page(limit, offset)
        repos = [r.name for r in self.store.list_repositories()]
        if not repos:
            raise EmptyKnowledgeBase("the knowledge base is empty")
        if repository is not None and repository not in repos:
            raise RepositoryNotFound(f"repository {repository!r} is not indexed",
                                     tuple(difflib.get_close_matches(repository, repos, 5, 0.3)) or tuple(repos[:5]))
        chosen = [repository] if repository is not None else repos
        services = self.store.list_services()
        owner = {s.id: s.repository for s in services}
        per_repo = {name: Counter[str]() for name in chosen}
        for s in services:
            if s.repository in per_repo and s.stack in ("", "unknown"):
                per_repo[s.repository]["stack"] += 1
        for c in self.store.list_calls():
            counts = per_repo.get(owner.get(c.from_service_id, ""))
            if counts is None or c.to_service_id is not None:
                continue
            if c.target_kind == TargetKind.UNKNOWN:
                counts["unresolved"] += 1
            elif c.target_kind == TargetKind.INTERNAL:
                counts["unmapped"] += 1
        for e in self.store.list_entities():
            counts = per_repo.get(owner.get(e.service_id, ""))
            if counts is not None and e.engine in ("", "unknown"):
                counts["engine"] += 1
        for m in self.store.list_messages():
            counts = per_repo.get(owner.get(m.service_id, ""))
            if counts is not None and m.provider in ("", "unknown"):
                counts["provider"] += 1
        out = []
        listed: list[Gap] = []
        for name in chosen:
            gaps = self.store.list_gaps(name)
            listed += [g for g in gaps if kind is None or g.kind == kind]
            kinds = Counter(g.kind for g in gaps)
            by_kind = tuple(
                GapKindCount(k, n, tuple(ReasonCount(r, rn) for r, rn in Counter(
                    reason_group(g.reason) for g in gaps if g.kind == k).most_common(REASONS_PER_KIND)))
                for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
            )
            found = per_repo[name]
            out.append(RepositoryBlindSpots(name, len(gaps), by_kind, found["unresolved"], found["unmapped"], found["engine"],
                                            found["provider"], found["stack"]))
        chunk, p = page(listed, lim, off)
        return BlindSpots(tuple(out), chunk, p.total, p.truncated, lim, off)
