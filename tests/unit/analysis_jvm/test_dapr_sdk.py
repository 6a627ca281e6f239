"""The Dapr Java SDK: ``@Topic(name, pubsubName)`` handlers consume, ``DaprClient.publishEvent``
publishes; the same annotation name without Dapr imported is not Dapr's."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def channels(facts: LinkedFacts) -> list[tuple[str, str, str]]:
    return sorted({(m.direction, m.provider, render(m.channel)) for m in facts.messages})


JAVA = """package org.quarry.freight;

import io.dapr.Topic;
import io.dapr.client.DaprClient;
import io.dapr.client.domain.CloudEvent;
import org.springframework.web.bind.annotation.*;

@RestController
public class CrateController {
  private static final String BUS = "freight";
  private final DaprClient client;

  public CrateController(DaprClient client) { this.client = client; }

  @Topic(name = "crates-loaded", pubsubName = BUS)
  @PostMapping("/crates-loaded")
  public void onLoaded(@RequestBody CloudEvent<String> event) {
    client.publishEvent(BUS, Topics.WEIGHED, event.getData()).block();
  }

  @Topic(pubsubName = "freight", name = "${crates.lost.topic:crates-lost}")
  @PostMapping("/crates-lost")
  public void onLost(@RequestBody CloudEvent<String> event) {}
}

class Topics {
  static final String WEIGHED = "crates-weighed";
}
"""

KOTLIN = """package org.quarry.scale

import io.dapr.Topic
import io.dapr.client.DaprClient
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RestController

@RestController
class ScaleController(private val dapr: DaprClient) {
  @Topic(name = "crates-weighed", pubsubName = "freight")
  @PostMapping("/weighed")
  fun weighed() {
    dapr.publishEvent("freight", "scale-reset", "{}").block()
  }
}
"""

NOT_DAPR = """package org.quarry.other;

import io.micronaut.configuration.kafka.annotation.KafkaListener;
import io.micronaut.configuration.kafka.annotation.Topic;

public class Other {
  @Topic(name = "not-dapr")
  public void on(String s) {}

  public void send(Hub hub) { hub.publishEvent("a", "b", "c"); }
}
"""


def test_topic_handlers_and_publish_event_in_java_and_kotlin() -> None:
    facts = link({"src/main/java/CrateController.java": JAVA, "src/main/kotlin/ScaleController.kt": KOTLIN})
    assert channels(facts) == [
        ("consumes", "dapr:freight", "${crates.lost.topic:crates-lost}"),
        ("consumes", "dapr:freight", "crates-loaded"),
        ("consumes", "dapr:freight", "crates-weighed"),
        ("publishes", "dapr:freight", "crates-weighed"),
        ("publishes", "dapr:freight", "scale-reset"),
    ]


def test_topic_annotations_and_publish_event_elsewhere_are_not_dapr() -> None:
    assert link({"src/main/java/Other.java": NOT_DAPR}).messages == ()
