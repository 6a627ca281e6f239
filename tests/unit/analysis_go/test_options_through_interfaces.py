"""A publisher built by a DI provider, handed around as an interface and configured in ``main``
with functional options (``a.Pub.Configure(pub.Exchange("x"))``) while ``Publish`` is called
through the interface elsewhere: the call reaches the implementation in the interface's own
package, and the exchange is the one the options set, not the constructor's default."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts

from .helpers import link, show

PUB = """
package pub

import (
	"context"

	amqp "github.com/rabbitmq/amqp091-go"
)

type Option func(*sender)

func Exchange(name string) Option {
	return func(s *sender) { s.exchange = name }
}

type Sender interface {
	Configure(opts ...Option) Sender
	Publish(ctx context.Context, body []byte) error
}

type sender struct {
	exchange string
	conn     *amqp.Connection
}

func New(conn *amqp.Connection) Sender {
	return &sender{conn: conn, exchange: "default-exchange"}
}

func (s *sender) Configure(opts ...Option) Sender {
	for _, opt := range opts {
		opt(s)
	}
	return s
}

func (s *sender) Publish(ctx context.Context, body []byte) error {
	ch, _ := s.conn.Channel()
	return ch.PublishWithContext(ctx, s.exchange, "", false, false, amqp.Publishing{Body: body})
}
"""

# another type with a Publish method in another package: a name alone does not pick it
AUDIT = """
package audit

import "context"

type Trail struct{}

func (t *Trail) Publish(ctx context.Context, body []byte) error { return nil }
"""

APP = """
package app

import (
	amqp "github.com/rabbitmq/amqp091-go"

	"example.com/mill/pub"
)

type App struct {
	Shipped pub.Sender
	Billed  pub.Sender
}

func Build(conn *amqp.Connection) *App {
	return &App{Shipped: pub.New(conn), Billed: pub.New(conn)}
}
"""

HANDLER = """
package orders

import (
	"context"

	"example.com/mill/pub"
)

type Done struct {
	out pub.Sender
}

func (d *Done) Handle(ctx context.Context, id string) error {
	return d.out.Publish(ctx, []byte(id))
}
"""

MAIN = """
package main

import (
	amqp "github.com/rabbitmq/amqp091-go"

	"example.com/mill/app"
	"example.com/mill/pub"
)

func main() {
	conn, _ := amqp.Dial("amqp://mq")
	a := app.Build(conn)
	a.Shipped.Configure(pub.Exchange("parcel-shipped"))
	a.Billed.Configure(pub.Exchange("invoice-billed"))
}
"""


def _published(facts: LinkedFacts) -> list[str | None]:
    return sorted(show(m.channel) for m in facts.messages if m.direction == "publishes")


def test_options_set_in_main_name_what_the_interface_publishes() -> None:
    facts = link(
        {
            "mill/pub/pub.go": PUB,
            "mill/audit/audit.go": AUDIT,
            "mill/app/app.go": APP,
            "mill/orders/done.go": HANDLER,
            "mill/main.go": MAIN,
        }
    )
    assert _published(facts) == ["invoice-billed", "parcel-shipped"]


def test_without_options_the_constructor_default_stays() -> None:
    unconfigured = MAIN.replace('\ta.Shipped.Configure(pub.Exchange("parcel-shipped"))\n', "").replace(
        '\ta.Billed.Configure(pub.Exchange("invoice-billed"))\n', ""
    )
    facts = link(
        {"mill/pub/pub.go": PUB, "mill/app/app.go": APP, "mill/orders/done.go": HANDLER, "mill/main.go": unconfigured}
    )
    assert _published(facts) == ["default-exchange"]
