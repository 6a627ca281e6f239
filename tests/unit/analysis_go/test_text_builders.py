"""Text built piece by piece: a ``strings.Builder`` or ``bytes.Buffer`` written to, and a helper
that joins its variadic parts in a loop (``for _, p := range parts { sb.WriteString(p) }`` or
``out += p``), keep every part in order, so keys and URLs built that way still name what they name."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts
from tests.unit.analysis_go.helpers import link, show

KEYS = """
package store

import (
	"context"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

var basketPrefix = "shop:basket"

func glue(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}

func stitch(parts ...string) string {
	joined := ""
	for _, p := range parts {
		joined += p
	}
	return joined
}

type Baskets struct{ rdb *redis.Client }

func (s Baskets) Save(ctx context.Context, id int) {
	s.rdb.Set(ctx, glue(basketPrefix, ":", strconv.Itoa(id)), "{}", 0)
}

func (s Baskets) Seen(ctx context.Context, id int) {
	s.rdb.Get(ctx, stitch("shop:seen", ":", strconv.Itoa(id)))
}
"""

BUFFER = """
package main

import (
	"bytes"
	"net/http"
	"os"
)

func main() {
	var u bytes.Buffer
	u.WriteString(os.Getenv("LEDGER_URL"))
	u.WriteString("/entries")
	http.Get(u.String())
}
"""

UNKNOWN_PART = """
package main

import (
	"net/http"
	"strings"
)

func fetch(host string) {
	var sb strings.Builder
	sb.WriteString(host)
	sb.WriteString("/status")
	http.Get(sb.String())
}

func main() {}
"""


def _keys(facts: LinkedFacts) -> list[tuple[str, str | None]]:
    return sorted((e.name, e.engine_hint) for e in facts.entities)


def test_keys_joined_by_a_builder_helper_or_a_plus_loop_name_their_key_families() -> None:
    assert _keys(link({"svc/store/store.go": KEYS})) == [("shop:basket", "redis"), ("shop:seen", "redis")]


def test_a_buffer_written_in_pieces_is_the_url_of_the_call() -> None:
    (call,) = link({"svc/main.go": BUFFER}).calls
    assert show(call.url) == "{env:LEDGER_URL}/entries"


def test_negative_a_part_nobody_knows_stays_unknown_in_its_place() -> None:
    (call,) = link({"svc/main.go": UNKNOWN_PART}).calls
    assert show(call.url, hints=False) == "{?}/status"
