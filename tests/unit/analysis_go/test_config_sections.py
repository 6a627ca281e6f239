"""Nested config structs (viper/koanf ``mapstructure:``, cleanenv ``yaml:``): a field read through
sections becomes the property named by the whole tag path, so a config.yaml can resolve it."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts

from .helpers import link, routes, show

CONFIG = """
package config

import "example.com/shop/lib/broker"

type Config struct {
	Name   string       `mapstructure:"name"`
	Topics Topics       `mapstructure:"topics"`
	HTTP   *HTTP        `mapstructure:"http"`
	Queue  broker.Topic `mapstructure:"auditQueue"`
	Plain  Plain
}

type Topics struct {
	Billed  TopicSpec `mapstructure:"billed"`
	Refunds string    `mapstructure:"refunds,omitempty"`
	Loose   string
}

type TopicSpec struct {
	Name  string `mapstructure:"name"`
	Parts int    `mapstructure:"parts"`
}

type HTTP struct {
	Prefix string `yaml:"prefix"`
}

type Plain struct {
	Value string
}
"""

PUBLISH = """
package billing

import (
	"context"

	"example.com/shop/svc/config"
	"github.com/segmentio/kafka-go"
)

type Emitter struct {
	cfg *config.Config
	w   *kafka.Writer
}

func (e *Emitter) Billed(ctx context.Context, body []byte) error {
	return e.w.WriteMessages(ctx, kafka.Message{Topic: e.cfg.Topics.Billed.Name, Value: body})
}

func (e *Emitter) Refund(ctx context.Context, body []byte) error {
	return e.w.WriteMessages(ctx, kafka.Message{Topic: e.cfg.Topics.Refunds, Value: body})
}

func (e *Emitter) Audit(ctx context.Context, body []byte) error {
	return e.w.WriteMessages(ctx, kafka.Message{Topic: e.cfg.Queue.TopicName, Value: body})
}

func (e *Emitter) Loose(ctx context.Context, body []byte) error {
	return e.w.WriteMessages(ctx, kafka.Message{Topic: e.cfg.Topics.Loose, Value: body})
}

func (e *Emitter) Untagged(ctx context.Context, body []byte) error {
	return e.w.WriteMessages(ctx, kafka.Message{Topic: e.cfg.Plain.Value, Value: body})
}
"""

ROUTES = """
package server

import (
	"github.com/labstack/echo/v4"

	"example.com/shop/svc/config"
)

type Server struct {
	cfg  *config.Config
	echo *echo.Echo
}

func (s *Server) Map() {
	g := s.echo.Group(s.cfg.HTTP.Prefix)
	g.GET("/:id", s.get)
}

func (s *Server) get(c echo.Context) error { return nil }
"""

GOMOD = "module example.com/shop/svc\n\ngo 1.21\n"


def _channels(facts: LinkedFacts) -> dict[str, str | None]:
    return {str(m.line): show(m.channel) for m in facts.messages}


def test_a_field_read_through_tagged_sections_is_the_whole_key_path() -> None:
    facts = link({"svc/go.mod": GOMOD, "svc/config/config.go": CONFIG, "svc/billing/emit.go": PUBLISH})
    got = sorted(show(m.channel) or "" for m in facts.messages)
    assert "{prop:topics.billed.name}" in got
    assert "{prop:topics.refunds}" in got


def test_a_section_typed_outside_the_service_is_read_by_field_name() -> None:
    facts = link({"svc/go.mod": GOMOD, "svc/config/config.go": CONFIG, "svc/billing/emit.go": PUBLISH})
    got = sorted(show(m.channel) or "" for m in facts.messages)
    assert "{prop:auditQueue.TopicName}" in got  # viper matches keys ignoring case


def test_an_untagged_field_inside_a_section_is_read_under_its_name() -> None:
    facts = link({"svc/go.mod": GOMOD, "svc/config/config.go": CONFIG, "svc/billing/emit.go": PUBLISH})
    got = sorted(show(m.channel) or "" for m in facts.messages)
    assert "{prop:topics.Loose}" in got


def test_an_untagged_section_of_the_root_is_not_a_property() -> None:
    facts = link({"svc/go.mod": GOMOD, "svc/config/config.go": CONFIG, "svc/billing/emit.go": PUBLISH})
    got = sorted(show(m.channel) or "" for m in facts.messages)
    assert not any("prop:Plain" in g or "prop:Value" in g for g in got)


def test_a_yaml_tagged_section_prefixes_routes() -> None:
    facts = link({"svc/go.mod": GOMOD, "svc/config/config.go": CONFIG, "svc/server/server.go": ROUTES})
    assert [(m, p) for m, p, _h, _l in routes(facts)] == [("GET", "/${http.prefix}/:id")]
