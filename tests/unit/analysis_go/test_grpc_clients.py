"""gRPC client calls: each RPC invoked on a generated client is a call with its method (through a
local client, a struct field holding the client or the connection, a chained constructor), the
constructor site only when no RPC of that service is ever invoked, one call per handler reaching it."""

from __future__ import annotations

from .helpers import link, routes, show

WEB_MAIN = """
package main

import (
	"context"
	"net/http"
	"os"

	"github.com/gorilla/mux"
	"google.golang.org/grpc"

	shoppb "example.org/bookshelf/web/protogen"
)

type webApp struct {
	basketAddr string
	basketConn *grpc.ClientConn
	catalog    shoppb.CatalogServiceClient
}

func main() {
	ctx := context.Background()
	app := new(webApp)
	app.basketAddr = os.Getenv("BASKET_ADDR")
	app.basketConn = dial(ctx, app.basketAddr)
	conn, _ := grpc.DialContext(ctx, os.Getenv("CATALOG_ADDR"))
	app.catalog = shoppb.NewCatalogServiceClient(conn)

	r := mux.NewRouter()
	r.HandleFunc("/", app.indexPage).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/basket", app.basketPage).Methods(http.MethodGet)
	r.HandleFunc("/basket", app.addToBasket).Methods(http.MethodPost)
	r.HandleFunc("/basket/empty", app.emptyBasket).Methods(http.MethodPost)
	http.ListenAndServe(":8080", r)
}

func dial(ctx context.Context, addr string) *grpc.ClientConn {
	c, err := grpc.DialContext(ctx, addr)
	if err != nil {
		panic(err)
	}
	return c
}
"""

WEB_HANDLERS = """
package main

import (
	"net/http"

	shoppb "example.org/bookshelf/web/protogen"
)

// indexPage renders the product grid and the basket size.
func (a *webApp) indexPage(w http.ResponseWriter, r *http.Request) {
	items, _ := a.basketItems(r.Context(), "u1")
	_ = items
	a.catalog.ListProducts(r.Context(), &shoppb.Empty{})
}

func (a *webApp) basketPage(w http.ResponseWriter, r *http.Request) {
	a.basketItems(r.Context(), "u1")
}

func (a *webApp) addToBasket(w http.ResponseWriter, r *http.Request) {
	cl := shoppb.NewBasketServiceClient(a.basketConn)
	cl.AddItem(r.Context(), &shoppb.AddItemRequest{})
}

func (a *webApp) emptyBasket(w http.ResponseWriter, r *http.Request) {
	if _, err := shoppb.NewBasketServiceClient(a.basketConn).EmptyBasket(r.Context(), &shoppb.EmptyBasketRequest{}); err != nil {
		http.Error(w, err.Error(), 500)
	}
}
"""

WEB_RPC = """
package main

import (
	"context"

	shoppb "example.org/bookshelf/web/protogen"
)

// basketItems is shared by several pages.
func (a *webApp) basketItems(ctx context.Context, user string) ([]*shoppb.Item, error) {
	resp, err := shoppb.NewBasketServiceClient(a.basketConn).GetBasket(ctx, &shoppb.GetBasketRequest{UserId: user})
	if err != nil {
		return nil, err
	}
	return resp.GetItems(), nil
}
"""


def _web() -> list[tuple[str, int, str | None, str | None, str | None, str | None]]:
    facts = link({"web/main.go": WEB_MAIN, "web/handlers.go": WEB_HANDLERS, "web/rpc.go": WEB_RPC})
    assert routes(facts) == [
        ("GET", "/", "webApp.indexPage", 10),
        ("GET", "/basket", "webApp.basketPage", 16),
        ("HEAD", "/", "webApp.indexPage", 10),
        ("POST", "/basket", "webApp.addToBasket", 20),
        ("POST", "/basket/empty", "webApp.emptyBasket", 25),
    ]
    assert {c.kind for c in facts.calls} == {"grpc"}
    return sorted((c.file, c.line, c.grpc_service, c.method, show(c.url), c.api_handler) for c in facts.calls)


def test_rpc_invocations_carry_the_method_through_conn_fields_client_fields_and_locals() -> None:
    got = _web()
    assert [g for g in got if g[0] == "web/handlers.go"] == [
        # a client held in a struct field
        ("web/handlers.go", 13, "CatalogService", "ListProducts", "{env:CATALOG_ADDR}", "webApp.indexPage"),
        # a local client built from a connection held in a struct field
        ("web/handlers.go", 22, "BasketService", "AddItem", "{env:BASKET_ADDR}", "webApp.addToBasket"),
        # New<X>Client(conn).Method(...) chained
        ("web/handlers.go", 26, "BasketService", "EmptyBasket", "{env:BASKET_ADDR}", "webApp.emptyBasket"),
    ]
    # the constructors are not reported: their services have invocations
    assert not [g for g in got if g[0] == "web/main.go"]


def test_a_helper_shared_by_handlers_reports_one_call_per_handler() -> None:
    got = _web()
    assert [g for g in got if g[0] == "web/rpc.go"] == [
        ("web/rpc.go", 11, "BasketService", "GetBasket", "{env:BASKET_ADDR}", "webApp.basketPage"),
        ("web/rpc.go", 11, "BasketService", "GetBasket", "{env:BASKET_ADDR}", "webApp.indexPage"),
    ]


GATEWAY_MAIN = """
package main

import (
	"github.com/gin-gonic/gin"
	"google.golang.org/grpc"

	"example.org/gw/internal/api"
	"example.org/gw/internal/config"
)

func main() {
	cfg := config.Load()
	conn, _ := grpc.NewClient(cfg.UsersAddr)
	auditConn, _ := grpc.NewClient("audit:7000")
	h := api.New(conn, auditConn)
	r := gin.Default()
	h.Register(r)
	r.Run()
}
"""

GATEWAY_CONFIG = """
package config

type Config struct {
	UsersAddr string `env:"USERS_ADDR" envDefault:"users:9000"`
}

func Load() *Config { return &Config{} }
"""

GATEWAY_API = """
package api

import (
	"context"

	"github.com/gin-gonic/gin"
	"google.golang.org/grpc"

	auditv1 "example.org/protos/audit/v1"
	userpb "example.org/protos/users"
)

type Handler struct {
	users userpb.UserServiceClient
	audit auditv1.AuditServiceClient
}

func New(conn *grpc.ClientConn, auditConn *grpc.ClientConn) *Handler {
	return &Handler{users: userpb.NewUserServiceClient(conn), audit: auditv1.NewAuditServiceClient(auditConn)}
}

func (h *Handler) Register(r *gin.Engine) {
	v1 := r.Group("/v1")
	v1.GET("/users/:id", h.getUser)
	v1.DELETE("/users/:id", h.deleteUser)
}

func (h *Handler) getUser(c *gin.Context) {
	u, err := h.users.GetUser(c.Request.Context(), &userpb.GetUserRequest{Id: c.Param("id")})
	c.JSON(200, gin.H{"user": u, "err": err})
}

func (h *Handler) deleteUser(c *gin.Context) {
	h.users.DeleteUser(context.Background(), &userpb.DeleteUserRequest{Id: c.Param("id")})
	c.Status(204)
}
"""


def test_clients_built_in_a_constructor_and_one_never_invoked() -> None:
    facts = link(
        {
            "gw/main.go": GATEWAY_MAIN,
            "gw/internal/config/config.go": GATEWAY_CONFIG,
            "gw/internal/api/handler.go": GATEWAY_API,
        }
    )
    got = sorted((c.line, c.grpc_service, c.method, show(c.url), c.api_handler) for c in facts.calls)
    assert got == [
        # AuditService is never invoked: its constructor site stands for the dependency
        (19, "AuditService", None, "audit:7000", None),
        (29, "UserService", "GetUser", "{env:USERS_ADDR|users:9000}", "Handler.getUser"),
        (34, "UserService", "DeleteUser", "{env:USERS_ADDR|users:9000}", "Handler.deleteUser"),
    ]


WORKER = """
package worker

import (
	"context"
	"time"

	vision "cloud.google.com/go/vision/apiv1"
	"google.golang.org/grpc"

	pricingpb "example.org/protos/pricing"
)

type Syncer struct {
	labels *vision.ImageAnnotatorClient
	prices pricingpb.PricingServiceClient
}

func Start(ctx context.Context, cc *grpc.ClientConn, v *vision.ImageAnnotatorClient) {
	s := Syncer{labels: v, prices: pricingpb.NewPricingServiceClient(cc)}
	go func() {
		for {
			s.prices.RefreshPrices(ctx, &pricingpb.RefreshRequest{})
			s.labels.BatchAnnotateImages(ctx, nil)
			time.Sleep(time.Minute)
		}
	}()
}
"""


def test_background_invocation_and_a_pointer_client_that_is_not_grpc() -> None:
    facts = link({"sync/worker/worker.go": WORKER})
    got = sorted((c.line, c.grpc_service, c.method, c.api_handler, c.component) for c in facts.calls)
    # a Google Cloud client is used through a pointer: a library, not a generated gRPC client
    assert got == [(22, "PricingService", "RefreshPrices", None, "worker")]
