"""list_apis on a kept model builds a service's list once per snapshot: the next request pages the
same list (and a write builds it again, from the new snapshot); without a model it reads the store."""

from __future__ import annotations

import attrs

from orbitkb.domain.model_cache import CachedModelReader
from orbitkb.domain.usecases.describe import ListApis
from tests.unit.change.seed import seeded_store


def test_the_list_of_a_service_is_built_once_per_snapshot_and_paged_from_it() -> None:
    store = seeded_store()
    listing = ListApis(store, models=CachedModelReader(store))
    first, again = listing("payments"), listing("payments", limit=1, offset=1)
    assert [a.path for a in first.apis] == ["/payments/charges", "/payments/refunds"]
    assert again.apis == first.apis[1:] and again.apis[0] is first.apis[1] and again.total == 2
    assert listing("checkout").apis[0] is not first.apis[0]  # one list per service


def test_a_write_is_listed_at_the_next_request_and_no_model_reads_the_store() -> None:
    store = seeded_store()
    listing = ListApis(store, models=CachedModelReader(store))
    before = listing("payments")
    charge = next(a for a in store.list_apis() if a.path == "/payments/charges")
    store.update_apis([attrs.evolve(charge, summary="Take money from a card")])
    after = listing("payments")
    assert after.apis[0].summary == "Take money from a card" and before.apis[0].summary != after.apis[0].summary
    assert ListApis(store)("payments").apis == after.apis  # the store's answer is the model's
