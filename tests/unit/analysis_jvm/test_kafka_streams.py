"""Kafka Streams topologies: ``builder.stream``/``table``/``globalTable`` consume a topic, ``.to`` and
``.through`` publish one; names from literals and constants, in Java and Kotlin, only in code that
uses Kafka Streams."""

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


JAVA = """package org.harbour.tally;

import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.springframework.context.annotation.Bean;

public class TallyTopology {
  static final String MANIFESTS = "cargo-manifests";

  @Bean
  public KStream<String, String> tally(StreamsBuilder builder) {
    KStream<String, String> weighed = builder.stream(MANIFESTS);
    KTable<String, String> berths = builder.table("berth-registry");
    weighed.join(builder.stream("scale-readings"), (a, b) -> a, null)
        .filter((k, v) -> v != null)
        .to("weighed-cargo");
    return weighed;
  }
}
"""

KOTLIN = """package org.harbour.customs

import org.apache.kafka.streams.StreamsBuilder

class CustomsTopology {
    fun build(builder: StreamsBuilder) {
        builder.globalTable<String, String>("tariff-codes")
        builder.stream<String, String>("declarations")
            .mapValues { v -> v.uppercase() }
            .through("declarations-normalised")
            .to("cleared-declarations")
    }
}
"""

NOT_STREAMS = """package org.harbour.util;

import java.util.stream.Stream;

public class Ranges {
  public Object convert(Converter c, Stream<String> s) {
    s.map(x -> x).toList();
    return c.to("celsius");
  }
}
"""


def test_java_topology_reads_and_writes_topics():
    assert flows(link({"src/main/java/TallyTopology.java": JAVA})) == [
        ("consumes", "kafka", "berth-registry"),
        ("consumes", "kafka", "cargo-manifests"),
        ("consumes", "kafka", "scale-readings"),
        ("publishes", "kafka", "weighed-cargo"),
    ]


def test_kotlin_topology_with_type_arguments_and_chained_writes():
    assert flows(link({"src/main/kotlin/CustomsTopology.kt": KOTLIN})) == [
        ("consumes", "kafka", "declarations"),
        ("consumes", "kafka", "tariff-codes"),
        ("publishes", "kafka", "cleared-declarations"),
        ("publishes", "kafka", "declarations-normalised"),
    ]


def test_to_and_stream_outside_kafka_streams_are_not_messaging():
    assert flows(link({"src/main/java/Ranges.java": NOT_STREAMS})) == []
