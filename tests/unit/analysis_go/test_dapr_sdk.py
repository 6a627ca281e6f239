"""The Dapr Go SDK (publish, topic handlers, state stores), env getters of a library, and
unkeyed struct literals carrying a channel into a method."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts

from .helpers import link, show

MOD = "module example.com/depot\n\ngo 1.22\n"


def _msgs(facts: LinkedFacts) -> list[tuple[str, str | None, str]]:
    return sorted((m.direction, show(m.channel), m.provider) for m in facts.messages)


CLIENT = """
package depot

import (
	"context"

	"github.com/acme/kit/env"
	dapr "github.com/dapr/go-sdk/client"
)

type Depot struct {
	bus    string
	topic  string
	store  string
	client dapr.Client
}

func NewDepot() *Depot {
	c, err := dapr.NewClient()
	if err != nil {
		panic(err)
	}
	// an unkeyed literal: the values go to the fields in their declared order
	return &Depot{env.GetEnvString("DEPOT_BUS", "freight"), env.GetEnvString("DEPOT_TOPIC", "crates-loaded"), "crates", c}
}

func (d Depot) Load(ctx context.Context, id string, body []byte) error {
	if err := d.client.SaveState(ctx, d.store, id, body, nil); err != nil {
		return err
	}
	return d.client.PublishEvent(ctx, d.bus, d.topic, body)
}

func (d Depot) Audit(ctx context.Context) {
	_, _ = d.client.GetState(ctx, "audit-log", "last", nil)
	_ = d.client.PublishEvent(ctx, "freight", "crates-audited", nil)
}
"""


def test_publish_and_state_through_a_client_held_in_a_struct() -> None:
    facts = link({"svc/go.mod": MOD, "svc/depot.go": CLIENT})
    assert _msgs(facts) == [
        ("publishes", "crates-audited", "dapr:freight"),
        ("publishes", "{env:DEPOT_TOPIC|crates-loaded}", "dapr:${DEPOT_BUS:freight}"),  # named by env
    ]
    assert sorted((e.name, e.kind, e.framework) for e in facts.entities) == [
        ("audit-log", "key_value", "dapr"),
        ("crates", "key_value", "dapr"),
    ]


SERVICE = """
package main

import (
	"context"

	"github.com/dapr/go-sdk/service/common"
	daprd "github.com/dapr/go-sdk/service/http"
)

func onCrate(ctx context.Context, e *common.TopicEvent) (bool, error) { return false, nil }

func main() {
	s := daprd.NewService(":7001")
	sub := &common.Subscription{PubsubName: "freight", Topic: "crates-loaded", Route: "/crates"}
	_ = s.AddTopicEventHandler(sub, onCrate)
	_ = s.AddTopicEventHandler(&common.Subscription{PubsubName: "freight", Topic: "crates-lost"}, onCrate)
	_ = s.Start()
}
"""


def test_topic_handlers_added_to_a_dapr_service_consume() -> None:
    facts = link({"svc/go.mod": MOD, "svc/main.go": SERVICE})
    assert _msgs(facts) == [
        ("consumes", "crates-loaded", "dapr:freight"),
        ("consumes", "crates-lost", "dapr:freight"),
    ]


NOT_DAPR = """
package main

import (
	"context"

	"github.com/acme/kit/env"
	"github.com/acme/kit/store"
)

type Client interface {
	PublishEvent(ctx context.Context, a, b string, data []byte) error
}

func main() {
	var c Client
	_ = c.PublishEvent(context.Background(), "x", "y", nil)
	_ = store.New().SaveState(context.Background(), "carts", "k", nil, nil)
	_ = env.GetEnvString("lowercase is no variable", "z")
}
"""


def test_same_method_names_on_other_clients_are_no_messages() -> None:
    facts = link({"svc/go.mod": MOD, "svc/main.go": NOT_DAPR})
    assert facts.messages == () and facts.entities == ()


def test_env_getters_of_a_library_read_the_variable_and_its_default() -> None:
    src = """
package main

import (
	"net/http"

	"github.com/acme/kit/env"
	"github.com/gobuffalo/envy"
)

func main() {
	http.Get(env.GetEnvString("LEDGER_URL", "http://ledger:8080") + "/entries")
	http.Get(envy.Get("STOCK_URL", "http://stock") + "/levels")
	http.Get(env.MustGetEnv("AUDIT_URL") + "/trail")
}
"""
    facts = link({"svc/go.mod": MOD, "svc/main.go": src})
    assert sorted(show(c.url) for c in facts.calls) == [
        "{env:AUDIT_URL}/trail",
        "{env:LEDGER_URL|http://ledger:8080}/entries",
        "{env:STOCK_URL|http://stock}/levels",
    ]


def test_an_unkeyed_literal_of_another_length_assigns_nothing() -> None:
    src = CLIENT.replace('"crates", c}', "c}")  # three values for four fields: not a valid mapping
    facts = link({"svc/go.mod": MOD, "svc/depot.go": src})
    assert ("publishes", "crates-audited", "dapr:freight") in _msgs(facts)
    assert all("DEPOT_TOPIC" not in (show(m.channel) or "") for m in facts.messages)
