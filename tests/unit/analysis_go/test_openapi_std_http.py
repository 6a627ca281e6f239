"""Servers generated from an OpenAPI document for the standard library's ServeMux (oapi-codegen's
std-http shape): Go 1.22 "METHOD " + base URL + path patterns, the base URL handed down from main
through a project's own ``Register(mux, baseURL)``; the generated ``Handler()`` and
``HandlerFromMuxWithBaseURL`` that nothing calls serve nothing; a net/http pattern ending in "/"
serves its subtree."""

from __future__ import annotations

from tests.unit.analysis_go.helpers import link, routes

GENERATED = """
// Package shipping is generated from an OpenAPI document; do not edit.
package shipping

import "net/http"

type ServerInterface interface {
	// (POST /parcels)
	SendParcel(w http.ResponseWriter, r *http.Request)
	// (GET /parcels/{code})
	TrackParcel(w http.ResponseWriter, r *http.Request, code string)
}

type MiddlewareFunc func(http.Handler) http.Handler

type ServerInterfaceWrapper struct {
	Handler ServerInterface
}

func (siw *ServerInterfaceWrapper) SendParcel(w http.ResponseWriter, r *http.Request) {
	siw.Handler.SendParcel(w, r)
}

func (siw *ServerInterfaceWrapper) TrackParcel(w http.ResponseWriter, r *http.Request) {
	siw.Handler.TrackParcel(w, r, r.PathValue("code"))
}

type StdHTTPServerOptions struct {
	BaseURL     string
	BaseRouter  *http.ServeMux
	Middlewares []MiddlewareFunc
}

func Handler(si ServerInterface) http.Handler {
	return HandlerWithOptions(si, StdHTTPServerOptions{})
}

func HandlerFromMux(si ServerInterface, m *http.ServeMux) http.Handler {
	return HandlerWithOptions(si, StdHTTPServerOptions{BaseRouter: m})
}

func HandlerFromMuxWithBaseURL(si ServerInterface, m *http.ServeMux, baseURL string) http.Handler {
	return HandlerWithOptions(si, StdHTTPServerOptions{BaseURL: baseURL, BaseRouter: m})
}

func HandlerWithOptions(si ServerInterface, options StdHTTPServerOptions) http.Handler {
	m := options.BaseRouter
	if m == nil {
		m = http.NewServeMux()
	}
	wrapper := ServerInterfaceWrapper{Handler: si}
	m.HandleFunc("POST "+options.BaseURL+"/parcels", wrapper.SendParcel)
	m.HandleFunc("GET "+options.BaseURL+"/parcels/{code}", wrapper.TrackParcel)
	return m
}
"""

OWN_SERVER = """
package shipping

import "net/http"

type Server struct{}

func NewServer() *Server { return &Server{} }

func (s *Server) SendParcel(w http.ResponseWriter, r *http.Request)                {}
func (s *Server) TrackParcel(w http.ResponseWriter, r *http.Request, code string) {}

func (s *Server) Register(mux *http.ServeMux, baseURL string) http.Handler {
	return HandlerWithOptions(s, StdHTTPServerOptions{
		BaseURL:    baseURL,
		BaseRouter: mux,
	})
}
"""

MAIN = """
package main

import (
	"log"
	"net/http"

	"example.com/post/internal/shipping"
)

func main() {
	mux := http.NewServeMux()
	mux.HandleFunc("/docs/", func(w http.ResponseWriter, r *http.Request) {})
	h := shipping.NewServer()
	log.Fatal(http.ListenAndServe(":8080", h.Register(mux, "/api/v2")))
}
"""

# the generated server mounted straight from main, with no base URL
MAIN_PLAIN = """
package main

import (
	"net/http"

	"example.com/post/internal/shipping"
)

func main() {
	mux := http.NewServeMux()
	_ = http.ListenAndServe(":8080", shipping.HandlerFromMux(shipping.NewServer(), mux))
}
"""

# patterns whose method is the literal head of a string built at run time
PREFIX_FROM_ENV = """
package main

import (
	"net/http"
	"os"
)

func list(w http.ResponseWriter, r *http.Request)   {}
func remove(w http.ResponseWriter, r *http.Request) {}
func exact(w http.ResponseWriter, r *http.Request)  {}

func main() {
	base := os.Getenv("ROUTE_BASE")
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+base+"/tickets", list)
	mux.HandleFunc("DELETE "+base+"/tickets/{id}", remove)
	mux.HandleFunc("/assets/", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/about/{$}", exact)
	mux.HandleFunc("/", list)
	_ = http.ListenAndServe(":8080", mux)
}
"""

MODULE = "module example.com/post\n\ngo 1.22\n"


def served(files):
    return [(m, p) for m, p, _h in routes(link(files), lines=False)]


def _service(main):
    return {
        "svc/go.mod": MODULE,
        "svc/internal/shipping/server.gen.go": GENERATED,
        "svc/internal/shipping/server.go": OWN_SERVER,
        "svc/cmd/main.go": main,
    }


def test_the_base_url_main_hands_to_register_prefixes_every_generated_route_and_only_it():
    assert served(_service(MAIN)) == [
        ("ANY", "/docs/*"),
        ("GET", "/api/v2/parcels/{code}"),
        ("POST", "/api/v2/parcels"),
    ]


def test_mounted_without_a_base_url_the_routes_are_the_documents_paths():
    assert served(_service(MAIN_PLAIN)) == [("GET", "/parcels/{code}"), ("POST", "/parcels")]


def test_the_method_head_of_a_pattern_built_at_run_time_is_the_method():
    assert served({"svc/go.mod": MODULE, "svc/main.go": PREFIX_FROM_ENV}) == [
        ("ANY", "/"),
        ("ANY", "/about"),
        ("ANY", "/assets/*"),
        ("DELETE", "/${ROUTE_BASE}/tickets/{id}"),
        ("GET", "/${ROUTE_BASE}/tickets"),
    ]
