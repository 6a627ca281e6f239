"""GORM models and table naming, MongoDB collections, gRPC server registrations, entry points."""

from __future__ import annotations

import pytest

from orbitkb.analysis.golang import ANALYZER
from orbitkb.analysis.golang.gorm import table_name

from .helpers import link

MODELS = """
package models

import (
	"time"

	"gorm.io/gorm"
)

type Order struct {
	gorm.Model
	CustomerID uint   `gorm:"not null;index"`
	Status     string `gorm:"column:order_status;size:32"`
	Notes      *string
	Items      []OrderItem
	Customer   Customer
}

type OrderItem struct {
	ID      uint `gorm:"primaryKey"`
	OrderID uint
	SKU     string `gorm:"-"`
	Qty     int
}

type Customer struct {
	UUID      string `gorm:"primaryKey;type:uuid"`
	CreatedAt time.Time
}

func (Customer) TableName() string { return "crm_customers" }

type Category struct{ ID uint }
type Person struct{ ID uint }
type notAModel struct{ X int }
"""

DB = """
package db

import (
	"gorm.io/driver/postgres"
	"gorm.io/gorm"

	"example.com/shop/orders/models"
)

func Open(dsn string) *gorm.DB {
	db, _ := gorm.Open(postgres.Open(dsn), &gorm.Config{})
	db.AutoMigrate(&models.Order{}, &models.OrderItem{}, &models.Category{}, models.Person{})
	return db
}
"""


def test_gorm_models_tables_and_columns() -> None:
    facts = link({"orders/models/models.go": MODELS, "orders/db/db.go": DB})
    got = {e.name: e for e in facts.entities}
    assert sorted(got) == ["categories", "crm_customers", "order_items", "orders", "people"]
    assert {e.engine_hint for e in facts.entities} == {"postgres"}
    assert {e.framework for e in facts.entities} == {"gorm"}
    assert got["orders"].class_name == "Order"
    assert (got["orders"].start_line, got["orders"].end_line) == (9, 16)
    assert got["orders"].fields == (
        ("id", "uint", False, True),
        ("created_at", "time.Time", None, False),
        ("updated_at", "time.Time", None, False),
        ("deleted_at", "gorm.DeletedAt", True, False),
        ("customer_id", "uint", False, False),
        ("order_status", "string", None, False),
        ("notes", "*string", True, False),
    )
    assert got["order_items"].fields == (
        ("id", "uint", False, True),
        ("order_id", "uint", None, False),
        ("qty", "int", None, False),
    )
    assert got["crm_customers"].fields == (
        ("uuid", "string", False, True),
        ("created_at", "time.Time", None, False),
    )


@pytest.mark.parametrize(
    ("struct", "table"),
    [
        ("User", "users"),
        ("OrderItem", "order_items"),
        ("Category", "categories"),
        ("Address", "addresses"),
        ("Status", "statuses"),
        ("Box", "boxes"),
        ("Person", "people"),
        ("HTTPLog", "http_logs"),
        ("APIKey", "api_keys"),
        ("Wolf", "wolves"),
        ("Analysis", "analyses"),
        ("Equipment", "equipment"),
        ("Day", "days"),
        ("Index", "indices"),
    ],
)
def test_gorm_default_table_names(struct: str, table: str) -> None:
    assert table_name(struct) == table


MONGO = """
package store

import (
	"context"
	"os"

	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

type Repo struct {
	coll *mongo.Collection
}

func New(ctx context.Context) *Repo {
	client, _ := mongo.Connect(ctx, options.Client().ApplyURI(os.Getenv("MONGO_URI")))
	db := client.Database("catalog")
	db.Collection("reviews")
	return &Repo{coll: db.Collection("products")}
}

func audit(db *mongo.Database) {
	db.Collection("audit_log").InsertOne(context.TODO(), map[string]string{})
}
"""


def test_mongo_collections() -> None:
    facts = link({"catalog/store/repo.go": MONGO})
    assert sorted((e.name, e.kind, e.engine_hint, e.start_line) for e in facts.entities) == [
        ("audit_log", "document_collection", "mongodb", 23),
        ("products", "document_collection", "mongodb", 19),
        ("reviews", "document_collection", "mongodb", 18),
    ]


GRPC_SERVER = """
package main

import (
	"context"
	"net"

	"google.golang.org/grpc"

	pb "example.com/protos/payment/v1"
	"example.com/pay/internal/notify"
)

type paymentServer struct {
	pb.UnimplementedPaymentServiceServer
	notifier *notify.Client
}

// Charge charges the customer.
func (s *paymentServer) Charge(ctx context.Context, req *pb.ChargeRequest) (*pb.ChargeResponse, error) {
	s.notifier.Send(ctx, req.GetEmail())
	return &pb.ChargeResponse{}, nil
}

func (s *paymentServer) Watch(req *pb.WatchRequest, stream pb.PaymentService_WatchServer) error {
	return nil
}

func (s *paymentServer) validate(req *pb.ChargeRequest) error { return nil }

func (s *paymentServer) String() string { return "payments" }

func main() {
	lis, _ := net.Listen("tcp", ":50051")
	srv := grpc.NewServer()
	pb.RegisterPaymentServiceServer(srv, &paymentServer{notifier: notify.New("http://notify:8080")})
	srv.RegisterService(&pb.RefundService_ServiceDesc, newRefunds())
	srv.Serve(lis)
}
"""

NOTIFY = """
package notify

import (
	"context"
	"net/http"
)

type Client struct{ base string }

func New(base string) *Client { return &Client{base: base} }

func (c *Client) Send(ctx context.Context, email string) {
	http.Post(c.base+"/emails", "application/json", nil)
}
"""

REFUNDS = """
package main

import (
	"context"

	pb "example.com/protos/payment/v1"
)

type refunds struct{ pb.UnimplementedRefundServiceServer }

func newRefunds() pb.RefundServiceServer { return &refunds{} }

func (r *refunds) Refund(ctx context.Context, req *pb.RefundRequest) (*pb.RefundResponse, error) {
	return nil, nil
}
"""


def test_grpc_server_registration_rpc_apis_and_call_attribution() -> None:
    facts = link(
        {
            "pay/cmd/main.go": GRPC_SERVER,
            "pay/cmd/refunds.go": REFUNDS,
            "pay/internal/notify/client.go": NOTIFY,
        }
    )
    assert facts.grpc_implements == ("PaymentService", "RefundService")
    assert sorted((a.method, a.path, a.handler, a.kind, a.start_line, a.component) for a in facts.apis) == [
        ("RPC", "PaymentService/Charge", "paymentServer.Charge", "grpc", 19, "paymentServer"),
        ("RPC", "PaymentService/Watch", "paymentServer.Watch", "grpc", 24, "paymentServer"),
        ("RPC", "RefundService/Refund", "refunds.Refund", "grpc", 13, "refunds"),
    ]
    charge = next(a for a in facts.apis if a.handler == "paymentServer.Charge")
    assert charge.doc == "Charge charges the customer."
    # Send is one hop from the handler, so the call belongs to the Charge RPC
    assert [(c.client, c.method, c.api_handler) for c in facts.calls] == [
        ("net/http", "POST", "paymentServer.Charge")
    ]
    assert facts.framework == "grpc"


def test_entrypoint_and_bad_input_never_crash() -> None:
    assert ANALYZER.parse("cmd/main.go", "package main\n\nfunc main() {}\n")["entrypoint"] is True
    assert ANALYZER.parse("lib/x.go", "package lib\n\nfunc main() {}\n")["entrypoint"] is False
    assert ANALYZER.parse("cmd/m.go", "package main\n\nfunc (s S) main() {}\n")["entrypoint"] is False
    broken = ANALYZER.parse("x/broken.go", 'package x\n\nfunc f( {\n\tr.GET("/a", h)\n')
    assert "warnings" in broken and "error" not in broken
    assert "error" in ANALYZER.parse("x/huge.go", "package x\n" + "// pad\n" * 400_000)
    weird = ANALYZER.parse("x/w.go", 'package x\n\nvar s = "\\xff\\u00e9\ufffd"\nfunc f() { g(`raw`) }\n')
    assert weird["vars"][0][0] == "s"
    deep = ANALYZER.parse("x/deep.go", "package x\nvar v = " + "(" * 3000 + "1" + ")" * 3000 + "\n")
    assert isinstance(deep, dict)
    facts = link({"x/broken.go": "package x\n\nfunc f( {\n", "x/ok.go": "package x\n"})
    assert [(g.file, g.kind) for g in facts.gaps] == [("x/broken.go", "parse_error")]
