"""Outbound HTTP through the JDK's HttpURLConnection and Vert.x's WebClient."""

from __future__ import annotations

from orbitkb.analysis.jvm.resolve import render

from .test_http_interface_beans import link

JDK = """package org.bakery.ovens;

import java.net.HttpURLConnection;
import java.net.URL;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

@Component
public class OvenGateway {
  @Value("${ovens.base:http://ovens:8080}") private String base;

  public int preheat(String id) throws Exception {
    URL target = new URL(base + "/ovens/" + id + "/preheat");
    HttpURLConnection conn = (HttpURLConnection) target.openConnection();
    conn.setRequestMethod("PUT");
    return conn.getResponseCode();
  }

  public int temperature() throws Exception {
    HttpURLConnection c = (HttpURLConnection) new URL(base + "/ovens/temperature").openConnection();
    return c.getResponseCode();
  }

  public String host() throws Exception {
    return new URL(base).getHost();
  }
}
"""

KOTLIN = """package org.bakery.flour

import java.net.HttpURLConnection
import java.net.URL

class FlourCheck {
    fun sacks(): Int {
        val conn = URL("http://mill:9000/sacks").openConnection() as HttpURLConnection
        conn.requestMethod = "GET"
        return conn.responseCode
    }
}
"""

VERTX = """package org.bakery.ship;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.WebClient;

public class Dispatch {
  private final WebClient client;

  public Dispatch(WebClient client) { this.client = client; }

  public void send(String parcel) {
    client.post(7000, "couriers", "/parcels").sendJson(parcel, ar -> {});
    client.getAbs("https://tracking.internal/track/" + parcel).send(ar -> {});
    client.request(HttpMethod.DELETE, 7000, "couriers", "/parcels/" + parcel).send(ar -> {});
  }
}
"""

SPRING_WEBCLIENT = """package org.bakery.ship;

import org.springframework.web.reactive.function.client.WebClient;

public class Other {
  private final WebClient client = WebClient.create("http://couriers:7000");

  public void list() {
    client.get().uri("/parcels").retrieve();
  }
}
"""


def _calls(files: dict[str, str]) -> list[tuple[str, str | None, str, int]]:
    return sorted((c.client, c.method, render(c.url), c.line) for c in link(files).calls)


def test_java_connections_with_and_without_a_set_method() -> None:
    assert _calls({"src/main/java/OvenGateway.java": JDK}) == [
        ("HttpURLConnection", "GET", "${ovens.base:http://ovens:8080}/ovens/temperature", 20),
        ("HttpURLConnection", "PUT", "${ovens.base:http://ovens:8080}/ovens/{id}/preheat", 14),
    ]


def test_kotlin_connection() -> None:
    assert _calls({"src/main/kotlin/FlourCheck.kt": KOTLIN}) == [
        ("HttpURLConnection", "GET", "http://mill:9000/sacks", 8)
    ]


def test_vertx_web_client_and_not_spring_web_client() -> None:
    assert _calls({"src/main/java/Dispatch.java": VERTX}) == [
        ("vertx-webclient", "DELETE", "http://couriers:7000/parcels/{parcel}", 14),
        ("vertx-webclient", "GET", "https://tracking.internal/track/{parcel}", 13),
        ("vertx-webclient", "POST", "http://couriers:7000/parcels", 12),
    ]
    assert [
        c for c in _calls({"src/main/java/Other.java": SPRING_WEBCLIENT}) if c[0] == "vertx-webclient"
    ] == []
