"""HTTP routes of rpcs served by transcoding: the ``google.api.http`` option of the proto, served
where Go registers the service over HTTP (kratos ``Register<X>HTTPServer``, grpc-gateway
``Register<X>Handler...``); a gateway forwarding to another service also calls it over gRPC."""

from __future__ import annotations

import textwrap

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.model import ApiKind
from orbitkb.domain.ports import AnalysisRequest

PROTO = """
syntax = "proto3";
package lending.v1;
import "google/api/annotations.proto";
option go_package = "example.org/lending/api/lending/v1;v1";

service Lending {
  rpc Borrow (BorrowReq) returns (BorrowReply) {
    option (google.api.http) = {
      post: "/v1/loans"
      body: "*"
      additional_bindings { put: "/v1/loans/{loan_id}" body: "*" }
    };
  }
  rpc GetLoan (GetLoanReq) returns (Loan) {
    option (google.api.http) = { get: "/v1/loans/{loan_id=loans/*}" };
    option (grpc.gateway.protoc_gen_openapiv2.options.openapiv2_operation) = { summary: "one loan" };
  }
  rpc Audit (AuditReq) returns (AuditReply);
}
message BorrowReq { string title = 1; }
message BorrowReply { string loan_id = 1; }
message GetLoanReq { string loan_id = 1; }
message Loan { string loan_id = 1; }
message AuditReq {}
message AuditReply {}
"""

SERVICE_IMPL = """
package service

import (
	"context"

	v1 "example.org/lending/api/lending/v1"
)

type LendingService struct {
	v1.UnimplementedLendingServer
}

func NewLendingService() *LendingService { return &LendingService{} }

func (s *LendingService) Borrow(ctx context.Context, req *v1.BorrowReq) (*v1.BorrowReply, error) {
	return &v1.BorrowReply{}, nil
}

func (s *LendingService) GetLoan(ctx context.Context, req *v1.GetLoanReq) (*v1.Loan, error) {
	return &v1.Loan{}, nil
}

func (s *LendingService) Audit(ctx context.Context, req *v1.AuditReq) (*v1.AuditReply, error) {
	return &v1.AuditReply{}, nil
}
"""

# kratos style: a package imported without alias whose name is its trailing "v1"
KRATOS_HTTP = """
package server

import (
	"example.org/lending/api/lending/v1"
	"example.org/lending/app/lending/service/internal/service"
	"github.com/go-kratos/kratos/v2/transport/http"
)

func NewHTTPServer(s *service.LendingService) *http.Server {
	srv := http.NewServer()
	v1.RegisterLendingHTTPServer(srv, s)
	return srv
}
"""

MAIN = """
package main

import (
	"example.org/lending/app/lending/service/internal/server"
	"example.org/lending/app/lending/service/internal/service"
)

func main() {
	srv := server.NewHTTPServer(service.NewLendingService())
	srv.Start()
}
"""

# grpc-gateway style: a separate gateway process forwarding to the lending service
GATEWAY = """
package main

import (
	"context"
	"net/http"
	"os"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"

	lendingpb "example.org/lending/gen/lendingpb"
)

func gateway(ctx context.Context) (http.Handler, error) {
	mux := runtime.NewServeMux()
	opts := []grpc.DialOption{}
	if err := lendingpb.RegisterLendingHandlerFromEndpoint(ctx, mux, os.Getenv("LENDING_ADDR"), opts); err != nil {
		return nil, err
	}
	return mux, nil
}

func main() {
	gw, err := gateway(context.Background())
	if err != nil {
		panic(err)
	}
	root := http.NewServeMux()
	root.Handle("/", gw)
	http.ListenAndServe(":8080", root)
}
"""

COMPOSE = """
services:
  lending-service:
    image: acme/library-lending-service:1.0
  edge:
    build:
      context: .
      dockerfile: gateway/Dockerfile
    environment:
      - LENDING_ADDR=lending-service:9000
"""


def analyze(files: dict[str, str]):
    tree = MemorySourceTree({p: textwrap.dedent(t).lstrip("\n") for p, t in files.items()}, commit="c0ffee")
    result = StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("library"), DictAnalysisCache())
    return {f.service.name: f for f in result.services}


def http_routes(facts) -> list[tuple[str, str, str]]:
    return sorted((a.method, a.path, a.handler) for a in facts.apis if a.kind == ApiKind.HTTP)


def base(**more: str) -> dict[str, str]:
    return {
        "go.mod": "module example.org/lending\n\ngo 1.22\n",
        "api/lending/v1/lending.proto": PROTO,
        "app/lending/service/internal/service/lending.go": SERVICE_IMPL,
        **more,
    }


def test_kratos_http_registration_serves_the_proto_routes_at_the_implementing_methods() -> None:
    services = analyze(
        base(
            **{
                "app/lending/service/internal/server/http.go": KRATOS_HTTP,
                "app/lending/service/cmd/server/main.go": MAIN,
            }
        )
    )
    (facts,) = services.values()  # one command: a single-service repository
    assert http_routes(facts) == [
        ("GET", "/v1/loans/{loan_id}", "LendingService.GetLoan"),
        ("POST", "/v1/loans", "LendingService.Borrow"),
        ("PUT", "/v1/loans/{loan_id}", "LendingService.Borrow"),
    ]  # Audit declares no HTTP rule: gRPC only
    borrow = next(a for a in facts.apis if a.path == "/v1/loans")
    assert borrow.file == "app/lending/service/internal/service/lending.go"
    assert [f.field for f in borrow.request_shape] == ["title"]


def test_grpc_gateway_serves_the_routes_and_calls_the_service_behind_it() -> None:
    services = analyze(
        base(
            **{
                "app/lending/service/cmd/server/main.go": MAIN,
                "app/lending/service/internal/server/http.go": KRATOS_HTTP,
                "app/catalog/service/cmd/server/main.go": "package main\n\nfunc main() {}\n",
                "gateway/main.go": GATEWAY,
                "gateway/Dockerfile": "FROM golang:1.22\n",
                "docker-compose.yml": COMPOSE,
            }
        )
    )
    edge = services["edge"]
    assert http_routes(edge) == [
        ("GET", "/v1/loans/{loan_id}", "Lending.GetLoan"),
        ("POST", "/v1/loans", "Lending.Borrow"),
        ("PUT", "/v1/loans/{loan_id}", "Lending.Borrow"),
    ]  # and no catch-all "ANY /" for the gateway mux mounted at the root
    assert {(c.call_kind.value, c.to_service_id) for c in edge.calls} == {
        ("grpc", services["lending-service"].service.id)
    }
    # the image-only compose service names the folder whose name it carries
    assert services["lending-service"].service.root_dir == "app/lending/service"


def test_in_process_gateway_registration_binds_routes_to_the_local_implementation() -> None:
    inproc = """
    package main

    import (
        "context"

        "github.com/grpc-ecosystem/grpc-gateway/v2/runtime"

        pb "example.org/lending/api/lending/v1"
        "example.org/lending/app/lending/service/internal/service"
    )

    func main() {
        mux := runtime.NewServeMux()
        pb.RegisterLendingHandlerServer(context.Background(), mux, service.NewLendingService())
    }
    """
    (facts,) = analyze(base(**{"app/lending/service/cmd/api/main.go": inproc})).values()
    assert ("POST", "/v1/loans", "LendingService.Borrow") in http_routes(facts)
    assert not facts.calls


def test_no_routes_without_a_proto_or_from_a_package_that_is_no_generated_code() -> None:
    no_proto = base(**{"app/lending/service/cmd/server/main.go": MAIN,
                       "app/lending/service/internal/server/http.go": KRATOS_HTTP})  # fmt: skip
    del no_proto["api/lending/v1/lending.proto"]
    assert [http_routes(f) for f in analyze(no_proto).values()] == [[]]
    hooks = """
    package main

    import (
        "context"

        "example.org/platform/hooks"
    )

    func main() {
        hooks.RegisterAuditHandler(context.Background(), nil, "audit:9000")
    }
    """
    facts = analyze({"go.mod": "module example.org/tool\n", "main.go": hooks})["library"]
    assert facts.apis == () and facts.calls == ()
