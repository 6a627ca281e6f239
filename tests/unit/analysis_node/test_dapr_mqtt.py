"""The Dapr JS SDK's pub/sub (`client.pubsub.publish`, `server.pubsub.subscribe`) and MQTT.js."""

from __future__ import annotations

from .support import analyze, url

DAPR = {
    "src/bus.ts": """\
        import { DaprClient, DaprServer } from "@dapr/dapr";

        const BUS = "freight";
        const client = new DaprClient();
        const server = new DaprServer({ serverPort: "7001" });

        export async function loaded(crate: unknown) {
          await client.pubsub.publish(BUS, "crates-loaded", crate);
        }

        export async function listen() {
          await server.pubsub.subscribe(BUS, process.env.LOST_TOPIC || "crates-lost", async (d: unknown) => d);
          await server.pubsub.subscribeWithOptions("freight", "crates-found", { callback: async () => null });
        }
        """,
    "src/legacy.js": """\
        const { DaprClient } = require("dapr-client");
        const client = new DaprClient("127.0.0.1", process.env.DAPR_HTTP_PORT);
        client.pubsub.publish(process.env.PUBSUB || "orders-bus", "orders", {});
        """,
}

MQTT = {
    "src/plant.js": """\
        const mqtt = require("mqtt");
        const TOPICS = { temp: "plant/temperature" };
        const c = mqtt.connect(process.env.BROKER_URL);
        c.on("connect", () => c.subscribe("plant/commands"));
        c.publish(TOPICS.temp, JSON.stringify({ c: 21 }));
        """,
}


def _msgs(facts):
    return sorted((m.direction, url(m.channel), m.provider, m.client) for m in facts.messages)


def test_dapr_pubsub_publish_and_subscribe_name_their_component() -> None:
    assert _msgs(analyze(DAPR)) == [
        ("consumes", "${LOST_TOPIC:crates-lost}", "dapr:freight", "dapr"),
        ("consumes", "crates-found", "dapr:freight", "dapr"),
        ("publishes", "crates-loaded", "dapr:freight", "dapr"),
        ("publishes", "orders", "dapr:", "dapr"),  # the component read from env: its broker, if only one
    ]


def test_mqtt_js_publish_and_subscribe() -> None:
    assert _msgs(analyze(MQTT)) == [
        ("consumes", "plant/commands", "mqtt", "mqtt"),
        ("publishes", "plant/temperature", "mqtt", "mqtt"),
    ]


def test_publish_on_other_receivers_of_a_dapr_file_is_no_message() -> None:
    files = {
        "src/other.js": """\
            const { DaprClient } = require("@dapr/dapr");
            const client = new DaprClient();
            const events = require("./events");
            events.publish("bus", "not-a-topic", {});
            client.state.save("crates", [{ key: "a", value: 1 }]);
            """
    }
    assert analyze(files).messages == ()


def test_publish_without_the_modules_is_no_message() -> None:
    files = {
        "src/p.js": 'const hub = require("./hub");\nhub.pubsub.publish("bus", "t", {});\nhub.publish("a/b", "x");\n'
    }
    assert analyze(files).messages == ()


def test_a_destructured_require_brings_its_broker() -> None:
    files = {
        "src/n.js": """\
            const { connect, StringCodec } = require("nats");
            async function go() {
              const nc = await connect({ servers: process.env.NATS_URL });
              nc.publish("crates.loaded", StringCodec().encode("x"));
            }
            """
    }
    assert _msgs(analyze(files)) == [("publishes", "crates.loaded", "nats", "nats")]
