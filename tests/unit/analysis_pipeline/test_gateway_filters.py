"""Gateway path filters: the call's path is what the callee sees (StripPrefix, RewritePath,
PrefixPath, SetPath, nginx proxy_pass URIs), and it links to the one callee API it covers."""

from __future__ import annotations

from orbitkb.analysis.gateways.paths import (
    PathFilter,
    apply_filters,
    nginx_downstream,
    rewrite_path,
    shortcut_filter,
    strip_prefix,
)

GRADLE_GATEWAY = (
    "plugins { id 'org.springframework.boot' }\n"
    "dependencies { implementation 'org.springframework.cloud:spring-cloud-starter-gateway' }\n"
)

CALLEES = {
    "docker-compose.yml": """services:
  customers-service: {build: ./customers}
  vets-service: {build: ./vets}
  visits-service: {build: ./visits}
  api-gateway: {build: ./gateway}
""",
    "customers/pom.xml": "<project><artifactId>customers</artifactId></project>",
    "customers/src/main/java/Owners.java": (
        "// @entry\n// @api GET /owners list\n// @api GET /owners/{ownerId} find\n"
        "// @api POST /owners/{ownerId}/pets addPet\n"
    ),
    "vets/pom.xml": "<project><artifactId>vets</artifactId></project>",
    "vets/src/main/java/Vets.java": "// @entry\n// @api GET /vets showVets\n",
    "visits/pom.xml": "<project><artifactId>visits</artifactId></project>",
    "visits/src/main/java/Visits.java": (
        "// @entry\n// @api GET /pets/visits visitsOfPets\n// @api POST /owners/*/pets/{petId}/visits create\n"
    ),
    "gateway/build.gradle": GRADLE_GATEWAY,
    "gateway/src/main/java/Gw.java": "// @entry\n",
}


def gateway_calls(analyze, config_path: str, config: str, extra: dict[str, str] | None = None):
    files = dict(CALLEES)
    files[config_path] = config
    files.update(extra or {})
    run = analyze(files)
    apis = {(f.service.name, a.path): a.id for f in run.result.services for a in f.apis}
    calls = sorted(run.service("api-gateway").calls, key=lambda c: c.evidence[0].start_line)
    return calls, apis


SHORTCUT_YML = """spring:
  application:
    name: api-gateway
  cloud:
    gateway:
      routes:
        - id: customers
          uri: lb://customers-service
          predicates:
            - Path=/api/customer/**
          filters:
            - StripPrefix=2
        - id: vets
          uri: lb://vets-service
          predicates:
            - Path=/api/vet/**
          filters:
            - StripPrefix=2
        - id: visits
          uri: lb://visits-service
          predicates:
            - Path=/api/visit/**
          filters:
            - RewritePath=/api/visit/(?<segment>.*), /$\\{segment}
"""


def test_strip_prefix_shortcut_gives_the_downstream_path_and_links_only_a_single_api(analyze):
    calls, apis = gateway_calls(analyze, "gateway/src/main/resources/application.yml", SHORTCUT_YML)
    got = [(c.target, c.path, c.evidence[0].start_line, c.to_api_id) for c in calls]
    assert got == [
        ("customers-service", "/**", 8, None),  # three APIs under /**: ambiguous, path kept
        ("vets-service", "/**", 14, apis[("vets-service", "/vets")]),  # exactly one API
        ("visits-service", "/**", 20, None),
    ]
    assert calls[0].evidence[0].note == "route Path=/api/customer/** StripPrefix=2 forwarded as /**"
    assert calls[2].evidence[0].note == (
        "route Path=/api/visit/** RewritePath=/api/visit/(?<segment>.*), /$\\{segment} forwarded as /**"
    )


NAME_ARGS_YML = """spring:
  cloud:
    gateway:
      server:
        webflux:
          default-filters:
            - AddRequestHeader=X-Gw, 1
          routes:
            - id: owners
              uri: http://customers-service:8081
              predicates:
                - name: Path
                  args:
                    pattern: /gw/v2/owners/**
              filters:
                - name: StripPrefix
                  args:
                    parts: 2
            - id: vets
              uri: ${VETS_URI:http://vets-service:8083}
              predicates:
                - Path=/vet-api/**
                - Method=GET
              filters:
                - name: RewritePath
                  args:
                    regexp: /vet-api/?(?<rest>.*)
                    replacement: /vets/${rest}
            - id: pets
              uri: lb://customers-service
              predicates:
                - Path=/pets-api/{ownerId}/**
              filters:
                - name: RewritePath
                  args:
                    _genkey_0: /pets-api/([^/]+)/(.*)
                    _genkey_1: /owners/$1/pets/$2
            - id: visits
              uri: lb://visits-service
              predicates:
                - Path=/visits/**
              filters:
                - PrefixPath=/pets
"""


def test_name_args_forms_rewrite_with_named_and_numbered_groups_and_prefix_path(analyze):
    calls, apis = gateway_calls(analyze, "gateway/src/main/resources/application.yml", NAME_ARGS_YML)
    got = [(c.target, c.method, c.path, c.to_api_id) for c in calls]
    assert got == [
        ("customers-service", None, "/owners/**", None),  # /owners, /owners/{ownerId}, .../pets
        ("vets-service", "GET", "/vets/**", apis[("vets-service", "/vets")]),  # ** spans zero segments
        (
            "customers-service",
            None,
            "/owners/{ownerId}/pets/**",
            apis[("customers-service", "/owners/{ownerId}/pets")],
        ),
        ("visits-service", None, "/pets/visits/**", apis[("visits-service", "/pets/visits")]),
    ]


PROPERTIES = """spring.application.name=api-gateway
spring.cloud.gateway.default-filters[0]=StripPrefix=1
spring.cloud.gateway.routes[0].id=vets
spring.cloud.gateway.routes[0].uri=lb://vets-service
spring.cloud.gateway.routes[0].predicates[0]=Path=/api/vets/**
spring.cloud.gateway.routes[1].id=customers
spring.cloud.gateway.routes[1].uri=lb://customers-service
spring.cloud.gateway.routes[1].predicates[0]=Path=/edge/api/owners/**
spring.cloud.gateway.routes[1].filters[0]=StripPrefix=1
spring.cloud.gateway.routes[1].filters[1]=SetStatus=401
"""


def test_properties_file_with_default_filters_applied_before_the_routes_own(analyze):
    calls, apis = gateway_calls(analyze, "gateway/src/main/resources/application.properties", PROPERTIES)
    got = [(c.target, c.path, c.evidence[0].start_line, c.to_api_id) for c in calls]
    assert got == [
        ("vets-service", "/vets/**", 4, apis[("vets-service", "/vets")]),
        ("customers-service", "/owners/**", 7, None),
    ]


def test_routes_without_path_filters_keep_the_predicate_as_written(analyze):
    yml = """spring:
  cloud:
    gateway:
      routes:
        - id: vets
          uri: lb://vets-service
          predicates:
            - Path=/vets/**
          filters:
            - AddResponseHeader=X-Cache, none
            - name: CircuitBreaker
              args: {name: vets}
"""
    calls, apis = gateway_calls(analyze, "gateway/src/main/resources/application.yml", yml)
    assert [(c.path, c.evidence[0].note, c.to_api_id) for c in calls] == [
        ("/vets/**", None, apis[("vets-service", "/vets")])
    ]


NGINX = """
server {
    listen 80;
    location /api/ {
        proxy_pass http://vets-service:8083/;
    }
    location /customers/ {
        proxy_pass http://customers-service:8081/owners/;
    }
    location = /status {
        proxy_pass http://visits-service:8082/pets/visits;
    }
    location ~ ^/legacy/(.*)$ {
        proxy_pass http://customers-service:8081;
    }
}
"""


def test_nginx_proxy_pass_with_a_uri_replaces_the_location_prefix(analyze):
    extra = {
        "docker-compose.yml": CALLEES["docker-compose.yml"]
        + "  edge:\n    image: nginx:1.27-alpine\n    volumes: ['./edge/default.conf:/etc/nginx/conf.d/default.conf']\n",
        "edge/default.conf": NGINX,
    }
    run_calls, apis = gateway_calls(analyze, "gateway/src/main/resources/application.yml", "", extra)
    assert run_calls == []
    files = dict(CALLEES)
    files.update(extra)
    run = analyze(files)
    got = [(c.target, c.path, c.to_api_id, c.evidence[0].note) for c in run.service("edge").calls]
    assert got == [
        ("vets-service", "/**", apis[("vets-service", "/vets")], "location /api/ forwarded as /**"),
        ("customers-service", "/owners/**", None, "location /customers/ forwarded as /owners/**"),
        (
            "visits-service",
            "/pets/visits",
            apis[("visits-service", "/pets/visits")],
            "location /status forwarded as /pets/visits",
        ),
        ("customers-service", "^/legacy/(.*)$", None, None),
    ]


# ----------------------------------------------------------------------------- path arithmetic


def test_strip_prefix_counts_segments_and_keeps_a_trailing_wildcard():
    assert strip_prefix("/api/customer/**", 2) == "/**"
    assert strip_prefix("/api/customer/owners/{id}", 2) == "/owners/{id}"
    assert strip_prefix("/api/**", 5) == "/**"
    assert strip_prefix("/api/x", 2) == "/"


def test_rewrite_path_runs_java_regexes_over_patterns():
    assert rewrite_path("/api/gateway/**", "/api/gateway/(?<segment>.*)", "/$\\{segment}") == "/**"
    assert rewrite_path("/a/**", "/a/(?<s>.*)", "/v1/${s}") == "/v1/**"
    assert rewrite_path("/a/{id}/b", "^/a/([^/]+)/b$", "/things/$1") == "/things/{id}"
    assert rewrite_path("/a/**", "(?<=x)/a", "/b") == "/a/**"  # lookbehind left alone, no match
    assert rewrite_path("/a/**", "/a/(unclosed", "/x") is None
    assert rewrite_path("/a/**", "/a/(?<s>.*)", "/${nope}") is None


def test_filters_apply_in_order_and_unknown_or_bad_ones_change_nothing():
    filters = [
        PathFilter("PrefixPath", ("/internal",)),
        PathFilter("StripPrefix", ("x",)),
        PathFilter("RewritePath", ("/internal/(?<r>.*)", "/v2/${r}")),
        PathFilter("Retry", ("3",)),
    ]
    path, applied = apply_filters("/orders/**", filters)
    assert path == "/v2/orders/**"
    assert applied == ["PrefixPath=/internal", "RewritePath=/internal/(?<r>.*), /v2/${r}"]
    assert shortcut_filter("RewritePath=/a/(?<s>\\d{1,3}), /$\\{s}") == PathFilter(
        "RewritePath", ("/a/(?<s>\\d{1,3})", "/$\\{s}")
    )
    assert shortcut_filter("AddRequestHeader=X, y") is None
    assert shortcut_filter("StripPrefix") is None


def test_nginx_downstream_by_location_modifier():
    assert nginx_downstream(["/api/"], "http://svc:80/") == ("/**", "location /api/ forwarded as /**")
    assert nginx_downstream(["/api"], "http://svc:80") == ("/api/**", None)
    assert nginx_downstream(["^~", "/static/"], "http://cdn/assets/") == (
        "/assets/**",
        "location /static/ forwarded as /assets/**",
    )
    assert nginx_downstream(["=", "/ping"], "http://svc/health") == (
        "/health",
        "location /ping forwarded as /health",
    )
    assert nginx_downstream(["/api/"], "http://svc$request_uri") == ("/api/**", None)
    assert nginx_downstream(["/same/"], "http://svc/same/") == ("/same/**", None)
    assert nginx_downstream([], "http://svc/") == (None, None)
