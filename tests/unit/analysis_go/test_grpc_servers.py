"""gRPC servers: the RPC APIs of a registered struct are the methods its service really has (the
standard health service is infrastructure; a struct registered under several services gets each
its own methods); ``&T{}``, ``T{}``, ``new(T)`` and ``var s T`` are one and the same instance."""

from __future__ import annotations

import pytest

from .helpers import link, show

CHECKOUT = """
package main

import (
	"context"
	"net"
	"os"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	orderpb "example.org/bookshelf/checkout/genproto"
)

type orderSvc struct {
	shippingAddr string
	paymentConn  *grpc.ClientConn
}

func main() {
	lis, _ := net.Listen("tcp", ":5050")
	svc := new(orderSvc)
	svc.shippingAddr = os.Getenv("SHIPPING_ADDR")
	pc, _ := grpc.Dial(os.Getenv("PAYMENT_ADDR"))
	svc.paymentConn = pc

	srv := grpc.NewServer()
	orderpb.RegisterCheckoutServiceServer(srv, svc)
	healthpb.RegisterHealthServer(srv, svc)
	srv.Serve(lis)
}

func (s *orderSvc) Check(ctx context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

func (s *orderSvc) Watch(req *healthpb.HealthCheckRequest, ws healthpb.Health_WatchServer) error {
	return nil
}

// PlaceOrder quotes shipping and charges the card.
func (s *orderSvc) PlaceOrder(ctx context.Context, req *orderpb.PlaceOrderRequest) (*orderpb.PlaceOrderResponse, error) {
	if _, err := s.quote(ctx, req.Address); err != nil {
		return nil, err
	}
	orderpb.NewPaymentServiceClient(s.paymentConn).Charge(ctx, &orderpb.ChargeRequest{})
	return &orderpb.PlaceOrderResponse{}, nil
}

func (s *orderSvc) quote(ctx context.Context, addr *orderpb.Address) (*orderpb.Money, error) {
	conn, err := grpc.DialContext(ctx, s.shippingAddr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	resp, err := orderpb.NewShippingServiceClient(conn).GetQuote(ctx, &orderpb.GetQuoteRequest{Address: addr})
	return resp.GetCost(), err
}
"""


def test_new_struct_registered_with_health_yields_only_its_own_rpcs() -> None:
    facts = link({"checkout/main.go": CHECKOUT})
    assert facts.grpc_implements == ("CheckoutService",)
    assert sorted((a.method, a.path, a.handler, a.start_line, a.doc) for a in facts.apis) == [
        (
            "RPC",
            "CheckoutService/PlaceOrder",
            "orderSvc.PlaceOrder",
            41,
            "PlaceOrder quotes shipping and charges the card.",
        )
    ]
    got = sorted((c.line, c.grpc_service, c.method, show(c.url), c.api_handler) for c in facts.calls)
    assert got == [
        (45, "PaymentService", "Charge", "{env:PAYMENT_ADDR}", "orderSvc.PlaceOrder"),
        # one hop away, in a helper that dials its own connection
        (55, "ShippingService", "GetQuote", "{env:SHIPPING_ADDR}", "orderSvc.PlaceOrder"),
    ]


CATALOG = """
package main

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	"google.golang.org/grpc/health/grpc_health_v1"

	catalogpb "example.org/bookshelf/catalog/genproto"
)

type catalog struct {
	items []*catalogpb.Product
}

func run(s *grpc.Server) {
	var svc catalog
	catalogpb.RegisterCatalogServiceServer(s, &svc)
	grpc_health_v1.RegisterHealthServer(s, health.NewServer())
}

func (c *catalog) ListProducts(ctx context.Context, _ *catalogpb.Empty) (*catalogpb.ListProductsResponse, error) {
	return &catalogpb.ListProductsResponse{Products: c.items}, nil
}

func (c *catalog) GetProduct(ctx context.Context, req *catalogpb.GetProductRequest) (*catalogpb.Product, error) {
	return nil, nil
}

// Watch streams price changes.
func (c *catalog) Watch(req *catalogpb.WatchRequest, stream catalogpb.CatalogService_WatchServer) error {
	return nil
}

// Reload is called by the admin loop, not over gRPC.
func (c *catalog) Reload(ctx context.Context) error { return nil }

func (c *catalog) Check(ctx context.Context) bool { return true }
"""


def test_health_server_registration_is_infrastructure() -> None:
    facts = link({"catalog/server.go": CATALOG})
    assert facts.grpc_implements == ("CatalogService",)
    assert sorted((a.path, a.handler, a.start_line) for a in facts.apis) == [
        ("CatalogService/GetProduct", "catalog.GetProduct", 27),
        ("CatalogService/ListProducts", "catalog.ListProducts", 23),
        # a Watch of the service's own stream type is one of its RPCs
        ("CatalogService/Watch", "catalog.Watch", 32),
    ]


ADS_SERVER = """
package server

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health/grpc_health_v1"

	adpb "example.org/ads/gen/ads"
	recpb "example.org/ads/gen/recs"
	"example.org/ads/internal/invpb"
)

type Server struct {
	adpb.UnimplementedAdServiceServer
}

func Attach(g *grpc.Server, s *Server) {
	adpb.RegisterAdServiceServer(g, s)
	recpb.RegisterRecommendationServiceServer(g, s)
	g.RegisterService(&grpc_health_v1.Health_ServiceDesc, s)
	g.RegisterService(&invpb.StockService_ServiceDesc, newStock())
}

func (s *Server) GetAds(ctx context.Context, req *adpb.AdRequest) (*adpb.AdResponse, error) {
	return nil, nil
}

func (s *Server) ListRecommendations(ctx context.Context, req *recpb.ListRequest) (*recpb.ListResponse, error) {
	return nil, nil
}

func (s *Server) Check(ctx context.Context, _ *grpc_health_v1.HealthCheckRequest) (*grpc_health_v1.HealthCheckResponse, error) {
	return nil, nil
}
"""

ADS_STOCK = """
package server

import (
	"context"

	"example.org/ads/internal/invpb"
)

type stock struct{}

func newStock() *stock { return &stock{} }

func (s *stock) Reserve(ctx context.Context, req *invpb.ReserveRequest) (*invpb.ReserveReply, error) {
	return nil, nil
}

func (s *stock) Release(ctx context.Context, req *invpb.ReleaseRequest) (*invpb.ReserveReply, error) {
	return nil, nil
}

// Flush has the shape of an RPC but the service interface does not list it.
func (s *stock) Flush(ctx context.Context, req *invpb.ReleaseRequest) (*invpb.ReserveReply, error) {
	return nil, nil
}
"""

# The service's own (hand-maintained) gRPC package: its server interface says what the service has.
ADS_INVPB = """
package invpb

import "context"

type ReserveRequest struct{ Sku string }
type ReleaseRequest struct{ Sku string }
type ReserveReply struct{ Ok bool }

type StockServiceServer interface {
	Reserve(context.Context, *ReserveRequest) (*ReserveReply, error)
	Release(context.Context, *ReleaseRequest) (*ReserveReply, error)
}
"""


def test_one_struct_registered_under_several_services_gets_each_its_methods() -> None:
    facts = link(
        {
            "ads/internal/server/server.go": ADS_SERVER,
            "ads/internal/server/stock.go": ADS_STOCK,
            "ads/internal/invpb/service.go": ADS_INVPB,
        }
    )
    assert facts.grpc_implements == ("AdService", "RecommendationService", "StockService")
    assert sorted((a.path, a.handler, a.file) for a in facts.apis) == [
        ("AdService/GetAds", "Server.GetAds", "ads/internal/server/server.go"),
        (
            "RecommendationService/ListRecommendations",
            "Server.ListRecommendations",
            "ads/internal/server/server.go",
        ),
        ("StockService/Release", "stock.Release", "ads/internal/server/stock.go"),
        ("StockService/Reserve", "stock.Reserve", "ads/internal/server/stock.go"),
    ]


# One service written with each way of making the server value.
STYLES = {
    "&T{}": ("app := &frontend{}", "app"),
    "T{}": ("app := frontend{}", "&app"),
    "new(T)": ("app := new(frontend)", "app"),
    "var s T": ("var app frontend", "&app"),
}

FRONTEND = """
package main

import (
	"context"
	"net/http"
	"os"

	"google.golang.org/grpc"

	pb "example.org/shop/genproto"
)

type frontend struct {
	cartConn *grpc.ClientConn
}

func main() {
	MAKE
	app.cartConn, _ = grpc.Dial(os.Getenv("CART_ADDR"))
	http.HandleFunc("/cart", app.viewCart)
	pb.RegisterFrontendServiceServer(grpc.NewServer(), REF)
	http.ListenAndServe(":8080", nil)
}

func (f *frontend) viewCart(w http.ResponseWriter, r *http.Request) {
	pb.NewCartServiceClient(f.cartConn).GetCart(r.Context(), &pb.GetCartRequest{})
}

func (f *frontend) Ping(ctx context.Context, req *pb.PingRequest) (*pb.PingReply, error) {
	return &pb.PingReply{}, nil
}
"""


@pytest.mark.parametrize("style", sorted(STYLES))
def test_struct_creation_styles_are_equivalent(style: str) -> None:
    make, ref = STYLES[style]
    facts = link({"web/main.go": FRONTEND.replace("MAKE", make).replace("REF", ref)})
    assert sorted((a.method, a.path, a.handler, a.start_line) for a in facts.apis) == [
        ("ANY", "/cart", "frontend.viewCart", 25),
        ("RPC", "FrontendService/Ping", "frontend.Ping", 29),
    ]
    assert facts.grpc_implements == ("FrontendService",)
    assert [(c.line, c.grpc_service, c.method, show(c.url), c.api_handler) for c in facts.calls] == [
        (26, "CartService", "GetCart", "{env:CART_ADDR}", "frontend.viewCart")
    ]


def test_new_of_a_struct_from_another_package() -> None:
    main = """
    package main

    import (
        "net/http"

        "example.org/shop/web/internal/pages"
    )

    func main() {
        p := new(pages.Pages)
        http.HandleFunc("/about", p.About)
    }
    """
    pages = """
    package pages

    import "net/http"

    type Pages struct{}

    // About renders the about page.
    func (p *Pages) About(w http.ResponseWriter, r *http.Request) {
        http.Get("http://cms:8000/about")
    }
    """
    facts = link({"web/main.go": main, "web/internal/pages/pages.go": pages})
    assert [(a.path, a.handler, a.doc) for a in facts.apis] == [
        ("/about", "Pages.About", "About renders the about page.")
    ]
    assert [(show(c.url), c.api_handler) for c in facts.calls] == [("http://cms:8000/about", "Pages.About")]
