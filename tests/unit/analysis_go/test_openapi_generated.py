"""Servers and clients generated from an OpenAPI document (the shape oapi-codegen writes): routes
registered by ``HandlerFromMux`` / ``RegisterHandlers`` under the router the service mounts, and
requests built by ``NewClientWithResponses(addr)`` against a base URL."""

from __future__ import annotations

from tests.unit.analysis_go.helpers import link, routes, show

CHI_SERVER = """
// Package ports is generated from an OpenAPI document; do not edit.
package ports

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

type ServerInterface interface {
	ListRooms(w http.ResponseWriter, r *http.Request)
	BookRoom(w http.ResponseWriter, r *http.Request, roomId string)
}

type MiddlewareFunc func(http.Handler) http.Handler

type ServerInterfaceWrapper struct {
	Handler            ServerInterface
	HandlerMiddlewares []MiddlewareFunc
}

func (siw *ServerInterfaceWrapper) ListRooms(w http.ResponseWriter, r *http.Request) {
	var handler http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		siw.Handler.ListRooms(w, r)
	})
	for _, middleware := range siw.HandlerMiddlewares {
		handler = middleware(handler)
	}
	handler.ServeHTTP(w, r)
}

func (siw *ServerInterfaceWrapper) BookRoom(w http.ResponseWriter, r *http.Request) {
	roomId := chi.URLParam(r, "roomId")
	var handler http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		siw.Handler.BookRoom(w, r, roomId)
	})
	handler.ServeHTTP(w, r)
}

type ChiServerOptions struct {
	BaseURL     string
	BaseRouter  chi.Router
	Middlewares []MiddlewareFunc
}

func Handler(si ServerInterface) http.Handler {
	return HandlerWithOptions(si, ChiServerOptions{})
}

func HandlerFromMux(si ServerInterface, r chi.Router) http.Handler {
	return HandlerWithOptions(si, ChiServerOptions{BaseRouter: r})
}

func HandlerWithOptions(si ServerInterface, options ChiServerOptions) http.Handler {
	r := options.BaseRouter
	if r == nil {
		r = chi.NewRouter()
	}
	wrapper := ServerInterfaceWrapper{Handler: si, HandlerMiddlewares: options.Middlewares}
	r.Group(func(r chi.Router) {
		r.Get(options.BaseURL+"/rooms", wrapper.ListRooms)
	})
	r.Group(func(r chi.Router) {
		r.Post(options.BaseURL+"/rooms/{roomId}/bookings", wrapper.BookRoom)
	})
	return r
}
"""

CHI_MAIN = """
package main

import (
	"net/http"
	"os"

	"github.com/go-chi/chi/v5"

	"example.com/hotel/internal/ports"
)

type HttpServer struct{}

func (h HttpServer) ListRooms(w http.ResponseWriter, r *http.Request)                 {}
func (h HttpServer) BookRoom(w http.ResponseWriter, r *http.Request, roomId string) {}

func runHTTP(create func(router chi.Router) http.Handler) {
	api := chi.NewRouter()
	root := chi.NewRouter()
	root.Mount("/api", create(api))
	_ = http.ListenAndServe(":"+os.Getenv("PORT"), root)
}

func main() {
	runHTTP(func(router chi.Router) http.Handler {
		return ports.HandlerFromMux(HttpServer{}, router)
	})
}
"""

ECHO_SERVER = """
package api

import "github.com/labstack/echo/v4"

type ServerInterface interface {
	ListInvoices(ctx echo.Context) error
	PayInvoice(ctx echo.Context, invoiceId string) error
}

type ServerInterfaceWrapper struct {
	Handler ServerInterface
}

func (w *ServerInterfaceWrapper) ListInvoices(ctx echo.Context) error {
	return w.Handler.ListInvoices(ctx)
}

func (w *ServerInterfaceWrapper) PayInvoice(ctx echo.Context) error {
	invoiceId := ctx.Param("invoiceId")
	return w.Handler.PayInvoice(ctx, invoiceId)
}

type EchoRouter interface {
	GET(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route
	POST(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route
}

func RegisterHandlers(router EchoRouter, si ServerInterface) {
	RegisterHandlersWithBaseURL(router, si, "")
}

func RegisterHandlersWithBaseURL(router EchoRouter, si ServerInterface, baseURL string) {
	wrapper := ServerInterfaceWrapper{Handler: si}
	router.GET(baseURL+"/invoices", wrapper.ListInvoices)
	router.POST(baseURL+"/invoices/:invoiceId/payments", wrapper.PayInvoice)
}
"""

ECHO_MAIN = """
package main

import (
	"github.com/labstack/echo/v4"

	"example.com/billing/internal/api"
)

type Billing struct{}

func (b Billing) ListInvoices(ctx echo.Context) error { return nil }
func (b Billing) PayInvoice(ctx echo.Context, invoiceId string) error { return nil }

func main() {
	e := echo.New()
	g := e.Group("/v1")
	api.RegisterHandlers(g, Billing{})
	e.Logger.Fatal(e.Start(":8080"))
}
"""

CLIENT = """
// Package rooms is a client generated from an OpenAPI document; do not edit.
package rooms

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

type HttpRequestDoer interface {
	Do(req *http.Request) (*http.Response, error)
}

type Client struct {
	Server string
	Client HttpRequestDoer
}

type ClientOption func(*Client) error

func NewClient(server string, opts ...ClientOption) (*Client, error) {
	client := Client{
		Server: server,
	}
	for _, o := range opts {
		if err := o(&client); err != nil {
			return nil, err
		}
	}
	if !strings.HasSuffix(client.Server, "/") {
		client.Server += "/"
	}
	if client.Client == nil {
		client.Client = &http.Client{}
	}
	return &client, nil
}

type ClientInterface interface {
	GetRoom(ctx context.Context, roomId string) (*http.Response, error)
}

func (c *Client) GetRoom(ctx context.Context, roomId string) (*http.Response, error) {
	req, err := NewGetRoomRequest(c.Server, roomId)
	if err != nil {
		return nil, err
	}
	req = req.WithContext(ctx)
	return c.Client.Do(req)
}

func NewGetRoomRequest(server string, roomId string) (*http.Request, error) {
	var err error
	serverURL, err := url.Parse(server)
	if err != nil {
		return nil, err
	}
	operationPath := fmt.Sprintf("/rooms/%s", roomId)
	if operationPath[0] == '/' {
		operationPath = "." + operationPath
	}
	queryURL, err := serverURL.Parse(operationPath)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest("GET", queryURL.String(), nil)
	if err != nil {
		return nil, err
	}
	return req, nil
}

type ClientWithResponses struct {
	ClientInterface
}

func NewClientWithResponses(server string, opts ...ClientOption) (*ClientWithResponses, error) {
	client, err := NewClient(server, opts...)
	if err != nil {
		return nil, err
	}
	return &ClientWithResponses{client}, nil
}

type GetRoomResponse struct {
	Body         []byte
	HTTPResponse *http.Response
}

func (c *ClientWithResponses) GetRoomWithResponse(ctx context.Context, roomId string) (*GetRoomResponse, error) {
	rsp, err := c.GetRoom(ctx, roomId)
	if err != nil {
		return nil, err
	}
	return &GetRoomResponse{HTTPResponse: rsp}, nil
}
"""

CALLER = """
package main

import (
	"context"
	"os"

	"example.com/hotel/internal/clients/rooms"
)

func main() {
	c, err := rooms.NewClientWithResponses(os.Getenv("ROOMS_HTTP_ADDR"))
	if err != nil {
		panic(err)
	}
	_, _ = c.GetRoomWithResponse(context.Background(), "12")
}
"""


def test_chi_routes_from_handler_from_mux_are_served_under_the_mounted_prefix_only() -> None:
    facts = link({"svc/main.go": CHI_MAIN, "svc/internal/ports/server_gen.go": CHI_SERVER})
    assert routes(facts, lines=False) == [
        ("GET", "/api/rooms", "ServerInterfaceWrapper.ListRooms"),
        ("POST", "/api/rooms/{roomId}/bookings", "ServerInterfaceWrapper.BookRoom"),
    ]


def test_a_base_url_option_left_out_of_the_literal_is_empty_not_a_placeholder() -> None:
    served = CHI_MAIN.replace('root.Mount("/api", create(api))', 'root.Mount("/", create(api))')
    facts = link({"svc/main.go": served, "svc/internal/ports/server_gen.go": CHI_SERVER})
    assert [path for _m, path, _h in routes(facts, lines=False)] == ["/rooms", "/rooms/{roomId}/bookings"]


def test_echo_routes_from_register_handlers_on_a_group() -> None:
    facts = link({"svc/main.go": ECHO_MAIN, "svc/internal/api/api.gen.go": ECHO_SERVER})
    assert [(m, p) for m, p, _h in routes(facts, lines=False)] == [
        ("GET", "/v1/invoices"),
        ("POST", "/v1/invoices/:invoiceId/payments"),
    ]


def test_a_generated_client_resolves_each_operation_path_against_the_address_it_was_given() -> None:
    facts = link({"svc/main.go": CALLER, "svc/internal/clients/rooms/client_gen.go": CLIENT})
    assert [(c.method, show(c.url)) for c in facts.calls] == [("GET", "{env:ROOMS_HTTP_ADDR}/rooms/12")]


RESOLVING = """
package main

import (
	"net/http"
	"net/url"
	"os"
)

func main() {
	base, _ := url.Parse(os.Getenv("DESK_URL") + "/")
	rel, _ := base.Parse("./tickets/open")
	http.Get(rel.String())
	ref, _ := url.Parse("/agents")
	http.Get(base.ResolveReference(ref).String())
}
"""


def test_url_parse_and_resolve_reference_against_a_base() -> None:
    urls = sorted(show(c.url) or "" for c in link({"svc/main.go": RESOLVING}).calls)
    assert urls == ["{env:DESK_URL}/agents", "{env:DESK_URL}/tickets/open"]


APPENDING = """
package main

import (
	"net/http"
	"os"
)

type Desk struct{ Base string }

func main() {
	d := Desk{Base: os.Getenv("DESK_ADDR")}
	d.Base += "/v2"
	http.Get(d.Base + "/queues")
}
"""


def test_appending_to_a_field_keeps_what_the_field_held() -> None:
    assert [show(c.url) for c in link({"svc/main.go": APPENDING}).calls] == ["{env:DESK_ADDR}/v2/queues"]


PROMOTED = """
package main

import (
	"net/http"
	"os"
)

type Fetcher interface{ Fetch() }

type Plain struct{ addr string }

func (p *Plain) Fetch() { http.Get(p.addr + "/status") }

type Cached struct{}

func (c *Cached) Fetch() {}

type Wrapped struct{ Fetcher }

func main() {
	w := &Wrapped{&Plain{addr: os.Getenv("STATUS_ADDR")}}
	w.Fetch()
}
"""


def test_a_method_promoted_from_an_embedded_interface_runs_on_the_value_it_holds() -> None:
    assert [show(c.url) for c in link({"svc/main.go": PROMOTED}).calls] == ["{env:STATUS_ADDR}/status"]
