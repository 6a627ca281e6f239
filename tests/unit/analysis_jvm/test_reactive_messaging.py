"""MicroProfile Reactive Messaging: `@Incoming` methods consume, `@Outgoing` methods publish,
`@Channel` emitters publish and `@Channel` streams consume; a channel one service both produces
and consumes is an in-memory stream between its beans, not messaging."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def flows(facts: LinkedFacts) -> list[tuple[str, str, str]]:
    return sorted({(m.direction, m.provider, render(m.channel)) for m in facts.messages})


BAKERY_JAVA = """package org.crumb.bakery;

import io.smallrye.mutiny.Multi;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

@ApplicationScoped
public class Ovens {
    static final String LOAVES = "loaves-out";

    @Inject
    @Channel(LOAVES)
    Emitter<String> loaves;

    @Inject
    @Channel("oven-alarms")
    Multi<String> alarms;

    @Incoming("dough-in")
    public void bake(String dough) {
        loaves.send(dough);
    }

    @Incoming("crumbs-in")
    @Outgoing("crumb-report")
    public String sweep(String crumbs) {
        return crumbs;
    }
}
"""

CELLAR_KOTLIN = """package org.crumb.cellar

import org.eclipse.microprofile.reactive.messaging.Channel
import org.eclipse.microprofile.reactive.messaging.Emitter
import org.eclipse.microprofile.reactive.messaging.Incoming

class Cellar(@Channel("bottles-out") private val bottles: Emitter<String>) {

    @Incoming("grapes-in")
    fun press(grapes: String) {
        bottles.send(grapes)
    }
}
"""

INTERNAL_JAVA = """package org.crumb.sorter;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

public class Sorter {
    @Incoming("parcels")
    @Outgoing("sorted-parcels")
    public String sort(String parcel) { return parcel; }

    @Incoming("sorted-parcels")
    public void shelve(String parcel) { }
}
"""

NOT_REACTIVE_JAVA = """package org.crumb.other;

import org.acme.events.Incoming;
import org.eclipse.microprofile.reactive.messaging.Channel;

public class Lookalikes {
    @Incoming("not-a-channel")
    public void handle(String s) { }
}
"""

WRONG_TYPE_JAVA = """package org.crumb.other;

import org.eclipse.microprofile.reactive.messaging.Channel;

public class Labels {
    @Channel("just-a-name")
    String label;
}
"""


def test_methods_and_injected_emitters_and_streams_java() -> None:
    facts = link({"src/main/java/org/crumb/bakery/Ovens.java": BAKERY_JAVA})
    assert flows(facts) == [
        ("consumes", "reactive-messaging", "crumbs-in"),
        ("consumes", "reactive-messaging", "dough-in"),
        ("consumes", "reactive-messaging", "oven-alarms"),
        ("publishes", "reactive-messaging", "crumb-report"),
        ("publishes", "reactive-messaging", "loaves-out"),
    ]
    handlers = sorted((a.method, a.path, a.handler) for a in facts.apis if a.kind == "message")
    assert handlers == [("CONSUME", "crumbs-in", "Ovens.sweep"), ("CONSUME", "dough-in", "Ovens.bake")]


def test_constructor_injected_emitter_kotlin() -> None:
    facts = link({"src/main/kotlin/org/crumb/cellar/Cellar.kt": CELLAR_KOTLIN})
    assert flows(facts) == [
        ("consumes", "reactive-messaging", "grapes-in"),
        ("publishes", "reactive-messaging", "bottles-out"),
    ]


def test_a_channel_produced_and_consumed_in_one_service_is_in_memory() -> None:
    facts = link({"src/main/java/org/crumb/sorter/Sorter.java": INTERNAL_JAVA})
    assert flows(facts) == [("consumes", "reactive-messaging", "parcels")]
    assert [a.path for a in facts.apis if a.kind == "message"] == ["parcels"]


def test_other_incoming_annotations_and_non_emitter_fields_are_not_channels() -> None:
    facts = link({
        "src/main/java/org/crumb/other/Lookalikes.java": NOT_REACTIVE_JAVA.replace(
            "import org.eclipse.microprofile.reactive.messaging.Channel;\n", ""
        ),
        "src/main/java/org/crumb/other/Labels.java": WRONG_TYPE_JAVA,
    })
    assert flows(facts) == []


KOTLIN_FIELDS = """package org.crumb.till

import io.smallrye.reactive.messaging.MutinyEmitter
import javax.inject.Inject
import org.eclipse.microprofile.reactive.messaging.Channel
import org.eclipse.microprofile.reactive.messaging.Emitter

class Till {
    @Inject
    @field:Channel("receipts-out")
    lateinit var receipts: Emitter<String>

    @Channel("refunds-out")
    lateinit var refunds: MutinyEmitter<String>
}
"""


def test_kotlin_properties_with_a_field_use_site_target() -> None:
    facts = link({"src/main/kotlin/org/crumb/till/Till.kt": KOTLIN_FIELDS})
    assert flows(facts) == [
        ("publishes", "reactive-messaging", "receipts-out"),
        ("publishes", "reactive-messaging", "refunds-out"),
    ]
