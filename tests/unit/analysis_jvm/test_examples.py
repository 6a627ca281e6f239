"""The examples/ ground truth, for the JVM services (orders, shipping), compared exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orbitkb.analysis.facts import ServiceContext
from orbitkb.analysis.jvm import ANALYZER

ROOT = Path(__file__).resolve().parents[3] / "examples" / "shopfront"
SERVICES = {"orders": "orders-service", "shipping": "shipping-service"}

pytestmark = pytest.mark.skipif(not (ROOT / "ground_truth.json").exists(), reason="examples not present")


def _facts(folder: str):
    parsed = {}
    for path in sorted((ROOT / folder).rglob("*")):
        if path.suffix in ANALYZER.suffixes:
            rel = path.relative_to(ROOT).as_posix()
            parsed[rel] = ANALYZER.parse(rel, path.read_text())
    return ANALYZER.link(ServiceContext(folder, folder, "jvm-spring", "shopfront"), parsed)


@pytest.fixture(scope="module")
def truth():
    return json.loads((ROOT / "ground_truth.json").read_text())


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_apis_match_ground_truth(service, truth):
    facts = _facts(SERVICES[service])
    expected = sorted(
        (a["method"], a["path"], a["handler"], a["file"], a["line"])
        for a in truth["apis"]
        if a["service"] == service
    )
    got = sorted((a.method, a.path, a.handler, a.file, a.start_line) for a in facts.apis)
    assert got == expected


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_channels_match_ground_truth(service, truth):
    facts = _facts(SERVICES[service])
    expected = sorted(
        (c["direction"], c["channel"], c["provider"], c["file"], c["line"])
        for c in truth["channels"]
        if c["service"] == service
    )
    got = sorted((m.direction, m.channel.literal(), m.provider, m.file, m.line) for m in facts.messages)
    assert got == expected


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_entities_match_ground_truth(service, truth):
    facts = _facts(SERVICES[service])
    expected = sorted(
        (e["name"], e["class_name"], e["kind"], e["file"], e["line"])
        for e in truth["entities"]
        if e["service"] == service
    )
    got = sorted((e.name, e.class_name, e.kind, e.file, e.start_line) for e in facts.entities)
    assert got == expected


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_call_sites_match_ground_truth(service, truth):
    facts = _facts(SERVICES[service])
    expected = sorted(
        (c["kind"], c["client"], c["file"], c["line"], c.get("grpc_service", "").rsplit(".", 1)[-1] or None)
        for c in truth["calls"]
        if c["from"] == service
    )
    # one raw call per API handler reaching a site: compare the sites
    got = sorted({(c.kind, c.client, c.file, c.line, c.grpc_service) for c in facts.calls})
    assert got == expected
