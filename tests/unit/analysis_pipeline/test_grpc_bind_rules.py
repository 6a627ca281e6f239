"""Which code implements an rpc when the language analyzer did not say: the registration's type,
a base type or request types that name the proto, else a server-like type implementing most rpcs
by name; otherwise the rpc line of the proto."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts, RawCall
from orbitkb.analysis.grpc.bind import BindInput, bind
from orbitkb.analysis.grpc.catalog import ProtoCatalog
from orbitkb.analysis.grpc.code import CodeIndex, CodeMethod, CodeType, csharp, read_parsed

PROTO = """syntax = "proto3";
package shop.v1;
service Orders {
  rpc Create(CreateRequest) returns (Order);
  rpc Get(GetRequest) returns (Order);
  rpc Cancel(GetRequest) returns (Order);
}
message CreateRequest { string sku = 1; }
message GetRequest { string id = 1; }
message Order { string id = 1; }
"""
CATALOG = ProtoCatalog.from_texts({"protos/orders.proto": PROTO}, ["orders"])


def m(
    owner: str | None, name: str, line: int, file: str = "orders/impl.x", args: tuple[str, ...] = ()
) -> CodeMethod:
    return CodeMethod(owner, name, file, line, line + 2, arg_types=args)


def bound(methods, types=(), regs=None, implements=("Orders",)) -> list[tuple]:
    facts = LinkedFacts(grpc_implements=tuple(implements))
    out = bind(BindInput("orders", facts, regs or {}, CodeIndex([(list(methods), list(types))])), CATALOG)
    return sorted((a.path.rsplit("/", 1)[-1], a.handler, a.file, a.start_line) for a in out.apis)


def test_the_registered_type_wins_over_a_type_with_more_matching_names():
    methods = [m("OrdersServer", "Create", 10), m("LegacyOrdersServer", "Create", 40),
               m("LegacyOrdersServer", "Get", 44), m("LegacyOrdersServer", "Cancel", 48)]  # fmt: skip
    assert bound(methods, regs={"orders/main.x": [("Orders", "OrdersServer")]}) == [
        ("Cancel", "OrdersServer.Cancel", "protos/orders.proto", 6),  # not implemented in code
        ("Create", "OrdersServer.Create", "orders/impl.x", 10),
        ("Get", "OrdersServer.Get", "protos/orders.proto", 5),
    ]


def test_types_named_like_stores_or_clients_are_not_servers():
    methods = [m("OrderStore", "Create", 3), m("OrderStore", "Get", 6), m("OrderStore", "Cancel", 9)]
    assert [h for _, h, _, _ in bound(methods)] == ["Orders.Cancel", "Orders.Create", "Orders.Get"]
    impl = [m("OrdersImpl", "create", 3), m("OrdersImpl", "get", 6)]
    assert bound(impl + methods)[1:] == [
        ("Create", "OrdersImpl.create", "orders/impl.x", 3),
        ("Get", "OrdersImpl.get", "orders/impl.x", 6),
    ]


def test_request_types_or_base_types_name_the_implementation():
    go = [m("svc", "Get", 20, args=("context.Context", "*pb.GetRequest")), m("Store", "Get", 5),
          m("Store", "Create", 8)]  # fmt: skip
    assert bound(go)[2] == ("Get", "svc.Get", "orders/impl.x", 20)
    cs = [m("Backend", "Cancel", 12)]
    types = [CodeType("Backend", "orders/impl.x", 1, 30, embeds=("Shop.V1.Orders.OrdersBase",))]
    assert bound(cs, types)[0] == ("Cancel", "Backend.Cancel", "orders/impl.x", 12)


def test_module_functions_bind_when_unique():
    funcs = [m(None, "create", 4, "orders/handlers.js"), m(None, "cancel", 9, "orders/handlers.js"),
             m(None, "get", 2, "orders/a.js"), m(None, "get", 2, "orders/b.js")]  # fmt: skip
    assert bound(funcs) == [
        ("Cancel", "cancel", "orders/handlers.js", 9),
        ("Create", "create", "orders/handlers.js", 4),
        ("Get", "Orders.Get", "protos/orders.proto", 5),  # two candidates: not guessed
    ]


def test_unknown_protos_and_services_without_grpc_change_nothing():
    facts = LinkedFacts(grpc_implements=("Billing",), calls=(RawCall("grpc", "x/client.py", 1, 1, "stub"),))
    out = bind(BindInput("orders", facts, {}, CodeIndex([])), CATALOG)
    assert out.apis == () and out.calls == facts.calls


def test_odd_parse_results_and_csharp_text_never_raise():
    assert read_parsed("a.go", {"funcs": [None, {"n": 3}, {"n": "Get", "l": "x"}]})[0][0].line == 1
    assert read_parsed("a.js", {"functions": {"f": "not a dict"}, "classes": []}) == ([], [])
    assert read_parsed("a.py", {"error": "syntax"}) == ([], [])
    assert read_parsed("a.txt", ["not", "a", "dict"]) == ([], [])
    methods, types = csharp("a.cs", "override " + "x " * 5000 + "\nclass " + "y" * 3000)
    assert methods == [] and types == []
