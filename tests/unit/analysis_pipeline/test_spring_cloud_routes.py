"""Spring Cloud on the pipeline with the real JVM linker: Zuul's default route to every service
registered with discovery and its configured routes, a config server's served files (context
paths, client addresses) and served-path prefixes on endpoints."""

from __future__ import annotations

from orbitkb.analysis.jvm import ANALYZER


def pom(name: str, *deps: str) -> str:
    body = "".join(f"<dependency><artifactId>{d}</artifactId></dependency>" for d in deps)
    return f"<project><artifactId>{name}</artifactId><dependencies>{body}</dependencies></project>"


def app(package: str, *anns: str, body: str = "") -> str:
    lines = "\n".join(anns)
    return (
        f"package {package};\n\nimport org.springframework.boot.autoconfigure.SpringBootApplication;\n"
        f"import org.springframework.cloud.netflix.zuul.EnableZuulProxy;\n"
        f"import org.springframework.web.bind.annotation.*;\n\n"
        f"@SpringBootApplication\n{lines}\npublic class App {{\n"
        f"  public static void main(String[] a) {{ }}\n{body}}}\n"
    )


CONTROLLER = '  @RestController static class Api { @GetMapping("/items/{id}") String one() { return ""; } }\n'

REGISTERED = "eureka:\n  client:\n    serviceUrl:\n      defaultZone: http://registry:8761/eureka/\n"

FLEET = {
    "docker-compose.yml": (
        "services:\n  registry: {build: ./registry}\n  hangar: {build: ./hangar}\n"
        "  tower: {build: ./tower}\n  runway: {build: ./runway}\n  edge: {build: ./edge}\n"
    ),
    "registry/pom.xml": pom("registry", "spring-cloud-starter-netflix-eureka-server"),
    "registry/src/main/java/r/App.java": app("r", "@EnableEurekaServer"),
    "registry/src/main/resources/application.yml": (
        "spring.application.name: registry\neureka:\n  client:\n    register-with-eureka: false\n"
    ),
    "hangar/pom.xml": pom("hangar"),
    "hangar/src/main/java/h/App.java": app("h", body=CONTROLLER),
    "hangar/src/main/resources/application.yml": "spring.application.name: hangar\n" + REGISTERED,
    "tower/pom.xml": pom("tower", "spring-cloud-starter-netflix-eureka-client"),
    "tower/src/main/java/t/App.java": app("t", body=CONTROLLER),
    "runway/pom.xml": pom("runway"),  # does not register: no default route
    "runway/src/main/java/w/App.java": app("w", body=CONTROLLER),
    "edge/pom.xml": pom("edge", "spring-cloud-starter-netflix-zuul"),
    "edge/src/main/java/e/App.java": app("e", "@EnableZuulProxy"),
    "edge/src/main/resources/application.yml": "spring.application.name: edge\n" + REGISTERED,
}


def edges(run, name: str) -> list[tuple[str, str, int]]:
    by_id = {f.service.id: f.service.name for f in run.result.services}
    return sorted(
        (by_id.get(c.to_service_id or "", c.target), c.evidence[0].file, c.evidence[0].start_line)
        for c in run.service(name).calls
    )


def test_a_zuul_proxy_routes_to_every_service_registered_with_discovery(analyze):
    run = analyze(FLEET, stubs=[ANALYZER])
    assert edges(run, "edge") == [
        ("hangar", "edge/src/main/java/e/App.java", 8),  # the @EnableZuulProxy line
        ("tower", "edge/src/main/java/e/App.java", 8),
    ]


def test_configured_zuul_routes_and_ignored_services(analyze):
    files = dict(FLEET)
    files["edge/src/main/resources/application.yml"] = (
        "spring.application.name: edge\n" + REGISTERED + "zuul:\n  ignored-services: '*'\n  routes:\n"
        "    hangars:\n      path: /api/hangars/**\n      serviceId: hangar\n"
        "    runway:\n      path: /api/runway/**\n      url: http://runway:8080\n"
    )
    run = analyze(files, stubs=[ANALYZER])
    assert edges(run, "edge") == [
        ("hangar", "edge/src/main/resources/application.yml", 11),
        ("runway", "edge/src/main/resources/application.yml", 14),
    ]
    paths = sorted(c.path for c in run.service("edge").calls)
    assert paths == ["/**", "/**"]  # Zuul strips the route's literal prefix


def test_without_the_proxy_annotation_nothing_is_routed(analyze):
    files = dict(FLEET)
    files["edge/src/main/java/e/App.java"] = app("e")
    assert edges(analyze(files, stubs=[ANALYZER]), "edge") == []


CONFIGURED = {
    "docker-compose.yml": (
        "services:\n  config: {build: ./config}\n  hangar: {build: ./hangar}\n  tower: {build: ./tower}\n"
        "  runway: {build: ./runway}\n"
    ),
    "config/pom.xml": pom("config", "spring-cloud-config-server"),
    "config/src/main/java/c/App.java": app("c", "@EnableConfigServer"),
    "config/src/main/resources/application.yml": (
        "spring:\n  cloud:\n    config:\n      server:\n        native:\n"
        "          search-locations: classpath:/served\n  profiles:\n    active: native\n"
    ),
    "config/src/main/resources/served/application.yml": "hangar.url: http://hangar:8080\n",
    "config/src/main/resources/served/hangar.yml": "server:\n  servlet:\n    context-path: /hangars\n",
    "config/src/main/resources/served/tower.yml": "server:\n  servlet:\n    context-path: /tower\n",
    "hangar/pom.xml": pom("hangar"),
    "hangar/src/main/java/h/App.java": app("h", body=CONTROLLER),
    "hangar/src/main/resources/bootstrap.yml": (
        "spring:\n  application:\n    name: hangar\n  cloud:\n    config:\n      uri: http://config:8888\n"
    ),
    "tower/pom.xml": pom("tower"),
    "tower/src/main/java/t/App.java": app(
        "t",
        body=CONTROLLER
        + "  @org.springframework.beans.factory.annotation.Value(\"${hangar.url}\") String hangarUrl;\n"
        + "  org.springframework.web.client.RestTemplate rest;\n"
        + '  Object look() { return rest.getForObject(hangarUrl + "/hangars/items/1", Object.class); }\n',
    ),
    "tower/src/main/resources/bootstrap.properties": (
        "spring.application.name=tower\nspring.cloud.config.uri=http://config:8888\n"
    ),
    "tower/src/main/resources/application.properties": "server.servlet.context-path=/local-only\n",
    # not a client: its own context path only, nothing served
    "runway/pom.xml": pom("runway"),
    "runway/src/main/java/w/App.java": app("w", body=CONTROLLER),
    "runway/src/main/resources/application.properties": "spring.webflux.base-path=/runway\n",
}


def endpoints(run, name: str) -> list[str]:
    return sorted(f"{a.method} {a.path}" for a in run.service(name).apis)


def test_served_files_set_each_clients_context_path_before_its_own(analyze):
    run = analyze(CONFIGURED, stubs=[ANALYZER])
    assert endpoints(run, "hangar") == ["GET /hangars/items/{id}"]
    assert endpoints(run, "tower") == ["GET /tower/items/{id}"]  # the served file wins over its own
    assert endpoints(run, "runway") == ["GET /runway/items/{id}"]
    evidence = [e.file for a in run.service("hangar").apis for e in a.evidence]
    assert "config/src/main/resources/served/hangar.yml" in evidence


def test_a_clients_address_comes_from_the_shared_served_file(analyze):
    run = analyze(CONFIGURED, stubs=[ANALYZER])
    assert [to for to, _f, _l in edges(run, "tower")] == ["hangar"]
    call = run.service("tower").calls[0]
    assert call.to_api_id == run.service("hangar").apis[0].id


def test_without_a_search_location_no_file_is_served(analyze):
    files = dict(CONFIGURED)
    files["config/src/main/resources/application.yml"] = "spring.profiles.active: native\n"
    run = analyze(files, stubs=[ANALYZER])
    assert endpoints(run, "hangar") == ["GET /items/{id}"]
    assert endpoints(run, "tower") == ["GET /local-only/items/{id}"]
