"""remove_repository and the ``if_indexed`` writes, on the SQLite store and the in-memory fake."""

from __future__ import annotations

import pytest

from orbitkb.domain.errors import RepositoryNotFound


def test_remove_repository_deletes_its_whole_snapshot_only(store, samples) -> None:
    samples.replace(store, "shop", [samples.service_facts("shop", "orders")])
    samples.replace(store, "pay", [samples.service_facts("pay", "payments", channel="pay.done")])

    assert store.remove_repository("shop") is True

    assert [r.name for r in store.list_repositories()] == ["pay"]
    assert [s.name for s in store.list_services()] == ["payments"]
    for lister in (store.list_apis, store.list_components, store.list_entities, store.list_messages,
                   store.list_technologies):
        assert {x.service_id for x in lister()} == {store.list_services()[0].id}
    assert store.list_resources("shop") == [] and store.list_gaps("shop") == []
    assert store.list_indexed_files("shop") == []
    assert store.list_resources("pay") and store.list_gaps("pay")
    assert {h.service for h in store.search(["orders", "payments"])} <= {"payments"}
    assert store.remove_repository("shop") is False


def test_if_indexed_writes_refuse_a_removed_repository_and_write_nothing(store, samples) -> None:
    facts = [samples.service_facts("shop", "orders")]
    samples.replace(store, "shop", facts)
    store.remove_repository("shop")

    with pytest.raises(RepositoryNotFound):
        store.replace_repository_facts(samples.repository("shop"), facts, [], [], [], [], if_indexed=True)
    with pytest.raises(RepositoryNotFound):
        store.upsert_repository(samples.repository("shop"), if_indexed=True)

    assert store.list_repositories() == [] and store.list_services() == []
    store.upsert_repository(samples.repository("shop"))  # a plain index still may
    store.replace_repository_facts(samples.repository("shop"), facts, [], [], [], [], if_indexed=True)
    assert [s.name for s in store.list_services()] == ["orders"]
