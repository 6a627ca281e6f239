"""Firestore from Go (cloud.google.com/go/firestore): the collections a repository adapter keeps
its documents in, whether the client is built in main and handed in or built where it is used."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts
from tests.unit.analysis_go.helpers import link

ADAPTER = """
package adapters

import (
	"context"

	"cloud.google.com/go/firestore"
)

type BookingModel struct {
	UUID string `firestore:"Uuid"`
}

type BookingsRepository struct {
	client *firestore.Client
}

func NewBookingsRepository(client *firestore.Client) BookingsRepository {
	return BookingsRepository{client: client}
}

func (r BookingsRepository) bookings() *firestore.CollectionRef {
	return r.client.Collection("bookings")
}

func (r BookingsRepository) Add(ctx context.Context, uuid string) error {
	_, err := r.bookings().Doc(uuid).Set(ctx, BookingModel{UUID: uuid})
	return err
}

func (r BookingsRepository) AddNote(ctx context.Context, uuid, note string) error {
	_, _, err := r.bookings().Doc(uuid).Collection("notes").Add(ctx, map[string]string{"text": note})
	return err
}
"""

MAIN = """
package main

import (
	"context"
	"os"

	"cloud.google.com/go/firestore"

	"example.com/gym/internal/bookings/adapters"
)

func main() {
	ctx := context.Background()
	client, err := firestore.NewClient(ctx, os.Getenv("GCP_PROJECT"))
	if err != nil {
		panic(err)
	}
	repo := adapters.NewBookingsRepository(client)
	_ = repo.Add(ctx, "x")
}
"""

INLINE = """
package main

import (
	"context"
	"os"

	"cloud.google.com/go/firestore"
)

func main() {
	ctx := context.Background()
	fs, _ := firestore.NewClient(ctx, "demo-project")
	defer fs.Close()
	fs.Collection("members").Doc("m1").Set(ctx, map[string]any{"plan": "gold"})
	fs.Collection(os.Getenv("AUDIT_COLLECTION")).Doc("x").Get(ctx)
}

func copyAll(ctx context.Context, fs *firestore.Client, from string) {
	fs.Collection(from).Documents(ctx)
}
"""


def _collections(facts: LinkedFacts) -> list[tuple[str, str | None]]:
    return sorted((e.name, e.engine_hint) for e in facts.entities if e.kind == "document_collection")


def test_a_repository_adapter_names_its_collections_and_subcollections() -> None:
    facts = link({"svc/main.go": MAIN, "svc/internal/bookings/adapters/firestore.go": ADAPTER})
    assert _collections(facts) == [("bookings", "firestore"), ("notes", "firestore")]


def test_a_client_built_where_it_is_used_a_name_from_the_environment_and_one_never_known() -> None:
    # the environment's name is resolved through configuration later; a bare parameter is no name
    assert _collections(link({"svc/main.go": INLINE})) == [
        ("${AUDIT_COLLECTION}", "firestore"),
        ("members", "firestore"),
    ]
