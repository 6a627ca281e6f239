"""A folder of the service named like a library it wraps (``internal/amqp`` beside
``github.com/streadway/amqp``): the library's import path never names that folder."""

from __future__ import annotations

from tests.unit.analysis_go.helpers import link, routes, show

WRAPPER = """
package amqp

import (
	"os"

	"github.com/streadway/amqp"
)

type Sender struct {
	ch    *amqp.Channel
	queue amqp.Queue
}

func Open() Sender {
	conn, _ := amqp.Dial(os.Getenv("BROKER_URL"))
	ch, _ := conn.Channel()
	q, _ := ch.QueueDeclare("refunds", true, false, false, false, nil)
	return Sender{ch: ch, queue: q}
}

func (s Sender) Send(body []byte) error {
	return s.ch.Publish("", s.queue.Name, false, false, amqp.Publishing{Body: body})
}
"""

MAIN = """
package main

import "example.com/refunds/internal/amqp"

func main() {
	s := amqp.Open()
	_ = s.Send(nil)
}
"""


def test_a_wrapper_folder_named_like_the_broker_library_still_reaches_the_library() -> None:
    facts = link({"svc/main.go": MAIN, "svc/internal/amqp/sender.go": WRAPPER})
    assert [(m.direction, show(m.channel)) for m in facts.messages] == [("publishes", "refunds")]


def test_a_router_folder_named_like_the_router_library_still_serves_its_routes() -> None:
    router = """
package chi

import (
	"net/http"

	"github.com/go-chi/chi"
)

func Routes() http.Handler {
	r := chi.NewRouter()
	r.Get("/refunds/{id}", show)
	return r
}

func show(w http.ResponseWriter, r *http.Request) {}
"""
    main = """
package main

import (
	"net/http"

	web "example.com/refunds/internal/web/chi"
)

func main() { http.ListenAndServe(":8080", web.Routes()) }
"""
    facts = link({"svc/main.go": main, "svc/internal/web/chi/routes.go": router})
    assert routes(facts, lines=False) == [("GET", "/refunds/{id}", "show")]


def test_the_services_own_folder_is_still_found_by_its_module_path() -> None:
    """Negative: an import path the tables do not know keeps naming the service's folder."""
    facts = link(
        {"svc/main.go": MAIN, "svc/internal/amqp/sender.go": WRAPPER.replace('"refunds"', '"chargebacks"')}
    )
    assert [show(m.channel) for m in facts.messages] == ["chargebacks"]
