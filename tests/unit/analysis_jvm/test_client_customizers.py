"""Spring Boot client customizers: a ``RestClientCustomizer``/``WebClientCustomizer`` @Bean that sets a
base URL gives it to every client built from the builder Spring Boot injects, unless the client
sets its own."""

from __future__ import annotations

from .test_http_interface_beans import link, urls

STORE_API = """package org.mill.shop;

import org.springframework.web.service.annotation.GetExchange;

public interface FlourApi {
  @GetExchange("/flour/api/sacks") String sacks();
}
"""

JAVA_CUSTOMIZER = """package org.mill.shop;

import org.springframework.boot.web.client.RestClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

@Configuration
class MillClients {
  private final MillProperties props;
  MillClients(MillProperties props) { this.props = props; }

  @Bean
  RestClientCustomizer millCustomizer() {
    var timeouts = java.time.Duration.ofSeconds(3);
    return builder -> builder.baseUrl(props.gatewayUrl()).defaultHeader("x-mill", "1");
  }

  @Bean
  FlourApi flourApi(RestClient.Builder builder) {
    RestClient client = builder.build();
    return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(client)).build().createClient(FlourApi.class);
  }
}
"""

PROPERTIES = """package org.mill.shop;

import org.springframework.boot.context.properties.ConfigurationProperties;

@ConfigurationProperties(prefix = "mill")
public record MillProperties(String gatewayUrl) {}
"""

KOTLIN_CUSTOMIZER = """package org.mill.ovens

import org.springframework.boot.web.reactive.function.client.WebClientCustomizer
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.stereotype.Service
import org.springframework.web.reactive.function.client.WebClient

@Configuration
class OvenConfig {
    @Bean
    fun ovenCustomizer(): WebClientCustomizer = WebClientCustomizer { it.baseUrl("http://ovens:8080") }
}

@Service
class Baker(private val webClientBuilder: WebClient.Builder) {
    fun heat(id: String): String? =
        webClientBuilder.build().get().uri("/ovens/{id}/heat", id).retrieve().bodyToMono(String::class.java).block()
}
"""


def test_java_http_interface_built_on_an_injected_customized_builder() -> None:
    facts = link(
        {
            "src/main/java/FlourApi.java": STORE_API,
            "src/main/java/MillClients.java": JAVA_CUSTOMIZER,
            "src/main/java/MillProperties.java": PROPERTIES,
        }
    )
    assert urls(facts) == [("GET", "${mill.gateway-url}/flour/api/sacks")]


def test_a_client_bean_with_its_own_base_url_keeps_it() -> None:
    own = JAVA_CUSTOMIZER.replace(
        "RestClient client = builder.build();",
        'RestClient client = builder.baseUrl("http://flour:9000").build();',
    )
    facts = link(
        {
            "src/main/java/FlourApi.java": STORE_API,
            "src/main/java/MillClients.java": own,
            "src/main/java/MillProperties.java": PROPERTIES,
        }
    )
    assert urls(facts) == [("GET", "http://flour:9000/flour/api/sacks")]


def test_a_customizer_setting_no_base_url_gives_none() -> None:
    no_base = JAVA_CUSTOMIZER.replace(
        'builder.baseUrl(props.gatewayUrl()).defaultHeader("x-mill", "1")',
        'builder.defaultHeader("x-mill", "1")',
    )
    facts = link({"src/main/java/FlourApi.java": STORE_API, "src/main/java/MillClients.java": no_base})
    assert urls(facts) == [("GET", "/flour/api/sacks")]


def test_kotlin_service_using_the_injected_web_client_builder() -> None:
    facts = link({"src/main/kotlin/Ovens.kt": KOTLIN_CUSTOMIZER})
    got = sorted((c.method, render_url(c)) for c in facts.calls)
    assert got == [("GET", "http://ovens:8080/ovens/{id}/heat")]


def render_url(call) -> str:  # type: ignore[no-untyped-def]
    from orbitkb.analysis.jvm.resolve import render

    return render(call.url)
