"""A declared HTTP client's base URL and its method paths are joined by exactly one slash: a base
written with a trailing slash (``url = "http://ledger:8080/"``) gives ``/entries``, not ``//entries``,
in Feign, MicroProfile REST Client and Micronaut styles alike; a base without one is unchanged."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import Expr, LinkedFacts, Lit, Prop, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.calls import under
from orbitkb.analysis.jvm.resolve import render
from orbitkb.analysis.resolution.urls import parse_address


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def urls(files: dict[str, str]) -> list[tuple[str, str | None, str]]:
    return sorted((c.client, c.method, render(c.url)) for c in link(files).calls)


FEIGN = """package org.wharf.fees;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.*;
@FeignClient(name = "ledger", url = "http://ledger:8080/", path = "/books/")
public interface LedgerClient {
  @GetMapping("/entries") Object entries();
  @PostMapping("/entries/{id}/void") Object cancel(@PathVariable String id);
}
"""

MICROPROFILE = """package org.wharf.fees;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import jakarta.ws.rs.*;
@RegisterRestClient(baseUri = "http://stock:9000//")
@Path("/levels")
public interface StockClient { @GET @Path("/{sku}") Object level(@PathParam("sku") String sku); }
"""

MICRONAUT = """package org.wharf.fees;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.client.annotation.Client;
@Client("http://tariffs:7000/")
public interface TariffClient { @Get("/rates") Object rates(); }
"""

PLAIN = """package org.wharf.fees;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.*;
@FeignClient(name = "berths", url = "http://berths:8081")
public interface BerthClient { @GetMapping("/slots") Object slots(); }
"""


def test_a_feign_url_with_a_trailing_slash_joins_with_one_slash():
    assert urls({"src/main/java/org/wharf/fees/LedgerClient.java": FEIGN}) == [
        ("feign", "GET", "http://ledger:8080/books/entries"),
        ("feign", "POST", "http://ledger:8080/books/entries/{id}/void"),
    ]


def test_a_microprofile_base_uri_with_trailing_slashes_joins_with_one_slash():
    assert urls({"src/main/java/org/wharf/fees/StockClient.java": MICROPROFILE}) == [
        ("microprofile-rest-client", "GET", "http://stock:9000/levels/{sku}"),
    ]


def test_a_micronaut_client_address_with_a_trailing_slash_joins_with_one_slash():
    found = urls({"src/main/java/org/wharf/fees/TariffClient.java": MICRONAUT})
    assert [u for _c, _m, u in found] == ["http://tariffs:7000/rates"]


def test_a_base_without_a_trailing_slash_is_unchanged():
    assert urls({"src/main/java/org/wharf/fees/BerthClient.java": PLAIN}) == [
        ("feign", "GET", "http://berths:8081/slots"),
    ]


def test_under_keeps_a_bare_scheme_and_drops_a_lone_slash_after_a_property():
    assert render(under(Expr((Lit("http://"),)), "/x")) == "http:///x"
    assert render(under(Expr((Prop("orders.url", None), Lit("/"))), "/x")) == render(
        Expr((Prop("orders.url", None), Lit("/x")))
    )
    assert render(under(None, "/x")) == "/x"


def test_a_configured_base_with_a_trailing_slash_resolves_to_a_single_slash_path():
    assert parse_address("http://ledger:8080//entries").path == "/entries"
    assert parse_address("http://ledger:8080/books///entries?from=//x").path == "/books/entries"
    assert parse_address("/a//b").path == "/a/b"
    assert parse_address("http://ledger:8080").path is None
