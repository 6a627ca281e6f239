"""The Jakarta/JAX-RS client API as an outbound HTTP call: ``client.target(url)`` on a declared
``Client`` or straight from ``ClientBuilder``; a ``target(...)`` of anything else, or in a file not
importing the client package, is no call."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def calls(text: str) -> list[tuple[str, str | None, str]]:
    path = "src/main/java/org/quay/Tides.java"
    parsed = {path: json.loads(json.dumps(ANALYZER.parse(path, text)))}
    facts = ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)
    return sorted((c.client, c.method, render(c.url)) for c in facts.calls)


def test_a_declared_client_and_a_builder_chain_target_an_address():
    text = """package org.quay;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.WebTarget;
public class Tides {
  private static final String TIDES = "http://tides:9080/tides";
  public Object today(String port) {
    Client client = ClientBuilder.newBuilder().build();
    WebTarget target = client.target(TIDES + "/" + port);
    return target.request().get(String.class);
  }
  public Object moon() { return ClientBuilder.newClient().target("http://moon:7000/phase").request().get(); }
}
"""
    assert calls(text) == [
        ("jaxrs-client", None, "http://moon:7000/phase"),
        ("jaxrs-client", None, "http://tides:9080/tides/{port}"),
    ]


def test_target_of_something_else_or_without_the_client_import_is_no_call():
    other = """package org.quay;
import javax.ws.rs.client.Client;
public class Tides {
  interface Aim { Object target(String x); }
  private Aim aim;
  public Object a() { return aim.target("http://nowhere:1/x"); }
}
"""
    unimported = """package org.quay;
public class Tides {
  private Client client;
  public Object b() { return client.target("http://nowhere:1/y"); }
}
"""
    assert calls(other) == []
    assert calls(unimported) == []
