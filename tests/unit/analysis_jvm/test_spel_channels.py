"""Listener annotations naming their channel through SpEL: a SpEL string literal around a
property placeholder (``#{'${app.topic}'}``) is that property; other SpEL stays an unknown channel."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.evaluate import placeholders
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def channels(facts: LinkedFacts) -> list[tuple[str, str, str]]:
    return sorted({(m.direction, m.provider, render(m.channel)) for m in facts.messages})


JAVA = """package org.quarry.haul;

import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.kafka.annotation.KafkaListener;

public class HaulListeners {
  @KafkaListener(topics = "#{'${haul.topics.loads}'}", groupId = "haul")
  public void onLoad(String body) {}

  @RabbitListener(queues = "#{ '${haul.queues.returns:haul-returns}' }")
  public void onReturn(String body) {}

  @KafkaListener(topics = "#{@haulTopics.names()}")
  public void onComputed(String body) {}
}
"""

KOTLIN = """package org.quarry.weigh

import org.springframework.kafka.annotation.KafkaListener

class WeighListeners {
    @KafkaListener(topics = ["#{'\\${weigh.topic}'}"])
    fun onWeighed(body: String) {}
}
"""


def test_a_spel_string_literal_is_read_as_its_placeholders():
    assert placeholders("#{'${a.b}'}") == [["prop", "a.b", None]]
    assert placeholders("#{ 'x-${a.b:c}' }") == [["lit", "x-"], ["prop", "a.b", "c"]]


def test_other_spel_stays_unknown():
    assert placeholders("#{@beans.name()}")[0][0] == "unknown"
    assert placeholders("#{'${a}'.split(',')}")[0][0] == "unknown"
    assert placeholders("#{'#{nested}'}")[0][0] == "unknown"


def test_listeners_in_java_read_the_property_inside_spel():
    found = channels(link({"src/main/java/HaulListeners.java": JAVA}))
    assert ("consumes", "kafka", "${haul.topics.loads}") in found
    assert ("consumes", "rabbitmq", "${haul.queues.returns:haul-returns}") in found
    assert not any("haul" in c and "#{" in c for _, _, c in found if "loads" in c or "returns" in c)


def test_listeners_in_kotlin_read_the_property_inside_spel():
    assert channels(link({"src/main/kotlin/WeighListeners.kt": KOTLIN})) == [
        ("consumes", "kafka", "${weigh.topic}")
    ]
