"""Spring HTTP-interface clients (``@HttpExchange``) take their address from the @Bean method that
builds their proxy: a RestClient/WebClient with a base URL built there, or a client bean it takes."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def urls(facts: LinkedFacts) -> list[tuple[str | None, str]]:
    return sorted((c.method, render(c.url)) for c in facts.calls if c.client == "http-interface")


HARBOR_API = """package org.port.fees;

import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;
import org.springframework.web.service.annotation.PostExchange;

@HttpExchange("/api/berths")
public interface HarborApi {
  @GetExchange("/{id}") String berth(String id);
  @PostExchange String book(Object booking);
}
"""

JAVA_BEAN = """package org.port.fees;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

@Configuration
public class HarborClients {
  @Value("${harbor.url}") private String harborUrl;

  @Bean
  public HarborApi harborApi() {
    RestClient client = RestClient.builder().baseUrl(harborUrl).build();
    var factory = HttpServiceProxyFactory.builderFor(RestClientAdapter.create(client)).build();
    return factory.createClient(HarborApi.class);
  }
}
"""

TIDES_API = """package org.port.fees

import org.springframework.web.service.annotation.GetExchange

interface TidesApi {
    @GetExchange("/tides/today")
    fun today(): String
}
"""

KOTLIN_BEANS = """package org.port.fees

import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.web.reactive.function.client.WebClient
import org.springframework.web.reactive.function.client.support.WebClientAdapter
import org.springframework.web.service.invoker.HttpServiceProxyFactory

@Configuration
class TideClients {
    @Bean
    fun tidesWebClient(): WebClient = WebClient.builder().baseUrl("http://tides:8080").build()

    @Bean
    fun tidesApi(tidesWebClient: WebClient): TidesApi =
        HttpServiceProxyFactory.builderFor(WebClientAdapter.create(tidesWebClient)).build()
            .createClient(TidesApi::class.java)
}
"""


def test_java_bean_building_its_rest_client_with_a_configured_base_url():
    facts = link({"src/main/java/HarborApi.java": HARBOR_API, "src/main/java/HarborClients.java": JAVA_BEAN})
    assert urls(facts) == [("GET", "${harbor.url}/api/berths/{id}"), ("POST", "${harbor.url}/api/berths")]


def test_kotlin_bean_taking_a_web_client_bean():
    facts = link({"src/main/kotlin/TidesApi.kt": TIDES_API, "src/main/kotlin/TideClients.kt": KOTLIN_BEANS})
    assert urls(facts) == [("GET", "http://tides:8080/tides/today")]


def test_without_a_bean_the_interface_keeps_its_relative_paths():
    facts = link({"src/main/java/HarborApi.java": HARBOR_API})
    assert urls(facts) == [("GET", "/api/berths/{id}"), ("POST", "/api/berths")]


def test_a_bean_of_another_interface_gives_this_one_nothing():
    facts = link(
        {
            "src/main/java/HarborApi.java": HARBOR_API,
            "src/main/kotlin/TidesApi.kt": TIDES_API,
            "src/main/kotlin/TideClients.kt": KOTLIN_BEANS,
        }
    )
    assert ("GET", "/api/berths/{id}") in urls(facts)
