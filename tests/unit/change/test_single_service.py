"""A task that names the one service of a single-service repository is never empty, whether it
names the service, a loose spelling of it, or the repository that holds it."""

from __future__ import annotations

import pytest

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface


def store() -> InMemoryKnowledgeStore:
    facts = [ServiceFacts(Service(service_id("bookkeeping", "ledger-service"), "ledger-service", "bookkeeping", ".",
                                  "go"), vocabulary=("ledger", "entry", "balance", "posting"))]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository("bookkeeping", "/src/bookkeeping"), facts, [], [], [], documents_for(facts))
    return s


@pytest.mark.parametrize("task", ["ledger-service: round totals to cents", "ledgerservice crashes at start",
                                  "bookkeeping: fix the nightly job", "Fix the legder service timeout"])
def test_naming_the_only_service_or_its_repository_is_never_empty(task: str) -> None:
    s = FindChangeSurface(store())(task)
    assert [f.service for f in s.primary] == ["ledger-service"], s.note


def test_an_off_topic_task_is_still_empty_in_a_single_service_repository() -> None:
    s = FindChangeSurface(store())("Bake a chocolate cake")
    assert s.primary == () and s.secondary == () and s.note
