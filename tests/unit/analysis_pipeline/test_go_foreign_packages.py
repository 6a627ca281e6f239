"""A Go repository deployed as an all-in-one binary beside the services it is built from: the
all-in-one reads the packages the ledger service owns, serves the routes it mounts from them, and
leaves the ledger's tables to the ledger."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

COMPOSE = """
services:
  allinone:
    build: .
    entrypoint: ["go", "run", "./cmd/allinone/main.go"]
  ledger:
    build: .
    entrypoint: ["go", "run", "./cmd/ledger/main.go"]
"""

ROUTES = """package web

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

func AddRoutes(r chi.Router) {
	r.Get("/entries", listEntries)
}

func listEntries(w http.ResponseWriter, r *http.Request) {}
"""

STORE = """package store

import "gorm.io/gorm"

type Entry struct {
	ID     uint
	Amount int
}

func Migrate(db *gorm.DB) {
	db.AutoMigrate(&Entry{})
}
"""

MAIN = """package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"example.com/bank/internal/ledger/store"
	"example.com/bank/internal/ledger/web"
)

var _ = store.Entry{}

func main() {
	r := chi.NewRouter()
	web.AddRoutes(r)
	http.ListenAndServe(":8080", r)
}
"""


def _run() -> Run:
    tree = MemorySourceTree(
        {
            "go.mod": "module example.com/bank\n\ngo 1.22\n",
            "Dockerfile": "FROM golang:1.22\nWORKDIR /app\nCOPY . .\n",
            "docker-compose.yml": COMPOSE,
            "cmd/allinone/main.go": MAIN,
            "cmd/ledger/main.go": MAIN.replace("web.AddRoutes(r)", "web.AddRoutes(r)\n\tstore.Migrate(nil)"),
            "internal/ledger/web/routes.go": ROUTES,
            "internal/ledger/store/store.go": STORE,
        },
        commit="c0ffee",
    )
    return Run(StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("bank"), DictCache()))


def test_the_all_in_one_serves_the_routes_it_mounts_from_the_ledgers_packages() -> None:
    run = _run()
    assert sorted(run.names()) == ["allinone", "ledger"]
    assert [(a.method, a.path) for a in run.service("allinone").apis] == [("GET", "/entries")]
    assert [(a.method, a.path) for a in run.service("ledger").apis] == [("GET", "/entries")]


def test_the_ledgers_tables_stay_the_ledgers() -> None:
    run = _run()
    assert [e.name for e in run.service("ledger").entities] == ["entries"]
    assert run.service("allinone").entities == ()
