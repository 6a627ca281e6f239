"""A constructor that returns the zero value on its error paths (``return T{}, err``) before the
value it builds: the built value is what its callers get."""

from __future__ import annotations

from tests.unit.analysis_go.helpers import link, show

CONSUMER = """
package main

import (
	"os"

	"github.com/streadway/amqp"
)

type Inbox struct {
	ch    *amqp.Channel
	queue amqp.Queue
}

func OpenInbox(url, name string) (Inbox, error) {
	conn, err := amqp.Dial(url)
	if err != nil {
		return Inbox{}, err
	}
	ch, err := conn.Channel()
	if err != nil {
		return Inbox{}, err
	}
	q, err := ch.QueueDeclare(name, true, false, false, false, nil)
	if err != nil {
		return Inbox{}, err
	}
	return BUILT, nil
}

func (in Inbox) Drain() {
	msgs, _ := in.ch.Consume(in.queue.Name, "", true, false, false, false, nil)
	for m := range msgs {
		_ = m
	}
}

func main() {
	in, err := OpenInbox("amqp://broker:5672/", os.Getenv("INVOICE_QUEUE"))
	if err != nil {
		panic(err)
	}
	in.Drain()
}
"""


def _consumed(built: str) -> list[tuple[str, str | None]]:
    facts = link({"svc/main.go": CONSUMER.replace("BUILT", built)})
    return [(m.direction, show(m.channel)) for m in facts.messages]


def test_a_positional_literal_after_zero_values_on_error_paths_keeps_its_queue() -> None:
    assert _consumed("Inbox{ch, q}") == [("consumes", "{env:INVOICE_QUEUE}")]


def test_a_keyed_literal_after_zero_values_on_error_paths_keeps_its_queue() -> None:
    assert _consumed("Inbox{queue: q, ch: ch}") == [("consumes", "{env:INVOICE_QUEUE}")]


def test_a_client_built_after_an_error_path_calls_with_its_base_address() -> None:
    src = """
package main

import (
	"errors"
	"fmt"
	"net/http"
	"os"
)

type Ledger struct{ base string }

func NewLedger(base string) (Ledger, error) {
	if base == "" {
		return Ledger{}, errors.New("no address")
	}
	return Ledger{base}, nil
}

func (l Ledger) Settle(id string) error {
	req, _ := http.NewRequest("POST", fmt.Sprintf("%s/entries/%s/settled", l.base, id), nil)
	_, err := http.DefaultClient.Do(req)
	return err
}

func main() {
	l, _ := NewLedger(os.Getenv("LEDGER_ADDR"))
	_ = l.Settle("7")
}
"""
    calls = link({"svc/main.go": src}).calls
    assert [(c.method, show(c.url)) for c in calls] == [("POST", "{env:LEDGER_ADDR}/entries/7/settled")]


def test_only_zero_values_returned_stay_unresolved_never_an_invented_channel() -> None:
    facts = link({"svc/main.go": CONSUMER.replace("BUILT", "Inbox{}")})
    assert facts.messages == ()
    assert any("channel not resolved" in g.reason for g in facts.gaps)
