"""net/http (Go 1.22 patterns, ServeMux under any name, StripPrefix mounts, DefaultServeMux,
http.Handler structs) and fiber (groups, Route, Mount)."""

from __future__ import annotations

from .helpers import link, routes

NETHTTP_MAIN = """
package main

import (
	"log"
	"net/http"

	"example.com/inv/internal/web"
)

const ordersBase = "/orders"

func main() {
	router := http.NewServeMux()
	srv := web.NewServer()
	router.HandleFunc("GET "+ordersBase+"/{id}", srv.GetOrder)
	router.HandleFunc("POST /orders", srv.CreateOrder)
	router.Handle("/static/", http.StripPrefix("/static/", http.FileServer(http.Dir("."))))
	router.HandleFunc("GET /{$}", home)

	admin := http.NewServeMux()
	admin.HandleFunc("/users", listUsers)
	router.Handle("/admin/", http.StripPrefix("/admin", admin))

	http.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {})
	http.Handle("/metrics", web.MetricsHandler{})
	log.Fatal(http.ListenAndServe(":8080", router))
}

func home(w http.ResponseWriter, r *http.Request)      {}
func listUsers(w http.ResponseWriter, r *http.Request) {}
"""

NETHTTP_WEB = """
package web

import "net/http"

// Server serves the inventory API.
type Server struct{}

func NewServer() *Server { return &Server{} }

// GetOrder returns one order.
func (s *Server) GetOrder(w http.ResponseWriter, r *http.Request) {}

func (s *Server) CreateOrder(w http.ResponseWriter, r *http.Request) {}

type MetricsHandler struct{}

func (MetricsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {}
"""


def test_nethttp_patterns_mux_strip_prefix_and_default_mux() -> None:
    facts = link({"inv/cmd/main.go": NETHTTP_MAIN, "inv/internal/web/server.go": NETHTTP_WEB})
    assert routes(facts) == [
        ("ANY", "/admin/users", "listUsers", 30),
        ("ANY", "/healthz", "<anonymous>@24", 24),
        ("ANY", "/metrics", "MetricsHandler.ServeHTTP", 17),
        ("GET", "/", "home", 29),
        ("GET", "/orders/{id}", "Server.GetOrder", 11),
        ("GET", "/static/*", "FileServer", 17),
        ("POST", "/orders", "Server.CreateOrder", 13),
    ]
    get = next(a for a in facts.apis if a.handler == "Server.GetOrder")
    assert get.doc == "GetOrder returns one order."
    assert get.framework == "net/http"
    server = next(c for c in facts.components if c.name == "Server")
    assert (server.kind, server.doc, server.start_line) == ("class", "Server serves the inventory API.", 6)


def test_nethttp_mux_returned_from_a_function_and_registered_in_another_file() -> None:
    main = """
    package main

    import "net/http"

    func main() {
        mux := newMux()
        http.ListenAndServe(":80", mux)
    }
    """
    routes_go = """
    package main

    import "net/http"

    func newMux() *http.ServeMux {
        m := http.NewServeMux()
        registerOrderRoutes(m, "/api")
        return m
    }

    func registerOrderRoutes(mux *http.ServeMux, prefix string) {
        mux.HandleFunc("DELETE "+prefix+"/orders/{id}", deleteOrder)
    }

    func deleteOrder(w http.ResponseWriter, r *http.Request) {}
    """
    facts = link({"svc/main.go": main, "svc/routes.go": routes_go})
    assert routes(facts) == [("DELETE", "/api/orders/{id}", "deleteOrder", 15)]


FIBER = """
package main

import (
	"github.com/gofiber/fiber/v2"
)

type BookHandler struct{}

func main() {
	app := fiber.New()
	bh := &BookHandler{}
	api := app.Group("/api", logger)
	v1 := api.Group("/v1")
	v1.Get("/books", bh.List)
	v1.Post("/books", auth, bh.Create)
	api.Route("/authors", func(r fiber.Router) {
		r.Get("/:id", getAuthor)
	})
	micro := fiber.New()
	micro.Get("/status", status)
	app.Mount("/internal", micro)
	app.All("/any", func(c *fiber.Ctx) error { return nil })
	app.Listen(":3000")
}

func (h *BookHandler) List(c *fiber.Ctx) error   { return nil }
func (h *BookHandler) Create(c *fiber.Ctx) error { return nil }
func getAuthor(c *fiber.Ctx) error               { return nil }
func status(c *fiber.Ctx) error                  { return nil }
func logger(c *fiber.Ctx) error                  { return c.Next() }
func auth(c *fiber.Ctx) error                    { return c.Next() }
"""


def test_fiber_groups_route_and_mount() -> None:
    facts = link({"books/main.go": FIBER})
    assert routes(facts) == [
        ("ANY", "/any", "<anonymous>@22", 22),
        ("GET", "/api/authors/:id", "getAuthor", 28),
        ("GET", "/api/v1/books", "BookHandler.List", 26),
        ("GET", "/internal/status", "status", 29),
        ("POST", "/api/v1/books", "BookHandler.Create", 27),
    ]
    assert facts.framework == "fiber"
