"""``@SendTo`` on a broker listener publishes what the handler returns: a Spring Cloud Stream
binding (``Processor.OUTPUT`` or a name), a Kafka topic, a Rabbit ``exchange/routingKey``. On a
WebSocket ``@MessageMapping`` it is no broker, and without a value the reply goes where the
incoming message's header says (no channel to name)."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    deps = ("org.springframework.cloud:spring-cloud-stream",)
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo", dependencies=deps), parsed)


def flows(facts: LinkedFacts) -> list[tuple[str, str, str]]:
    return sorted({(m.direction, m.provider, render(m.channel)) for m in facts.messages})


STREAM_JAVA = """package org.mill.grain;

import org.springframework.cloud.stream.annotation.EnableBinding;
import org.springframework.cloud.stream.annotation.StreamListener;
import org.springframework.cloud.stream.messaging.Processor;
import org.springframework.messaging.handler.annotation.SendTo;

@EnableBinding(Processor.class)
public class Grinder {
    @StreamListener(Processor.INPUT)
    @SendTo(Processor.OUTPUT)
    public String grind(String grain) { return grain; }
}
"""

KAFKA_KT = """package org.mill.flour

import org.springframework.kafka.annotation.KafkaListener
import org.springframework.messaging.handler.annotation.SendTo

class Sifter {
    @KafkaListener(topics = ["flour-raw"])
    @SendTo("flour-sifted")
    fun sift(flour: String): String = flour

    @KafkaListener(topics = ["flour-questions"])
    @SendTo
    fun answer(question: String): String = question
}
"""

RABBIT_JAVA = """package org.mill.bags;

import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.messaging.handler.annotation.SendTo;

public class Bagger {
    @RabbitListener(queues = "bags-to-fill")
    @SendTo("bag-events/bag.filled")
    public String fill(String bag) { return bag; }

    @RabbitListener(queues = "bags-to-weigh")
    @SendTo("/bags-weighed")
    public String weigh(String bag) { return bag; }
}
"""

STOMP_JAVA = """package org.mill.screen;

import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;

public class Board {
    @MessageMapping("/greet")
    @SendTo("/topic/greetings")
    public String greet(String who) { return who; }
}
"""


def test_a_stream_processor_publishes_to_its_output_binding():
    assert flows(link({"Grinder.java": STREAM_JAVA})) == [
        ("consumes", "stream", "${spring.cloud.stream.bindings.input.destination:input}"),
        ("publishes", "stream", "${spring.cloud.stream.bindings.output.destination:output}"),
    ]


def test_kafka_replies_to_a_named_topic_and_not_without_a_name():
    assert flows(link({"Sifter.kt": KAFKA_KT})) == [
        ("consumes", "kafka", "flour-questions"),
        ("consumes", "kafka", "flour-raw"),
        ("publishes", "kafka", "flour-sifted"),
    ]


def test_rabbit_replies_to_the_exchange_else_the_routing_key():
    assert flows(link({"Bagger.java": RABBIT_JAVA})) == [
        ("consumes", "rabbitmq", "bags-to-fill"),
        ("consumes", "rabbitmq", "bags-to-weigh"),
        ("publishes", "rabbitmq", "bag-events"),
        ("publishes", "rabbitmq", "bags-weighed"),
    ]


def test_a_websocket_send_to_is_no_broker():
    assert flows(link({"Board.java": STOMP_JAVA})) == []
