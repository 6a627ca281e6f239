"""Two repositories that both have an ``api-gateway``: every graph, export and answer keeps them
apart and names them ``repository/name``, so that each name it prints can be asked about again.
Calls to an address static analysis could not resolve are gaps, never nodes or vendors."""

from __future__ import annotations

import pytest

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.architecture.smells import detect_all
from orbitkb.domain.catalog import ServiceCatalog, qualified_names
from orbitkb.domain.errors import ServiceNotFound
from orbitkb.domain.exports.backstage import render_backstage
from orbitkb.domain.exports.markdown import render_markdown
from orbitkb.domain.exports.mermaid import render_mermaid
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.integrations import is_unresolved_target
from orbitkb.domain.model import (
    Api,
    CallKind,
    Direction,
    Evidence,
    Message,
    PersistenceEntity,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
)
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.summaries import describe_from_facts
from orbitkb.domain.usecases.architecture import FindArchitectureSmells, GetRelationships, TraceFlow
from orbitkb.domain.usecases.change_surface import FindChangeSurface
from orbitkb.domain.usecases.describe import DescribeService
from orbitkb.domain.usecases.export import ExportSnapshot


def _svc(repo: str, name: str) -> Service:
    return Service(service_id(repo, name), name, repo, name, "python", "fastapi",
                   readme=f"{name} of the {repo} system: routes requests to the {repo} services.")


def _call(repo: str, a: str, b: str | None, target: str | None = None,
          kind: TargetKind = TargetKind.INTERNAL) -> ServiceCall:
    return ServiceCall(make_id("call", repo, a, b, target), service_id(repo, a), CallKind.HTTP, target or b or "?",
                       kind, to_service_id=service_id(repo, b) if b else None,
                       evidence=(Evidence(f"{a}/client.py", 3, 3),))


def _facts(repo: str, backend: str) -> list[ServiceFacts]:
    gw, be = _svc(repo, "api-gateway"), _svc(repo, backend)
    unresolved = (_call(repo, "api-gateway", None, "(relative)", TargetKind.UNKNOWN),
                  _call(repo, "api-gateway", None, "{string}", TargetKind.EXTERNAL),
                  _call(repo, "api-gateway", None, "${PAYMENTS_URL}", TargetKind.UNKNOWN))
    return [describe_from_facts(f) for f in (
        ServiceFacts(gw, apis=(Api(make_id("api", repo, "gw"), gw.id, "GET", f"/{backend}/{{id}}", "route",
                                   "gateway.py", 1, 2),),
                     calls=(_call(repo, "api-gateway", backend), *unresolved)),
        ServiceFacts(be, apis=(Api(make_id("api", repo, backend), be.id, "GET", f"/{backend}/{{id}}", "get",
                                   "app.py", 1, 2),),
                     entities=(PersistenceEntity(make_id("ent", repo, backend), be.id, backend, "sql_table",
                                                 "postgres"),),
                     messages=(Message(make_id("msg", repo, backend), be.id, Direction.PUBLISHES,
                                       f"{backend}.changed", "kafka"),)),
    )]


@pytest.fixture
def store() -> InMemoryKnowledgeStore:
    s = InMemoryKnowledgeStore()
    for repo, backend in (("shop", "orders"), ("bank", "ledger")):
        f = _facts(repo, backend)
        s.replace_repository_facts(Repository(repo, f"/{repo}", "none", None, "2026-01-01T00:00:00+00:00"), f,
                                   [], [], [], documents_for(f))
    return s


def test_same_named_services_are_two_nodes_named_by_repository(store: InMemoryKnowledgeStore) -> None:
    graph = SystemGraph.load(store)
    assert graph.names == ["bank/api-gateway", "ledger", "orders", "shop/api-gateway"]
    assert [(e.source, e.target) for e in graph.edges] == [("bank/api-gateway", "ledger"),
                                                           ("shop/api-gateway", "orders")]
    # every label is a name the catalog resolves to exactly that service
    catalog = ServiceCatalog(store.list_services())
    for label, svc in graph.by_label.items():
        assert catalog.lookup(label).id == svc.id
    with pytest.raises(ServiceNotFound, match="ambiguous"):
        catalog.lookup("api-gateway")


def test_relationships_and_trace_never_cross_repositories(store: InMemoryKnowledgeStore) -> None:
    rel = GetRelationships(store)("shop/api-gateway")
    assert rel.service == "shop/api-gateway"
    assert [(r.source_service, r.target_service) for r in rel.relationships] == [("shop/api-gateway", "orders")]
    assert [r.source_service for r in GetRelationships(store)("ledger", "inbound").relationships] == \
        ["bank/api-gateway"]
    flow = TraceFlow(store)("bank/api-gateway", "orders")
    assert flow.reachable is False and flow.source == "bank/api-gateway"
    ok = TraceFlow(store)("bank/api-gateway", "ledger")
    assert [(s.source, s.target) for s in ok.path] == [("bank/api-gateway", "ledger")]


def test_smells_and_describe_name_the_repository(store: InMemoryKnowledgeStore) -> None:
    graph = SystemGraph.load(store)
    for f in detect_all(graph, store.list_entities(), store.list_messages()):
        assert "api-gateway" not in f.services  # never the bare, ambiguous name
    assert DescribeService(store)("ledger").called_by == ("bank/api-gateway",)
    report = FindArchitectureSmells(store)()
    assert all("api-gateway" not in f.services for f in report.findings)


def test_exports_keep_one_page_node_and_component_per_service(store: InMemoryKnowledgeStore) -> None:
    snap = ExportSnapshot(store)()
    md = render_markdown(snap)
    pages = sorted(p for p in md if p.startswith("services/"))
    assert pages == ["services/bank/api-gateway.md", "services/ledger.md", "services/orders.md",
                     "services/shop/api-gateway.md"]
    assert md["services/bank/api-gateway.md"].startswith("# bank/api-gateway")
    topo = render_mermaid(snap)["topology.mmd"]
    assert 'n_shop_api_gateway["shop/api-gateway"]' in topo and 'n_bank_api_gateway["bank/api-gateway"]' in topo
    assert "n_shop_api_gateway -->|HTTP| n_orders" in topo and "n_bank_api_gateway -->|HTTP| n_ledger" in topo
    assert "n_shop_api_gateway -->|HTTP| n_ledger" not in topo
    catalog = render_backstage(snap)["catalog-info.yaml"]
    components = [line for line in catalog.splitlines() if line.startswith("  name: ")]
    assert len(components) == len(set(components))
    assert '  name: "bank-api-gateway"' in components and '  name: "shop-api-gateway"' in components
    assert "component:orders" in catalog


def test_unresolved_targets_are_no_nodes_vendors_or_integrations(store: InMemoryKnowledgeStore) -> None:
    for t in ("(relative)", "{string}", "${PAYMENTS_URL}", "http://${HOST}:8080/x", "unknown", ""):
        assert is_unresolved_target(t), t
    for t in ("api.stripe.com", "payments:8080", "http://orders/api", "Stripe API"):
        assert not is_unresolved_target(t), t
    graph = SystemGraph.load(store)
    assert graph.unresolved == 6
    topo = render_mermaid(ExportSnapshot(store)())["topology.mmd"]
    for marker in ("relative", "string", "PAYMENTS_URL", "ext_"):
        assert marker not in topo
    assert "6 call site(s) to an unresolved address" in topo
    kinds = {f.kind for f in detect_all(graph, store.list_entities(), store.list_messages())}
    assert "duplicate_external_integration" not in kinds  # "{string}" is not a vendor both gateways use
    surface = FindChangeSurface(store)("Rate-limit the shop api-gateway routes to orders", record=False)
    assert surface.external_integrations == ()
    assert all(u.service not in ("(relative)", "{string}", "${PAYMENTS_URL}") for u in surface.unknowns)


def test_change_surface_names_resolve_to_one_service(store: InMemoryKnowledgeStore) -> None:
    surface = FindChangeSurface(store)("Rate-limit the api-gateway routes to the ledger", record=False)
    catalog = ServiceCatalog(store.list_services())
    named = [f.service for tier in (surface.primary, surface.secondary) for f in tier]
    assert named, surface
    assert any(n.endswith("/api-gateway") for n in named)
    for q in surface.recommended_next_queries:
        if "service" in q.arguments and q.tool != "index":
            catalog.lookup(q.arguments["service"])  # never ambiguous, never unknown
    for name in [*named, *surface.freshness]:
        catalog.lookup(name)
    labels = set(qualified_names(store.list_services()).values())
    for step in surface.flow:
        assert step.source in labels and step.to in labels


def test_status_counts_unresolved_call_sites_as_such(store: InMemoryKnowledgeStore) -> None:
    from orbitkb.domain.usecases.status import GetStatus

    facts = GetStatus(store)("shop/api-gateway").repositories[0].facts
    assert (facts.calls, facts.calls_internal, facts.calls_external, facts.calls_unresolved) == (4, 1, 0, 3)
