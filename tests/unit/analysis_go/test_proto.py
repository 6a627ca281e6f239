"""The .proto parser and C# gRPC detection (language-neutral helpers used by the pipeline)."""

from __future__ import annotations

from orbitkb.analysis.grpc.proto import CSharpGrpc, ProtoField, ProtoRpc, find_csharp_grpc, parse_proto

PROTO = """
// Payments API.
syntax = "proto3";

package acme.payments.v1;

import "google/api/annotations.proto";
import public "common/money.proto";

option go_package = "github.com/acme/protos/payments/v1;paymentsv1";
option java_multiple_files = true;

/* The payment service.
   service Fake { rpc Nope(A) returns (B); } */
service PaymentService {
  option (google.api.default_host) = "payments.acme.io";

  // Charge a card.
  rpc Charge(ChargeRequest) returns (ChargeResponse) {
    option (google.api.http) = { post: "/v1/charges" body: "*" };
  }
  rpc Watch(WatchRequest) returns (stream PaymentEvent);
  rpc Upload(stream Chunk) returns (UploadSummary) {}
  rpc Chat (stream .acme.common.Msg) returns (stream .acme.common.Msg);
}

service Empty {}

message ChargeRequest {
  string order_id = 1 [(validate.rules).string = {min_len: 1}];
  acme.common.Money amount = 2;
  repeated LineItem items = 3;
  map<string, string> metadata = 4;
  oneof method {
    Card card = 5;
    string token = 6;
  }
  message LineItem {
    string sku = 1;
    int32 qty = 2;
  }
  enum Kind { KIND_UNSPECIFIED = 0; ONE_OFF = 1; }
  reserved 9, 10;
  optional string note = 11;
}

message ChargeResponse { string id = 1; }
"""


def test_parse_proto_services_rpcs_and_messages() -> None:
    pf = parse_proto(PROTO)
    assert pf.package == "acme.payments.v1"
    assert pf.imports == ("google/api/annotations.proto", "common/money.proto")
    assert ("go_package", "github.com/acme/protos/payments/v1;paymentsv1") in pf.options
    assert [(s.name, len(s.rpcs)) for s in pf.services] == [("PaymentService", 4), ("Empty", 0)]
    assert pf.services[0].rpcs == (
        ProtoRpc("Charge", "ChargeRequest", "ChargeResponse", False, False, (("POST", "/v1/charges"),)),
        ProtoRpc("Watch", "WatchRequest", "PaymentEvent", False, True),
        ProtoRpc("Upload", "Chunk", "UploadSummary", True, False),
        ProtoRpc("Chat", "acme.common.Msg", "acme.common.Msg", True, True),
    )
    name, rpcs = pf.services[0]  # records unpack like tuples
    assert name == "PaymentService" and rpcs[0].name == "Charge"
    msgs = {m.name: m.fields for m in pf.messages}
    assert sorted(msgs) == ["ChargeRequest", "ChargeRequest.LineItem", "ChargeResponse"]
    assert msgs["ChargeRequest"] == (
        ProtoField("order_id", "string", False),
        ProtoField("amount", "acme.common.Money", False),
        ProtoField("items", "LineItem", True),
        ProtoField("metadata", "map<string, string>", False),
        ProtoField("card", "Card", False),
        ProtoField("token", "string", False),
        ProtoField("note", "string", False),
    )
    assert msgs["ChargeRequest.LineItem"] == (
        ProtoField("sku", "string", False),
        ProtoField("qty", "int32", False),
    )


def test_parse_proto_never_raises_on_garbage() -> None:
    for text in (
        "",
        "service",
        "service X { rpc",
        "message { { {",
        "}}}} service A { rpc B(C) returns (D); }",
        "\x00\xff",
    ):
        parse_proto(text)
    assert [s.name for s in parse_proto("}}}} service A { rpc B(C) returns (D); }").services] == ["A"]
    pf = parse_proto('syntax = "proto2"; package x; message M { required int64 id = 1; group G = 2 { } }')
    assert pf.messages[0].fields == (ProtoField("id", "int64", False),)


CSHARP = """
using Grpc.Core;
using Grpc.Net.Client;

namespace Orders.Api.Services;

public class OrderGrpcService : Orders.V1.OrderService.OrderServiceBase
{
    private readonly ILogger<OrderGrpcService> _log;
}

public sealed class InventoryCaller
{
    public async Task Reserve()
    {
        using var channel = GrpcChannel.ForAddress("http://inventory:5001");
        var client = new Inventory.InventoryClient(channel);
        var pay = new global::Payments.V1.PaymentService.PaymentServiceClient(
            GrpcChannel.ForAddress(_config["Services:Payments"]));
    }
}
"""

PROGRAM = """
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddGrpc();
builder.Services.AddGrpcClient<Shipping.ShippingClient>(o =>
{
    o.Address = new Uri("https://shipping:443");
});
app.MapGrpcService<OrderGrpcService>();
"""


def test_find_csharp_grpc_implementations_and_clients() -> None:
    assert find_csharp_grpc(CSHARP) == [
        CSharpGrpc("implements", "OrderService", 7, class_name="OrderGrpcService"),
        CSharpGrpc("client", "Inventory", 17, class_name="InventoryCaller", address="http://inventory:5001"),
        CSharpGrpc(
            "client",
            "PaymentService",
            18,
            class_name="InventoryCaller",
            address_hint='_config["Services:Payments"]',
        ),
    ]
    assert find_csharp_grpc(PROGRAM) == [CSharpGrpc("client", "Shipping", 4, address="https://shipping:443")]
    assert find_csharp_grpc("class A : Base {} var c = new Foo.BarClient(x);") == []


def test_http_rules_of_an_rpc_in_every_spelling() -> None:
    text = """
    syntax = "proto3";
    package shelf.v2;
    service Shelf {
      rpc Put(Book) returns (Book) {
        option (openapi.operation) = { summary: "put: /not/a/route" };
        option (google.api.http) = {
          patch: "/v2/books/{book.id}"
          body: "book"
          additional_bindings { post: "/v2/books" body: "*" }
          additional_bindings { custom { kind: "HEAD" path: "/v2/books/{id}" } }
        };
      }
      rpc Plain(Book) returns (Book);
      rpc NoHttp(Book) returns (Book) { option deprecated = true; }
    }
    message Book { string id = 1; }
    """
    rpcs = {r.name: r.http for r in parse_proto(text).services[0].rpcs}
    assert rpcs == {
        "Put": (("PATCH", "/v2/books/{book.id}"), ("POST", "/v2/books"), ("HEAD", "/v2/books/{id}")),
        "Plain": (),
        "NoHttp": (),
    }
