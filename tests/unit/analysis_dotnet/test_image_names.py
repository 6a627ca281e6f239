"""A compose service or Kubernetes workload that only names an image (built by a script) runs the
project folder its image is named after, however each spells the name: ``acme/orders-api`` is the
``OrdersAPI`` folder, ``acme/billing.worker`` the ``BillingWorker`` one; two folders spelt alike
name neither."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

WEB = '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>'
DOCKERFILE = "FROM mcr.microsoft.com/dotnet/aspnet:8.0\nCOPY . /app\n"
PROGRAM = "var app = WebApplication.CreateBuilder(args).Build();\napp.MapGet(\"/ping\", () => \"ok\");\napp.Run();\n"
COMPOSE = """
services:
  orders-api:
    image: acme/orders-api:1.4
    environment:
      - Inventory__Url=http://stock:8080
  billing:
    image: acme/billing.worker:latest
"""
K8S = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: stock
spec:
  template:
    spec:
      containers:
        - name: stock
          image: registry.local/acme/stock_api:2.0
"""


def _files() -> dict[str, str]:
    files = {"deploy/docker-compose.yml": COMPOSE, "deploy/k8s/stock.yaml": K8S}
    for folder in ("OrdersAPI", "BillingWorker", "StockAPI"):
        files |= {f"src/{folder}/{folder}.csproj": WEB, f"src/{folder}/Dockerfile": DOCKERFILE,
                  f"src/{folder}/Program.cs": PROGRAM}  # fmt: skip
    return files


def _services(files: dict[str, str]) -> list[tuple[str, str]]:
    result = StaticCodeAnalyzer(workers=0).analyze(MemorySourceTree(files), AnalysisRequest("acme"), DictAnalysisCache())
    return sorted((s.service.name, s.service.root_dir) for s in result.services)


def test_an_image_spelt_another_way_names_its_project_folder() -> None:
    assert _services(_files()) == [
        ("billing", "src/BillingWorker"),
        ("orders-api", "src/OrdersAPI"),
        ("stock", "src/StockAPI"),
    ]


def test_two_folders_spelt_alike_are_not_guessed() -> None:
    files = _files() | {"src/Orders.Api/Orders.Api.csproj": WEB, "src/Orders.Api/Dockerfile": DOCKERFILE,
                        "src/Orders.Api/Program.cs": PROGRAM}  # fmt: skip
    names = dict(_services(files))
    assert "orders-api" not in names  # OrdersAPI or Orders.Api: the image says neither
