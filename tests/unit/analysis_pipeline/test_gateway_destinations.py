"""A gateway's destinations in ``@ConfigurationProperties`` (``stall.destinations.stallServiceUrl``,
camelCase in YAML, kebab-case in code: one property to Spring) used by Spring Cloud Gateway routes
and a WebClient proxy; an address ``http://${DOCKER_HOST_IP:localhost}:8082`` whose variable a
compose file only passes through from the deploying shell keeps its default, and the published
port names the service; a local address no single port owner claims is named by its property
(``stallServiceUrl`` -> ``stall-service``), never by a vague one (``apiUrl``); a real value in the
compose file wins."""

from __future__ import annotations

from orbitkb.analysis.jvm import ANALYZER

POM = "<project><artifactId>{n}</artifactId><dependencies><dependency><artifactId>spring-boot-starter-webflux</artifactId></dependency>{extra}</dependencies></project>"
APP = """package org.kiosk.{p};
import org.springframework.boot.autoconfigure.SpringBootApplication;
@SpringBootApplication
public class App {{ public static void main(String[] a) {{ }} }}
"""
CTRL = """package org.kiosk.{p};
import org.springframework.web.bind.annotation.*;
@RestController
public class Api {{ @GetMapping("/{p}s/{{id}}") String one() {{ return ""; }} }}
"""
DEST = """package org.kiosk.gate;
import org.springframework.boot.context.properties.ConfigurationProperties;
@ConfigurationProperties("stall.destinations")
public class StallDestinations {
  private String stallServiceUrl;
  public String getStallServiceUrl() { return stallServiceUrl; }
  public void setStallServiceUrl(String v) { stallServiceUrl = v; }
}
"""
ROUTES = """package org.kiosk.gate;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
@Configuration
@EnableConfigurationProperties(StallDestinations.class)
public class Routes {
  @Bean
  public RouteLocator stalls(RouteLocatorBuilder builder, StallDestinations d) {
    return builder.routes().route(r -> r.path("/stalls/**").and().method("GET").uri(d.getStallServiceUrl())).build();
  }
}
"""
PROXY = """package org.kiosk.gate;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.stereotype.Service;
@Service
public class TillProxy {
  private final WebClient client;
  private final TillDestinations dest;
  public TillProxy(WebClient client, TillDestinations dest) { this.client = client; this.dest = dest; }
  public Object till(String id) {
    return client.get().uri(dest.getTillServiceUrl() + "/tills/{id}", id).retrieve().bodyToMono(String.class);
  }
}
"""
TILLDEST = DEST.replace("Stall", "Till").replace("stall", "till")


def files(props, env):
    return {
        "docker-compose.yml": "services:\n  gate:\n    build: ./gate\n    environment:\n"
        + env
        + "  stall-service:\n    build: ./stall\n    ports: ['8082:8080']\n  till-service:\n    build: ./till\n    ports: ['8083:8080']\n",
        "gate/pom.xml": POM.format(
            n="gate", extra="<dependency><artifactId>spring-cloud-starter-gateway</artifactId></dependency>"
        ),
        "gate/src/main/java/org/kiosk/gate/App.java": APP.format(p="gate"),
        "gate/src/main/java/org/kiosk/gate/StallDestinations.java": DEST,
        "gate/src/main/java/org/kiosk/gate/TillDestinations.java": TILLDEST,
        "gate/src/main/java/org/kiosk/gate/Routes.java": ROUTES,
        "gate/src/main/java/org/kiosk/gate/TillProxy.java": PROXY,
        "gate/src/main/resources/application.yml": props,
        "stall/pom.xml": POM.format(n="stall", extra=""),
        "stall/src/main/java/org/kiosk/stall/App.java": APP.format(p="stall"),
        "stall/src/main/java/org/kiosk/stall/Api.java": CTRL.format(p="stall"),
        "till/pom.xml": POM.format(n="till", extra=""),
        "till/src/main/java/org/kiosk/till/App.java": APP.format(p="till"),
        "till/src/main/java/org/kiosk/till/Api.java": CTRL.format(p="till"),
    }


def targets(run):
    return sorted((c.target, c.to_service_id is not None) for c in run.service("gate").calls)


PROPS = (
    "stall.destinations.stallServiceUrl: http://${DOCKER_HOST_IP:localhost}:8082\n"
    "till:\n  destinations:\n    tillServiceUrl: http://${DOCKER_HOST_IP:localhost}:8083\n"
)


def test_compose_values_reach_camel_case_properties_by_relaxed_binding(analyze):
    env = (
        "      STALL_DESTINATIONS_STALLSERVICEURL: http://stall-service:8080\n"
        "      TILL_DESTINATIONS_TILLSERVICEURL: http://till-service:8080\n"
    )
    assert targets(analyze(files(PROPS, env), stubs=[ANALYZER])) == [
        ("stall-service", True),
        ("till-service", True),
    ]


def test_a_passed_through_host_variable_keeps_the_default_and_the_port_names_the_service(analyze):
    run = analyze(files(PROPS, "      DOCKER_HOST_IP: ${DOCKER_HOST_IP}\n"), stubs=[ANALYZER])
    assert targets(run) == [("stall-service", True), ("till-service", True)]


def test_a_port_two_services_publish_is_settled_by_the_propertys_name(analyze):
    tree = files(PROPS.replace(":8083", ":8082"), "      DOCKER_HOST_IP: ${DOCKER_HOST_IP}\n")
    tree["docker-compose.yml"] = tree["docker-compose.yml"].replace("['8083:8080']", "['8082:8081']")
    assert targets(analyze(tree, stubs=[ANALYZER])) == [("stall-service", True), ("till-service", True)]


def test_a_host_the_compose_file_sets_wins_over_the_default(analyze):
    run = analyze(files(PROPS, "      DOCKER_HOST_IP: till-service\n"), stubs=[ANALYZER])
    assert targets(run) == [("till-service", True), ("till-service", True)]


def test_a_local_default_no_port_owns_is_named_by_its_property(analyze):
    tree = files(PROPS, "      LOG_LEVEL: info\n")
    tree["docker-compose.yml"] = (
        tree["docker-compose.yml"]
        .replace("    ports: ['8082:8080']\n", "")
        .replace("    ports: ['8083:8080']\n", "")
    )
    assert targets(analyze(tree, stubs=[ANALYZER])) == [("stall-service", True), ("till-service", True)]


def test_a_property_named_for_no_service_leaves_the_local_address(analyze):
    props = PROPS.replace("stallServiceUrl", "upstreamUrl").replace("tillServiceUrl", "apiUrl")
    tree = files(props, "      LOG_LEVEL: info\n")
    tree = {
        k: v.replace("getStallServiceUrl", "getUpstreamUrl")
        .replace("stallServiceUrl", "upstreamUrl")
        .replace("getTillServiceUrl", "getApiUrl")
        .replace("tillServiceUrl", "apiUrl")
        for k, v in tree.items()
    }
    tree["docker-compose.yml"] = (
        tree["docker-compose.yml"]
        .replace("    ports: ['8082:8080']\n", "")
        .replace("    ports: ['8083:8080']\n", "")
    )
    run = analyze(tree, stubs=[ANALYZER])
    assert [ok for _target, ok in targets(run)] == [False, False]
