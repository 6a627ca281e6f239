"""Constants folded across classes: empty-string constants, constants built from constants,
interface/nested/static-import/fully-qualified references, Kotlin const val (object, companion,
top level, string templates) — in mappings, channels and call URLs."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import ServiceContext
from orbitkb.analysis.jvm import ANALYZER

JAVA = "constants_java"
KT = "constants_kt"


def _apis(facts):
    return [
        (a.method, a.path, a.handler, a.file.rsplit("/", 1)[-1], a.start_line)
        for a in facts.apis
        if a.kind == "http"
    ]


def test_java_empty_and_composed_constants_fold_in_mappings(linked):
    assert _apis(linked(JAVA)) == [
        ("GET", "/claims", "ClaimController.list", "ClaimController.java", 10),
        ("POST", "/claims/{id}/approve", "ClaimController.approve", "ClaimController.java", 15),
        ("DELETE", "/legacy-orders/{id}", "OrderController.delete", "OrderController.java", 10),
        ("DELETE", "/orders/{id}", "OrderController.delete", "OrderController.java", 10),
        ("GET", "/root-prefixed", "PrefixedController.a", "PrefixedController.java", 9),
        ("GET", "/api/x", "PrefixedController.b", "PrefixedController.java", 14),
        ("GET", "/v2/items", "RootController.items", "RootController.java", 13),
        ("GET", "/v2", "RootController.home", "RootController.java", 18),
    ]


def test_java_empty_prefix_constants_fold_in_channels_and_urls(linked, show):
    facts = linked(JAVA)
    msgs = [(m.direction, show(m.channel), m.provider, m.line) for m in facts.messages]
    assert msgs == [("publishes", "claims.filed", "kafka", 16), ("consumes", "claims.paid", "kafka", 19)]
    listeners = [(a.path, a.handler) for a in facts.apis if a.kind == "message"]
    assert listeners == [("claims.paid", "ClaimEvents.onPaid")]
    calls = [(c.method, show(c.url), c.line) for c in facts.calls]
    # a mutable field initialised to "" is usually set later: it stays unknown, not folded to ""
    assert calls == [("GET", "http://ledger:8080/entries", 14), ("GET", "http://ledger:8080/t/<token>", 18)]


def test_java_empty_constant_parses_to_an_empty_value(parsed_dir):
    parsed = parsed_dir(JAVA)
    paths = next(v for k, v in parsed.items() if k.endswith("ApiPaths.java"))
    fields = {f["name"]: f["value"] for c in paths["classes"] for f in c["fields"]}
    assert fields["BASE"] == []
    assert fields["EMPTY_TOO"] == [["ref", "BASE"]]
    assert fields["ITEMS"] == [["ref", "BASE"], ["lit", "/items"]]


def test_kotlin_const_vals_fold_in_mappings(linked):
    assert _apis(linked(KT)) == [
        ("GET", "/claims", "ClaimController.list", "Controllers.kt", 8),
        ("GET", "/shipments/{id}", "ShipController.one", "Controllers.kt", 15),
        ("GET", "/shipments/tracking", "ShipController.track", "Controllers.kt", 17),
        ("GET", "/v1/things", "ThingController.all", "Controllers.kt", 24),
        ("POST", "/v1/things/make", "ThingController.make", "Controllers.kt", 26),
        ("GET", "/other", "OtherController.x", "Controllers.kt", 37),
    ]


def test_kotlin_const_vals_fold_in_channels_and_urls(linked, show):
    facts = linked(KT)
    msgs = [(m.direction, show(m.channel), m.line) for m in facts.messages]
    assert msgs == [("publishes", "shipments.shipped", 11), ("consumes", "shipments.returned", 14)]
    calls = [(show(c.url), c.line) for c in facts.calls]
    assert calls == [("http://carrier/quotes", 24), ("<base>/other", 26)]


def test_same_text_kotlin_file_parsed_under_another_name_is_named_after_its_own_file(parsed_dir, show):
    # the pipeline caches parse() by content hash: a copied file reuses the first file's result
    text = (
        "package com.acme.ship\n\n"
        "import org.springframework.web.client.RestTemplate\n\n"
        'const val CARRIER = "http://carrier"\n\n'
        'fun ping(rest: RestTemplate): Any? = rest.getForObject(CARRIER + TOP + "/ping", Any::class.java)\n'
    )
    own = "src/main/kotlin/com/acme/ship/Clients.kt"
    parsed = parsed_dir(KT)
    parsed[own] = json.loads(json.dumps(ANALYZER.parse("src/main/kotlin/com/acme/other/Helpers.kt", text)))
    facts = ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)
    got = [(c.component, show(c.url), c.file, c.line) for c in facts.calls if c.file == own]
    assert got == [("ClientsKt", "http://carrier/ping", own, 7)]
    assert "ClientsKt" in {c.name for c in facts.components if c.file == own}
