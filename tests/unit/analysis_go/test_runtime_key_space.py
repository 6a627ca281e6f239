"""A Redis store whose every key is known only at run time (``rdb.Get(ctx, sku)``, ``sku`` from a
request) is still a store: one key space ``*`` records it, as the other stacks do — unless a command
names a key, the key is still an unbound parameter (a wrapper nobody calls yet), or the command sits
only in a shared package outside the service (read where reached, never on its own)."""

from __future__ import annotations

from orbitkb.analysis.facts import ServiceContext
from orbitkb.analysis.golang import ANALYZER
from tests.support.analysis import parse_all
from tests.unit.analysis_go.helpers import link

STOCK = """
package stock

import (
	"context"
	"net/http"

	"github.com/redis/go-redis/v9"
)

type Levels struct{ rdb *redis.Client }

func Open() Levels { return Levels{rdb: redis.NewClient(&redis.Options{Addr: "stock-cache:6379"})} }

func (l Levels) Of(ctx context.Context, sku string) string {
	v, _ := l.rdb.Get(ctx, sku).Result()
	return v
}

func Serve(w http.ResponseWriter, r *http.Request) {
	Open().Of(r.Context(), r.URL.Query().Get("sku"))
}
"""

UNCALLED = STOCK.split("func Serve(")[0]

NAMED = STOCK.replace(
    "func (l Levels) Of(",
    'func (l Levels) Touch(ctx context.Context) { l.rdb.Set(ctx, "stock:touched", "1", 0) }\n\nfunc (l Levels) Of(',
)


def _keys(facts) -> list[tuple[str, str | None]]:
    return sorted((e.name, e.engine_hint) for e in facts.entities)


def test_a_store_read_only_by_runtime_keys_is_one_key_space() -> None:
    assert _keys(link({"svc/stock/levels.go": STOCK})) == [("*", "redis")]


def test_negative_a_wrapper_nobody_calls_yet_names_no_key_space() -> None:
    assert _keys(link({"svc/stock/levels.go": UNCALLED})) == []


def test_negative_a_named_key_is_the_store_and_the_runtime_one_adds_nothing() -> None:
    assert _keys(link({"svc/stock/levels.go": NAMED})) == [("stock:touched", "redis")]


def test_negative_a_runtime_key_inside_a_shared_package_alone_is_not_this_service_s_store() -> None:
    files = {"lib/stock/levels.go": STOCK, "svc/main.go": "package main\n\nfunc main() {}\n"}
    ctx = ServiceContext(
        name="svc", root_dir="svc", stack="go", repository="repo", context_files=("lib/stock/levels.go",)
    )
    facts = ANALYZER.link(ctx, parse_all(ANALYZER, files))
    assert facts.entities == ()
