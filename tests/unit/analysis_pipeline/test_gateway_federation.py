"""GraphQL federation: a router's supergraph (the composed SDL's ``@join__graph`` URLs, or rover's
``supergraph.yaml`` routing URLs) read as calls from the router to each subgraph, whether the
supergraph lies in the router's folder or is mounted into its container from elsewhere."""

from __future__ import annotations

from orbitkb.analysis.gateways.calls import is_proxy_config, mounted_config, proxy_routes, proxy_server

SDL = """schema @link(url: "https://specs.apollo.dev/link/v1.0") { query: Query }

directive @join__graph(name: String!, url: String!) on ENUM_VALUE

enum join__Graph {
  LEDGER @join__graph(name: "ledger", url: "http://ledger:9000/graphql")
  QUOTES @join__graph(
    url: "http://quotes:8000/api/graph?debug=1"
    name: "quotes"
  )
  MANAGED @join__graph(name: "managed", url: "")
}

type Query @join__type(graph: LEDGER) { entries: [String] }
"""

ROVER = """federation_version: =2.3.2
subgraphs:
  ledger:
    routing_url: http://ledger:9000/graphql
    schema: {file: ./ledger/schema.graphql}
  quotes:
    schema:
      subgraph_url: http://localhost:8000/graphql
    routing_url: https://quotes:8443
  drafts:
    schema: {file: ./drafts.graphql}
"""


def routes(path: str, text: str) -> list[tuple[str | None, str | None, int, str, str | None]]:
    return [(r.url.literal(), r.path, r.line, r.client, r.method) for r in proxy_routes(path, text)]


def test_a_supergraph_sdl_routes_to_every_subgraph_url_in_either_argument_order():
    assert is_proxy_config("graph/supergraph.graphql", SDL)
    assert proxy_server(SDL, "graph/supergraph.graphql") == "graphql-federation"
    assert routes("graph/supergraph.graphql", SDL) == [
        ("http://ledger:9000/graphql", "/graphql", 6, "graphql-federation", "POST"),
        ("http://quotes:8000/api/graph?debug=1", "/api/graph", 7, "graphql-federation", "POST"),
    ]
    assert routes("graph/supergraph.gql", SDL) == routes("graph/supergraph.graphql", SDL)


def test_a_rover_composition_config_routes_to_its_routing_urls():
    assert proxy_server(ROVER, "supergraph.yaml") == "graphql-federation"
    assert routes("supergraph.yaml", ROVER) == [
        ("http://ledger:9000/graphql", "/graphql", 4, "graphql-federation", "POST"),
        ("https://quotes:8443", "/", 9, "graphql-federation", "POST"),
    ]


def test_negative_schemas_and_configs_that_route_nowhere():
    plain = 'type Query { entries: [String] }\nextend schema @link(url: "https://specs.apollo.dev/federation/v2.0")\n'
    assert not is_proxy_config("ledger/schema.graphql", plain)
    assert (
        routes(
            "graph/supergraph.graphql", "directive @join__graph(name: String!, url: String!) on ENUM_VALUE\n"
        )
        == []
    )
    assert not is_proxy_config("ci.yml", "jobs:\n  subgraphs: {runs-on: ubuntu-latest}\n")
    assert not is_proxy_config("graph/supergraph.md", SDL)  # prose quoting a supergraph


def test_a_mounted_config_belongs_to_the_container_mounting_it_but_not_through_a_mount_of_everything():
    assert mounted_config("graph/supergraph.graphql", "router", ["graph/supergraph.graphql"])
    assert mounted_config("graph/supergraph.graphql", "router", ["graph"])
    assert not mounted_config("graph/supergraph.graphql", "router", ["."])  # ./:/app
    assert not mounted_config(
        "router/conf/supergraph.graphql", "router/conf/x", ["router"]
    )  # its own tree, above it
    assert not mounted_config("graph/supergraph.graphql", "router", ["router", "data"])


SUBGRAPHS = {
    "ledger/requirements.txt": "flask\n",
    "ledger/app.py": "# @entry\n# @api POST /graphql graph\n",
    "quotes/package.json": '{"scripts": {"start": "node index.js"}}',
    "quotes/index.js": "// @api POST /api/graph graph\n",
    "router/package.json": '{"scripts": {"start": "node gateway.js"}}',
    "router/gateway.js": "// @entry\n",
}


def _calls(run, name: str) -> list[tuple[str | None, str | None, int]]:
    return sorted((c.target, c.path, c.evidence[0].start_line) for c in run.service(name).calls)


def test_a_router_calls_the_subgraphs_of_the_supergraph_mounted_into_its_container(analyze):
    compose = """services:
  ledger: {build: ./ledger}
  quotes: {build: ./quotes}
  router:
    build: ./router
    volumes: ["./graph/supergraph.graphql:/etc/config/supergraph.graphql"]
"""
    run = analyze({**SUBGRAPHS, "docker-compose.yml": compose, "graph/supergraph.graphql": SDL})
    assert _calls(run, "router") == [("ledger", "/graphql", 6), ("quotes", "/api/graph", 7)]
    assert _calls(run, "ledger") == [] and _calls(run, "quotes") == []


def test_a_router_with_its_composition_config_in_its_own_folder(analyze):
    compose = (
        "services:\n  ledger: {build: ./ledger}\n  quotes: {build: ./quotes}\n  router: {build: ./router}\n"
    )
    run = analyze({**SUBGRAPHS, "docker-compose.yml": compose, "router/supergraph.yaml": ROVER})
    assert [(t, p) for t, p, _ in _calls(run, "router")] == [("ledger", "/graphql"), ("quotes", "/")]


def test_negative_a_supergraph_nobody_mounts_or_holds_is_no_ones_calls(analyze):
    compose = """services:
  ledger: {build: ./ledger}
  quotes: {build: ./quotes}
  router:
    build: ./router
    volumes: ["./:/workspace"]
"""
    run = analyze({**SUBGRAPHS, "docker-compose.yml": compose, "graph/supergraph.graphql": SDL})
    assert _calls(run, "router") == []
