"""go-micro without generated code: a handler registered by its type (``micro.RegisterHandler(srv,
new(Stock))``, ``srv.Handle(srv.NewHandler(&Audit{}))``) serves ``Stock/<Method>`` rpcs, and a
request built by name (``c.NewRequest("shop.service.stock", "Stock.Reserve", req)`` on a service's
client, or the ``client`` package's own ``NewRequest``) is an RPC to the service handling ``Stock``,
whatever its registry name. An endpoint that is not ``Type.Method`` and a lookalike ``NewRequest``
of another library are no call."""

from __future__ import annotations

from .helpers import link, routes

STOCK = """
package main

import (
	"context"

	"github.com/micro/go-micro/v2"
)

type Req struct{ Id string }
type Rsp struct{ Name string }

type Stock struct{}

func (s *Stock) Reserve(ctx context.Context, req *Req, rsp *Rsp) error { return nil }
func (s *Stock) Release(ctx context.Context, req *Req, rsp *Rsp) error { return nil }

type Audit struct{}

func (a Audit) Record(ctx context.Context, req *Req, rsp *Rsp) error { return nil }

func main() {
	service := micro.NewService(micro.Name("shop.service.stock"))
	service.Init()
	_ = micro.RegisterHandler(service.Server(), new(Stock))
	srv := service.Server()
	_ = srv.Handle(srv.NewHandler(&Audit{}))
	_ = service.Run()
}
"""

BASKET = """
package main

import (
	"context"

	"go-micro.dev/v4"
	"go-micro.dev/v4/client"
)

type Req struct{ Id string }
type Rsp struct{ Name string }

func reserve(c client.Client) error {
	req := c.NewRequest("shop.service.stock", "Stock.Reserve", &Req{Id: "1"})
	var rsp Rsp
	return c.Call(context.TODO(), req, &rsp)
}

func release() error {
	req := client.NewRequest("shop.service.stock", "Stock.Release", &Req{})
	var rsp Rsp
	return client.Call(context.TODO(), req, &rsp)
}

func main() {
	service := micro.NewService(micro.Name("shop.service.basket"))
	service.Init()
	_ = reserve(service.Client())
	_ = release()
	_ = service.Run()
}
"""

NOT_RPCS = """
package main

import (
	"context"
	"net/http"

	"github.com/micro/go-micro/v2"
)

type Req struct{}

func main() {
	service := micro.NewService(micro.Name("shop.service.report"))
	c := service.Client()
	_ = c.NewRequest("shop.service.stock", "summary", &Req{})
	r, _ := http.NewRequest("GET", "http://stock/Stock.Reserve", nil)
	_, _ = http.DefaultClient.Do(r.WithContext(context.TODO()))
}
"""


def test_handlers_registered_by_type_serve_their_methods_as_rpcs() -> None:
    facts = link({"stock/main.go": STOCK})
    assert [(m, p) for m, p, _h in routes(facts, lines=False)] == [
        ("RPC", "Audit/Record"),
        ("RPC", "Stock/Release"),
        ("RPC", "Stock/Reserve"),
    ]


def test_requests_built_by_name_call_the_handlers_type_and_method() -> None:
    facts = link({"basket/main.go": BASKET})
    assert sorted((c.kind, c.client, c.grpc_service, c.method) for c in facts.calls) == [
        ("grpc", "go-micro", "Stock", "Release"),
        ("grpc", "go-micro", "Stock", "Reserve"),
    ]


def test_negative_an_endpoint_without_a_type_and_another_librarys_new_request_are_no_rpc() -> None:
    facts = link({"report/main.go": NOT_RPCS})
    assert [c for c in facts.calls if c.kind == "grpc"] == []
