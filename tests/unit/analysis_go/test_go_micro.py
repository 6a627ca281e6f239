"""go-micro services: ``<pb>.Register<X>Handler(service.Server(), impl)`` serves the rpcs of impl,
``<pb>.New<X>Service("name", service.Client())`` is an RPC client of proto service X (its
methods are the calls), ``micro.NewEvent``/``NewPublisher`` + ``Publish`` publish a topic,
``micro.RegisterSubscriber``, ``server.NewSubscriber`` and the ``broker`` package subscribe;
a broker plugin import names the broker. The protoc-gen-micro files (``*.pb.micro.go``) are
generated code, never read."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts

from .helpers import link, routes, show

LEDGER_V2 = """
package main

import (
	"context"

	"github.com/micro/go-micro/v2"
	_ "github.com/micro/go-plugins/broker/nats/v2"

	ledgerpb "example.org/books/ledger/proto/ledger"
	"example.org/books/ledger/subscriber"
)

type Ledger struct{}

func (l *Ledger) Post(ctx context.Context, req *ledgerpb.Entry, rsp *ledgerpb.Receipt) error {
	return nil
}

func (l *Ledger) Balance(ctx context.Context, req *ledgerpb.Account, rsp *ledgerpb.Amount) error {
	return nil
}

func main() {
	service := micro.NewService(micro.Name("books.service.ledger"))
	service.Init()
	ledgerpb.RegisterLedgerHandler(service.Server(), new(Ledger))
	micro.RegisterSubscriber("books.topic.invoice", service.Server(), new(subscriber.Invoices))
	service.Run()
}
"""

SUBSCRIBER = """
package subscriber

import "context"

type Invoices struct{}

func (i *Invoices) Handle(ctx context.Context, msg *string) error { return nil }
"""

BILLING_V4 = """
package main

import (
	"context"

	"go-micro.dev/v4"

	ledgerpb "example.org/books/ledger/proto/ledger"
)

type Biller struct {
	ledger ledgerpb.LedgerService
	events micro.Event
}

func (b *Biller) Bill(ctx context.Context, account string) error {
	if _, err := b.ledger.Post(ctx, &ledgerpb.Entry{Account: account}); err != nil {
		return err
	}
	return b.events.Publish(ctx, &ledgerpb.Entry{Account: account})
}

func main() {
	service := micro.NewService(micro.Name("books.service.billing"))
	service.Init()
	b := &Biller{
		ledger: ledgerpb.NewLedgerService("books.service.ledger", service.Client()),
		events: micro.NewEvent("books.topic.invoice", service.Client()),
	}
	b.Bill(context.Background(), "acme")
	service.Server().Subscribe(service.Server().NewSubscriber("books.topic.refund", b.onRefund))
	service.Run()
}

func (b *Biller) onRefund(ctx context.Context, msg *string) error { return nil }
"""

RAW_BROKER = """
package main

import (
	"github.com/micro/go-micro/v2/broker"
	_ "github.com/micro/go-plugins/broker/rabbitmq/v2"
)

func main() {
	broker.Connect()
	broker.Subscribe("audit.trail", func(e broker.Event) error { return nil })
	broker.Publish("audit.trail", &broker.Message{Body: []byte("x")})
}
"""

# the generated client file is never read: the calls are made from the service's own code
GENERATED = """
package ledger

func NewLedgerService(name string, c interface{}) interface{} { return nil }
"""

# a constructor named like a go-micro client on something that is no client: no call
LOOKALIKE = """
package main

import "example.org/books/tools/proto/report"

func main() {
	report.NewSummaryService(42, "weekly")
}
"""


def _flows(facts: LinkedFacts) -> list[tuple[str, str | None, str]]:
    return sorted((m.direction, show(m.channel), m.provider) for m in facts.messages)


def test_a_registered_handler_serves_its_rpcs_and_a_subscriber_consumes_its_topic() -> None:
    facts = link({"ledger/main.go": LEDGER_V2, "ledger/subscriber/invoices.go": SUBSCRIBER})
    assert facts.grpc_implements == ("Ledger",)
    assert [r[:2] for r in routes(facts) if r[0] == "RPC"] == [("RPC", "Ledger/Balance"), ("RPC", "Ledger/Post")]
    assert _flows(facts) == [("consumes", "books.topic.invoice", "nats")]


def test_a_named_service_client_calls_the_proto_service_and_an_event_publishes() -> None:
    facts = link({"billing/main.go": BILLING_V4, "ledger/proto/ledger/ledger.pb.micro.go": GENERATED})
    assert sorted((c.kind, c.grpc_service, c.method) for c in facts.calls) == [("grpc", "Ledger", "Post")]
    assert _flows(facts) == [
        ("consumes", "books.topic.refund", "go-micro"),
        ("publishes", "books.topic.invoice", "go-micro"),
    ]


def test_the_broker_package_with_a_plugin_names_its_broker() -> None:
    assert _flows(link({"audit/main.go": RAW_BROKER})) == [
        ("consumes", "audit.trail", "rabbitmq"),
        ("publishes", "audit.trail", "rabbitmq"),
    ]


def test_a_lookalike_constructor_is_no_call() -> None:
    assert link({"tools/main.go": LOOKALIKE}).calls == ()
