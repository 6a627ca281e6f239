"""Listener containers wired in code consume their channels: Spring AMQP and JMS containers,
Kafka ``ContainerProperties``; the provider of a shared type name comes from the file's imports."""

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


RABBIT_JAVA = """package org.dockyard.crane;

import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.context.annotation.Bean;

public class CraneConsumers {
  protected final String liftQueue = "lift-orders";
  static final String REPAIRS = "crane-repairs";

  @Bean
  public SimpleMessageListenerContainer lifts() {
    SimpleMessageListenerContainer container = new SimpleMessageListenerContainer();
    container.setQueueNames(this.liftQueue, REPAIRS);
    return container;
  }
}
"""

JMS_KOTLIN = """package org.dockyard.billing

import org.springframework.jms.listener.DefaultMessageListenerContainer
import org.springframework.kafka.listener.ContainerProperties

class BillingWiring {
    fun invoices(): DefaultMessageListenerContainer {
        val container = DefaultMessageListenerContainer()
        container.setDestinationName("dock-invoices")
        return container
    }

    fun audit() = ContainerProperties("berth-audit")
}
"""


def test_rabbit_container_queue_names_java():
    facts = link({"src/main/java/CraneConsumers.java": RABBIT_JAVA})
    assert flows(facts) == [
        ("consumes", "rabbitmq", "crane-repairs"),
        ("consumes", "rabbitmq", "lift-orders"),
    ]


def test_jms_container_and_kafka_container_properties_kotlin():
    facts = link({"src/main/kotlin/BillingWiring.kt": JMS_KOTLIN})
    assert flows(facts) == [("consumes", "jms", "dock-invoices"), ("consumes", "kafka", "berth-audit")]


def test_a_container_type_without_a_messaging_import_or_an_unrelated_setter_is_not_a_consumer():
    unknown_library = RABBIT_JAVA.replace(
        "import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;", ""
    )
    other_type = """package org.dockyard.crane;

public class Scheduler {
  public void plan(Planner planner) { planner.setQueueNames("not-a-queue"); }
}
"""
    facts = link({"src/main/java/CraneConsumers.java": unknown_library, "src/main/java/Scheduler.java": other_type})
    assert flows(facts) == []
