"""A consumed message names the handler method that receives it (``api_handler``: how the pipeline
ties the message to its CONSUME API, and what the change surface and trace follow); a message a
method publishes by its annotation (`@Outgoing`) names none, while a publish made inside a handler
names the handler that reaches it (the flow a trace follows). Checked for each way a JVM bean
declares a channel on a method: Spring listeners, Micronaut listener beans, MicroProfile Reactive
Messaging."""

from __future__ import annotations

import json

import pytest

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def handlers(facts: LinkedFacts) -> set[tuple[str, str, str | None]]:
    return {(m.direction, render(m.channel), m.api_handler) for m in facts.messages}


SPRING = ("src/main/java/org/mill/Grain.java", """package org.mill;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

@Component
public class Grain {
    private final KafkaTemplate<String, String> kafka;

    public Grain(KafkaTemplate<String, String> kafka) { this.kafka = kafka; }

    @KafkaListener(topics = "grain-delivered")
    public void onDelivered(String sack) {
        kafka.send("flour-milled", sack);
    }
}
""")

MICRONAUT = ("src/main/kotlin/org/mill/Sacks.kt", """package org.mill

import io.micronaut.configuration.kafka.annotation.KafkaListener
import io.micronaut.configuration.kafka.annotation.Topic

@KafkaListener(groupId = "sack-counter")
class Sacks {
    @Topic("sacks-filled")
    fun count(sack: String) { }
}
""")

REACTIVE = ("src/main/java/org/mill/Stones.java", """package org.mill;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

@ApplicationScoped
public class Stones {
    @Incoming("stones-worn")
    @Outgoing("stones-ordered")
    public String replace(String stone) { return stone; }
}
""")


@pytest.mark.parametrize(("source", "consumed", "handler"), [
    (SPRING, "grain-delivered", "Grain.onDelivered"),
    (MICRONAUT, "sacks-filled", "Sacks.count"),
    (REACTIVE, "stones-worn", "Stones.replace"),
])
def test_a_consumed_message_names_its_handler_method(source: tuple[str, str], consumed: str, handler: str) -> None:
    got = handlers(link(dict([source])))
    assert ("consumes", consumed, handler) in got


def test_a_message_an_annotation_publishes_names_no_handler() -> None:
    got = handlers(link(dict([REACTIVE])))
    assert ("publishes", "stones-ordered", None) in got


def test_a_publish_inside_a_handler_names_the_handler_that_reaches_it() -> None:
    got = handlers(link(dict([SPRING])))
    assert ("publishes", "flour-milled", "Grain.onDelivered") in got
