"""Two go-micro services without generated code: the basket's request built by name
(``NewRequest("shop.service.stock", "Stock.Reserve", ...)``) is a gRPC call to the service whose
handler type is ``Stock``, though no folder, compose service or registry name says "Stock"."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

COMPOSE = """
services:
  inventory:
    build: ./inventory
  basket:
    build: ./basket
"""

DOCKERFILE = 'FROM golang:1.22\nCOPY . .\nRUN go build -o /app .\nCMD ["/app"]\n'

INVENTORY = """package main

import (
	"context"

	"github.com/micro/go-micro/v2"
)

type Req struct{ Id string }
type Rsp struct{ Ok bool }

type Stock struct{}

func (s *Stock) Reserve(ctx context.Context, req *Req, rsp *Rsp) error { return nil }

func main() {
	service := micro.NewService(micro.Name("shop.service.inventory"))
	service.Init()
	_ = micro.RegisterHandler(service.Server(), new(Stock))
	_ = service.Run()
}
"""

BASKET = """package main

import (
	"context"

	"github.com/micro/go-micro/v2"
)

type Req struct{ Id string }
type Rsp struct{ Ok bool }

func main() {
	service := micro.NewService(micro.Name("shop.service.basket"))
	service.Init()
	c := service.Client()
	var rsp Rsp
	_ = c.Call(context.TODO(), c.NewRequest("shop.service.inventory", "Stock.Reserve", &Req{Id: "7"}), &rsp)
	_ = service.Run()
}
"""


def test_a_request_built_by_name_calls_the_service_handling_its_type() -> None:
    files = {
        "docker-compose.yml": COMPOSE,
        "inventory/go.mod": "module example.com/inventory\n\ngo 1.22\n",
        "inventory/Dockerfile": DOCKERFILE,
        "inventory/main.go": INVENTORY,
        "basket/go.mod": "module example.com/basket\n\ngo 1.22\n",
        "basket/Dockerfile": DOCKERFILE,
        "basket/main.go": BASKET,
    }
    run = Run(StaticCodeAnalyzer(workers=0).analyze(MemorySourceTree(files), AnalysisRequest("shop"), DictCache()))
    calls = [(c.target, c.call_kind.value, c.path) for c in run.service("basket").calls]
    assert calls == [("inventory", "grpc", "Stock/Reserve")]
    assert [a.path for a in run.service("inventory").apis] == ["Stock/Reserve"]
