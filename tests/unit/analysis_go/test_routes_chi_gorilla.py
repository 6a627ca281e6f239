"""chi (Route, Mount, Group, With) and gorilla/mux (Methods, PathPrefix/Subrouter, chains)."""

from __future__ import annotations

from .helpers import link, routes

CHI_MAIN = """
package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

func main() {
	r := chi.NewRouter()
	r.Use(middleware.Logger)
	r.Get("/", index)
	r.Route("/articles", func(r chi.Router) {
		r.With(paginate).Get("/", listArticles)
		r.Post("/", createArticle)
		r.Route("/{articleID}", func(r chi.Router) {
			r.Get("/", getArticle)
			r.Method("PATCH", "/", http.HandlerFunc(updateArticle))
		})
	})
	r.Mount("/admin", adminRouter())
	r.Group(func(r chi.Router) {
		r.Use(auth)
		r.Delete("/sessions/{id}", func(w http.ResponseWriter, r *http.Request) {})
	})
	http.ListenAndServe(":3333", r)
}

func adminRouter() http.Handler {
	r := chi.NewRouter()
	r.Get("/stats", adminStats)
	return r
}

func index(w http.ResponseWriter, r *http.Request)         {}
func listArticles(w http.ResponseWriter, r *http.Request)  {}
func createArticle(w http.ResponseWriter, r *http.Request) {}
func getArticle(w http.ResponseWriter, r *http.Request)    {}
func updateArticle(w http.ResponseWriter, r *http.Request) {}
func adminStats(w http.ResponseWriter, r *http.Request)    {}
func paginate(next http.Handler) http.Handler              { return next }
func auth(next http.Handler) http.Handler                  { return next }
"""


def test_chi_route_mount_group_with() -> None:
    facts = link({"blog/main.go": CHI_MAIN})
    assert routes(facts) == [
        ("DELETE", "/sessions/{id}", "<anonymous>@25", 25),
        ("GET", "/", "index", 36),
        ("GET", "/admin/stats", "adminStats", 41),
        ("GET", "/articles", "listArticles", 37),
        ("GET", "/articles/{articleID}", "getArticle", 39),
        ("PATCH", "/articles/{articleID}", "updateArticle", 40),
        ("POST", "/articles", "createArticle", 38),
    ]
    assert facts.framework == "chi"


def test_chi_subrouter_from_another_package_mounted_with_a_handler_struct() -> None:
    main = """
    package main

    import (
        "github.com/go-chi/chi/v5"
        "example.com/pay/internal/payments"
    )

    func main() {
        r := chi.NewRouter()
        r.Route("/api/v2", func(api chi.Router) {
            api.Mount("/payments", payments.Routes(payments.NewHandler()))
        })
    }
    """
    pay = """
    package payments

    import (
        "net/http"

        "github.com/go-chi/chi/v5"
    )

    type Handler struct{}

    func NewHandler() *Handler { return &Handler{} }

    func Routes(h *Handler) chi.Router {
        r := chi.NewRouter()
        r.Post("/", h.Charge)
        r.Get("/{id}", h.Get)
        return r
    }

    // Charge charges a card.
    func (h *Handler) Charge(w http.ResponseWriter, r *http.Request) {}

    func (h *Handler) Get(w http.ResponseWriter, r *http.Request) {}
    """
    facts = link({"pay/cmd/main.go": main, "pay/internal/payments/routes.go": pay})
    assert routes(facts) == [
        ("GET", "/api/v2/payments/{id}", "Handler.Get", 23),
        ("POST", "/api/v2/payments", "Handler.Charge", 21),
    ]
    charge = next(a for a in facts.apis if a.handler == "Handler.Charge")
    assert (charge.doc, charge.file, charge.component) == (
        "Charge charges a card.",
        "pay/internal/payments/routes.go",
        "Handler",
    )


GORILLA = """
package main

import (
	"net/http"

	"github.com/gorilla/mux"
)

type API struct{}

func main() {
	router := mux.NewRouter().StrictSlash(true)
	a := &API{}
	router.HandleFunc("/products", a.ListProducts).Methods("GET")
	router.HandleFunc("/products", a.CreateProduct).Methods(http.MethodPost, "PUT")
	router.Path("/products/{id:[0-9]+}").HandlerFunc(a.GetProduct).Methods("GET").Name("product")
	api := router.PathPrefix("/api/v1").Subrouter()
	api.HandleFunc("/orders/{id}", a.GetOrder).Methods("GET")
	api.Methods("DELETE").Path("/orders/{id}").HandlerFunc(a.DeleteOrder)
	registerAdmin(router.PathPrefix("/admin").Subrouter())
	router.HandleFunc("/ping", func(w http.ResponseWriter, r *http.Request) {})
	http.ListenAndServe(":8000", router)
}

func registerAdmin(r *mux.Router) {
	r.Handle("/metrics", metricsHandler{}).Methods("GET")
}

type metricsHandler struct{}

func (metricsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {}

func (a *API) ListProducts(w http.ResponseWriter, r *http.Request)  {}
func (a *API) CreateProduct(w http.ResponseWriter, r *http.Request) {}
func (a *API) GetProduct(w http.ResponseWriter, r *http.Request)    {}
func (a *API) GetOrder(w http.ResponseWriter, r *http.Request)      {}
func (a *API) DeleteOrder(w http.ResponseWriter, r *http.Request)   {}
"""


def test_gorilla_methods_prefix_subrouter_and_chains() -> None:
    facts = link({"catalog/main.go": GORILLA})
    assert routes(facts) == [
        ("ANY", "/ping", "<anonymous>@21", 21),
        ("DELETE", "/api/v1/orders/{id}", "API.DeleteOrder", 37),
        ("GET", "/admin/metrics", "metricsHandler.ServeHTTP", 31),
        ("GET", "/api/v1/orders/{id}", "API.GetOrder", 36),
        ("GET", "/products", "API.ListProducts", 33),
        ("GET", "/products/{id:[0-9]+}", "API.GetProduct", 35),
        ("POST", "/products", "API.CreateProduct", 34),
        ("PUT", "/products", "API.CreateProduct", 34),
    ]
    assert facts.framework == "gorilla/mux"
