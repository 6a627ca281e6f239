"""Static files and subtrees: a file server is ``GET <prefix>/*`` with handler ``FileServer`` (gorilla
PathPrefix, net/http subtree patterns, chi wildcards); PathPrefix with a router is a mount."""

from __future__ import annotations

from .helpers import link, routes

GORILLA = """
package main

import (
	"embed"
	"net/http"

	"github.com/gorilla/mux"
)

//go:embed assets
var assets embed.FS

func main() {
	r := mux.NewRouter()
	r.PathPrefix("/static/").Handler(http.StripPrefix("/static/", http.FileServer(http.Dir("./static/"))))
	files := http.FileServer(http.FS(assets))
	r.PathPrefix("/files").Methods("GET", "HEAD").Handler(files)
	r.PathPrefix("/proxy").HandlerFunc(proxyAll)

	legacy := http.NewServeMux()
	legacy.HandleFunc("/orders", legacyOrders)
	r.PathPrefix("/legacy/").Handler(http.StripPrefix("/legacy", legacy))
	http.ListenAndServe(":80", r)
}

func proxyAll(w http.ResponseWriter, r *http.Request)     {}
func legacyOrders(w http.ResponseWriter, r *http.Request) {}
"""


def test_gorilla_path_prefix_file_server_handler_and_mounted_mux() -> None:
    assert routes(link({"web/main.go": GORILLA})) == [
        ("ANY", "/legacy/orders", "legacyOrders", 27),
        ("ANY", "/proxy/*", "proxyAll", 26),
        ("GET", "/files/*", "FileServer", 17),
        ("GET", "/static/*", "FileServer", 15),
        ("HEAD", "/files/*", "FileServer", 17),
    ]


NETHTTP_CHI = """
package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

const assetsDir = "web/assets"

func main() {
	mux := http.NewServeMux()
	mux.Handle("/assets/", http.StripPrefix("/assets/", http.FileServer(http.Dir(assetsDir))))
	http.Handle("/", http.FileServer(http.Dir("site")))

	r := chi.NewRouter()
	r.Handle("/public/*", http.StripPrefix("/public/", http.FileServer(http.Dir("public"))))
	r.Get("/ping", ping)
	r.Mount("/docs", http.FileServer(http.Dir("docs")))
	mux.Handle("/api/", http.StripPrefix("/api", r))
	http.ListenAndServe(":80", mux)
}

func ping(w http.ResponseWriter, r *http.Request) {}
"""


def test_nethttp_subtree_and_chi_wildcard_file_servers() -> None:
    assert routes(link({"site/main.go": NETHTTP_CHI})) == [
        ("GET", "/", "FileServer", 14),
        ("GET", "/api/docs/*", "FileServer", 19),
        ("GET", "/api/ping", "ping", 24),
        ("GET", "/api/public/*", "FileServer", 17),
        ("GET", "/assets/*", "FileServer", 13),
    ]
