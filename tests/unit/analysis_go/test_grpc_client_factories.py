"""gRPC clients built by a shared factory that is handed the generated constructor as a value
(``Typed("ADDR", pb.NewXClient)``, a generic or a plain func parameter): each RPC invoked on what
the factory returns is a call with its method and the address the factory dialled; a constructor
kept but never called, or a function value that is no generated client constructor, is no call."""

from __future__ import annotations

from .helpers import link, show

GOMOD = """
module example.org/harbor

go 1.22

require google.golang.org/grpc v1.60.0
"""

# a shared package: a generic factory, a plain one with a func parameter, one that calls through
FACTORY = """
package conns

import (
	"os"

	"google.golang.org/grpc"
)

func Typed[T any](envKey string, build func(grpc.ClientConnInterface) T) (T, func() error, error) {
	var none T
	cc, err := grpc.NewClient(os.Getenv(envKey))
	if err != nil {
		return none, nil, err
	}
	return build(cc), cc.Close, nil
}

func Plain(addr string, mk func(grpc.ClientConnInterface) interface{}) interface{} {
	cc, _ := grpc.Dial(addr)
	return mk(cc)
}

type Pending struct {
	Addr  string
	Build func(grpc.ClientConnInterface) interface{}
}

func Keep(addr string, build func(grpc.ClientConnInterface) interface{}) Pending {
	return Pending{Addr: addr, Build: build}
}
"""

# the generated code lives in the repository (never walked) or in another module
DOCKS = """
package docks

import (
	"context"
	"strings"

	"example.org/harbor/conns"
	cranepb "example.org/harbor/gen/crane"
	tidepb "example.org/protos/tide"
	berthpb "example.org/protos/berth"
)

func Load(ctx context.Context) error {
	cranes, closeFn, err := conns.Typed("CRANE_ADDR", cranepb.NewCraneServiceClient)
	if err != nil {
		return err
	}
	defer closeFn()
	_, err = cranes.Lift(ctx, &cranepb.LiftRequest{})
	return err
}

func Watch(ctx context.Context) {
	tides := conns.Plain("tide-svc:7070", tidepb.NewTideServiceClient).(tidepb.TideServiceClient)
	tides.Forecast(ctx, &tidepb.ForecastRequest{})
}

func Moor(ctx context.Context) {
	later := conns.Keep("berth-svc:7071", berthpb.NewBerthServiceClient)
	_ = later.Addr
	_ = conns.Plain("labels:9", strings.ToUpper)
}
"""


def test_a_generated_constructor_handed_to_a_shared_factory_builds_the_client() -> None:
    facts = link({"port/go.mod": GOMOD, "port/conns/conns.go": FACTORY, "port/docks/docks.go": DOCKS})
    got = sorted((c.file, c.line, c.grpc_service, c.method, show(c.url)) for c in facts.calls)
    assert got == [
        ("port/docks/docks.go", 19, "CraneService", "Lift", "{env:CRANE_ADDR}"),
        ("port/docks/docks.go", 25, "TideService", "Forecast", "tide-svc:7070"),
    ]


def test_a_function_value_that_is_no_client_constructor_is_no_call() -> None:
    facts = link({"port/go.mod": GOMOD, "port/conns/conns.go": FACTORY, "port/docks/docks.go": DOCKS})
    services = {c.grpc_service for c in facts.calls}
    # a constructor kept but never called, and ``strings.ToUpper`` handed over: no berth or label call
    assert services == {"CraneService", "TideService"}
