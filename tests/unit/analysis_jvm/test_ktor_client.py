"""Ktor's HTTP client: ``client.get(url)``, ``client.post(url) { .. }`` and ``client.request { url(..) }``
on an ``HttpClient`` (declared, or a receiver named for a client) are outbound calls; ``map.get(key)``
is not. And a ``send`` on a receiver of the project's own declared type is that type's method (a
wrapper), not the Kafka template the file happens to import."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def calls(facts: LinkedFacts) -> list[tuple[str, str | None]]:
    return sorted(((c.method or "ANY", render(c.url)) for c in facts.calls), key=str)


CLIENTS_KT = """package org.orchard.front

import io.ktor.client.HttpClient
import io.ktor.client.call.body
import io.ktor.client.request.get
import io.ktor.client.request.post
import io.ktor.client.request.request
import io.ktor.client.request.url
import io.ktor.http.HttpMethod

object Pickers {
    private val shared = HttpClient()
    fun client(): HttpClient = shared
}

class Basket(private val http: HttpClient) {
    private val counts = mutableMapOf<String, Int>()

    suspend fun apples(tree: Long): String {
        val url = "http://localhost:8090/trees/$tree/apples"
        return Pickers.client().get(url).body()
    }

    suspend fun weigh(box: String) {
        http.post("http://scales:8080/weights") { }
    }

    suspend fun ripen() {
        http.request { url("http://ripener:8080/batches"); method = HttpMethod.Put }
    }

    fun count(kind: String): Int? = counts.get(kind)
}
"""


def test_ktor_requests_on_a_client_are_calls():
    assert calls(link({"Basket.kt": CLIENTS_KT})) == [
        ("ANY", "http://ripener:8080/batches"),
        ("GET", "http://localhost:8090/trees/{tree}/apples"),
        ("POST", "http://scales:8080/weights"),
    ]


def test_without_ktor_imports_a_get_is_someone_elses():
    text = CLIENTS_KT.replace("import io.ktor.", "import org.orchard.net.")
    assert calls(link({"Basket.kt": text})) == []


WRAPPER_KT = """package org.orchard.log

import org.springframework.kafka.core.KafkaTemplate
import org.springframework.stereotype.Service

@Service
class AuditTrail(val template: KafkaTemplate<String, String>) {
    fun send(path: String, status: Int) {
        template.send("audit-trail", "$path $status")
    }
}
"""

CONTROLLER_KT = """package org.orchard.log

import org.springframework.kafka.core.KafkaTemplate
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RestController

@RestController
class Orchard(val auditTrail: AuditTrail, val kafkaTemplate: KafkaTemplate<String, String>) {
    @GetMapping("/rows")
    fun rows(): String {
        auditTrail.send("/rows", 200)
        return ""
    }
}
"""


def test_a_send_on_the_projects_own_type_is_its_wrapper_not_the_imported_template():
    facts = link({"AuditTrail.kt": WRAPPER_KT, "Orchard.kt": CONTROLLER_KT})
    assert sorted({(m.direction, render(m.channel)) for m in facts.messages}) == [
        ("publishes", "audit-trail")
    ]

