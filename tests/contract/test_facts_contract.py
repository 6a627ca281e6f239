"""Contract: repositories and facts — round-trips, documented orders, replacement, filters."""

from __future__ import annotations

import attrs
import pytest

from orbitkb.domain.errors import StoreError
from orbitkb.domain.model import Gap, Provenance, Resource, TargetKind, Validation
from orbitkb.domain.runs import IndexedFile
from tests.support.stores import STORES, ModelReads, open_store


@pytest.fixture(params=[f"{kind}-{reader}" for kind in STORES for reader in ("store", "model")])
def store(request, tmp_path):
    """Every facts contract holds for each store and for the SystemModel loaded from it."""
    kind, reader = request.param.split("-")
    opened = open_store(kind, tmp_path, request)
    yield opened if reader == "store" else ModelReads(opened)
    opened.close()


def test_repository_upsert_get_and_list_by_name(store, samples):
    assert store.get_repository("zeta") is None
    store.upsert_repository(samples.repository("zeta"))
    store.upsert_repository(samples.repository("alpha"))
    changed = attrs.evolve(samples.repository("zeta", commit="def456"), roots=("a", "b"), vcs="none")
    store.upsert_repository(changed)
    assert store.get_repository("zeta") == changed
    assert [r.name for r in store.list_repositories()] == ["alpha", "zeta"]


def test_every_fact_round_trips_exactly(store, samples):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    sid = orders.service.id
    assert store.get_repository("shop") == samples.repository("shop")
    assert store.list_services() == [orders.service]
    assert store.get_service_by_id(sid) == orders.service
    assert store.get_service_by_id("svc:missing") is None
    assert set(store.list_components(sid)) == set(orders.components)
    assert set(store.list_apis(sid)) == set(orders.apis)
    assert set(store.list_calls(from_service_id=sid)) == set(orders.calls)
    assert set(store.list_entities(sid)) == set(orders.entities)
    assert set(store.list_messages(sid)) == set(orders.messages)
    assert store.list_technologies(sid) == sorted(orders.technologies, key=lambda t: (t.kind, t.name))
    assert store.list_technologies("svc:missing") == []
    assert store.list_resources("shop") == sorted(samples.resources("shop"), key=lambda r: r.name)
    assert store.list_gaps("shop") == sorted(samples.gaps("shop"), key=lambda g: g.path)
    assert store.list_indexed_files("shop") == sorted(samples.files("shop"), key=lambda f: f.path)
    assert store.list_indexed_files("unknown") == []
    # enums come back as enums, not bare strings
    call = store.list_calls(from_service_id=sid)[0]
    assert call.target_kind is TargetKind.EXTERNAL and call.provenance is Provenance.LLM


def test_lists_follow_the_documented_orders(store, samples):
    facts = [samples.service_facts("shop", n) for n in ("payments", "orders", "catalog")]
    samples.replace(store, "shop", facts)
    services = store.list_services()
    assert [s.name for s in services] == ["catalog", "orders", "payments"]
    comps = store.list_components()
    assert [(c.service_id, c.file_path, c.start_line) for c in comps] == sorted(
        (c.service_id, c.file_path, c.start_line) for c in comps
    )
    assert [c.name for c in store.list_components(facts[1].service.id)] == [
        "AlphaController",
        "ZetaController",
    ]
    apis = store.list_apis()
    assert [(a.service_id, a.path, a.method) for a in apis] == sorted(
        (a.service_id, a.path, a.method) for a in apis
    )
    calls = store.list_calls()
    assert [(c.from_service_id, c.target, c.id) for c in calls] == sorted(
        (c.from_service_id, c.target, c.id) for c in calls
    )
    assert [e.name for e in store.list_entities(facts[0].service.id)] == ["audit_log", "orders"]
    msgs = store.list_messages()
    assert [(m.service_id, m.channel) for m in msgs] == sorted((m.service_id, m.channel) for m in msgs)
    assert [r.name for r in store.list_resources()] == ["kafka", "postgres"]
    assert [f.path for f in store.list_indexed_files("shop")] == ["README.md", "services/orders/main.py"]
    # asking twice gives the very same answer
    assert store.list_apis() == apis and store.list_calls() == calls


def test_replace_drops_a_vanished_service_with_everything_it_owned(store, samples):
    orders, billing = samples.service_facts("shop", "orders"), samples.service_facts("shop", "billing")
    samples.replace(store, "shop", [orders, billing])
    assert len(store.list_apis()) == 4
    new_api = attrs.evolve(orders.apis[0], path="/v2/orders")
    orders2 = attrs.evolve(orders, apis=(new_api,), calls=orders.calls[:1], messages=(), entities=())
    samples.replace(
        store, "shop", [orders2], resources=[], gaps=[], files=samples.files("shop")[:1],
        repository=samples.repository("shop", commit="fff999"),
    )  # fmt: skip
    gone = billing.service.id
    assert store.get_service_by_id(gone) is None
    assert [s.name for s in store.list_services("shop")] == ["orders"]
    assert store.list_apis() == [new_api]
    assert store.list_calls() == [orders.calls[0]]
    assert store.list_components(gone) == [] and store.list_entities() == [] and store.list_messages() == []
    assert store.list_calls(from_service_id=gone) == []
    assert store.list_resources("shop") == [] and store.list_gaps("shop") == []
    assert [f.path for f in store.list_indexed_files("shop")] == ["services/orders/main.py"]
    assert store.get_repository("shop").indexed_commit == "fff999"
    assert [h.name for h in store.search(["billing"])] == []


def test_two_repositories_coexist(store, samples):
    samples.replace(store, "shop", [samples.service_facts("shop", "orders")])
    samples.replace(
        store, "crm", [samples.service_facts("crm", "contacts"), samples.service_facts("crm", "orders")]
    )
    samples.replace(store, "shop", [samples.service_facts("shop", "orders", target="stripe")])
    assert [(s.repository, s.name) for s in store.list_services()] == [
        ("crm", "contacts"),
        ("crm", "orders"),
        ("shop", "orders"),
    ]
    assert [s.name for s in store.list_services("crm")] == ["contacts", "orders"]
    assert len(store.list_apis()) == 6
    assert {r.repository for r in store.list_resources()} == {"crm", "shop"}
    assert {g.repository for g in store.list_gaps("crm")} == {"crm"}
    assert len(store.list_gaps()) == 4
    assert {h.service for h in store.search(["orders"])} == {"orders"}
    assert len(store.search(["orders"])) == 2
    assert len(store.list_indexed_files("crm")) == 2


def test_children_are_filed_under_the_snapshot_repository(store, samples):
    stray = [Resource("redis", "elsewhere", "cache", "redis")]
    samples.replace(
        store, "shop", [], resources=stray, gaps=[Gap("elsewhere", "x.py", "too_large", "2 MB")],
        files=[IndexedFile("elsewhere", "x.py", "c" * 64, 2_000_000)],
    )  # fmt: skip
    assert [r.repository for r in store.list_resources()] == ["shop"]
    assert [g.repository for g in store.list_gaps()] == ["shop"]
    assert [f.repository for f in store.list_indexed_files("shop")] == ["shop"]


def test_duplicate_facts_in_one_snapshot_keep_the_first(store, samples):
    orders = samples.service_facts("shop", "orders")
    twin = attrs.evolve(orders.apis[0], handler="other")
    dup = attrs.evolve(orders, apis=(*orders.apis, twin))
    files = [*samples.files("shop"), attrs.evolve(samples.files("shop")[0], size=1)]
    samples.replace(store, "shop", [dup, orders], files=files)
    assert len(store.list_services()) == 1
    assert orders.apis[0] in store.list_apis() and twin not in store.list_apis()
    assert [f.size for f in store.list_indexed_files("shop")] == [10, 120]


def test_a_service_id_owned_by_another_repository_is_refused_atomically(store, samples):
    samples.replace(store, "shop", [samples.service_facts("shop", "orders")])
    samples.replace(store, "crm", [samples.service_facts("crm", "contacts")])
    thief = samples.service_facts("shop", "orders")  # same id as shop/orders
    with pytest.raises(StoreError):
        samples.replace(store, "crm", [thief], resources=[])
    assert [s.name for s in store.list_services("crm")] == ["contacts"]
    assert len(store.list_resources("crm")) == 2
    assert [s.repository for s in store.list_services() if s.name == "orders"] == ["shop"]


def test_call_filters_and_lookup_by_target(store, samples):
    orders = samples.service_facts("shop", "orders", target="billing")
    billing = samples.service_facts("shop", "billing", target="ledger")
    samples.replace(store, "shop", [orders, billing])
    to_billing = billing.service.id
    assert [c.target for c in store.list_calls(to_service_id=to_billing)] == ["billing"]
    assert store.list_calls(from_service_id=orders.service.id, to_service_id=to_billing) == [orders.calls[0]]
    assert store.list_calls(from_service_id=billing.service.id, to_service_id=to_billing) == []
    many = [f"host-{i}" for i in range(1200)] + ["ledger-grpc", "billing", "billing"]
    found = store.list_calls_to_target(many)
    assert [(c.target, c.from_service_id) for c in found] == sorted(
        [("billing", orders.service.id), ("ledger-grpc", billing.service.id)], key=lambda x: (x[1], x[0])
    )
    assert store.list_calls_to_target([]) == [] and store.list_calls_to_target(["nobody"]) == []


def test_message_filters(store, samples):
    a, b = (
        samples.service_facts("shop", "orders"),
        samples.service_facts("shop", "billing", channel="invoices"),
    )
    samples.replace(store, "shop", [a, b])
    assert [m.service_id for m in store.list_messages(channel="orders.created")] == [a.service.id]
    assert store.list_messages(service_id=b.service.id, channel="orders.created") == []
    assert len(store.list_messages(service_id=b.service.id)) == 2


def test_calls_and_messages_keep_every_api_that_reaches_them_first_one_leading(store, samples):
    orders = samples.service_facts("shop", "orders")
    call = attrs.evolve(orders.calls[0], from_api_id=None, from_api_ids=("api:b", "api:a"))
    message = attrs.evolve(orders.messages[0], api_id=None, api_ids=("api:b", "api:a"))
    assert call.from_api_id == "api:b" and message.api_id == "api:b"
    samples.replace(store, "shop", [attrs.evolve(orders, calls=[call, *orders.calls[1:]],
                                                 messages=[message, *orders.messages[1:]])])  # fmt: skip
    assert {c.id: c for c in store.list_calls()}[call.id] == call
    assert {m.id: m for m in store.list_messages()}[message.id] == message
    store.update_calls([attrs.evolve(call, from_api_ids=("api:c",), from_api_id=None)])
    assert {c.id: c for c in store.list_calls()}[call.id].from_api_ids == ("api:c",)


def test_update_calls_rewrites_existing_calls_keeping_the_caller(store, samples):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    resolved = attrs.evolve(
        orders.calls[0], target="billing-service", target_kind=TargetKind.INTERNAL, to_service_id="svc:billing",
        from_service_id="svc:somebody-else", confidence=0.9,
    )  # fmt: skip
    store.update_calls([resolved])
    by_id = {c.id: c for c in store.list_calls()}
    assert set(by_id) == {c.id for c in orders.calls}
    assert by_id[resolved.id] == attrs.evolve(resolved, from_service_id=orders.service.id)
    assert by_id[orders.calls[1].id] == orders.calls[1]
    store.update_calls([])
    assert {c.id: c for c in store.list_calls()} == by_id


def test_enrichment_rewrites_descriptive_fields_only(store, samples):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    svc = attrs.evolve(
        orders.service,
        name="renamed",
        short_desc="new",
        long_desc=None,
        desc_provenance=Provenance.DETERMINISTIC,
    )
    api = attrs.evolve(
        orders.apis[0], path="/hacked", summary="s2", description="d2", summary_provenance=Provenance.DETERMINISTIC,
        validations=(Validation("authorization", "admin only"),),
    )  # fmt: skip
    comp = attrs.evolve(orders.components[0], file_path="elsewhere.py", summary="c2")
    store.update_services([svc, attrs.evolve(svc, id="svc:unknown")])
    store.update_apis([api])
    store.update_components([comp])
    assert store.get_service_by_id(svc.id) == attrs.evolve(
        orders.service, short_desc="new", long_desc=None, desc_provenance=Provenance.DETERMINISTIC
    )
    assert {a.id: a for a in store.list_apis()}[api.id] == attrs.evolve(api, path=orders.apis[0].path)
    assert {c.id: c for c in store.list_components()}[comp.id] == attrs.evolve(
        comp, file_path=orders.components[0].file_path
    )
    assert len(store.list_services()) == 1


def test_schema_version_and_close(store):
    # each store numbers its own schema: SQLite 7 (search documents by kind band), PostgreSQL 4
    from orbitkb.postgres import migrations as pg_migrations

    expected = pg_migrations.LATEST if "Postgres" in type(getattr(store, "_store", store)).__name__ else 7
    assert store.schema_version() == expected
    store.close()


def test_count_apis_counts_per_service_and_follows_replacement(store, samples):
    assert store.count_apis() == {}
    facts = [samples.service_facts("shop", n) for n in ("orders", "catalog")]
    bare = attrs.evolve(samples.service_facts("shop", "ledger"), apis=(), calls=(), messages=())
    samples.replace(store, "shop", [*facts, bare])
    samples.replace(store, "docs", [samples.service_facts("docs", "wiki")])
    counts = store.count_apis()
    assert counts == {f.service.id: len(f.apis) for f in facts} | {samples.service_facts("docs", "wiki").service.id: 2}
    assert bare.service.id not in counts  # a service with no API is simply absent
    samples.replace(store, "shop", facts[:1])
    assert store.count_apis() == {facts[0].service.id: 2, samples.service_facts("docs", "wiki").service.id: 2}
    store.remove_repository("docs")
    assert store.count_apis() == {facts[0].service.id: 2}
