"""Publish/subscribe channels of Rust services beyond Kafka, AMQP and NATS: redis pub/sub
(``conn.publish("ch", msg)``, ``pubsub.subscribe("ch")``, ``psubscribe``) and MQTT with rumqttc
(``client.publish("t", QoS, ..)``, ``client.subscribe("t", QoS)``); names folded from constants;
a ``publish`` with a variable channel, or in a crate without those clients, is no channel."""

from __future__ import annotations

from tests.unit.analysis_rust.helpers import link, show

REDIS = """
use redis::AsyncCommands;

const PRICE_FEED: &str = "prices.changed";

pub async fn announce(conn: &mut redis::aio::MultiplexedConnection, body: String) {
    let _: () = conn.publish(PRICE_FEED, body).await.unwrap();
}

pub async fn follow(client: redis::Client, name: String) {
    let mut pubsub = client.get_async_pubsub().await.unwrap();
    pubsub.subscribe("stock.low").await.unwrap();
    pubsub.psubscribe("alerts.*").await.unwrap();
    pubsub.subscribe(name).await.unwrap();
}
"""
MQTT = """
use rumqttc::{AsyncClient, MqttOptions, QoS};

pub async fn run(client: AsyncClient) {
    client.subscribe("greenhouse/+/humidity", QoS::AtMostOnce).await.unwrap();
    client.publish("greenhouse/vents", QoS::AtLeastOnce, false, "open").await.unwrap();
}
"""
PLAIN = """
pub struct Bus;
impl Bus { pub fn publish(&self, topic: &str, body: &str) {} }
pub fn go(bus: &Bus) { bus.publish("orders", "{}"); }
"""


def test_redis_and_mqtt_channels() -> None:
    facts = link({"Cargo.toml": "[package]\nname='feeds'\n", "src/redis_feed.rs": REDIS, "src/mqtt.rs": MQTT,
                  "src/plain.rs": PLAIN})  # fmt: skip
    assert sorted((m.direction, show(m.channel), m.provider) for m in facts.messages) == [
        ("consumes", "alerts.*", "redis"),
        ("consumes", "greenhouse/+/humidity", "mqtt"),
        ("consumes", "stock.low", "redis"),
        ("publishes", "greenhouse/vents", "mqtt"),
        ("publishes", "prices.changed", "redis"),
    ]
