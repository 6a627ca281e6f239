"""watermill: publishers and subscribers built on one of its backends (Kafka, AMQP, NATS...), used
directly, through a router's handlers, or passed around as the ``message.Publisher`` interface."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts

from .helpers import link, show


def _msgs(facts: LinkedFacts) -> list[tuple[str, str, str | None]]:
    return sorted((m.direction, m.provider, show(m.channel)) for m in facts.messages)


DIRECT = """
package relay

import (
	"context"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill-kafka/v3/pkg/kafka"
	"github.com/ThreeDotsLabs/watermill/message"
)

const parcelsTopic = "parcels.sorted"

func Run(ctx context.Context) {
	pub, _ := kafka.NewPublisher(kafka.PublisherConfig{Brokers: []string{"k:9092"}}, watermill.NopLogger{})
	pub.Publish(parcelsTopic, message.NewMessage(watermill.NewUUID(), []byte("{}")))
	sub, _ := kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: []string{"k:9092"}}, watermill.NopLogger{})
	sub.Subscribe(ctx, "parcels.weighed")
}
"""


def test_publisher_and_subscriber_of_a_backend_used_directly() -> None:
    assert _msgs(link({"relay/relay.go": DIRECT})) == [
        ("consumes", "kafka", "parcels.weighed"),
        ("publishes", "kafka", "parcels.sorted"),
    ]


ROUTER = """
package depot

import (
	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill-amqp/v2/pkg/amqp"
	"github.com/ThreeDotsLabs/watermill/message"
)

func Wire() {
	cfg := amqp.NewDurableQueueConfig("amqp://rabbit:5672/")
	sub, _ := amqp.NewSubscriber(cfg, watermill.NopLogger{})
	pub, _ := amqp.NewPublisher(cfg, watermill.NopLogger{})
	router, _ := message.NewRouter(message.RouterConfig{}, watermill.NopLogger{})
	router.AddNoPublisherHandler("audit", "crates.opened", sub, audit)
	router.AddHandler("relabel", "crates.arrived", sub, "crates.labelled", pub, relabel)
}

func audit(msg *message.Message) error { return nil }

func relabel(msg *message.Message) ([]*message.Message, error) { return nil, nil }
"""


def test_router_handlers_consume_and_forward_through_their_backend() -> None:
    facts = link({"depot/wire.go": ROUTER})
    assert _msgs(facts) == [
        ("consumes", "rabbitmq", "crates.arrived"),
        ("consumes", "rabbitmq", "crates.opened"),
        ("publishes", "rabbitmq", "crates.labelled"),
    ]
    assert sorted((a.path, a.handler) for a in facts.apis) == [
        ("crates.arrived", "relabel"),
        ("crates.opened", "audit"),
    ]


INTERFACE = {
    "infra/bus.go": """
package infra

import (
	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill-nats/v2/pkg/nats"
	"github.com/ThreeDotsLabs/watermill/message"
)

func NewPublisher(url string) (message.Publisher, error) {
	return nats.NewPublisher(nats.PublisherConfig{URL: url}, watermill.NopLogger{})
}
""",
    "parcels/repo.go": """
package parcels

import (
	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
)

const weighedTopic = "parcels.weighed"

type Repo struct {
	p message.Publisher
}

// Send publishes to the topic its caller names: reported where it is called, never here.
func Send(p message.Publisher, topic string) error {
	return p.Publish(topic, message.NewMessage(watermill.NewUUID(), nil))
}

func (r *Repo) Weighed() error {
	return r.p.Publish(weighedTopic, message.NewMessage(watermill.NewUUID(), nil))
}
""",
}


def test_a_publisher_behind_the_interface_speaks_the_one_backend_imported() -> None:
    """``Send`` is never called: its bare ``topic`` parameter is no channel of its own."""
    assert _msgs(link(INTERFACE)) == [("publishes", "nats", "parcels.weighed")]


def test_negative_no_backend_imported_leaves_the_broker_unknown() -> None:
    files = {"parcels/repo.go": INTERFACE["parcels/repo.go"]}
    assert _msgs(link(files)) == [("publishes", "unknown", "parcels.weighed")]
