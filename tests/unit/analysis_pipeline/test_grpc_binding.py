"""gRPC APIs bound to the implementing code, with package-qualified paths and message fields.

``fixtures/boutique`` imitates a polyglot system sharing one proto copied into several service
folders (C# override, Node handler objects, Python servicer chains, Go receivers, a Java
ImplBase); the stub-analyzer tests pin the rules one at a time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.model import ApiKind
from orbitkb.domain.ports import AnalysisRequest

BOUTIQUE = Path(__file__).parent / "fixtures" / "boutique"


class _Cache:
    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def get_many(self, keys):
        return {k: self.data[k] for k in keys if k in self.data}

    def put_many(self, items):
        self.data.update(items)


@pytest.fixture(scope="module")
def boutique():
    files = {p.relative_to(BOUTIQUE).as_posix(): p.read_bytes() for p in BOUTIQUE.rglob("*") if p.is_file()}
    result = StaticCodeAnalyzer(workers=0).analyze(
        MemorySourceTree(files, commit="c0ffee"), AnalysisRequest("boutique"), _Cache()
    )
    return {f.service.root_dir: f for f in result.services}


def rpc_apis(facts) -> list[tuple]:
    return sorted((a.path, a.handler, a.file, a.start_line) for a in facts.apis if a.kind == ApiKind.GRPC)


def test_every_rpc_points_at_the_code_that_implements_it(boutique):
    got = {root: rpc_apis(f) for root, f in boutique.items()}
    cs = "src/cartservice/src/services/CartService.cs"
    catalog = "src/productcatalogservice/product_catalog.go"
    assert got == {
        "src/cartservice/src": [
            ("hipstershop.CartService/AddItem", "CartService.AddItem", cs, 21),
            ("hipstershop.CartService/EmptyCart", "CartService.EmptyCart", cs, 33),
            ("hipstershop.CartService/GetCart", "CartService.GetCart", cs, 27),
        ],
        "src/currencyservice": [
            ("hipstershop.CurrencyService/Convert", "convert", "src/currencyservice/server.js", 25),
            ("hipstershop.CurrencyService/GetSupportedCurrencies", "getSupportedCurrencies",
             "src/currencyservice/server.js", 18),
        ],
        "src/paymentservice": [
            ("hipstershop.PaymentService/Charge", "HipsterShopServer.ChargeServiceHandler",
             "src/paymentservice/server.js", 20),
        ],
        "src/emailservice": [
            ("hipstershop.EmailService/SendOrderConfirmation", "DummyEmailService.SendOrderConfirmation",
             "src/emailservice/email_server.py", 31),
        ],
        "src/recommendationservice": [
            ("hipstershop.RecommendationService/ListRecommendations", "RecommendationService.ListRecommendations",
             "src/recommendationservice/recommendation_server.py", 16),
        ],
        "src/productcatalogservice": [
            ("hipstershop.ProductCatalogService/GetProduct", "productCatalog.GetProduct", catalog, 29),
            ("hipstershop.ProductCatalogService/ListProducts", "productCatalog.ListProducts", catalog, 24),
            ("hipstershop.ProductCatalogService/SearchProducts", "productCatalog.SearchProducts", catalog, 38),
        ],
        "src/checkoutservice": [
            ("hipstershop.CheckoutService/PlaceOrder", "checkoutService.PlaceOrder", "src/checkoutservice/main.go", 29),
        ],
        "src/adservice": [
            ("hipstershop.AdService/GetAds", "AdServiceImpl.getAds",
             "src/adservice/src/main/java/hipstershop/AdService.java", 23),
        ],
    }  # fmt: skip


def test_components_are_the_implementing_classes_only(boutique):
    # BaseEmailService only held Check/Watch (grpc.health, no proto here): gone with them
    assert sorted(c.name for c in boutique["src/emailservice"].components) == ["DummyEmailService"]
    assert sorted(c.name for c in boutique["src/paymentservice"].components) == ["HipsterShopServer"]


def test_apis_keep_their_component_and_doc(boutique):
    for facts in boutique.values():
        names = {c.id: c.name for c in facts.components}
        for api in facts.apis:
            assert api.component_id in names, api.handler
            assert names[api.component_id] == api.handler.rsplit(".", 1)[0] or "." not in api.handler
    docs = {a.path: a.doc for f in boutique.values() for a in f.apis}
    assert docs["hipstershop.CartService/AddItem"] == "Adds an item to the user's cart."
    assert docs["hipstershop.PaymentService/Charge"] == "Handler for PaymentService.Charge."
    # no doc in the code: the comment on the rpc in the service's own proto copy
    assert docs["hipstershop.CartService/EmptyCart"] == "Empties the cart of one user."
    assert docs["hipstershop.CartService/GetCart"] is None
    assert docs["hipstershop.CurrencyService/Convert"] == "Converts between currencies"


def test_request_and_response_fields_come_from_the_messages(boutique):
    apis = {a.path: a for f in boutique.values() for a in f.apis}
    get = apis["hipstershop.ProductCatalogService/GetProduct"]
    assert [(s.field, s.type_desc, s.required) for s in get.request_shape] == [("id", "string", None)]
    assert [s.field for s in get.response_shape] == [
        "id", "name", "description", "price_usd",
        "price_usd.currency_code", "price_usd.units", "price_usd.nanos", "categories",
    ]  # fmt: skip
    listed = {
        s.field: s.type_desc for s in apis["hipstershop.ProductCatalogService/ListProducts"].response_shape
    }
    assert listed["products"] == "repeated Product" and listed["products.categories"] == "repeated string"
    charge = {s.field for s in apis["hipstershop.PaymentService/Charge"].request_shape}
    assert {"amount.units", "credit_card.credit_card_number"} <= charge
    assert apis["hipstershop.EmailService/SendOrderConfirmation"].response_shape == ()


def test_clients_link_to_the_callee_rpc(boutique):
    api_ids = {a.id: a.path for f in boutique.values() for a in f.apis}
    got = sorted(
        (f.service.name, c.target, c.path, api_ids.get(c.to_api_id or ""))
        for f in boutique.values()
        for c in f.calls
        if c.call_kind.value == "grpc"
    )
    assert got == [
        ("checkoutservice", "currencyservice", "hipstershop.CurrencyService/Convert",
         "hipstershop.CurrencyService/Convert"),
        ("checkoutservice", "paymentservice", "hipstershop.PaymentService/Charge",
         "hipstershop.PaymentService/Charge"),
        ("recommendationservice", "productcatalogservice", "hipstershop.ProductCatalogService/ListProducts",
         "hipstershop.ProductCatalogService/ListProducts"),
    ]  # fmt: skip


def test_dev_clients_calling_their_own_service_are_dropped_with_their_component(boutique):
    # the analyzers do see these stubs; the pipeline drops them as self-calls of dev-only modules
    from orbitkb.analysis.facts import ServiceContext
    from orbitkb.analysis.python import ANALYZER

    path = "src/emailservice/email_client.py"
    raw = ANALYZER.link(
        ServiceContext("e", "src/emailservice", "python", "r"),
        {path: ANALYZER.parse(path, (BOUTIQUE / path).read_text())},
    )
    assert [c.grpc_service for c in raw.calls] == ["EmailService"]
    for root in ("src/emailservice", "src/recommendationservice", "src/currencyservice"):
        files = {e.file for c in boutique[root].calls for e in c.evidence}
        assert not any("client" in f for f in files), root
        assert not any("client" in c.file_path for c in boutique[root].components), root


# --------------------------------------------------------------------------- rules, one at a time

PROTO = """syntax = "proto3";
package shop.catalog.v1;

service ProductCatalogService {
  // One product.
  rpc GetProduct(GetProductRequest) returns (Product);
  rpc ListProducts(Empty) returns (Products);
}
message Empty {}
message GetProductRequest { string id = 1; }
message Product { string id = 1; repeated string categories = 2; }
message Products { repeated Product products = 1; }
"""


def test_analyzer_apis_are_qualified_filtered_and_shaped(analyze):
    run = analyze(
        {
            "protos/catalog.proto": PROTO,
            "catalog/go.mod": "module example.com/catalog\n",
            "catalog/main.go": "\n".join(
                [
                    "// @entry",
                    "// @api RPC ProductCatalogService/GetProduct catalog.GetProduct kind=grpc",
                    "// @api RPC ProductCatalogService/ListProducts catalog.ListProducts kind=grpc doc=Lists",
                    "// @api RPC ProductCatalogService/Reload catalog.Reload kind=grpc",
                    "// @api RPC Health/Check catalog.Check kind=grpc",
                    "// @api RPC Legacy/Ping legacy.Ping kind=grpc",
                    "// @api GET /healthz health",
                ]
            ),
        }
    )
    apis = sorted((a.path, a.handler, a.file, a.start_line, a.doc) for a in run.service("catalog").apis)
    assert apis == [
        ("/healthz", "health", "catalog/main.go", 7, None),
        ("Legacy/Ping", "legacy.Ping", "catalog/main.go", 6, None),  # no proto: kept as the code says
        ("shop.catalog.v1.ProductCatalogService/GetProduct", "catalog.GetProduct", "catalog/main.go", 2,
         "One product."),
        ("shop.catalog.v1.ProductCatalogService/ListProducts", "catalog.ListProducts", "catalog/main.go", 3,
         "Lists"),
    ]  # fmt: skip
    listed = next(a for a in run.service("catalog").apis if a.path.endswith("ListProducts"))
    assert [(s.field, s.type_desc) for s in listed.response_shape] == [
        ("products", "repeated Product"),
        ("products.id", "string"),
        ("products.categories", "repeated string"),
    ]


def test_without_code_the_rpc_points_at_the_services_own_proto_copy(analyze):
    own = "// The catalog's own copy.\n\n" + PROTO
    run = analyze(
        {
            "protos/catalog.proto": PROTO,
            "search/protos/catalog.proto": PROTO,
            "catalog/protos/catalog.proto": own,
            "catalog/requirements.txt": "grpcio\n",
            "catalog/server.py": "# @entry\n# add_ProductCatalogServiceServicer_to_server(Catalog(), server)\n",
            "search/requirements.txt": "grpcio\n",
            "search/app.py": "# @entry\n# @api GET /search search\n",
            "stock/requirements.txt": "grpcio\n",
            "stock/server.py": "# @entry\n# add_ProductCatalogServiceServicer_to_server(svc, server)\n",
        }
    )
    assert rpc_apis(run.service("catalog")) == [
        ("shop.catalog.v1.ProductCatalogService/GetProduct", "Catalog.GetProduct", "catalog/protos/catalog.proto", 8),
        ("shop.catalog.v1.ProductCatalogService/ListProducts", "Catalog.ListProducts",
         "catalog/protos/catalog.proto", 9),
    ]  # fmt: skip
    # no copy of its own: the shared protos/ folder, never the search service's copy
    assert rpc_apis(run.service("stock")) == [
        ("shop.catalog.v1.ProductCatalogService/GetProduct", "ProductCatalogService.GetProduct",
         "protos/catalog.proto", 6),
        ("shop.catalog.v1.ProductCatalogService/ListProducts", "ProductCatalogService.ListProducts",
         "protos/catalog.proto", 7),
    ]  # fmt: skip


EMAIL = """syntax = "proto3";
package hipstershop;
service EmailService { rpc SendOrderConfirmation(Req) returns (Empty); }
service PaymentService { rpc Charge(Req) returns (Empty); }
message Req {}
message Empty {}
"""


def test_self_calls_from_dev_only_modules_are_dropped(analyze):
    stub = "# @call grpc grpc-stub lit:localhost:8080 grpc={svc} method={rpc}\n"
    run = analyze(
        {
            "protos/demo.proto": EMAIL,
            "email/requirements.txt": "grpcio\n",
            "email/server.py": "# @entry\n# add_EmailServiceServicer_to_server(EmailService(), server)\n"
            + stub.format(svc="EmailService", rpc="SendOrderConfirmation"),
            "email/email_client.py": stub.format(svc="EmailService", rpc="SendOrderConfirmation")
            + stub.format(svc="PaymentService", rpc="Charge"),
            "email/scripts/smoke.py": stub.format(
                svc="hipstershop.EmailService", rpc="SendOrderConfirmation"
            ),
            "email/try_it.py": "# @entry\n" + stub.format(svc="EmailService", rpc="SendOrderConfirmation"),
            "email/notify.py": stub.format(svc="EmailService", rpc="SendOrderConfirmation"),
            "payments/requirements.txt": "grpcio\n",
            "payments/main.py": "# @entry\n# @grpc_impl PaymentService\n",
        }
    )
    kept = sorted((c.evidence[0].file, c.target) for c in run.service("email").calls)
    assert kept == [
        ("email/email_client.py", "payments"),  # a dev client calling ANOTHER service is a real edge
        ("email/notify.py", "email"),  # an ordinary module: not ours to judge
        ("email/server.py", "email"),  # the serving module itself
    ]


def test_a_proto_change_relinks_a_cached_service(analyze, stubs, cache):
    files = {
        "protos/catalog.proto": PROTO,
        "catalog/requirements.txt": "grpcio\n",
        "catalog/server.py": "# @entry\n# add_ProductCatalogServiceServicer_to_server(Catalog(), server)\n",
        "web/requirements.txt": "flask\n",
        "web/app.py": "# @entry\n# @api GET /products list_products\n",
    }
    first = analyze(files, stubs=stubs, cache=cache)
    assert [a.start_line for a in first.service("catalog").apis] == [6, 7]
    python = next(s for s in stubs if s.stack == "python")
    links = len(python.link_calls)
    again = analyze(files, stubs=stubs, cache=cache)
    assert len(python.link_calls) == links and rpc_apis(again.service("catalog")) == rpc_apis(
        first.service("catalog")
    )
    moved = analyze({**files, "protos/catalog.proto": "// moved\n" + PROTO}, stubs=stubs, cache=cache)
    # the gRPC server is linked again; the web service, which serves no gRPC, is not
    assert [ctx.name for ctx, _ in python.link_calls[links:]] == ["catalog"]
    assert [a.start_line for a in moved.service("catalog").apis] == [7, 8]


STOCK = """syntax = "proto3";
package stock.v1;
service StockService {
  rpc Get(GetRequest) returns (Item);
  rpc Put(PutRequest) returns (Item);
}
service Inventory {
  rpc GetStock(GetRequest) returns (Item);
  rpc Reserve(PutRequest) returns (Item);
  rpc Release(PutRequest) returns (Item);
}
message GetRequest { string sku = 1; }
message PutRequest { string sku = 1; int32 quantity = 2; }
message Item { string sku = 1; int32 quantity = 2; }
"""

GO_STORE = """package main

// Store keeps items in memory.
type Store struct{ items map[string]int }

func (s *Store) Get(key string) int { return s.items[key] }

func (s *Store) Put(key string, n int) { s.items[key] = n }

func (s *Store) Delete(key string) { delete(s.items, key) }
"""

GO_SERVER = """package main

import (
	"context"

	pb "example.com/stock/gen/stockv1"
)

type server struct{ store *Store }

// Get reads one item.
func (s *server) Get(ctx context.Context, req *pb.GetRequest) (*pb.Item, error) {
	return &pb.Item{Sku: req.Sku, Quantity: int32(s.store.Get(req.Sku))}, nil
}

func (s *server) Put(ctx context.Context, req *pb.PutRequest) (*pb.Item, error) {
	s.store.Put(req.Sku, int(req.Quantity))
	return &pb.Item{Sku: req.Sku}, nil
}
"""

GO_MAIN = """package main

import (
	"net"

	pb "example.com/stock/gen/stockv1"
	"google.golang.org/grpc"
)

func newServer(st *Store) *server { return &server{store: st} }

func main() {
	lis, _ := net.Listen("tcp", ":9000")
	s := grpc.NewServer()
	pb.RegisterStockServiceServer(s, newServer(&Store{}))
	s.Serve(lis)
}
"""

NODE_INVENTORY = """const grpc = require('@grpc/grpc-js');
const loader = require('@grpc/proto-loader');
const stock = grpc.loadPackageDefinition(loader.loadSync('../protos/stock.proto')).stock.v1;

const server = new grpc.Server();
server.addService(stock.Inventory.service, {
  getStock: (call, callback) => { callback(null, {sku: call.request.sku}); },
  async reserve(call) { return {}; },
  release: function (call, cb) { cb(null, {}); },
});
server.bindAsync('0.0.0.0:50051', grpc.ServerCredentials.createInsecure(), () => server.start());
"""


def test_go_receiver_by_request_types_and_node_inline_handlers():
    files = {
        "protos/stock.proto": STOCK,
        "stock/go.mod": "module example.com/stock\n\ngo 1.22\n",
        "stock/store.go": GO_STORE,
        "stock/server.go": GO_SERVER,
        "stock/main.go": GO_MAIN,
        "inventory/package.json": '{"name": "inventory", "main": "index.js", "scripts": {"start": "node index.js"}, "dependencies": {"@grpc/grpc-js": "1"}}',
        "inventory/index.js": NODE_INVENTORY,
    }
    result = StaticCodeAnalyzer(workers=0).analyze(MemorySourceTree(files), AnalysisRequest("s"), _Cache())
    got = {f.service.name: rpc_apis(f) for f in result.services}
    # Store has methods named like the rpcs too, but only server takes the rpc request messages
    assert got["stock"] == [
        ("stock.v1.StockService/Get", "server.Get", "stock/server.go", 12),
        ("stock.v1.StockService/Put", "server.Put", "stock/server.go", 16),
    ]
    assert got["inventory"] == [
        ("stock.v1.Inventory/GetStock", "getStock", "inventory/index.js", 7),
        ("stock.v1.Inventory/Release", "release", "inventory/index.js", 9),
        ("stock.v1.Inventory/Reserve", "reserve", "inventory/index.js", 8),
    ]
