"""Outbound HTTP and gRPC calls: URLs folded from constants, env helpers, config structs, viper,
resty base URLs and thin wrappers; calls attributed to the API handler that reaches them."""

from __future__ import annotations

from .helpers import link, show

CONFIG = """
package config

import "os"

const DefaultInventory = "http://inventory:8080"

type Config struct {
	PaymentsURL  string `env:"PAYMENTS_URL" envDefault:"http://payments:9000"`
	InventoryURL string
	ShippingAddr string `mapstructure:"shipping.addr"`
}

func Load() *Config {
	return &Config{InventoryURL: getEnv("INVENTORY_URL", DefaultInventory)}
}

func getEnv(key, fallback string) string {
	if value := os.Getenv(key); value != "" {
		return value
	}
	return fallback
}
"""

CLIENTS = """
package clients

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-resty/resty/v2"
)

type PaymentsClient struct {
	base string
	http *http.Client
}

func NewPaymentsClient(base string) *PaymentsClient {
	return &PaymentsClient{base: strings.TrimSuffix(base, "/"), http: http.DefaultClient}
}

// Charge posts a charge.
func (c *PaymentsClient) Charge(ctx context.Context, orderID string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("%s/v1/charges/%s", c.base, orderID), nil)
	if err != nil {
		return err
	}
	_, err = c.http.Do(req)
	return err
}

type InventoryClient struct {
	rc *resty.Client
}

func NewInventoryClient(base string) *InventoryClient {
	return &InventoryClient{rc: resty.New().SetBaseURL(base)}
}

func (c *InventoryClient) Reserve(sku string) error {
	_, err := c.rc.R().SetBody(map[string]string{"sku": sku}).Post("/reservations")
	return err
}
"""

MAIN = """
package main

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"example.com/shop/checkout/clients"
	"example.com/shop/checkout/config"
)

type Handler struct {
	payments  *clients.PaymentsClient
	inventory *clients.InventoryClient
}

func main() {
	cfg := config.Load()
	h := &Handler{
		payments:  clients.NewPaymentsClient(cfg.PaymentsURL),
		inventory: clients.NewInventoryClient(cfg.InventoryURL),
	}
	r := gin.Default()
	r.POST("/checkout", h.Checkout)
	r.GET("/shipping", h.Shipping(cfg))
	r.Run()
}

func (h *Handler) Checkout(c *gin.Context) {
	h.inventory.Reserve(c.Query("sku"))
	h.payments.Charge(c, "o-1")
}

func (h *Handler) Shipping(cfg *config.Config) gin.HandlerFunc {
	return func(c *gin.Context) {
		http.Get("http://" + cfg.ShippingAddr + "/quote")
	}
}
"""


def test_calls_fold_config_structs_env_helpers_and_attribute_to_handlers() -> None:
    facts = link(
        {
            "checkout/config/config.go": CONFIG,
            "checkout/clients/clients.go": CLIENTS,
            "checkout/main.go": MAIN,
        }
    )
    got = sorted(
        (c.file, c.line, c.client, c.method, show(c.url), c.api_handler, c.component) for c in facts.calls
    )
    assert got == [
        (
            "checkout/clients/clients.go",
            40,
            "resty",
            "POST",
            "{env:INVENTORY_URL|http://inventory:8080}/reservations",
            "Handler.Checkout",
            "InventoryClient",
        ),
        # Charge builds its URL from its own parameter: a typed client used as a thin wrapper
        (
            "checkout/main.go",
            31,
            "wrapper:PaymentsClient.Charge",
            "POST",
            "{env:PAYMENTS_URL|http://payments:9000}/v1/charges/o-1",
            "Handler.Checkout",
            "Handler",
        ),
        (
            "checkout/main.go",
            36,
            "net/http",
            "GET",
            "http://{prop:shipping.addr}/quote",
            "Handler.Shipping",
            "Handler",
        ),
    ]


WRAPPERS = """
package main

import (
	"encoding/json"
	"net/http"
	"os"
)

var catalogURL = os.Getenv("CATALOG_URL")

const usersBase = "http://users-svc"

func getJSON(path string, out any) error {
	resp, err := http.Get(catalogURL + path)
	if err != nil {
		return err
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

type UsersAPI struct{ base string }

func (u UsersAPI) do(method, p string) (*http.Response, error) {
	req, _ := http.NewRequest(method, u.base+p, nil)
	return http.DefaultClient.Do(req)
}

func listProducts(w http.ResponseWriter, r *http.Request) {
	var out []string
	getJSON("/products", &out)
	getJSON("/categories?limit=10", &out)
}

func main() {
	users := UsersAPI{base: usersBase}
	users.do("DELETE", "/users/42")
	http.HandleFunc("/products", listProducts)
	http.ListenAndServe(":8080", nil)
}
"""


def test_thin_wrappers_are_reported_at_their_call_sites() -> None:
    facts = link({"shop/main.go": WRAPPERS})
    got = sorted((c.line, c.client, c.method, show(c.url), c.api_handler, c.component) for c in facts.calls)
    assert got == [
        (30, "wrapper:getJSON", "GET", "{env:CATALOG_URL}/products", "listProducts", "main"),
        (31, "wrapper:getJSON", "GET", "{env:CATALOG_URL}/categories?limit=10", "listProducts", "main"),
        (36, "wrapper:UsersAPI.do", "DELETE", "http://users-svc/users/42", None, "main"),
    ]


GRPC = """
package main

import (
	"context"
	"os"

	"github.com/spf13/viper"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	inventorypb "example.com/protos/gen/go/inventory/v1"
	pb "example.com/protos/gen/go/payment"
)

const defaultInventoryAddr = "inventory:50051"

func inventoryAddr() string {
	if addr, ok := os.LookupEnv("INVENTORY_ADDR"); ok {
		return addr
	}
	return defaultInventoryAddr
}

func main() {
	viper.SetDefault("payment.addr", "payment:50051")
	conn, err := grpc.Dial(viper.GetString("payment.addr"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	payments := pb.NewPaymentServiceClient(conn)

	invConn, _ := grpc.NewClient(inventoryAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	inv := inventorypb.NewInventoryServiceClient(invConn)
	_ = payments
	_ = inv
}

func stockClient(ctx context.Context, target string) inventorypb.StockServiceClient {
	cc, _ := grpc.DialContext(ctx, target)
	return inventorypb.NewStockServiceClient(cc)
}
"""


def test_grpc_clients_with_dial_addresses() -> None:
    facts = link({"order/main.go": GRPC})
    got = sorted((c.line, c.kind, c.grpc_service, show(c.url)) for c in facts.calls)
    assert got == [
        (31, "grpc", "PaymentService", "{prop:payment.addr|payment:50051}"),
        (34, "grpc", "InventoryService", "{env:INVENTORY_ADDR|inventory:50051}"),
        (41, "grpc", "StockService", "{?target}"),
    ]


SAME_ARGS = """
package main

import "net/http"

const base = "http://catalog"

func fetch(path string) { http.Get(base + path) }

func a(w http.ResponseWriter, r *http.Request) { fetch("/items") }

func b(w http.ResponseWriter, r *http.Request) {
    fetch("/items")
    fetch("/items")
}

func main() {
    http.HandleFunc("/a", a)
    http.HandleFunc("/b", b)
}
"""


def test_a_wrapper_called_with_the_same_arguments_is_reported_at_every_call_site() -> None:
    facts = link({"shop/main.go": SAME_ARGS})
    assert sorted((c.line, c.client, show(c.url), c.api_handler) for c in facts.calls) == [
        (9, "wrapper:fetch", "http://catalog/items", "a"),
        (12, "wrapper:fetch", "http://catalog/items", "b"),
        (13, "wrapper:fetch", "http://catalog/items", "b"),
    ]
