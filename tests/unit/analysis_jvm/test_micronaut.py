"""Micronaut: `@Controller("/prefix")` routes (from the class or the API interface it implements),
declarative `@Client(id = ...)` interfaces, and Kafka/RabbitMQ/NATS beans whose methods name their
channels with `@Topic`/`@Binding`/`@Subject`. Spring's same-named annotations keep their meaning."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def routes(facts: LinkedFacts) -> list[tuple[str, str, str]]:
    return sorted((a.method, a.path, a.handler) for a in facts.apis if a.kind == "http")


def calls(facts: LinkedFacts) -> list[tuple[str | None, str]]:
    return sorted((c.method, render(c.url)) for c in facts.calls)


def flows(facts: LinkedFacts) -> list[tuple[str, str, str]]:
    return sorted({(m.direction, m.provider, render(m.channel)) for m in facts.messages})


HARBOUR_API = """package org.quay.api;

import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;

public interface BerthOperations {
    @Get("/{berthId}")
    String berth(String berthId);

    @Post(uri = "/reserve", consumes = "application/json")
    String reserve(@Body String request);
}
"""

HARBOUR_CONTROLLER = """package org.quay.berths;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import org.quay.api.BerthOperations;

@Controller("/berths")
public class BerthController implements BerthOperations {
    public String berth(String berthId) { return berthId; }

    public String reserve(String request) { return request; }

    @Delete("/{berthId}")
    public void release(String berthId) { }
}
"""

TIDE_KOTLIN = """package org.quay.tides

import io.micronaut.http.annotation.Controller
import io.micronaut.http.annotation.Get

@Controller
class TideController {
    @Get("/tides/today")
    fun today(): String = "high"
}
"""

GATEWAY_CLIENTS = """package org.quay.gateway;

import io.micronaut.http.annotation.Post;
import io.micronaut.http.client.annotation.Client;
import org.quay.api.BerthOperations;

@Client(id = "berth-service", path = "/berths")
public interface BerthClient extends BerthOperations {
    @Post("/reserve")
    String reserve(String request);
}
"""

WEATHER_CLIENT = """package org.quay.gateway;

import io.micronaut.http.annotation.Get;
import io.micronaut.http.client.annotation.Client;

@Client("${weather.url}")
public interface WeatherClient {
    @Get("/forecast")
    String forecast();
}
"""

SPRING_CONTROLLER = """package org.quay.legacy;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

@Controller("legacyPages")
public class LegacyPages {
    @GetMapping("/old")
    public String old() { return "old"; }
}
"""

KAFKA_BEANS = """package org.quay.events;

import io.micronaut.configuration.kafka.annotation.KafkaClient;
import io.micronaut.configuration.kafka.annotation.KafkaListener;
import io.micronaut.configuration.kafka.annotation.Topic;

@KafkaClient
public interface ShipEvents {
    String DOCKED = "ship-docked";

    @Topic(DOCKED)
    void docked(String ship);

    @Topic("ship-left")
    void left(String ship);

    void notAChannel(String ship);
}
"""

KAFKA_LISTENER_KT = """package org.quay.events

import io.micronaut.configuration.kafka.annotation.KafkaListener
import io.micronaut.configuration.kafka.annotation.Topic

@KafkaListener(groupId = "harbour-master")
class DockedListener {
    @Topic("ship-docked")
    fun onDocked(ship: String) { }

    fun helper() { }
}
"""

RABBIT_BEANS = """package org.quay.cargo;

import io.micronaut.rabbitmq.annotation.Binding;
import io.micronaut.rabbitmq.annotation.Queue;
import io.micronaut.rabbitmq.annotation.RabbitClient;
import io.micronaut.rabbitmq.annotation.RabbitListener;

@RabbitClient("cargo-exchange")
interface CargoPublisher {
    @Binding("cargo.loaded")
    void loaded(String crate);
}

@RabbitListener
class CargoListener {
    @Queue("cargo-inspections")
    public void inspect(String crate) { }
}
"""

NATS_DEFAULT_EXCHANGE = """package org.quay.signals;

import io.micronaut.nats.annotation.NatsClient;
import io.micronaut.nats.annotation.Subject;
import io.micronaut.rabbitmq.annotation.Binding;
import io.micronaut.rabbitmq.annotation.RabbitClient;

@NatsClient
interface Flags {
    @Subject("flags.raised")
    void raise(String flag);
}

@RabbitClient
interface Horns {
    @Binding("horn-blasts")
    void blast(String horn);
}
"""


def test_controller_routes_from_the_class_and_its_api_interface() -> None:
    facts = link({
        "api/src/main/java/org/quay/api/BerthOperations.java": HARBOUR_API,
        "src/main/java/org/quay/berths/BerthController.java": HARBOUR_CONTROLLER,
        "src/main/kotlin/org/quay/tides/TideController.kt": TIDE_KOTLIN,
    })
    assert routes(facts) == [
        ("DELETE", "/berths/{berthId}", "BerthController.release"),
        ("GET", "/berths/{berthId}", "BerthController.berth"),
        ("GET", "/tides/today", "TideController.today"),
        ("POST", "/berths/reserve", "BerthController.reserve"),
    ]


def test_a_spring_controller_name_is_a_bean_name_not_a_prefix() -> None:
    facts = link({"src/main/java/org/quay/legacy/LegacyPages.java": SPRING_CONTROLLER})
    assert routes(facts) == [("GET", "/old", "LegacyPages.old")]


def test_declarative_clients_by_service_id_and_by_configured_url() -> None:
    facts = link({
        "api/src/main/java/org/quay/api/BerthOperations.java": HARBOUR_API,
        "src/main/java/org/quay/gateway/BerthClient.java": GATEWAY_CLIENTS,
        "src/main/java/org/quay/gateway/WeatherClient.java": WEATHER_CLIENT,
    })
    assert calls(facts) == [
        ("GET", "${weather.url}/forecast"),
        ("GET", "http://berth-service/berths/{berthId}"),
        ("POST", "http://berth-service/berths/reserve"),
    ]
    assert routes(facts) == []  # a client interface serves nothing


def test_kafka_client_and_listener_java_and_kotlin() -> None:
    facts = link({
        "src/main/java/org/quay/events/ShipEvents.java": KAFKA_BEANS,
        "src/main/kotlin/org/quay/events/DockedListener.kt": KAFKA_LISTENER_KT,
    })
    assert flows(facts) == [
        ("consumes", "kafka", "ship-docked"),
        ("publishes", "kafka", "ship-docked"),
        ("publishes", "kafka", "ship-left"),
    ]
    assert [(a.method, a.path, a.handler) for a in facts.apis if a.kind == "message"] == [
        ("CONSUME", "ship-docked", "DockedListener.onDocked")
    ]


def test_rabbit_exchange_or_default_exchange_binding_and_nats_subjects() -> None:
    assert flows(link({"src/main/java/org/quay/cargo/Cargo.java": RABBIT_BEANS})) == [
        ("consumes", "rabbitmq", "cargo-inspections"),
        ("publishes", "rabbitmq", "cargo-exchange"),
    ]
    assert flows(link({"src/main/java/org/quay/signals/Signals.java": NATS_DEFAULT_EXCHANGE})) == [
        ("publishes", "nats", "flags.raised"),
        ("publishes", "rabbitmq", "horn-blasts"),
    ]


def test_spring_kafka_listener_class_without_micronaut_is_left_to_spring() -> None:
    spring = KAFKA_LISTENER_KT.replace("io.micronaut.configuration.kafka.annotation", "org.springframework.kafka.annotation")
    assert flows(link({"src/main/kotlin/org/quay/events/DockedListener.kt": spring})) == []
