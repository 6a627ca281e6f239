"""Generated API clients given their address by a setter (a Kiota request adapter's
``setBaseUrl``, OpenAPI Generator's ``ApiClient.setBasePath``), built in a helper the client beans
call with a configured address; and a Spring Cloud Gateway ``ProxyExchange`` sending a handler's
request on (``proxy.uri(base + path).forward()``)."""

from __future__ import annotations

from orbitkb.analysis.jvm.resolve import render

from .test_http_interface_beans import link

KIOTA_BEANS = """package org.harbor.web;

import com.microsoft.kiota.RequestAdapter;
import com.microsoft.kiota.http.OkHttpRequestAdapter;
import com.microsoft.kiota.authentication.AnonymousAuthenticationProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
public class DockClients {
  private final DockEndpoints endpoints;

  public DockClients(DockEndpoints endpoints) { this.endpoints = endpoints; }

  RequestAdapter adapterFor(String address) {
    var adapter = new OkHttpRequestAdapter(new AnonymousAuthenticationProvider());
    adapter.setBaseUrl(address);
    return adapter;
  }

  @Bean
  BerthClient berthClient() {
    return new BerthClient(adapterFor(this.endpoints.getBerths()));
  }
}
"""

ENDPOINTS = """package org.harbor.web;

import org.springframework.boot.context.properties.ConfigurationProperties;

@ConfigurationProperties("harbor.endpoints")
public class DockEndpoints {
  private String berths;
  private String cranes;
  public String getBerths() { return berths; }
  public String getCranes() { return cranes; }
}
"""

OPENAPI_CLIENT = """package org.harbor.web

import org.openapitools.client.ApiClient
import org.springframework.beans.factory.annotation.Value
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration

@Configuration
class CraneClientConfig {
    @Bean
    fun craneApiClient(@Value("\\${cranes.url:http://cranes:8080}") url: String): ApiClient {
        val client: ApiClient = ApiClient()
        client.setBasePath(url)
        return client
    }
}
"""

PROXY = """package org.harbor.web;

import org.springframework.cloud.gateway.webflux.ProxyExchange;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

@RestController
public class Relay {
  private final DockEndpoints endpoints;

  public Relay(DockEndpoints endpoints) { this.endpoints = endpoints; }

  @GetMapping("/relay/cranes/**")
  public Mono<?> cranes(ProxyExchange<byte[]> proxy) {
    return send(proxy, this.endpoints.getCranes());
  }

  @GetMapping("/relay/tides")
  public Mono<?> tides(ProxyExchange<byte[]> proxy) {
    return proxy.uri("http://tides:7000/now").get();
  }

  Mono<?> send(ProxyExchange<byte[]> proxy, String base) {
    String rest = proxy.path("/relay");
    return proxy.uri(base + rest).header("x-relay", "1").forward();
  }
}
"""


def _calls(files: dict[str, str]) -> list[tuple[str, str | None, str]]:
    facts = link(files)
    return sorted((c.client, c.method, render(c.url)) for c in facts.calls)


def test_a_kiota_adapter_built_in_a_helper_takes_the_address_its_bean_passes() -> None:
    files = {"src/main/java/DockClients.java": KIOTA_BEANS, "src/main/java/DockEndpoints.java": ENDPOINTS}
    # the helper taking the address is a thin wrapper: the call is its caller's, with the bean's address
    assert _calls(files) == [("wrapper:adapterFor", None, "${harbor.endpoints.berths}")]


def test_an_openapi_api_client_given_its_base_path_in_a_kotlin_bean() -> None:
    assert _calls({"src/main/kotlin/CraneClientConfig.kt": OPENAPI_CLIENT}) == [
        ("generated-client", None, "${cranes.url:http://cranes:8080}")
    ]


def test_a_proxy_exchange_forwards_with_the_method_of_the_request_or_the_verb_it_names() -> None:
    files = {"src/main/java/Relay.java": PROXY, "src/main/java/DockEndpoints.java": ENDPOINTS}
    got = _calls(files)
    assert ("proxy-exchange", "GET", "http://tides:7000/now") in got
    forwarded = [(client, url) for client, method, url in got if method is None]
    assert forwarded == [("wrapper:send", '${harbor.endpoints.cranes}{proxy.path("/relay")}')]


def test_negative_setters_and_proxies_that_send_nothing() -> None:
    dto = """package org.harbor.web;

public class Settings {
  private String baseUrl;
  public void setBaseUrl(String baseUrl) { this.baseUrl = baseUrl; }
  void apply(Settings other) { other.setBaseUrl("http://berths:8080"); }
}
"""
    unsent = PROXY.replace('.header("x-relay", "1").forward()', '.header("x-relay", "1").hashCode()')
    unsent = unsent.replace('proxy.uri("http://tides:7000/now").get()', 'proxy.uri("http://tides:7000/now")')
    assert _calls({"src/main/java/Settings.java": dto}) == []
    assert _calls({"src/main/java/Relay.java": unsent, "src/main/java/DockEndpoints.java": ENDPOINTS}) == []
