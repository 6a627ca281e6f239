"""Envoy route configurations, Kong declarative configs and Traefik routers (file provider and
Docker labels) as gateway routes, and as calls from the gateway once deployed next to the
services they route to."""

from __future__ import annotations

from orbitkb.analysis.gateways.calls import is_proxy_config, proxy_routes, proxy_server

ENVOY_V3 = """static_resources:
  listeners:
  - name: edge
    address: {socket_address: {address: 0.0.0.0, port_value: 8080}}
    filter_chains:
    - filters:
      - name: envoy.filters.network.http_connection_manager
        typed_config:
          route_config:
            virtual_hosts:
            - name: all
              domains: ["*"]
              routes:
              - match: {prefix: "/api/ledger/"}
                route: {cluster: ledger, prefix_rewrite: "/"}
              - match:
                  path: /quotes/latest
                  headers: [{name: ":method", string_match: {exact: GET}}]
                route: {cluster: quotes}
              - match: {safe_regex: {regex: "^/v[0-9]+/quotes/.*"}}
                route:
                  weighted_clusters:
                    clusters: [{name: quotes, weight: 90}, {name: quotes-canary, weight: 10}]
              - match: {prefix: "/"}
                redirect: {https_redirect: true}
  clusters:
  - name: ledger
    type: STRICT_DNS
    load_assignment:
      cluster_name: ledger
      endpoints:
      - lb_endpoints:
        - endpoint: {address: {socket_address: {address: ledger, port_value: 9000}}}
  - name: quotes
    load_assignment:
      endpoints:
      - lb_endpoints:
        - endpoint: {address: {socket_address: {address: quotes, port_value: 8000}}}
  - name: quotes-canary
    hosts: [{socket_address: {address: quotes-next, port_value: 8000}}]
"""

KONG = """_format_version: "3.0"
upstreams:
  - name: ledger-pool
    targets: [{target: "ledger:9000"}, {target: "ledger-replica:9000"}]
services:
  - name: quotes
    url: http://quotes:8000/v1
    routes:
      - name: quotes-route
        paths: [/quotes]
      - name: quotes-raw
        paths: [/raw]
        strip_path: false
        methods: [GET]
  - name: ledger
    host: ledger-pool
    protocol: http
    routes:
      - paths: ["~/ledger/\\\\d+$"]
routes:
  - name: hooks
    service: {name: quotes}
    paths: [/hooks]
"""

TRAEFIK_YAML = """http:
  routers:
    ledger:
      rule: "Host(`shop.local`) && PathPrefix(`/api/ledger`)"
      service: ledger-svc
      middlewares: [drop-api]
    quotes:
      rule: "Path(`/quotes`) || Path(`/quotes/latest`) && Method(`GET`)"
      service: quotes@file
  middlewares:
    drop-api:
      stripPrefix: {prefixes: ["/api"]}
  services:
    ledger-svc:
      loadBalancer:
        servers: [{url: "http://ledger:9000/"}]
    quotes:
      loadBalancer: {servers: [{url: "http://quotes:8000"}]}
"""

TRAEFIK_TOML = """[http.routers]
  [http.routers.hooks]
    rule = "PathPrefix(`/hooks`)"
    service = "hooks"
    middlewares = ["prefix-v2"]
[http.middlewares.prefix-v2.addPrefix]
  prefix = "/v2"
[http.services.hooks.loadBalancer]
  [[http.services.hooks.loadBalancer.servers]]
    url = "http://hooks:7000"
"""


def routes(path: str, text: str) -> list[tuple[str | None, str | None, int, str, str | None, str | None]]:
    return [(r.url.literal(), r.path, r.line, r.client, r.method, r.note) for r in proxy_routes(path, text)]


def test_envoy_routes_go_to_the_endpoints_of_their_clusters():
    assert is_proxy_config("edge/envoy.yaml", ENVOY_V3) and proxy_server(ENVOY_V3, "edge/envoy.yaml") == "envoy"
    assert routes("edge/envoy.yaml", ENVOY_V3) == [
        ("http://ledger:9000", "/**", 14, "envoy", None, "prefix /api/ledger/** forwarded as /**"),
        ("http://quotes:8000", "/quotes/latest", 16, "envoy", "GET", None),
        ("http://quotes:8000", "^/v[0-9]+/quotes/.*", 20, "envoy", None, None),
        ("http://quotes-next:8000", "^/v[0-9]+/quotes/.*", 20, "envoy", None, None),
    ]


def test_kong_routes_strip_their_paths_unless_told_not_to():
    assert proxy_server(KONG, "gw/kong.yml") == "kong"
    assert routes("gw/kong.yml", KONG) == [
        ("http://quotes:8000", "/v1/**", 9, "kong", None, "strip_path /quotes/** forwarded as /v1/**"),
        ("http://quotes:8000", "/v1/raw/**", 11, "kong", "GET", "path /raw/** forwarded as /v1/raw/**"),
        ("http://ledger:9000", "/ledger/\\d+$", 19, "kong", None, None),
        ("http://ledger-replica:9000", "/ledger/\\d+$", 19, "kong", None, None),
        ("http://quotes:8000", "/v1/**", 21, "kong", None, "strip_path /hooks/** forwarded as /v1/**"),
    ]


def test_traefik_file_provider_in_yaml_and_toml():
    assert proxy_server(TRAEFIK_YAML, "gw/dynamic.yml") == "traefik"
    assert routes("gw/dynamic.yml", TRAEFIK_YAML) == [
        ("http://ledger:9000/", "/ledger/**", 3, "traefik", None, "router /api/ledger/** forwarded as /ledger/**"),
        ("http://quotes:8000", "/quotes", 7, "traefik", "GET", None),
        ("http://quotes:8000", "/quotes/latest", 7, "traefik", "GET", None),
    ]
    assert routes("gw/traefik-dynamic.toml", TRAEFIK_TOML) == [
        ("http://hooks:7000", "/v2/hooks/**", 2, "traefik", None, "router /hooks/** forwarded as /v2/hooks/**"),
    ]


def test_configs_that_are_not_gateway_routes():
    assert not is_proxy_config("gw/traefik.yml", "entryPoints:\n  web: {address: ':80'}\nproviders: {docker: {}}\n")
    assert not is_proxy_config("svc/application.yml", "spring:\n  application: {name: quotes}\n")
    assert not is_proxy_config("gw/kong.md", KONG)
    assert routes("gw/envoy.yaml", "static_resources: {clusters: [], virtual_hosts: [{routes: [cluster]}]}") == []
    assert routes("gw/kong.yml", "_format_version: '3.0'\nservices: [{name: x}]\n") == []


BACKENDS = {
    "ledger/requirements.txt": "flask\n",
    "ledger/app.py": "# @entry\n# @api GET /entries entries\n",
    "quotes/package.json": '{"scripts": {"start": "node index.js"}}',
    "quotes/index.js": "// @api GET /quotes/latest latest\n",
}


def _calls(run, name: str) -> list[tuple[str | None, str | None, int]]:
    return sorted((c.target, c.path, c.evidence[0].start_line) for c in run.service(name).calls)


def test_an_envoy_container_with_its_mounted_config_is_a_gateway(analyze):
    compose = """services:
  ledger: {build: ledger}
  quotes: {build: quotes}
  front:
    image: envoyproxy/envoy:v1.30-latest
    volumes: ["./edge/envoy.yaml:/etc/envoy/envoy.yaml:ro"]
    ports: ["80:8080"]
"""
    run = analyze({**BACKENDS, "docker-compose.yml": compose, "edge/envoy.yaml": ENVOY_V3})
    assert run.service("front").service.framework == "envoy"
    assert _calls(run, "front") == [
        ("ledger", "/**", 14), ("quotes", "/quotes/latest", 16), ("quotes", "^/v[0-9]+/quotes/.*", 20),
        ("quotes-next", "^/v[0-9]+/quotes/.*", 20),
    ]


def test_an_envoy_image_in_the_base_file_with_its_config_mounted_by_the_override(analyze):
    base = "services:\n  ledger: {build: ledger}\n  quotes: {build: quotes}\n  front:\n    image: envoyproxy/envoy:v1.30-latest\n"
    override = "services:\n  front:\n    volumes:\n      - ./edge:/etc/envoy\n    ports: ['80:8080']\n"
    files = {**BACKENDS, "docker-compose.yml": base, "docker-compose.override.yml": override, "edge/envoy.yaml": ENVOY_V3}
    run = analyze(files)
    assert run.service("front").service.framework == "envoy"
    assert ("ledger", "/**", 14) in _calls(run, "front")


def test_negative_a_mount_of_another_compose_projects_service_is_not_its_config(analyze):
    base = "services:\n  ledger: {build: ledger}\n  quotes: {build: quotes}\n  front:\n    image: envoyproxy/envoy:v1.30-latest\n"
    other = "services:\n  front:\n    volumes:\n      - ../edge:/etc/envoy\n"
    files = {**BACKENDS, "deploy/docker-compose.yml": base, "other/docker-compose.override.yml": other,
             "edge/envoy.yaml": ENVOY_V3}  # fmt: skip
    assert "front" not in analyze(files).names()


def test_a_kong_folder_built_from_a_dockerfile_is_a_gateway(analyze):
    compose = "services:\n  ledger: {build: ledger}\n  quotes: {build: quotes}\n  api-gw: {build: gw}\n"
    files = {**BACKENDS, "docker-compose.yml": compose, "gw/Dockerfile": "FROM kong:3.6\nCOPY kong.yml /kong/\n",
             "gw/kong.yml": KONG}  # fmt: skip
    run = analyze(files)
    assert run.service("api-gw").service.framework == "kong"
    assert {t for t, _, _ in _calls(run, "api-gw")} == {"ledger", "ledger-replica", "quotes"}


LABELLED = """services:
  proxy:
    image: traefik:v3.0
    command: ["--providers.docker=true"]
  ledger:
    build: ledger
    labels:
      - traefik.enable=true
      - traefik.http.routers.ledger.rule=PathPrefix(`/api/ledger`)
      - traefik.http.routers.ledger.middlewares=ledger-strip
      - traefik.http.middlewares.ledger-strip.stripprefix.prefixes=/api/ledger
      - traefik.http.services.ledger.loadbalancer.server.port=9000
  quotes:
    build: quotes
    ports: ["8000"]
    labels:
      traefik.frontend.rule: "PathPrefixStrip:/quotes"
  hidden:
    build: quotes
    labels: ["traefik.enable=false", "traefik.http.routers.x.rule=PathPrefix(`/x`)"]
"""


def _resources(run) -> dict[str, tuple[str, str]]:
    return {r.name: (r.kind, r.engine) for r in run.result.resources}


def test_a_stock_traefik_reading_only_its_neighbours_labels_is_infrastructure(analyze):
    run = analyze({**BACKENDS, "docker-compose.yml": LABELLED})
    assert "proxy" not in run.names()
    assert _resources(run)["proxy"] == ("proxy", "traefik")
    assert [c for name in run.names() for c in run.service(name).calls if c.evidence[0].file.endswith(".yml")] == []


def test_a_traefik_with_its_own_route_file_mounted_also_routes_by_labels(analyze):
    compose = LABELLED.replace(
        '    command: ["--providers.docker=true"]\n',
        '    command: ["--providers.docker=true"]\n    volumes: ["./edge/dynamic.yml:/etc/traefik/dynamic.yml"]\n',
    )
    run = analyze({**BACKENDS, "docker-compose.yml": compose, "edge/dynamic.yml": TRAEFIK_YAML})
    proxy = run.service("proxy")
    assert proxy.service.framework == "traefik"
    assert ("ledger", "/**", "docker-compose.yml", 10) in {
        (c.target, c.path, c.evidence[0].file, c.evidence[0].start_line) for c in proxy.calls
    }
    assert "proxy" not in _resources(run)


def test_stock_proxy_images_pulled_with_nothing_mounted_are_infrastructure(analyze):
    compose = """services:
  ledger: {build: ledger}
  quotes: {build: quotes}
  lb: {image: 'haproxy:2.9-alpine', ports: ["80:80"]}
  tls: {image: caddy}
  web: {image: 'docker.io/library/nginx:1.27'}
  edge: {image: envoyproxy/envoy:v1.30-latest}
  cache: {image: 'redis:7'}
  tool: {image: 'ghcr.io/acme/reporter:1.0'}
"""
    run = analyze({**BACKENDS, "docker-compose.yml": compose})
    assert sorted(run.names()) == ["ledger", "quotes"]
    found = _resources(run)
    assert {k: found[k] for k in ("lb", "tls", "web", "edge")} == {
        "lb": ("proxy", "haproxy"), "tls": ("proxy", "caddy"), "web": ("proxy", "nginx"), "edge": ("proxy", "envoy"),
    }
    assert found["cache"] == ("cache", "redis")
    assert "tool" not in found  # an unknown image is neither a service nor known infrastructure


def test_traefik_without_labelled_neighbours_is_not_a_gateway(analyze):
    compose = "services:\n  proxy: {image: 'traefik:v3.0'}\n  ledger: {build: ledger}\n  quotes: {build: quotes}\n"
    run = analyze({**BACKENDS, "docker-compose.yml": compose})
    assert "proxy" not in run.names()


ENVOY_GRPC = """static_resources:
  listeners:
  - filter_chains:
    - filters:
      - typed_config:
          route_config:
            virtual_hosts:
            - routes:
              - match: {prefix: "/shop.Ledger"}
                route: {cluster: ledger}
              - match: {prefix: "/", grpc: {}}
                route: {cluster: plain}
              - match: {prefix: "/web"}
                route: {cluster: plain}
          http_filters:
          - name: envoy.filters.http.grpc_web
          - name: envoy.filters.http.router
  clusters:
  - name: ledger
    http2_protocol_options: {}
    load_assignment: {endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: ledger, port_value: 50051}}}}]}]}
  - name: plain
    load_assignment: {endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: web, port_value: 80}}}}]}]}
"""


def test_envoy_routes_forwarding_grpc():
    found = [(r.url.literal(), r.kind) for r in proxy_routes("edge/envoy.yaml", ENVOY_GRPC)]
    assert found == [("http://ledger:50051", "grpc"), ("http://web:80", "grpc"), ("http://web:80", "http")]
    without_filter = ENVOY_GRPC.replace("envoy.filters.http.grpc_web", "envoy.filters.http.cors")
    assert [r.kind for r in proxy_routes("edge/envoy.yaml", without_filter)] == ["http", "grpc", "http"]


def test_negative_traefik_in_its_own_compose_project_routes_no_calls(analyze):
    edge = """services:
  edge:
    image: traefik:v3.1
    labels:
      - traefik.http.routers.dashboard.rule=Host(`ops.local`)
      - traefik.http.routers.dashboard.service=api@internal
"""
    apps = """services:
  ledger:
    build: ../ledger
    labels: ["traefik.http.routers.ledger.rule=Host(`shop.local`) && PathPrefix(`/ledger`)"]
  quotes: {build: ../quotes}
"""
    run = analyze({**BACKENDS, "infra/edge/docker-compose.yml": edge, "deploy/docker-compose.yml": apps})
    assert "edge" not in run.names()  # a folder holding only its compose file is not a source of its own
    assert _resources(run)["edge"] == ("proxy", "traefik")
    assert _calls(run, "ledger") == []


def test_traefik_and_kong_containers_mounting_their_route_files(analyze):
    compose = """services:
  ledger: {build: ledger}
  quotes: {build: quotes}
  edge:
    image: traefik:v2.11
    volumes: ["./edge/dynamic.yml:/etc/traefik/dynamic.yml:ro", "/var/run/docker.sock:/var/run/docker.sock"]
  api:
    image: kong/kong-gateway:3.6
    environment: {KONG_DECLARATIVE_CONFIG: /kong/declarative/kong.yml}
    volumes: ["./kong:/kong/declarative"]
"""
    files = {**BACKENDS, "docker-compose.yml": compose, "edge/dynamic.yml": TRAEFIK_YAML, "kong/kong.yml": KONG}
    run = analyze(files)
    assert (run.service("edge").service.framework, run.service("api").service.framework) == ("traefik", "kong")
    assert {t for t, _, _ in _calls(run, "edge")} == {"ledger", "quotes"}
    assert {t for t, _, _ in _calls(run, "api")} == {"ledger", "ledger-replica", "quotes"}
