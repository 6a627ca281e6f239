"""Quarkus gRPC: a ``@GrpcService`` class implementing the interface generated for a service
serves its rpcs (methods returning Mutiny ``Uni``/``Multi``), and ``@GrpcClient`` stubs or service
interfaces call the host that ``quarkus.grpc.clients.<name>.host`` names."""

from __future__ import annotations

from .test_quarkus_services import DOCKERFILE, pom, run

PARENT = """<project><artifactId>larder</artifactId><packaging>pom</packaging>
<modules><module>pantry-web</module><module>pantry-stock</module></modules>
<build><plugins><plugin><groupId>io.quarkus</groupId><artifactId>quarkus-maven-plugin</artifactId></plugin>
</plugins></build></project>
"""
PROTO = """syntax = "proto3";
package larder;
option java_package = "org.larder.stock.grpc";
service Stock { rpc Level (Sku) returns (Count); rpc Watch (Sku) returns (stream Count); }
message Sku { string id = 1; }
message Count { int32 n = 1; }
"""
SERVER = """package org.larder.stock;
import io.quarkus.grpc.GrpcService;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import org.larder.stock.grpc.*;
@GrpcService
public class StockEndpoint implements Stock {
  public Uni<Count> level(Sku sku) { return Uni.createFrom().nullItem(); }
  public Multi<Count> watch(Sku sku) { return Multi.createFrom().empty(); }
  private String helper() { return ""; }
}
"""
CLIENT = """package org.larder.web;
import io.quarkus.grpc.GrpcClient;
import javax.ws.rs.GET;
import javax.ws.rs.Path;
import org.larder.stock.grpc.MutinyStockGrpc;
import org.larder.stock.grpc.Stock;
@Path("/shelf")
public class Shelf {
  @GrpcClient("stock") MutinyStockGrpc.MutinyStockStub stock;
  @GrpcClient Stock levels;
  @GET public String get() { return ""; }
}
"""
FILES = {
    "pom.xml": PARENT,
    "pantry-web/pom.xml": pom("pantry-web", "quarkus-grpc", "quarkus-resteasy"),
    "pantry-web/src/main/docker/Dockerfile.jvm": DOCKERFILE,
    "pantry-web/src/main/java/org/larder/web/Shelf.java": CLIENT,
    "pantry-web/src/main/resources/application.properties": (
        "quarkus.grpc.clients.stock.host=pantry-stock\nquarkus.grpc.clients.stock.port=9000\n"
        "quarkus.grpc.clients.levels.host=pantry-stock\n"
    ),
    "pantry-stock/pom.xml": pom("pantry-stock", "quarkus-grpc"),
    "pantry-stock/src/main/docker/Dockerfile.jvm": DOCKERFILE,
    "pantry-stock/src/main/proto/stock.proto": PROTO,
    "pantry-stock/src/main/java/org/larder/stock/StockEndpoint.java": SERVER,
}


def test_a_grpc_service_class_serves_the_rpcs_of_the_interface_it_implements() -> None:
    apis = sorted((a.method, a.path) for a in run(FILES).service("pantry-stock").apis)
    assert apis == [("RPC", "larder.Stock/Level"), ("RPC", "larder.Stock/Watch")]


def test_grpc_clients_call_the_host_their_configuration_names() -> None:
    calls = run(FILES).service("pantry-web").calls
    assert sorted((c.target, c.to_service_id is not None) for c in calls) == [
        ("pantry-stock", True),
        ("pantry-stock", True),
    ]


def test_a_class_implementing_two_interfaces_or_without_the_quarkus_annotation_serves_nothing() -> None:
    two = SERVER.replace("implements Stock {", "implements Stock, java.io.Serializable {")
    plain = SERVER.replace("import io.quarkus.grpc.GrpcService;\n", "").replace("@GrpcService\n", "")
    for text in (two, plain):
        files = {**FILES, "pantry-stock/src/main/java/org/larder/stock/StockEndpoint.java": text}
        assert run(files).service("pantry-stock").apis == ()
