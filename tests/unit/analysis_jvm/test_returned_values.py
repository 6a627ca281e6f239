"""Values a method returns and properties bound to a class: helper methods that build a URL, getters
of ``@ConfigurationProperties`` classes (Java and Kotlin), and the Spring Cloud Gateway Java DSL."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER

from .conftest import render_expr


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def urls(facts: LinkedFacts) -> list[str | None]:
    return sorted(render_expr(c.url) or "" for c in facts.calls)


HELPER_JAVA = """package org.pantry.orders;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.client.RestTemplate;

public class StockGateway {
  private final RestTemplate rest = new RestTemplate();
  private final String stockHost;
  private final long stockPort;

  public StockGateway(@Value("${stock.host:stock}") String stockHost, @Value("${stock.port:8080}") long stockPort) {
    this.stockHost = stockHost;
    this.stockPort = stockPort;
  }

  private String stockUrl() {
    String url;
    if (stockPort == 0) {
      url = "http://localhost/";
    } else {
      url = String.format("http://%s:%s/stock/", stockHost, stockPort);
    }
    return url;
  }

  private String reservations(String sku) {
    return stockUrl() + "reservations/" + sku;
  }

  private java.util.List<String> mirrors() {
    return java.util.List.of("http://mirror-a/");
  }

  public Object level(long id) { return rest.getForObject(stockUrl() + id, Object.class); }

  public Object reserve(String sku) { return rest.postForObject(reservations(sku), null, Object.class); }

  public Object mirrored() { return rest.getForObject(mirrors().get(0), Object.class); }

  public Object elsewhere() { return rest.getForObject(nowhere(), Object.class); }
}
"""

HELPER_KOTLIN = """package org.pantry.rates

import org.springframework.beans.factory.annotation.Value
import org.springframework.web.reactive.function.client.WebClient

class RatesClient(private val web: WebClient) {
    @Value("\\${rates.base:http://rates:7000}")
    lateinit var base: String

    private fun ratesUrl() = "$base/rates"

    fun today() = web.get().uri(ratesUrl() + "/today").retrieve()
}
"""


def test_a_helper_method_returns_the_url_it_builds_java():
    facts = link({"src/main/java/StockGateway.java": HELPER_JAVA})
    assert urls(facts) == [
        "<mirrors().get(0)>",
        "<nowhere()>",
        "http://${stock.host:stock}:${stock.port:8080}/stock/<id>",
        "http://${stock.host:stock}:${stock.port:8080}/stock/reservations/<sku>",
    ]


def test_an_expression_bodied_kotlin_function_returns_its_expression():
    facts = link({"src/main/kotlin/RatesClient.kt": HELPER_KOTLIN})
    assert urls(facts) == ["${rates.base:http://rates:7000}/rates/today"]


PROPS_JAVA = """package org.pantry.shipping;

import org.springframework.boot.context.properties.ConfigurationProperties;

@ConfigurationProperties(prefix = "shipping.remote")
public class ShippingRemote {
  private String trackingUrl;
  private String quoteUrl = "http://quotes:9000";
  public String getTrackingUrl() { return trackingUrl; }
  public void setTrackingUrl(String v) { this.trackingUrl = v; }
  public String getQuoteUrl() { return quoteUrl; }
}
"""

PLAIN_HOLDER = """package org.pantry.shipping;

public class Holder {
  private String target;
  public String getTarget() { return target; }
}
"""

SHIPPING_CLIENT = """package org.pantry.shipping;

import org.springframework.web.client.RestTemplate;

public class ShippingClient {
  private final RestTemplate rest;
  private final ShippingRemote remote;
  private final Holder holder;

  public ShippingClient(RestTemplate rest, ShippingRemote remote, Holder holder) {
    this.rest = rest; this.remote = remote; this.holder = holder;
  }

  public Object track(String id) { return rest.getForObject(remote.getTrackingUrl() + "/parcels/" + id, Object.class); }

  public Object quote() { return rest.getForObject(remote.getQuoteUrl(), Object.class); }

  public Object other() { return rest.getForObject(holder.getTarget(), Object.class); }
}
"""

PROPS_KOTLIN = """package org.pantry.ledger

import org.springframework.boot.context.properties.ConfigurationProperties
import org.springframework.web.client.RestTemplate

@ConfigurationProperties("ledger")
data class LedgerProps(val baseUrl: String, val timeoutMs: Long = 500)

class LedgerClient(private val rest: RestTemplate, private val props: LedgerProps) {
    fun balance(id: String) = rest.getForObject(props.baseUrl + "/balances/" + id, Any::class.java)
}
"""


def test_configuration_properties_getters_read_the_bound_property_java():
    facts = link(
        {
            "src/main/java/ShippingRemote.java": PROPS_JAVA,
            "src/main/java/Holder.java": PLAIN_HOLDER,
            "src/main/java/ShippingClient.java": SHIPPING_CLIENT,
        }
    )
    assert urls(facts) == [
        "${shipping.remote.quote-url:http://quotes:9000}",
        "${shipping.remote.tracking-url}/parcels/<id>",
        "<holder.getTarget()>",  # not bound to a property, never set: no value
    ]


def test_configuration_properties_data_class_kotlin():
    facts = link({"src/main/kotlin/Ledger.kt": PROPS_KOTLIN})
    assert urls(facts) == ["${ledger.base-url}/balances/<id>"]


GATEWAY_ROUTES = """package org.pantry.edge;

import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.pantry.shipping.ShippingRemote;

public class EdgeRoutes {
  @Bean
  public RouteLocator parcels(RouteLocatorBuilder builder, ShippingRemote remote) {
    return builder.routes()
        .route(r -> r.path("/parcels/**").and().method("GET").uri(remote.getTrackingUrl()))
        .route(r -> r.path("/quotes").uri(remote.getQuoteUrl()))
        .build();
  }
}
"""


def test_gateway_java_dsl_routes_take_their_target_from_bound_properties():
    facts = link({"src/main/java/ShippingRemote.java": PROPS_JAVA, "src/main/java/EdgeRoutes.java": GATEWAY_ROUTES})
    assert urls(facts) == ["${shipping.remote.quote-url:http://quotes:9000}", "${shipping.remote.tracking-url}"]


def test_a_value_returned_by_a_non_text_method_is_not_folded():
    parsed = ANALYZER.parse("src/main/java/StockGateway.java", HELPER_JAVA)
    methods = {m["name"]: m for m in parsed["classes"][0]["methods"]}
    assert "returns" in methods["stockUrl"] and "returns" in methods["reservations"]
    assert "returns" not in methods["mirrors"]  # a List, not an address
