"""gRPC through code the linker never walks or that names services as strings: servers registered
with the repository's own generated package (``*.pb.go`` is not walked, even when a folder of the
same name holds walked code), go-kit clients naming ``"pkg.Service"`` and the method; calls on a
receiver of unknown type reach the service's own method only when the arguments fit it; CQL text
run through gocql is Cassandra."""

from __future__ import annotations

from .helpers import link

REGISTERED = {
    "svc/depot/server.go": """
package depot

import (
	"context"

	"google.golang.org/grpc"

	depotpb "example.com/harbor/proto/depot"
)

type Server struct{ s *grpc.Server }

func (srv *Server) Register() {
	depotpb.RegisterDepotServiceServer(srv.s, srv)
}

func (srv *Server) Store(ctx context.Context, req *depotpb.StoreRequest) (*depotpb.StoreReply, error) {
	return &depotpb.StoreReply{}, nil
}
""",
    # a walked folder named like the generated package: its last segment alone must not match
    "svc/depot/proto/depot/doc.go": "package depot\n",
}


def test_a_server_registered_with_the_repositorys_generated_package() -> None:
    facts = link(REGISTERED, root="svc/depot")
    assert sorted((a.method, a.path) for a in facts.apis) == [("RPC", "DepotService/Store")]


def test_negative_a_helper_of_the_walked_code_is_run_not_taken_for_a_registration() -> None:
    files = {
        "svc/depot/server.go": REGISTERED["svc/depot/server.go"].replace(
            'depotpb "example.com/harbor/proto/depot"', 'depotpb "example.com/harbor/svc/depot/reg"'
        ),
        "svc/depot/reg/reg.go": "package reg\n\nfunc RegisterDepotServiceServer(s any, impl any) {}\n",
    }
    assert link(files, root="svc/depot").apis == ()


GOKIT = """
package ledger

import (
	"github.com/go-kit/kit/endpoint"
	grpctransport "github.com/go-kit/kit/transport/grpc"
	"google.golang.org/grpc"

	walletpb "example.com/harbor/proto/wallet"
)

func dial(conn *grpc.ClientConn, id, service, method string, reply interface{}) endpoint.Endpoint {
	return grpctransport.NewClient(conn, service, method, encode, decode, reply).Endpoint()
}

type Repo struct {
	debit  endpoint.Endpoint
	refund endpoint.Endpoint
	audit  endpoint.Endpoint
}

func NewRepo(conn *grpc.ClientConn, auditName string) *Repo {
	return &Repo{
		debit:  dial(conn, "wallet", "wallet.WalletService", "Debit", &walletpb.DebitReply{}),
		refund: grpctransport.NewClient(conn, "wallet.WalletService", "Refund", encode, decode, nil).Endpoint(),
		audit:  grpctransport.NewClient(conn, auditName, "Log", encode, decode, nil).Endpoint(),
	}
}

func encode(_ interface{}, r interface{}) (interface{}, error) { return r, nil }
func decode(_ interface{}, r interface{}) (interface{}, error) { return r, nil }
"""


def test_go_kit_clients_name_the_service_and_method_directly_or_through_a_helper() -> None:
    facts = link({"ledger/repo.go": GOKIT})
    got = sorted((c.kind, c.grpc_service, c.method) for c in facts.calls)
    assert got == [("grpc", "wallet.WalletService", "Debit"), ("grpc", "wallet.WalletService", "Refund")]


CACHE = """
package rooms

import (
	"context"
	"net/http"

	"github.com/redis/go-redis/v9"
)

type Cache struct{ c redis.UniversalClient }

func (k *Cache) Get(ctx context.Context, key string, dst interface{}) (bool, error) {
	return true, k.c.Get(ctx, key).Err()
}

func Handle(w http.ResponseWriter, r *http.Request) {
	h := headers(r)
	_ = h.Get("X-Room-Id")
}

func headers(r *http.Request) interface{ Get(string) string } { return nil }
"""


def test_negative_an_unknown_receivers_get_is_not_the_services_three_argument_get() -> None:
    facts = link({"rooms/cache.go": CACHE})
    assert [e.name for e in facts.entities] == []


def test_cql_through_gocql_is_cassandra() -> None:
    src = """
package chat

import "github.com/gocql/gocql"

type Store struct{ s *gocql.Session }

func (st *Store) Save(id int64, body string) error {
	return st.s.Query("INSERT INTO lines (id, body) VALUES (?, ?)", id, body).Exec()
}
"""
    facts = link({"chat/store.go": src})
    assert [(e.name, e.engine_hint) for e in facts.entities] == [("lines", "cassandra")]


def test_a_route_seen_with_its_group_prefix_drops_the_same_route_seen_bare() -> None:
    """One ``GET("/online", h)`` run twice, neither run known to be served: once under its groups
    (``/api/rooms/users``), once on a receiver of unknown type (no prefix). The prefixed one is kept;
    a route only ever seen bare stays."""
    from orbitkb.analysis.golang.emit import new_obj
    from orbitkb.analysis.golang.finalize import apis
    from orbitkb.analysis.golang.program import Program
    from orbitkb.analysis.golang.sink import HandlerInfo, RouteRec, Sink
    from orbitkb.analysis.golang.values import lit

    root = new_obj("router", {"lib": "gin"}, unbound=True)
    group = new_obj("router", {"lib": "gin"})
    group.a["parents"].append((root, lit("/api/rooms/users")))
    bare = new_obj("router", {"lib": "gin"}, unbound=True)
    h = HandlerInfo("Server.Online", "rooms/api.go", 40, 44, None, "Server", "class")
    sink = Sink(Program({}))
    sink.routes += [
        RouteRec("gin", group, lit("/online"), ["GET"], h, "rooms/http.go", 12, 12),
        RouteRec("gin", bare, lit("/online"), ["GET"], h, "rooms/http.go", 12, 12),
        RouteRec("gin", bare, lit("/lonely"), ["GET"], h, "rooms/http.go", 13, 13),
    ]
    assert [(a.method, a.path) for a in apis(sink)] == [("GET", "/api/rooms/users/online"), ("GET", "/lonely")]
