"""Reverse proxies are calls to their upstreams (Fiber's ``proxy.Do``/``Forward``/
``BalancerForward``/``Balancer``, ``httputil.NewSingleHostReverseProxy``); a URL parsed with
``url.Parse(base)`` whose ``Path`` is set before ``String()`` is the base with that path, folded
through the wrapper's callers; a kafka-go ``Writer`` with an empty ``Topic`` (each message names
its own) is no channel and no gap."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts

from .helpers import link, show

SETTINGS = """
package settings

import "os"

type Values struct {
	Port      string
	Ledger    string
	Stock     []string
	Reporting string
}

func Read() *Values {
	return &Values{
		Port:      fallback("PORT", "9000"),
		Ledger:    fallback("LEDGER_URL", "http://ledger:7000"),
		Stock:     []string{"http://stock-1:7100", "http://stock-2:7100"},
		Reporting: fallback("REPORTING_URL", "http://reports:7200"),
	}
}

func fallback(key, value string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return value
}
"""

LEDGER_CLIENT = """
package ledgerclient

import (
	"context"
	"net/http"
	"net/url"
)

func Balances(ctx context.Context, base, owner string) (*http.Response, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	u.Path = "/balances"
	u.RawQuery = url.Values{"owner": {owner}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}
"""

FIBER_GATEWAY = """
package main

import (
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/proxy"

	"example.com/edge/ledgerclient"
	"example.com/edge/settings"
)

type Pages struct{ ledger string }

func (p *Pages) Owner(c *fiber.Ctx) error {
	_, err := ledgerclient.Balances(c.Context(), p.ledger, c.Params("id"))
	return err
}

func main() {
	s := settings.Read()
	pages := &Pages{ledger: s.Ledger}
	app := fiber.New()
	app.Get("/owners/:id", pages.Owner)
	app.All("/stock/*", proxy.BalancerForward(s.Stock))
	app.All("/reports/*", proxy.Balancer(proxy.Config{Servers: []string{s.Reporting}}))
	ledger := s.Ledger
	app.All("/ledger/*", func(c *fiber.Ctx) error {
		return proxy.Do(c, ledger+c.Path())
	})
	app.Listen(":" + s.Port)
}
"""

NETHTTP_PROXY = """
package main

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
)

func main() {
	target, _ := url.Parse(os.Getenv("BACKEND_URL"))
	http.Handle("/", httputil.NewSingleHostReverseProxy(target))
	http.ListenAndServe(":8080", nil)
}
"""

PER_MESSAGE_TOPICS = """
package relay

import (
	"context"

	"github.com/segmentio/kafka-go"
)

type Relay struct{ w *kafka.Writer }

func New(broker string) *Relay {
	return &Relay{w: &kafka.Writer{Addr: kafka.TCP(broker), Topic: ""}}
}

func (r *Relay) Paid(ctx context.Context, body []byte) error {
	return r.send(ctx, "invoice.paid", body)
}

func (r *Relay) send(ctx context.Context, topic string, body []byte) error {
	return r.w.WriteMessages(ctx, kafka.Message{Topic: topic, Value: body})
}
"""


def _calls(facts: LinkedFacts) -> list[tuple[str, int, str | None, str | None]]:
    return sorted((c.file, c.line, c.method, show(c.url)) for c in facts.calls)


def test_fiber_proxies_and_a_parsed_url_are_calls_to_their_upstreams() -> None:
    facts = link(
        {
            "edge/settings/settings.go": SETTINGS,
            "edge/ledgerclient/client.go": LEDGER_CLIENT,
            "edge/main.go": FIBER_GATEWAY,
        }
    )
    assert _calls(facts) == [
        ("edge/main.go", 14, "GET", "{env:LEDGER_URL|http://ledger:7000}/balances"),
        ("edge/main.go", 23, None, "http://stock-1:7100"),
        ("edge/main.go", 23, None, "http://stock-2:7100"),
        ("edge/main.go", 24, None, "{env:REPORTING_URL|http://reports:7200}"),
        ("edge/main.go", 27, None, "{env:LEDGER_URL|http://ledger:7000}{?c.Path()}"),
    ]


def test_a_single_host_reverse_proxy_calls_its_parsed_target() -> None:
    assert _calls(link({"front/main.go": NETHTTP_PROXY})) == [("front/main.go", 12, None, "{env:BACKEND_URL}")]


def test_a_writer_with_an_empty_topic_is_no_channel_and_no_gap() -> None:
    facts = link({"relay/relay.go": PER_MESSAGE_TOPICS})
    assert [(m.direction, show(m.channel)) for m in facts.messages] == [("publishes", "invoice.paid")]
    assert not [g for g in facts.gaps if "channel" in g.reason]
