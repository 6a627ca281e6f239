"""Raw-driver persistence in Go: SQL text handed to database/sql, pgx or sqlc's DBTX, go-redis keys,
MongoDB collections named by configuration, and clients built by code the service cannot read."""

from __future__ import annotations

import json
import textwrap

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.golang import ANALYZER

from .helpers import link


def _entities(facts: LinkedFacts) -> list[tuple[str, str, str | None]]:
    return sorted((e.name, e.kind, e.engine_hint) for e in facts.entities)


PGX = """
package repo

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

const insertInvoice = `INSERT INTO invoices (id, total) VALUES ($1, $2)`

type Store struct{ db *pgxpool.Pool }

func (s *Store) Save(ctx context.Context, id string, total int) error {
	_, err := s.db.Exec(ctx, insertInvoice, id, total)
	return err
}

func (s *Store) Lines(ctx context.Context, id string) error {
	_, err := s.db.Query(ctx, "SELECT l.sku FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id WHERE i.id = $1", id)
	return err
}

func (s *Store) Label(ctx context.Context, key string) string {
	return s.cache.Get(ctx, "not a statement")
}
"""

SQLC = """
package db

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

type DBTX interface {
	ExecContext(context.Context, string, ...interface{}) (sql.Result, error)
}

type Queries struct{ db DBTX }

const createTicket = `-- name: CreateTicket :exec
INSERT INTO support.tickets (subject) VALUES (?)
`

func (q *Queries) CreateTicket(ctx context.Context, subject string) error {
	_, err := q.db.ExecContext(ctx, createTicket, subject)
	return err
}
"""


def test_sql_text_names_tables_whatever_the_receiver() -> None:
    assert _entities(link({"svc/repo/store.go": PGX})) == [
        ("invoice_lines", "sql_table", "postgres"),
        ("invoices", "sql_table", "postgres"),
    ]


def test_sqlc_statements_behind_their_name_comment_and_the_driver_engine() -> None:
    assert _entities(link({"svc/db/query.sql.go": SQLC})) == [("tickets", "sql_table", "mysql")]


def test_strings_that_are_not_sql_name_nothing() -> None:
    code = """
package h

func Handle(c Ctx) {
	c.Query("page")
	c.Get("SELECTED item FROM list")
}
"""
    assert _entities(link({"svc/h/h.go": code})) == []


REDIS = """
package cache

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const recent = "feed:recent"

type Cache struct{ rdb *redis.Client }

func (c *Cache) Put(ctx context.Context, id string, body string) {
	c.rdb.Set(ctx, "feed:item:"+id, body, 0)
	c.rdb.LPush(ctx, recent, id)
	c.rdb.HGet(ctx, id, "field")
}
"""


def test_redis_keys_are_key_spaces_and_a_key_known_only_at_runtime_names_none() -> None:
    assert _entities(link({"svc/cache/cache.go": REDIS})) == [
        ("feed:item", "key_value", "redis"),
        ("feed:recent", "key_value", "redis"),
    ]


def test_redis_publish_is_still_messaging_not_a_store() -> None:
    code = REDIS.replace('c.rdb.Set(ctx, "feed:item:"+id, body, 0)', 'c.rdb.Publish(ctx, "feed-events", id)')
    facts = link({"svc/cache/cache.go": code})
    assert [(m.direction, m.provider) for m in facts.messages] == [("publishes", "redis")]
    assert "feed-events" not in {e.name for e in facts.entities}


MONGO = """
package repo

import (
	"context"

	"go.mongodb.org/mongo-driver/mongo"

	"example.com/shop/pkg/mongodb"
	"example.com/shop/svc/config"
)

type Repo struct {
	cfg *config.Config
	db  *mongo.Client
}

func New(ctx context.Context, cfg *config.Config) *Repo {
	return &Repo{cfg: cfg, db: mongodb.Connect(ctx, cfg.Mongo.URI)}
}

func (r *Repo) Save(ctx context.Context, doc any) error {
	_, err := r.db.Database("shop").Collection(r.cfg.Mongo.Items).InsertOne(ctx, doc)
	return err
}
"""

MONGO_CONFIG = """
package config

type Config struct {
	Mongo Mongo `mapstructure:"mongo"`
}

type Mongo struct {
	URI   string `mapstructure:"uri"`
	Items string `mapstructure:"itemsCollection"`
}
"""


def test_a_client_made_by_unreadable_code_is_still_its_declared_type_and_a_configured_collection_a_placeholder() -> None:
    facts = link({"svc/repo/repo.go": MONGO, "svc/config/config.go": MONGO_CONFIG})
    assert _entities(facts) == [("${mongo.itemsCollection}", "document_collection", "mongodb")]


LIB_KAFKA = """
package kafka

import (
	"context"

	"github.com/segmentio/kafka-go"
)

type Consumer struct{ brokers []string }

func (c *Consumer) Consume(ctx context.Context, topics []string) {
	r := kafka.NewReader(kafka.ReaderConfig{Brokers: c.brokers, GroupTopics: topics})
	r.ReadMessage(ctx)
}

func (c *Consumer) Audit(ctx context.Context) {
	r := kafka.NewReader(kafka.ReaderConfig{Brokers: c.brokers, Topic: "lib-audit"})
	r.ReadMessage(ctx)
}
"""

LIB_STORE = """
package store

import "context"

type DBTX interface{ ExecContext(context.Context, string, ...interface{}) (any, error) }

type Q struct{ db DBTX }

func (q *Q) Mark(ctx context.Context) { q.db.ExecContext(ctx, "UPDATE ledger SET done = true") }
"""

SERVICE = """
package main

import (
	"context"

	"example.com/shop/pkg/kafka"
)

func main() {
	c := &kafka.Consumer{}
	c.Consume(context.Background(), []string{"orders.placed"})
}
"""


def _link_with_library(files: dict[str, str], library: tuple[str, ...]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, textwrap.dedent(t).lstrip("\n")))) for p, t in files.items()}
    ctx = ServiceContext(name="svc", root_dir="cmd/svc", stack="go", repository="repo", context_files=library)
    return ANALYZER.link(ctx, parsed)


def test_shared_packages_give_facts_only_where_the_service_calls_them_but_always_their_tables() -> None:
    facts = _link_with_library(
        {"cmd/svc/main.go": SERVICE, "pkg/kafka/consumer.go": LIB_KAFKA, "pkg/store/q.go": LIB_STORE},
        ("pkg/kafka/consumer.go", "pkg/store/q.go"),
    )
    channels = sorted(str(m.channel.parts[0].text) for m in facts.messages if m.channel and m.channel.parts)  # type: ignore[union-attr]
    assert channels == ["orders.placed"]  # the uncalled Audit's topic is not the service's
    assert [e.name for e in facts.entities] == ["ledger"]


ENT_SCHEMA = """
package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

type LineItem struct {
	ent.Schema
}

func (LineItem) Fields() []ent.Field {
	return []ent.Field{field.Int64("id"), field.String("sku")}
}

type Helper struct {
	Schema string
}
"""

ENT_OPEN = """
package data

import (
	"entgo.io/ent/dialect/sql"

	_ "github.com/lib/pq"
)

func Open(dsn string) (*sql.Driver, error) { return sql.Open("postgres", dsn) }
"""


def test_ent_schemas_are_tables_on_the_driver_the_service_imports() -> None:
    facts = link({"svc/ent/schema/item.go": ENT_SCHEMA, "svc/data/data.go": ENT_OPEN})
    assert [(e.name, e.class_name, e.engine_hint, e.framework) for e in facts.entities] == [
        ("line_items", "LineItem", "postgres", "ent")
    ]


def test_a_type_named_schema_that_is_not_ent_is_no_table() -> None:
    code = ENT_SCHEMA.replace('"entgo.io/ent"', '"example.com/docs/ent"').replace(
        '\\t"entgo.io/ent/schema/field"\\n', ""
    )
    assert link({"svc/x/x.go": code}).entities == ()
