"""Kafka in PHP: the Laravel Kafka facade (producer ``onTopic``/``publishOn``, consumer builders
``createConsumer([...])`` and ``->subscribe(...)``) and php-rdkafka (``$producer->newTopic``,
``$consumer->subscribe([...])``); other ``subscribe``/``newTopic`` calls are no topic."""

from __future__ import annotations

from tests.unit.analysis_php.helpers import link, show

LARAVEL = """<?php
namespace App\\Services;

use Junges\\Kafka\\Facades\\Kafka;

class ParcelEvents
{
    public const TOPIC = 'parcels.labelled';

    public function labelled(array $parcel): void
    {
        Kafka::publish('broker:9092')->onTopic(self::TOPIC)->withBodyKey('parcel', $parcel)->send();
        Kafka::publishOn('parcels.audit')->withBody($parcel)->send();
    }

    public function listen(): void
    {
        $consumer = Kafka::createConsumer(['parcels.returned', 'parcels.lost'])
            ->withHandler(new ReturnedHandler())
            ->build();
        Kafka::consumer()->subscribe('parcels.rerouted')->build()->consume();
    }
}
"""
RDKAFKA = """<?php
class Ledger
{
    public function write(string $entry): void
    {
        $producer = new \\RdKafka\\Producer($this->conf);
        $topic = $producer->newTopic("ledger-entries");
        $topic->produce(RD_KAFKA_PARTITION_UA, 0, $entry);
    }

    public function read(): void
    {
        $consumer = new \\RdKafka\\KafkaConsumer($this->conf);
        $consumer->subscribe(['ledger-corrections']);
        $this->newsletter->subscribe('someone@example.org');
    }
}
"""


def test_laravel_kafka_and_rdkafka_topics() -> None:
    facts = link({"app/Services/ParcelEvents.php": LARAVEL, "src/Ledger.php": RDKAFKA})
    assert sorted((m.direction, show(m.channel), m.provider) for m in facts.messages) == [
        ("consumes", "ledger-corrections", "kafka"),
        ("consumes", "parcels.lost", "kafka"),
        ("consumes", "parcels.rerouted", "kafka"),
        ("consumes", "parcels.returned", "kafka"),
        ("publishes", "ledger-entries", "kafka"),
        ("publishes", "parcels.audit", "kafka"),
        ("publishes", "parcels.labelled", "kafka"),
    ]
