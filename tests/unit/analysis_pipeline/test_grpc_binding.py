"""gRPC APIs bound to the implementing code, with package-qualified paths and message fields.

``fixtures/bookshelf`` is a small polyglot library system sharing one proto copied into several
service folders (C# override, Node handler objects, Python servicer chains, Go receivers, a Java
ImplBase); the stub-analyzer tests pin the rules one at a time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.model import ApiKind
from orbitkb.domain.ports import AnalysisRequest

BOOKSHELF = Path(__file__).parent / "fixtures" / "bookshelf"


class _Cache:
    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def get_many(self, keys):
        return {k: self.data[k] for k in keys if k in self.data}

    def put_many(self, items):
        self.data.update(items)


@pytest.fixture(scope="module")
def bookshelf():
    files = {p.relative_to(BOOKSHELF).as_posix(): p.read_bytes() for p in BOOKSHELF.rglob("*") if p.is_file()}
    result = StaticCodeAnalyzer(workers=0).analyze(
        MemorySourceTree(files, commit="c0ffee"), AnalysisRequest("bookshelf"), _Cache()
    )
    return {f.service.root_dir: f for f in result.services}


def rpc_apis(facts) -> list[tuple]:
    return sorted((a.path, a.handler, a.file, a.start_line) for a in facts.apis if a.kind == ApiKind.GRPC)


def test_every_rpc_points_at_the_code_that_implements_it(bookshelf):
    got = {root: rpc_apis(f) for root, f in bookshelf.items()}
    cs = "src/lendingservice/src/services/LendingService.cs"
    titles = "src/catalogueservice/titles.go"
    assert got == {
        "src/lendingservice/src": [
            ("bookshelf.LendingService/CheckOut", "LendingService.CheckOut", cs, 19),
            ("bookshelf.LendingService/GetLoans", "LendingService.GetLoans", cs, 25),
            ("bookshelf.LendingService/ReturnAll", "LendingService.ReturnAll", cs, 29),
        ],
        "src/finesservice": [
            ("bookshelf.FinesService/Assess", "assess", "src/finesservice/server.js", 24),
            ("bookshelf.FinesService/ListRates", "listRates", "src/finesservice/server.js", 17),
        ],
        "src/billingservice": [
            ("bookshelf.BillingService/Settle", "LibraryDeskServer.SettleHandler",
             "src/billingservice/server.js", 18),
        ],
        "src/notifierservice": [
            ("bookshelf.NotifierService/SendDueReminder", "ConsoleNotifier.SendDueReminder",
             "src/notifierservice/notifier_server.py", 30),
        ],
        "src/suggestionservice": [
            ("bookshelf.SuggestionService/Suggest", "SuggestionService.Suggest",
             "src/suggestionservice/suggestion_server.py", 14),
        ],
        "src/catalogueservice": [
            ("bookshelf.CatalogueService/GetTitle", "shelfIndex.GetTitle", titles, 29),
            ("bookshelf.CatalogueService/ListTitles", "shelfIndex.ListTitles", titles, 24),
            ("bookshelf.CatalogueService/SearchTitles", "shelfIndex.SearchTitles", titles, 38),
        ],
        "src/reservationservice": [
            ("bookshelf.ReservationService/PlaceHold", "reservationDesk.PlaceHold",
             "src/reservationservice/main.go", 29),
        ],
        "src/readinglistservice": [
            ("bookshelf.ReadingListService/GetReadingList", "ReadingListImpl.getReadingList",
             "src/readinglistservice/src/main/java/bookshelf/ReadingLists.java", 22),
        ],
    }  # fmt: skip


def test_components_are_the_implementing_classes_only(bookshelf):
    # BaseNotifier only held Check/Watch (grpc.health, no proto here): gone with them
    assert sorted(c.name for c in bookshelf["src/notifierservice"].components) == ["ConsoleNotifier"]
    assert sorted(c.name for c in bookshelf["src/billingservice"].components) == ["LibraryDeskServer"]


def test_apis_keep_their_component_and_doc(bookshelf):
    for facts in bookshelf.values():
        names = {c.id: c.name for c in facts.components}
        for api in facts.apis:
            assert api.component_id in names, api.handler
            assert names[api.component_id] == api.handler.rsplit(".", 1)[0] or "." not in api.handler
    docs = {a.path: a.doc for f in bookshelf.values() for a in f.apis}
    assert docs["bookshelf.LendingService/CheckOut"] == "Lends one copy to a member for a number of days."
    assert docs["bookshelf.BillingService/Settle"] == "Handler for BillingService.Settle."
    # no doc in the code: the comment on the rpc in the service's own proto copy
    assert docs["bookshelf.LendingService/ReturnAll"] == "Returns every loan of one member."
    assert docs["bookshelf.LendingService/GetLoans"] is None
    assert docs["bookshelf.FinesService/Assess"] == "Works out what a late return costs"


def test_request_and_response_fields_come_from_the_messages(bookshelf):
    apis = {a.path: a for f in bookshelf.values() for a in f.apis}
    get = apis["bookshelf.CatalogueService/GetTitle"]
    assert [(s.field, s.type_desc, s.required) for s in get.request_shape] == [("id", "string", None)]
    assert [s.field for s in get.response_shape] == [
        "id", "name", "blurb", "replacement_cost",
        "replacement_cost.currency", "replacement_cost.units", "replacement_cost.cents", "subjects",
    ]  # fmt: skip
    listed = {s.field: s.type_desc for s in apis["bookshelf.CatalogueService/ListTitles"].response_shape}
    assert listed["titles"] == "repeated Title" and listed["titles.subjects"] == "repeated string"
    # SettleRequest.Card is a message nested in the request
    settle = {s.field for s in apis["bookshelf.BillingService/Settle"].request_shape}
    assert {"amount.units", "card.number"} <= settle
    assert apis["bookshelf.NotifierService/SendDueReminder"].response_shape == ()


def test_clients_link_to_the_callee_rpc(bookshelf):
    api_ids = {a.id: a.path for f in bookshelf.values() for a in f.apis}
    got = sorted(
        (f.service.name, c.target, c.path, api_ids.get(c.to_api_id or ""))
        for f in bookshelf.values()
        for c in f.calls
        if c.call_kind.value == "grpc"
    )
    assert got == [
        ("reservationservice", "billingservice", "bookshelf.BillingService/Settle",
         "bookshelf.BillingService/Settle"),
        ("reservationservice", "finesservice", "bookshelf.FinesService/Assess",
         "bookshelf.FinesService/Assess"),
        ("suggestionservice", "catalogueservice", "bookshelf.CatalogueService/ListTitles",
         "bookshelf.CatalogueService/ListTitles"),
    ]  # fmt: skip


def test_dev_clients_calling_their_own_service_are_dropped_with_their_component(bookshelf):
    # the analyzers do see these stubs; the pipeline drops them as self-calls of dev-only modules
    from orbitkb.analysis.facts import ServiceContext
    from orbitkb.analysis.python import ANALYZER

    path = "src/notifierservice/notifier_client.py"
    raw = ANALYZER.link(
        ServiceContext("n", "src/notifierservice", "python", "r"),
        {path: ANALYZER.parse(path, (BOOKSHELF / path).read_text())},
    )
    assert [c.grpc_service for c in raw.calls] == ["NotifierService"]
    for root in ("src/notifierservice", "src/suggestionservice", "src/finesservice"):
        files = {e.file for c in bookshelf[root].calls for e in c.evidence}
        assert not any("client" in f for f in files), root
        assert not any("client" in c.file_path for c in bookshelf[root].components), root


# --------------------------------------------------------------------------- rules, one at a time

PROTO = """syntax = "proto3";
package library.catalogue.v1;

service CatalogueService {
  // One title.
  rpc GetTitle(GetTitleRequest) returns (Title);
  rpc ListTitles(Empty) returns (Titles);
}
message Empty {}
message GetTitleRequest { string id = 1; }
message Title { string id = 1; repeated string categories = 2; }
message Titles { repeated Title titles = 1; }
"""


def test_analyzer_apis_are_qualified_filtered_and_shaped(analyze):
    run = analyze(
        {
            "protos/catalog.proto": PROTO,
            "catalog/go.mod": "module example.com/catalog\n",
            "catalog/main.go": "\n".join(
                [
                    "// @entry",
                    "// @api RPC CatalogueService/GetTitle catalog.GetTitle kind=grpc",
                    "// @api RPC CatalogueService/ListTitles catalog.ListTitles kind=grpc doc=Lists",
                    "// @api RPC CatalogueService/Reload catalog.Reload kind=grpc",
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
        ("library.catalogue.v1.CatalogueService/GetTitle", "catalog.GetTitle", "catalog/main.go", 2,
         "One title."),
        ("library.catalogue.v1.CatalogueService/ListTitles", "catalog.ListTitles", "catalog/main.go", 3,
         "Lists"),
    ]  # fmt: skip
    listed = next(a for a in run.service("catalog").apis if a.path.endswith("ListTitles"))
    assert [(s.field, s.type_desc) for s in listed.response_shape] == [
        ("titles", "repeated Title"),
        ("titles.id", "string"),
        ("titles.categories", "repeated string"),
    ]


def test_without_code_the_rpc_points_at_the_services_own_proto_copy(analyze):
    own = "// The catalog's own copy.\n\n" + PROTO
    run = analyze(
        {
            "protos/catalog.proto": PROTO,
            "search/protos/catalog.proto": PROTO,
            "catalog/protos/catalog.proto": own,
            "catalog/requirements.txt": "grpcio\n",
            "catalog/server.py": "# @entry\n# add_CatalogueServiceServicer_to_server(Catalog(), server)\n",
            "search/requirements.txt": "grpcio\n",
            "search/app.py": "# @entry\n# @api GET /search search\n",
            "stock/requirements.txt": "grpcio\n",
            "stock/server.py": "# @entry\n# add_CatalogueServiceServicer_to_server(svc, server)\n",
        }
    )
    assert rpc_apis(run.service("catalog")) == [
        ("library.catalogue.v1.CatalogueService/GetTitle", "Catalog.GetTitle", "catalog/protos/catalog.proto", 8),
        ("library.catalogue.v1.CatalogueService/ListTitles", "Catalog.ListTitles",
         "catalog/protos/catalog.proto", 9),
    ]  # fmt: skip
    # no copy of its own: the shared protos/ folder, never the search service's copy
    assert rpc_apis(run.service("stock")) == [
        ("library.catalogue.v1.CatalogueService/GetTitle", "CatalogueService.GetTitle",
         "protos/catalog.proto", 6),
        ("library.catalogue.v1.CatalogueService/ListTitles", "CatalogueService.ListTitles",
         "protos/catalog.proto", 7),
    ]  # fmt: skip


NOTIFIER = """syntax = "proto3";
package bookshelf;
service NotifierService { rpc SendDueReminder(Req) returns (Empty); }
service BillingService { rpc Settle(Req) returns (Empty); }
message Req {}
message Empty {}
"""


def test_self_calls_from_dev_only_modules_are_dropped(analyze):
    stub = "# @call grpc grpc-stub lit:localhost:8080 grpc={svc} method={rpc}\n"
    run = analyze(
        {
            "protos/bookshelf.proto": NOTIFIER,
            "notifier/requirements.txt": "grpcio\n",
            "notifier/server.py": "# @entry\n# add_NotifierServiceServicer_to_server(NotifierService(), server)\n"
            + stub.format(svc="NotifierService", rpc="SendDueReminder"),
            "notifier/notifier_client.py": stub.format(svc="NotifierService", rpc="SendDueReminder")
            + stub.format(svc="BillingService", rpc="Settle"),
            "notifier/scripts/smoke.py": stub.format(svc="bookshelf.NotifierService", rpc="SendDueReminder"),
            "notifier/try_it.py": "# @entry\n" + stub.format(svc="NotifierService", rpc="SendDueReminder"),
            "notifier/notify.py": stub.format(svc="NotifierService", rpc="SendDueReminder"),
            "billing/requirements.txt": "grpcio\n",
            "billing/main.py": "# @entry\n# @grpc_impl BillingService\n",
        }
    )
    kept = sorted((c.evidence[0].file, c.target) for c in run.service("notifier").calls)
    assert kept == [
        ("notifier/notifier_client.py", "billing"),  # a dev client calling ANOTHER service is a real edge
        ("notifier/notify.py", "notifier"),  # an ordinary module: not ours to judge
        ("notifier/server.py", "notifier"),  # the serving module itself
    ]


def test_a_proto_change_relinks_a_cached_service(analyze, stubs, cache):
    files = {
        "protos/catalog.proto": PROTO,
        "catalog/requirements.txt": "grpcio\n",
        "catalog/server.py": "# @entry\n# add_CatalogueServiceServicer_to_server(Catalog(), server)\n",
        "web/requirements.txt": "flask\n",
        "web/app.py": "# @entry\n# @api GET /titles list_titles\n",
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
