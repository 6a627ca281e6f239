"""DrawSystemMap and ListChangeSurfaceRuns on purpose-built systems in the in-memory store."""

from __future__ import annotations

import pytest

from orbitkb.domain.errors import EmptyKnowledgeBase
from orbitkb.domain.fakes import FakeGitReader, InMemoryKnowledgeStore
from orbitkb.domain.model import CallKind, Direction, Repository, Resource, ServiceFacts, TargetKind
from orbitkb.domain.model_cache import CachedModelReader
from orbitkb.domain.runs import ChangeSurfaceRun, Feedback, SurfaceFinding, Verification
from orbitkb.domain.usecases.history import ListChangeSurfaceRuns
from orbitkb.domain.usecases.system_map import DrawSystemMap
from tests.unit.architecture.builders import call, entity, msg, svc


def store_with(repo: str, names: str, calls=(), messages=(), entities=(), resources=()) -> InMemoryKnowledgeStore:
    store = InMemoryKnowledgeStore()
    add(store, repo, names, calls, messages, entities, resources)
    return store


def add(store, repo, names, calls=(), messages=(), entities=(), resources=()) -> None:
    facts = []
    for n in names:
        s = svc(n, repo)
        facts.append(ServiceFacts(service=s, calls=tuple(c for c in calls if c.from_service_id == s.id),
                                  messages=tuple(m for m in messages if m.service_id == s.id),
                                  entities=tuple(e for e in entities if e.service_id == s.id)))
    store.replace_repository_facts(Repository(repo, f"/src/{repo}"), facts, list(resources), [], [], [])


def by_id(items):
    return {i.id: i for i in items}


def test_services_vendors_and_resources_are_distinct_kinds_with_their_repository() -> None:
    store = store_with("shop", "ab", [call("a", "b", repo="shop"),
                                      call("a", None, "api.stripe.com", TargetKind.EXTERNAL, repo="shop")],
                       resources=[Resource("pg", "shop", "database", "postgres")])
    m = DrawSystemMap(store)()
    kinds = {n.id: (n.kind, n.repository) for n in m.nodes}
    assert kinds == {"service:a": ("service", "shop"), "service:b": ("service", "shop"),
                     "vendor:api.stripe.com": ("vendor", None), "resource:shop/pg": ("resource", "shop")}
    assert [r.name for r in m.repositories] == ["shop"] and m.repositories[0].services == 2


def test_several_call_sites_are_one_edge_with_every_evidence() -> None:
    first, second = call("a", "b"), call("a", "b", target="b:8080")
    m = DrawSystemMap(store_with("r", "ab", [first, second]))()
    [edge] = m.edges
    assert (edge.source, edge.target, edge.protocol, edge.count) == ("service:a", "service:b", "HTTP", 2)
    assert len(edge.evidence) == 2


def test_protocols_are_kept_apart_http_grpc_and_message() -> None:
    grpc = call("a", "c")
    grpc = grpc.__class__(**{**{a.name: getattr(grpc, a.name) for a in grpc.__attrs_attrs__},
                             "call_kind": CallKind.GRPC})
    m = DrawSystemMap(store_with("r", "abc", [call("a", "b"), grpc],
                                 [msg("b", Direction.PUBLISHES, "orders"), msg("c", Direction.CONSUMES, "orders")]))()
    assert sorted((e.source, e.target, e.protocol, e.channel) for e in m.edges) == [
        ("service:a", "service:b", "HTTP", None), ("service:a", "service:c", "GRPC", None),
        ("service:b", "service:c", "MESSAGE", "orders")]
    assert m.protocols == ("GRPC", "HTTP", "MESSAGE")


def test_cycle_members_and_fan_in_hot_spots_are_marked() -> None:
    calls = [call("a", "b"), call("b", "a"), *(call(x, "hub") for x in "cdef")]
    nodes = by_id(DrawSystemMap(store_with("r", ["a", "b", "c", "d", "e", "f", "hub"], calls))().nodes)
    assert nodes["service:a"].cycle and nodes["service:b"].cycle and not nodes["service:c"].cycle
    assert nodes["service:hub"].fan_in == 4 and nodes["service:hub"].hot == ("fan_in",)
    assert nodes["service:c"].hot == () and nodes["service:c"].fan_out == 1


def test_a_service_uses_the_only_resource_of_its_engine_and_never_guesses_between_two() -> None:
    one = store_with("r", "ab", entities=[entity("a", "orders", "postgres")],
                     resources=[Resource("db", "r", "database", "postgres")])
    [edge] = DrawSystemMap(one)().edges
    assert (edge.source, edge.target, edge.protocol) == ("service:a", "resource:r/db", "USES")
    assert "persists orders" in (edge.reason or "")
    two = store_with("r", "ab", entities=[entity("a", "orders", "postgres")],
                     resources=[Resource("db1", "r", "database", "postgres"),
                                Resource("db2", "r", "database", "postgres")])
    assert DrawSystemMap(two)().edges == ()


def test_a_resource_of_another_repository_is_not_linked() -> None:
    store = store_with("r1", "a", entities=[entity("a", "orders", "postgres", repo="r1")])
    add(store, "r2", "z", resources=[Resource("db", "r2", "database", "postgres")])
    assert DrawSystemMap(store)().edges == ()


def test_unresolved_addresses_are_counted_not_drawn() -> None:
    m = DrawSystemMap(store_with("r", "a", [call("a", None, "${ORDERS_URL}", TargetKind.UNKNOWN)]))()
    assert m.edges == () and m.unresolved_calls == 1 and [n.kind for n in m.nodes] == ["service"]


def test_same_named_services_of_two_repositories_stay_apart() -> None:
    store = store_with("r1", ["api"])
    add(store, "r2", ["api"])
    assert sorted(n.id for n in DrawSystemMap(store)().nodes) == ["service:r1/api", "service:r2/api"]


def test_empty_store_is_an_empty_knowledge_base() -> None:
    with pytest.raises(EmptyKnowledgeBase):
        DrawSystemMap(InMemoryKnowledgeStore())()


def test_past_runs_newest_first_with_their_feedback_and_verifications() -> None:
    store = store_with("r", "ab")
    first = store.add_change_surface_run(ChangeSurfaceRun(None, "add pix", "t1",
                                                          findings=(SurfaceFinding("a", "primary", "x", 0.8),)))
    second = store.add_change_surface_run(ChangeSurfaceRun(None, "rename b", "t2"))
    store.add_feedback(Feedback(first, "a", "confirmed", "t3"))
    store.add_verification(Verification(None, first, "r", "abc", "t4", precision=1.0, recall=0.5))
    out = ListChangeSurfaceRuns(store)()
    assert [p.run.id for p in out.runs] == [second, first] and out.total == 2
    assert out.runs[0].feedback == () and out.runs[0].verifications == ()
    assert [f.outcome for f in out.runs[1].feedback] == ["confirmed"]
    assert out.runs[1].verifications[0].recall == 0.5
    assert [p.run.id for p in ListChangeSurfaceRuns(store)(limit=1, offset=1).runs] == [first]


def test_a_repository_indexed_at_an_older_commit_is_stale_on_every_node_of_it() -> None:
    store = InMemoryKnowledgeStore()
    for name, commit in (("old", "c1"), ("new", "c2")):
        s = svc("api", name)
        store.replace_repository_facts(Repository(name, f"/src/{name}", "git", commit), [ServiceFacts(service=s)],
                                       [Resource("db", name, "database", "postgres")], [], [], [])
    m = DrawSystemMap(store, FakeGitReader({"c1": {}, "c2": {}}, head="c2"))()
    assert {r.name: r.freshness.stale for r in m.repositories} == {"new": False, "old": True}
    assert {n.id: n.stale for n in m.nodes} == {"service:old/api": True, "service:new/api": False,
                                                "resource:old/db": True, "resource:new/db": False}


def test_without_git_freshness_is_unknown_not_fresh() -> None:
    [node] = DrawSystemMap(store_with("r", "a"))().nodes
    assert node.stale is None


# -- once per snapshot, on the load-once SystemModel


def two_repositories_at(commits: dict[str, str]) -> InMemoryKnowledgeStore:
    store = InMemoryKnowledgeStore()
    for name, commit in commits.items():
        store.replace_repository_facts(Repository(name, f"/src/{name}", "git", commit),
                                       [ServiceFacts(service=svc("api", name))], [], [], [], [])
    return store


def test_with_a_model_reader_the_map_is_drawn_once_per_snapshot_and_is_the_same_object() -> None:
    store = store_with("shop", "ab", [call("a", "b", repo="shop")])
    models = CachedModelReader(store)
    draw = DrawSystemMap(store, models=models)
    first, second = draw(), draw()
    assert second is first and models.loads == 1


def test_a_write_to_the_store_is_on_the_next_map_without_restarting() -> None:
    store = store_with("shop", "ab", [call("a", "b", repo="shop")])
    models = CachedModelReader(store)
    draw = DrawSystemMap(store, models=models)
    before = draw()
    add(store, "billing", "x")  # another repository indexed (by this process or any other)
    after = draw()
    assert all(n.repository != "billing" for n in before.nodes)
    assert {r.name for r in after.repositories} == {"shop", "billing"} and models.loads == 2
    assert [n.label for n in after.nodes if n.repository == "billing"] == ["x"]


def test_freshness_moves_with_git_without_drawing_the_graph_again() -> None:
    store = two_repositories_at({"old": "c1", "new": "c1"})
    git = FakeGitReader({"c1": {}, "c2": {}}, head="c1")
    draw = DrawSystemMap(store, git, CachedModelReader(store))
    fresh = draw()
    git.head = "c2"  # a commit after the index: no write, the snapshot did not move
    stale = draw()
    assert {r.name: r.freshness.stale for r in fresh.repositories} == {"new": False, "old": False}
    assert {r.name: r.freshness.stale for r in stale.repositories} == {"new": True, "old": True}
    assert {n.stale for n in stale.nodes} == {True}
    assert stale.edges is fresh.edges  # the drawing itself was kept
    assert draw() is stale  # and the same freshness answers the same map


def test_the_map_from_the_model_is_the_map_from_the_store() -> None:
    store = store_with("shop", "abc", [call("a", "b", repo="shop"), call("b", "a", repo="shop"),
                                       call("a", None, "api.stripe.com", TargetKind.EXTERNAL, repo="shop")],
                       [msg("b", Direction.PUBLISHES, "orders"), msg("c", Direction.CONSUMES, "orders")],
                       [entity("a", "orders", "postgres")], [Resource("pg", "shop", "database", "postgres")])
    git = FakeGitReader({"c1": {}}, head="c1")
    assert DrawSystemMap(store, git, CachedModelReader(store))() == DrawSystemMap(store, git)()


def test_an_empty_model_is_an_empty_knowledge_base() -> None:
    store = InMemoryKnowledgeStore()
    with pytest.raises(EmptyKnowledgeBase):
        DrawSystemMap(store, models=CachedModelReader(store))()
