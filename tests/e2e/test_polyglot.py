"""Issue 16's polyglot system end to end: nine services in eight languages (TypeScript, Java,
Kotlin, Go, Python, C#, PHP, Ruby, Rust; ``polyglot_system.py``) indexed by the real ``orbitkb``
command, then read back through the real MCP server over stdio: no stack is left as a gap, every
rpc of the proto is bound to its Go implementation and every gRPC call to that rpc, and the HTTP
calls, channels and entities are exactly those written."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import mcp
import pytest

from . import polyglot_system
from .conftest import Cli

SERVER = str(Path(sys.executable).parent / "orbitkb-mcp")

STACKS = {"gateway": "node-ts", "voyages": "jvm-spring", "berths": "jvm-spring", "tides": "go", "cargo": "python",
          "customs": "dotnet", "billing": "php", "notices": "ruby", "tariffs": "rust"}  # fmt: skip
APIS = {
    "gateway": {("GET", "/api/voyages/:id"), ("POST", "/api/invoices")},
    "voyages": {("GET", "/voyages/{id}"), ("POST", "/voyages/{id}/departures")},
    "berths": {("GET", "/berths/{code}"), ("DELETE", "/berths/{code}/hold"), ("CONSUME", "voyage.departed")},
    "tides": {("RPC", "tides.v1.TideService/Forecast"), ("RPC", "tides.v1.TideService/Window")},
    "cargo": {("GET", "/cargo/{cargo_id}"), ("POST", "/cargo/{cargo_id}/manifest")},
    "customs": {("GET", "/api/Declarations/{id}"), ("GET", "/health")},
    "billing": {("POST", "/api/invoices"), ("GET", "/api/invoices/{invoice}")},
    "notices": {("GET", "/notices"), ("GET", "/notices/{id}/cargo")},
    "tariffs": {("GET", "/tariffs/{code}")},
}
CALLS = {
    ("gateway", "voyages", "GET", "/voyages/{id}"),
    ("gateway", "billing", "POST", "/api/invoices"),
    ("voyages", "berths", "DELETE", "/berths/{code}/hold"),
    ("cargo", "tides", "RPC", "tides.v1.TideService/Forecast"),
    ("tariffs", "tides", "RPC", "tides.v1.TideService/Window"),
    ("customs", "tariffs", "GET", "/tariffs/{code}"),
    ("billing", "customs", "GET", "/api/Declarations/{id}"),
    ("notices", "cargo", "GET", "/cargo/{cargo_id}"),
}
MESSAGES = {
    ("voyages", "publishes", "voyage.departed", "kafka"),
    ("berths", "consumes", "voyage.departed", "kafka"),
    ("billing", "publishes", "invoices", "rabbitmq"),
    ("notices", "consumes", "invoices", "rabbitmq"),
}
ENTITIES = {
    ("voyages", "voyages", "postgres"),
    ("cargo", "manifests", "postgres"),
    ("customs", "Declarations", "postgres"),
    ("billing", "invoices", "postgres"),
    ("notices", "notices", "postgres"),
}


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    tmp = tmp_path_factory.mktemp("polyglot")
    polyglot_system.write(tmp / "harbour")
    cli = Cli(tmp / "kb.db", tmp)
    cli.run("index", str(tmp / "harbour"), "--repository-name", "harbour")
    return cli


def _tools(db: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    params = mcp.StdioServerParameters(command=SERVER, args=["--db", str(db), "--backend", "offline"],
                                       env={**os.environ, "ORBITKB_EMBEDDER": "off"})  # fmt: skip

    async def go() -> list[Any]:
        async with mcp.Client(params) as client:
            out = []
            for name, args in calls:
                res = await client.call_tool(name, args)
                assert not res.is_error, (name, args, res.content[0].text)
                out.append(res.structured_content)
            return out

    return asyncio.run(go())


def test_every_stack_is_indexed_and_none_is_left_as_a_gap(harbour: Cli) -> None:
    status = harbour.json("status", "--gaps")
    (repo,) = status["repositories"]
    assert repo["services"] == len(STACKS) and repo["gaps"] == []
    (listed,) = _tools(harbour.db, [("list_services", {})])
    assert {s["name"]: s["stack"] for s in listed["services"]} == STACKS


def test_apis_calls_channels_and_entities_are_those_written(harbour: Cli) -> None:
    described = _tools(harbour.db, [("describe_service", {"service": name}) for name in STACKS])
    by_name = dict(zip(STACKS, described))
    assert {n: {(a["method"], a["path"]) for a in d["apis"]} for n, d in by_name.items()} == APIS
    assert {(n, c["to_service_name"], c["method"], c["path"]) for n, d in by_name.items() for c in d["calls"]} == CALLS
    assert {(n, m["direction"], m["channel"], m["provider"]) for n, d in by_name.items() for m in d["messages"]} == MESSAGES
    assert {(n, e["name"], e["engine"]) for n, d in by_name.items() for e in d["persists"]} == ENTITIES


def test_every_rpc_is_bound_to_its_implementation_and_every_grpc_call_to_its_rpc(harbour: Cli) -> None:
    forecast, window, callers = _tools(harbour.db, [
        ("describe_api", {"service": "tides", "method": "RPC", "path": "tides.v1.TideService/Forecast"}),
        ("describe_api", {"service": "tides", "method": "RPC", "path": "tides.v1.TideService/Window"}),
        ("get_relationships", {"service": "tides", "direction": "inbound"}),
    ])  # fmt: skip
    assert {forecast["handler"], window["handler"]} == {"tideTables.Forecast", "tideTables.Window"}
    assert all(api["evidence"][0]["file"] == "tides/main.go" for api in (forecast, window))
    assert sorted((r["source_service"], r["type"]) for r in callers["relationships"]) == [
        ("cargo", "GRPC"), ("tariffs", "GRPC"),
    ]  # fmt: skip
    assert forecast["summary"] == "The water level expected at a port over the next hours."  # the proto's comment


@pytest.mark.parametrize(("source", "target", "channel", "published_in", "consumed_in"), [
    ("billing", "notices", "invoices", "billing/app/Http/Controllers/InvoiceController.php", "notices/worker.rb"),
    ("voyages", "berths", "voyage.departed", "voyages/src/main/java/harbour/voyages/VoyageController.java",
     "berths/src/main/kotlin/harbour/berths/DepartureListener.kt"),
])  # fmt: skip
def test_each_broker_links_its_publisher_to_its_consumer(
    harbour: Cli, source: str, target: str, channel: str, published_in: str, consumed_in: str
) -> None:
    trace = harbour.json("trace", source, target)  # voyages also calls berths over HTTP: a tie, kept
    (step,) = [s for path in (trace["path"], *trace["alternatives"]) for s in path if s["type"] == "MESSAGE_LINK"]
    assert step["channel"] == channel
    assert [e["file"] for e in step["evidence"]] == [published_in, consumed_in]
