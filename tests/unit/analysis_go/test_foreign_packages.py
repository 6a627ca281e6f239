"""Packages another service owns, read because this service imports them (an all-in-one binary
built from the services' packages): only what this service's own code reaches counts."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.golang import ANALYZER
from tests.support.analysis import parse_all
from tests.unit.analysis_go.helpers import routes

LEDGER_ROUTES = """
package web

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

func AddRoutes(r chi.Router) {
	r.Get("/entries", listEntries)
}

func listEntries(w http.ResponseWriter, r *http.Request) {}
"""

LEDGER_STORE = """
package store

import "gorm.io/gorm"

type Entry struct {
	ID     uint
	Amount int
}

func Migrate(db *gorm.DB) {
	db.AutoMigrate(&Entry{})
}
"""

LEDGER_SERVER = """
package server

import "net/http"

type GrpcServer struct{}

func (s *GrpcServer) Start() { http.Get("http://audit:8080/ledger-started") }
"""

MAIN = """
package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	ledger "example.com/bank/internal/ledger/web"
	"example.com/bank/internal/ledger/store"
	"example.com/bank/pkg/common"
	"example.com/bank/pkg/server"
)

type Boot struct{ s common.GrpcServer }

func (b Boot) Run() { b.s.Start() }

func main() {
	r := chi.NewRouter()
	ledger.AddRoutes(r)
	_ = store.Entry{}
	_ = server.Own{}
	http.ListenAndServe(":8080", r)
}
"""

COMMON = """
package common

type GrpcServer interface{ Start() }
"""

OWN_SERVER = """
package server

type Own struct{}

type GrpcServer struct{}

func (s *GrpcServer) Start() {}
"""

FOREIGN = (
    "internal/ledger/web/routes.go",
    "internal/ledger/store/store.go",
    "internal/ledger/server/server.go",
)


def _link(foreign: tuple[str, ...]) -> LinkedFacts:
    files = {
        "cmd/allinone/main.go": MAIN,
        "pkg/server/server.go": OWN_SERVER,
        "pkg/common/common.go": COMMON,
        "internal/ledger/web/routes.go": LEDGER_ROUTES,
        "internal/ledger/store/store.go": LEDGER_STORE,
        "internal/ledger/server/server.go": LEDGER_SERVER,
    }
    library = (*FOREIGN, "pkg/server/server.go", "pkg/common/common.go")
    ctx = ServiceContext("allinone", "cmd/allinone", "go", "repo", library, (), foreign)
    return ANALYZER.link(ctx, parse_all(ANALYZER, files))


def test_routes_of_another_services_package_are_served_where_this_service_mounts_them() -> None:
    assert routes(_link(FOREIGN), lines=False) == [("GET", "/entries", "listEntries")]


def test_tables_of_another_services_package_stay_that_services() -> None:
    assert _link(FOREIGN).entities == ()
    assert [e.name for e in _link(()).entities]  # read as a plain shared package, it would name them


def test_a_type_name_another_service_also_declares_never_borrows_its_methods() -> None:
    assert _link(FOREIGN).calls == ()
    assert [c.line for c in _link(()).calls]  # without ownership the same-named type's method ran
