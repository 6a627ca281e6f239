"""How real services wire values together: a route prefix from the environment with a default in
the code, helpers that fill a config through a pointer (``mapEnv(&cfg.addr, "ADDR")``), and
constructors a DI container (fx, wire) hands to functions nobody calls."""

from __future__ import annotations

from .helpers import link, routes, show

# --------------------------------------------------------------------------- env route prefix

PREFIX_GLOBAL = """
package main

import (
	"net/http"
	"os"

	"github.com/gorilla/mux"
)

var mountPath = ""

func main() {
	mountPath = os.Getenv("MOUNT_PATH")
	r := mux.NewRouter()
	r.HandleFunc(mountPath+"/tickets", listTickets).Methods(http.MethodGet)
	r.HandleFunc(mountPath+"/tickets/{id}", showTicket).Methods(http.MethodGet)
	http.ListenAndServe(":8080", r)
}

func listTickets(w http.ResponseWriter, r *http.Request) {}
func showTicket(w http.ResponseWriter, r *http.Request)  {}
"""


def test_env_prefix_with_empty_default_is_served_at_the_default() -> None:
    facts = link({"desk/main.go": PREFIX_GLOBAL})
    assert [(m, p) for m, p, _h, _l in routes(facts)] == [("GET", "/tickets"), ("GET", "/tickets/{id}")]


PREFIX_LOOKUP = """
package main

import (
	"os"

	"github.com/gin-gonic/gin"
)

func main() {
	base, ok := os.LookupEnv("API_BASE")
	if !ok {
		base = "/desk"
	}
	r := gin.Default()
	g := r.Group(base)
	g.GET("/queues", listQueues)
	r.Run()
}

func listQueues(c *gin.Context) {}
"""


def test_env_prefix_with_a_fallback_literal_uses_the_literal() -> None:
    facts = link({"desk/main.go": PREFIX_LOOKUP})
    assert [(m, p) for m, p, _h, _l in routes(facts)] == [("GET", "/desk/queues")]


PREFIX_NO_DEFAULT = """
package main

import (
	"net/http"
	"os"
)

func main() {
	root := os.Getenv("ROOT_PATH")
	http.HandleFunc(root+"/ping", ping)
	http.ListenAndServe(":8080", nil)
}

func ping(w http.ResponseWriter, r *http.Request) {}
"""


def test_env_prefix_without_default_stays_visible() -> None:
    facts = link({"desk/main.go": PREFIX_NO_DEFAULT})
    assert [p for _m, p, _h, _l in routes(facts)] == ["/${ROOT_PATH}/ping"]


# --------------------------------------------------------------------------- pointer out-params

OUT_FIELD = """
package main

import (
	"net/http"
	"os"
)

type gateway struct {
	ledgerAddr string
	quotesAddr string
}

func main() {
	gw := new(gateway)
	requireEnv(&gw.ledgerAddr, "LEDGER_ADDR")
	requireEnv(&gw.quotesAddr, "QUOTES_ADDR")
	http.HandleFunc("/balance", gw.balance)
}

func requireEnv(dst *string, name string) {
	v := os.Getenv(name)
	if v == "" {
		panic(name)
	}
	*dst = v
}

func (g *gateway) balance(w http.ResponseWriter, r *http.Request) {
	http.Get("http://" + g.ledgerAddr + "/balances")
}
"""


def test_helper_writing_through_a_pointer_fills_the_struct_field() -> None:
    facts = link({"gw/main.go": OUT_FIELD})
    assert [(show(c.url), c.api_handler) for c in facts.calls] == [
        ("http://{env:LEDGER_ADDR}/balances", "gateway.balance")
    ]


OUT_LOCAL = """
package main

import (
	"net/http"
	"os"
)

func main() {
	var target string
	loadSetting("AUDIT_URL", &target)
	http.Post(target+"/events", "application/json", nil)
}

func loadSetting(key string, out *string) {
	fill(out, key)
}

func fill(p *string, key string) {
	*p = os.Getenv(key)
}
"""


def test_pointer_passed_down_two_helpers_reaches_the_caller_variable() -> None:
    facts = link({"audit/main.go": OUT_LOCAL})
    assert [show(c.url) for c in facts.calls] == ["{env:AUDIT_URL}/events"]


NOT_A_POINTER = """
package main

import (
	"net/http"
	"os"
)

func main() {
	addr := "http://fixed:8080"
	rewrite(addr)
	http.Get(addr + "/items")
}

func rewrite(s string) {
	s = os.Getenv("OTHER_ADDR")
	_ = s
}
"""


def test_assigning_a_value_parameter_does_not_leak_to_the_caller() -> None:
    facts = link({"items/main.go": NOT_A_POINTER})
    assert [show(c.url) for c in facts.calls] == ["http://fixed:8080/items"]


# --------------------------------------------------------------------------- DI constructors

FX_APP = """
package main

import (
	"github.com/labstack/echo/v4"
	"go.uber.org/fx"
)

func newServer() *echo.Echo { return echo.New() }

func newPublicGroup(e *echo.Echo) *echo.Group { return e.Group("/public/v2") }

type ShelfHandler struct{}

func newShelfHandler() *ShelfHandler { return &ShelfHandler{} }

func (h *ShelfHandler) List(c echo.Context) error   { return nil }
func (h *ShelfHandler) Create(c echo.Context) error { return nil }

func mountShelves(g *echo.Group, h *ShelfHandler) {
	g.GET("/shelves", h.List)
	g.POST("/shelves", h.Create)
}

func main() {
	fx.New(
		fx.Provide(newServer, newPublicGroup, newShelfHandler),
		fx.Invoke(mountShelves),
	).Run()
}
"""


def test_fx_invoke_gets_the_group_its_constructor_builds() -> None:
    facts = link({"shelf/main.go": FX_APP})
    assert routes(facts) == [
        ("GET", "/public/v2/shelves", "ShelfHandler.List", 16),
        ("POST", "/public/v2/shelves", "ShelfHandler.Create", 17),
    ]


WIRE_ROUTES = """
package httpapi

import "github.com/gin-gonic/gin"

type Routes struct{ api *gin.RouterGroup }

func ProvideAPI(engine *gin.Engine) *gin.RouterGroup {
	return engine.Group("/internal")
}

func ProvideEngine() (*gin.Engine, error) {
	return gin.New(), nil
}

func Register(api *gin.RouterGroup) {
	api.DELETE("/cache", flush)
}

func flush(c *gin.Context) {}
"""

WIRE_GEN = """
package main

import (
	"github.com/google/wire"

	"example.com/desk/httpapi"
)

func initialize() *gin.Engine {
	wire.Build(httpapi.ProvideEngine, httpapi.ProvideAPI, httpapi.Register)
	return nil
}

func main() { initialize() }
"""


def test_wire_style_constructors_in_another_package() -> None:
    facts = link({"desk/httpapi/routes.go": WIRE_ROUTES, "desk/main.go": WIRE_GEN})
    assert [(m, p) for m, p, _h, _l in routes(facts)] == [("DELETE", "/internal/cache")]


TWO_PROVIDERS = """
package main

import "github.com/gin-gonic/gin"

func newAdmin(e *gin.Engine) *gin.RouterGroup  { return e.Group("/admin") }
func newPublic(e *gin.Engine) *gin.RouterGroup { return e.Group("/public") }

func mountStats(g *gin.RouterGroup) {
	g.GET("/stats", stats)
}

func stats(c *gin.Context) {}
"""


def test_an_ambiguous_type_gets_no_invented_prefix() -> None:
    facts = link({"ops/main.go": TWO_PROVIDERS})
    assert [p for _m, p, _h, _l in routes(facts)] == ["/stats"]


# --------------------------------------------------------------------------- muxes out of sight

WRAPPED_MUX = """
package web

import (
	"net/http"

	"example.com/platform/telemetry"
)

type Site struct{}

func (s *Site) Serve() error {
	mux := telemetry.InstrumentedMux()
	mux.Handle("/rooms", http.HandlerFunc(s.rooms))
	mux.HandleFunc("/bookings", s.book).Methods("POST")
	mux.Handle("GET /assets/", http.FileServer(http.Dir("static")))
	mux.Handle("session-key", s)
	mux.HandleFunc("/version", "v1")
	return http.ListenAndServe(":8080", mux)
}

func (s *Site) rooms(w http.ResponseWriter, r *http.Request) {}
func (s *Site) book(w http.ResponseWriter, r *http.Request)  {}
"""


def test_handle_on_a_mux_from_a_package_outside_the_service() -> None:
    facts = link({"web/site.go": WRAPPED_MUX})
    assert [(m, p, h) for m, p, h, _l in routes(facts)] == [
        ("ANY", "/rooms", "Site.rooms"),
        ("GET", "/assets/*", "FileServer"),
        ("POST", "/bookings", "Site.book"),
    ]
