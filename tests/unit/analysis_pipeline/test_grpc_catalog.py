"""The proto catalog (which copy a service cites, message shapes), gRPC call-to-API matching and
the text scan of gRPC registrations (JS handler objects)."""

from __future__ import annotations

from orbitkb.analysis.grpc.catalog import MAX_FIELDS, ProtoCatalog
from orbitkb.analysis.grpc.services import handler_map, scan_implements
from orbitkb.analysis.resolution.apimatch import match_grpc
from orbitkb.domain.model import Api, ApiKind

SHOP = """syntax = "proto3";
package shop.v1;
import "common/money.proto";

service Orders {
  // Places an order.
  rpc PlaceOrder(PlaceOrderRequest) returns (.shop.v1.Order);
  rpc Watch(WatchRequest) returns (stream Order) {}
}

message PlaceOrderRequest {
  string user_id = 1;
  repeated Line lines = 2;
  common.Money budget = 3;
  map<string, string> labels = 4;
  message Line {
    string sku = 1;
    int32 quantity = 2;
  }
}

message Order {
  string id = 1;
  Order parent = 2;
  google.protobuf.Timestamp created = 3;
}
message WatchRequest {}
"""

MONEY = """syntax = "proto3";
package common;
message Money { string currency = 1; int64 units = 2; }
"""


def catalog(files: dict[str, str], roots: list[str] | None = None) -> ProtoCatalog:
    return ProtoCatalog.from_texts(files, roots or [])


def test_shapes_follow_nested_imported_and_absolute_message_names():
    cat = catalog({"protos/shop.proto": SHOP, "protos/common/money.proto": MONEY})
    svc = cat.service("Orders")
    assert svc is not None and svc.full_name == "shop.v1.Orders"
    place = cat.rpc(svc, "placeOrder")
    assert place is not None and place.name == "PlaceOrder" and place.doc == "Places an order."
    assert cat.shape(place.request_type, svc.package) == (
        ("user_id", "string", None),
        ("lines", "repeated Line", None),
        ("lines.sku", "string", None),
        ("lines.quantity", "int32", None),
        ("budget", "common.Money", None),
        ("budget.currency", "string", None),
        ("budget.units", "int64", None),
        ("labels", "map<string, string>", None),
    )
    # a message that contains itself is expanded once; unknown (well-known) types stay leaves
    assert cat.shape(place.response_type, svc.package) == (
        ("id", "string", None),
        ("parent", "Order", None),
        ("created", "google.protobuf.Timestamp", None),
    )
    assert cat.shape("WatchRequest", "shop.v1") == ()
    assert cat.shape("Missing", "shop.v1") == ()


def test_huge_messages_are_capped():
    fields = "\n".join(f"  string f{i} = {i};" for i in range(1, 200))
    cat = catalog({"big.proto": f"syntax = 'proto3';\npackage big;\nmessage Big {{\n{fields}\n}}\n"})
    assert len(cat.shape("Big", "big")) == MAX_FIELDS


COPY = "syntax = 'proto3';\npackage bookshelf;\nservice LendingService {\n  rpc CheckOut(CheckOutRequest) returns (Empty) {}\n}\n"
OTHER = "syntax = 'proto3';\npackage bookshelf;\n// older copy\n\nservice LendingService {\n  rpc CheckOut(CheckOutRequest) returns (Empty) {}\n}\n"


def test_a_service_cites_its_own_copy_else_a_shared_one_else_the_first():
    files = {
        "src/reservationservice/proto/bookshelf.proto": COPY,
        "src/lendingservice/protos/Lending.proto": OTHER,
        "protos/bookshelf.proto": COPY,
    }
    roots = ["src/reservationservice", "src/lendingservice", "src/kiosk"]
    cat = catalog(files, roots)
    assert (
        cat.service("LendingService", "src/lendingservice").file == "src/lendingservice/protos/Lending.proto"
    )
    assert (
        cat.service("bookshelf.LendingService", "src/reservationservice").file
        == "src/reservationservice/proto/bookshelf.proto"
    )
    # the kiosk has no copy: the shared protos/ folder, never another service's folder
    assert cat.service("LendingService", "src/kiosk").file == "protos/bookshelf.proto"
    no_shared = catalog({k: v for k, v in files.items() if not k.startswith("protos/")}, roots)
    assert no_shared.service("LendingService", "src/kiosk").file == "src/lendingservice/protos/Lending.proto"
    # identical copies are one entry in the repository's proto digest list
    assert len({digest for _, digest in cat.files}) == 2


def test_simple_names_shared_by_two_packages_are_settled_by_the_own_copy():
    a = "syntax = 'proto3';\npackage billing;\nservice Ledger { rpc Post(A) returns (B); }\n"
    b = "syntax = 'proto3';\npackage audit;\nservice Ledger { rpc Post(A) returns (B); }\n"
    cat = catalog({"billing/api/ledger.proto": a, "audit/api/ledger.proto": b}, ["billing", "audit"])
    assert cat.full_name("Ledger", "billing") == "billing.Ledger"
    assert cat.full_name("Ledger", "audit") == "audit.Ledger"
    assert cat.full_name("Ledger", "frontend") is None
    assert cat.full_name("audit.Ledger", "billing") == "audit.Ledger"


def test_broken_protos_do_not_break_the_catalog():
    cat = catalog({"bad.proto": "service { rpc ( returns", "ok.proto": COPY, "tests/fake.proto": OTHER})
    assert [s.file for s in [cat.service("LendingService")] if s] == ["ok.proto"]


def _api(path: str, handler: str = "h") -> Api:
    return Api(f"api:{path}:{handler}", "svc", "RPC", path, handler, "f", 1, 1, kind=ApiKind.GRPC)


def test_grpc_calls_match_apis_in_every_spelling():
    apis = [
        _api("bookshelf.FinesService/Assess"),
        _api("bookshelf.FinesService/ListRates"),
    ]
    assess = apis[0]
    for path in (
        "bookshelf.FinesService/Assess",
        "/bookshelf.FinesService/Assess",
        "FinesService/Assess",
        "bookshelf.FinesService/FinesService/Assess",
        "bookshelf.FinesService/assess",
        "Assess",
    ):
        assert match_grpc("RPC", path, apis) is assess, path
    assert match_grpc("RPC", "OtherService/Assess", apis) is None
    assert match_grpc("RPC", "bookshelf.FinesService/Waive", apis) is None
    assert match_grpc("RPC", None, apis) is None


def test_same_rpc_in_two_services_needs_the_service_to_decide():
    apis = [_api("a.Orders/Get"), _api("b.Carts/Get")]
    assert match_grpc("RPC", "Get", apis) is None
    assert match_grpc("RPC", "Carts/Get", apis) is apis[1]
    assert match_grpc("RPC", "a.Orders/Get", apis) is apis[0]


JS = """
server.addService(shelfProto.FinesService.service, {listRates, assess});
this.server.addService(
  shelfPackage.BillingService.service,
  {
    settle: LibraryDeskServer.SettleHandler.bind(this),
    'Waive': this.waive.bind(this),
  }
);
server.addService(pkg.Inventory.service, {
  getStock: (call, callback) => { callback(null, {sku: "}"}); },
  async reserve(call) { return {}; },
});
server.addService(pkg.Ads.service, new AdsImpl(store));
server.addService(healthProto.Health.service, health);
"""


def test_js_handler_objects_are_recorded_with_the_registration():
    found = dict(scan_implements(JS))
    assert set(found) == {"FinesService", "BillingService", "Inventory", "Ads", "Health"}
    assert handler_map(found["FinesService"]) == {
        "listRates": "listRates",
        "assess": "assess",
    }
    assert handler_map(found["BillingService"]) == {
        "settle": "LibraryDeskServer.SettleHandler",
        "Waive": "waive",
    }
    assert handler_map(found["Inventory"]) == {"getStock": "@L11", "reserve": "@L12"}
    assert found["Ads"] == "AdsImpl" and found["Health"] is None
    assert handler_map("AdsImpl") == {}


def test_go_registrations_name_lower_case_types_too():
    text = (
        "pb.RegisterReservationServiceServer(srv, &reservationDesk{db: db})\n"
        "pb.RegisterLendingServiceServer(srv, new(lendingDesk))\n"
        "pb.RegisterReadingListServiceServer(srv, svc)\n"
        "add_NotifierServiceServicer_to_server(NotifierService(), s)\n"
    )
    assert scan_implements(text) == [
        ("LendingService", "lendingDesk"),
        ("NotifierService", "NotifierService"),
        ("ReadingListService", None),
        ("ReservationService", "reservationDesk"),
    ]


def test_implementations_declared_without_a_register_call():
    kotlin = "class OrderService : OrdersGrpcKt.OrdersCoroutineImplBase() {}\n"
    go_desc = "s.RegisterService(&pb.Inventory_ServiceDesc, srv)\n"
    nest = "@GrpcMethod('HeroesService', 'FindOne')\nfindOne(data) {}\n"
    python = "class Notifier(Base, bookshelf_pb2_grpc.NotifierServiceServicer):\n    pass\n"
    generated = "class NotifierServiceServicer(object):\n    pass\n"
    assert scan_implements(kotlin) == [("Orders", "OrderService")]
    assert scan_implements(go_desc) == [("Inventory", None)]
    assert scan_implements(nest) == [("HeroesService", None)]
    assert scan_implements(python) == [("NotifierService", "Notifier")]
    assert scan_implements(generated) == []


TWO_GUESTS = {
    "proto/chat/guests.proto": 'syntax = "proto3";\npackage chat;\nservice GuestService { rpc Join(J) returns (J); }\nmessage J {}\n',
    "proto/rooms/guests.proto": 'syntax = "proto3";\npackage lobby;\nservice GuestService { rpc Find(J) returns (J); }\nmessage J {}\n',
}


def test_a_simple_name_two_packages_share_is_settled_by_the_service_folders_name():
    """``pkg/chat`` serves ``chat.GuestService`` (its package); ``svc/rooms`` the one in ``proto/rooms``."""
    from orbitkb.analysis.grpc.services import GrpcIndex, load_proto

    cat = catalog(TWO_GUESTS)
    assert cat.full_name("GuestService", "pkg/chat") == "chat.GuestService"
    assert cat.full_name("GuestService", "svc/rooms") == "lobby.GuestService"
    index = GrpcIndex(s for p, t in TWO_GUESTS.items() for s in load_proto(p, t).services)
    assert index.find("GuestService", "pkg/chat").full_name == "chat.GuestService"  # type: ignore[union-attr]
    assert index.find("GuestService", "svc/rooms").full_name == "lobby.GuestService"  # type: ignore[union-attr]


def test_negative_a_folder_named_like_neither_leaves_the_simple_name_unknown():
    from orbitkb.analysis.grpc.services import GrpcIndex, load_proto

    assert catalog(TWO_GUESTS).full_name("GuestService", "pkg/billing") is None
    assert catalog(TWO_GUESTS).full_name("GuestService", ".") is None
    index = GrpcIndex(s for p, t in TWO_GUESTS.items() for s in load_proto(p, t).services)
    assert index.find("GuestService") is None
