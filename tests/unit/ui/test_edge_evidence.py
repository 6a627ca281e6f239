"""Edge evidence on demand (orbitkb.ui.evidence): the map's JSON without reasons and evidence, and
the index that answers them per edge and per node from the same drawing."""

from __future__ import annotations

import pytest

from orbitkb.domain import errors
from orbitkb.domain.fakes import FakeGitReader
from orbitkb.domain.model import Direction, Resource, TargetKind
from orbitkb.domain.model_cache import CachedModelReader
from orbitkb.domain.serialization import to_data
from orbitkb.domain.usecases.system_map import DrawSystemMap
from orbitkb.ui.evidence import MAX_LIMIT, EdgeEvidence, EdgeIndex, lean_map
from tests.unit.architecture.builders import call, entity, msg
from tests.unit.ui.test_system_map import store_with, two_repositories_at


def shop():
    return store_with("shop", ["web", "orders", "stock", "mailer"],
                      [call("web", "orders", repo="shop"), call("web", "orders", target="orders:9000", repo="shop"),
                       call("orders", "stock", repo="shop"), call("stock", "orders", repo="shop"),
                       call("orders", None, "api.paygate.example", TargetKind.EXTERNAL, repo="shop")],
                      [msg("orders", Direction.PUBLISHES, "order-placed", repo="shop"),
                       msg("mailer", Direction.CONSUMES, "order-placed", repo="shop")],
                      [entity("orders", "order", "postgres", repo="shop")],
                      [Resource("maindb", "shop", "database", "postgres")])


@pytest.fixture
def drawing():
    return DrawSystemMap(shop())()


def test_the_lean_map_keeps_every_edge_and_node_but_no_reason_or_evidence(drawing) -> None:
    full = to_data(drawing)
    lean = lean_map(to_data(drawing))
    assert [e["id"] for e in lean["edges"]] == [e["id"] for e in full["edges"]] and len(lean["edges"]) == 6
    assert all(set(e) == {"id", "source", "target", "protocol", "channel", "count"} for e in lean["edges"])
    assert lean["nodes"] == full["nodes"] and lean["repositories"] == full["repositories"]
    assert any(e["evidence"] for e in full["edges"])  # what was left out exists


def test_an_empty_answer_is_left_as_it_is() -> None:
    assert lean_map({"empty": True, "guidance": "index first"}) == {"empty": True, "guidance": "index first"}


def test_one_edge_answers_its_reason_and_every_call_site(drawing) -> None:
    index = EdgeIndex(drawing.nodes, drawing.edges)
    edge = index.edge("HTTP:service:web->service:orders:")
    assert edge.count == 2 and len(edge.evidence) == 2
    uses = index.edge("USES:service:orders->resource:shop/maindb:")
    assert "persists order" in (uses.reason or "")


@pytest.mark.parametrize("edge_id", ["HTTP:service:web->service:nowhere:", "", "<script>"])
def test_an_unknown_edge_is_not_found_and_says_to_reload(drawing, edge_id: str) -> None:
    with pytest.raises(errors.NotFound, match="no edge") as caught:
        EdgeIndex(drawing.nodes, drawing.edges).edge(edge_id)
    assert "reload" in (caught.value.hint or "")


def test_the_edges_of_a_node_in_out_and_both(drawing) -> None:
    index = EdgeIndex(drawing.nodes, drawing.edges)

    def ids(direction: str) -> list[str]:
        return [e.id for e in index.of_node("service:orders", direction)["edges"]]

    assert ids("in") == ["HTTP:service:stock->service:orders:", "HTTP:service:web->service:orders:"]
    assert ids("out") == ["HTTP:service:orders->service:stock:", "HTTP:service:orders->vendor:api.paygate.example:",
                          "MESSAGE:service:orders->service:mailer:order-placed",
                          "USES:service:orders->resource:shop/maindb:"]
    assert sorted(ids("any")) == sorted(ids("in") + ids("out"))
    assert [e.source for e in index.of_node("vendor:api.paygate.example", "in")["edges"]] == ["service:orders"]
    assert index.of_node("resource:shop/maindb")["total"] == 1


def test_a_call_to_itself_is_listed_once_at_its_service() -> None:
    m = DrawSystemMap(store_with("r", "ab", [call("a", "a"), call("a", "b")]))()
    page = EdgeIndex(m.nodes, m.edges).of_node("service:a")
    assert page["total"] == 2 and len({e.id for e in page["edges"]}) == 2


def test_a_node_without_edges_has_none(drawing) -> None:
    m = DrawSystemMap(store_with("r", "ab"))()
    assert EdgeIndex(m.nodes, m.edges).of_node("service:b") == {
        "node": "service:b", "direction": "any", "total": 0, "limit": 50, "offset": 0, "edges": []}


def test_the_edges_of_a_node_come_a_page_at_a_time(drawing) -> None:
    index = EdgeIndex(drawing.nodes, drawing.edges)
    every = index.of_node("service:orders")["edges"]
    first, second = index.of_node("service:orders", limit=4), index.of_node("service:orders", limit=4, offset=4)
    assert first["total"] == second["total"] == 6
    assert first["edges"] + second["edges"] == every and len(second["edges"]) == 2
    assert index.of_node("service:orders", offset=10)["edges"] == []


@pytest.mark.parametrize("kwargs,message", [
    ({"direction": "sideways"}, "direction must be one of any, in, out"),
    ({"limit": 0}, "limit must be between 1"), ({"limit": MAX_LIMIT + 1}, "limit must be between 1"),
    ({"offset": -1}, "offset must be 0 or more"),
])
def test_bad_paging_or_direction_is_invalid_input(drawing, kwargs, message: str) -> None:
    with pytest.raises(errors.InvalidInput, match=message):
        EdgeIndex(drawing.nodes, drawing.edges).of_node("service:orders", **kwargs)


@pytest.mark.parametrize("node", ["service:order", "orders", "service:<img src=x>"])
def test_an_unknown_node_is_not_found_with_the_closest_ones(drawing, node: str) -> None:
    with pytest.raises(errors.NotFound, match="no node") as caught:
        EdgeIndex(drawing.nodes, drawing.edges).of_node(node)
    if node == "service:order":
        assert "service:orders" in caught.value.suggestions


def test_the_index_is_kept_for_the_same_map_and_rebuilt_for_a_new_one() -> None:
    store = two_repositories_at({"old": "c1", "new": "c1"})
    git = FakeGitReader({"c1": {}, "c2": {}}, head="c1")
    draw = DrawSystemMap(store, git, CachedModelReader(store))
    indexes = EdgeEvidence()
    first = indexes(draw())
    assert indexes(draw()) is first and indexes.built == 1  # the same snapshot at the same freshness
    store.replace_repository_facts(*_one_more_repository())  # a write: a new snapshot, no edge either
    after = indexes(draw())
    assert after is not first and indexes.built == 2
    assert "service:extra/api" not in first.nodes and after.of_node("service:extra/api")["total"] == 0


def test_without_a_model_reader_every_drawing_is_indexed_anew() -> None:
    store = shop()
    draw, indexes = DrawSystemMap(store), EdgeEvidence()
    indexes(draw())
    indexes(draw())
    assert indexes.built == 2


def _one_more_repository():
    from orbitkb.domain.model import Repository, ServiceFacts
    from tests.unit.architecture.builders import svc

    return Repository("extra", "/src/extra"), [ServiceFacts(service=svc("api", "extra"))], [], [], [], []
