"""The web app in-process (Starlette's test client) on a seeded store: every view's endpoint, the
security headers on every answer, the Host allow-list and the session token on writes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from dependency_injector import providers
from starlette.testclient import TestClient

from orbitkb.bootstrap import Settings, build_application
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.ui.app import create_app
from orbitkb.ui.security import CSP, TOKEN_HEADER
from tests.unit.change.seed import seeded_store

TOKEN = "test-token"


def client_for(store: Any, hosts: tuple[str, ...] = ()) -> TestClient:
    app = build_application(Settings(db_path=":memory:", backend="offline", embedder="off"))
    app.adapters.store.override(providers.Object(store))
    return TestClient(create_app(app, token=TOKEN, hosts=hosts), base_url="http://127.0.0.1:8765")


@pytest.fixture(scope="module")
def client() -> TestClient:
    return client_for(seeded_store())


def write(client: TestClient, path: str, body: Any, token: str | None = TOKEN) -> Any:
    headers = {TOKEN_HEADER: token} if token else {}
    return client.post(path, json=body, headers=headers)


@pytest.mark.parametrize("path", ["/", "/api/map", "/static/app.js", "/static/vendor/cytoscape.esm.min.js",
                                  "/api/service?name=nope", "/static/missing.js", "/api/edge?id=nope",
                                  "/api/edges?node=service:payments"])
def test_every_answer_carries_the_strict_policy(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.headers["content-security-policy"] == CSP
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP and "unsafe-eval" not in CSP
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"


def test_the_page_carries_the_session_token_in_a_meta_tag(client: TestClient) -> None:
    page = client.get("/").text
    assert f'<meta name="orbitkb-token" content="{TOKEN}">' in page


def test_modules_are_served_as_javascript(client: TestClient) -> None:
    for path in ("/static/app.js", "/static/vendor/cytoscape.esm.min.js"):
        assert "javascript" in client.get(path).headers["content-type"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example", ""])
def test_a_request_for_another_host_is_refused(client: TestClient, host: str) -> None:
    r = client.get("/api/map", headers={"host": host})
    assert r.status_code == 421 and r.headers["content-security-policy"] == CSP


@pytest.mark.parametrize("host", ["localhost:8765", "127.0.0.1", "[::1]:8765"])
def test_loopback_names_are_answered(client: TestClient, host: str) -> None:
    assert client.get("/api/map", headers={"host": host}).status_code == 200


def test_the_interface_it_was_told_to_serve_is_answered() -> None:
    c = client_for(seeded_store(), hosts=("10.1.2.3",))
    assert c.get("/api/map", headers={"host": "10.1.2.3:8765"}).status_code == 200
    assert c.get("/api/map", headers={"host": "10.9.9.9:8765"}).status_code == 421


def test_map_endpoint_answers_the_system_map(client: TestClient) -> None:
    data = client.get("/api/map").json()
    kinds = {n["kind"] for n in data["nodes"]}
    assert "service" in kinds and "vendor" in kinds
    assert {"HTTP", "MESSAGE"} <= set(data["protocols"])
    assert data["edges"] and all("evidence" not in e and "reason" not in e for e in data["edges"])  # on demand


def test_every_edge_of_the_map_answers_its_evidence_on_demand(client: TestClient) -> None:
    edges = client.get("/api/map").json()["edges"]
    for e in edges:
        r = client.get("/api/edge", params={"id": e["id"]})
        assert r.status_code == 200
        full = r.json()
        assert {k: full[k] for k in e} == e and "reason" in full
        if e["protocol"] == "HTTP":
            assert full["evidence"] and all(ev["file"] and ev["start_line"] for ev in full["evidence"])


def test_the_map_is_smaller_than_the_map_with_evidence(client: TestClient) -> None:
    from orbitkb.domain.serialization import to_data

    lean = len(client.get("/api/map").content)
    app = client.app.app.state.application  # type: ignore[attr-defined]
    full = len(json.dumps(to_data(app.use_cases.draw_system_map()()), separators=(",", ":")))
    assert lean < full  # on the 300-service system: 0.98 MB -> see benchmarks/ui_render.py


def test_the_edges_of_a_service_in_and_out_with_their_evidence(client: TestClient) -> None:
    into = client.get("/api/edges", params={"node": "service:payments", "direction": "in"}).json()
    out = client.get("/api/edges", params={"node": "service:payments", "direction": "out"}).json()
    both = client.get("/api/edges", params={"node": "service:payments"}).json()
    assert into["total"] and out["total"] and both["total"] <= into["total"] + out["total"]
    assert all(e["target"] == "service:payments" for e in into["edges"])
    assert all(e["source"] == "service:payments" for e in out["edges"])
    assert all("evidence" in e and "reason" in e for e in both["edges"])
    page = client.get("/api/edges", params={"node": "service:payments", "limit": 1, "offset": 1}).json()
    assert page["edges"] == both["edges"][1:2]


@pytest.mark.parametrize("path,params,status,expected", [
    ("/api/edge", {}, 400, "id is required"),
    ("/api/edge", {"id": "HTTP:service:payments->service:nowhere:"}, 404, "no edge"),
    ("/api/edges", {}, 400, "node is required"),
    ("/api/edges", {"node": "service:paymnts"}, 404, "no node"),
    ("/api/edges", {"node": "service:payments", "direction": "up"}, 400, "direction"),
    ("/api/edges", {"node": "service:payments", "limit": "many"}, 400, "limit must be an integer"),
    ("/api/edges", {"node": "service:payments", "limit": "0"}, 400, "limit must be between"),
])
def test_bad_evidence_requests_are_one_line_with_the_status_a_person_expects(
        client: TestClient, path: str, params: dict[str, str], status: int, expected: str) -> None:
    r = client.get(path, params=params)
    assert r.status_code == status and expected in r.json()["error"] and "\n" not in r.json()["error"]


def test_a_misspelt_node_gets_the_closest_names(client: TestClient) -> None:
    assert "service:payments" in client.get("/api/edges", params={"node": "service:paymnts"}).json()["suggestions"]


@pytest.mark.parametrize("path", ["/api/edge?id=x", "/api/edges?node=service:payments"])
def test_evidence_is_behind_the_host_check_and_read_only(client: TestClient, path: str) -> None:
    assert client.get(path, headers={"host": "evil.example"}).status_code == 421
    assert client.post(path, headers={TOKEN_HEADER: TOKEN}).status_code == 405


def test_service_endpoint_answers_describe_service_with_its_lists(client: TestClient) -> None:
    data = client.get("/api/service", params={"name": "payments", "limit": 2}).json()
    assert data["service"]["name"] == "payments"
    assert {"apis", "persistence", "messages", "gaps"} <= set(data)
    assert data["apis"]["limit"] == 2


def test_the_gaps_of_the_service_page_turn_with_its_other_lists(client: TestClient) -> None:
    gaps = client.get("/api/service", params={"name": "payments", "limit": 3, "offset": 6}).json()["gaps"]
    assert (gaps["limit"], gaps["offset"]) == (3, 6)


def test_unknown_service_is_404_with_suggestions(client: TestClient) -> None:
    r = client.get("/api/service", params={"name": "paymnts"})
    assert r.status_code == 404 and "payments" in r.json()["suggestions"]


@pytest.mark.parametrize("query", [{"name": "payments", "limit": "ten"}, {"name": "payments", "limit": "0"}, {}])
def test_bad_parameters_are_400_with_one_line(client: TestClient, query: dict[str, str]) -> None:
    r = client.get("/api/service", params=query)
    assert r.status_code == 400 and "\n" not in r.json()["error"]


@pytest.mark.parametrize("path,body", [("/api/surface", {"task": "refund a payment"}),
                                       ("/api/feedback", {"run_id": 1, "service": "payments", "outcome": "confirmed"})])
@pytest.mark.parametrize("token", [None, "wrong", ""])
def test_writes_without_the_session_token_are_refused(path: str, body: dict[str, Any], token: str | None) -> None:
    store = seeded_store()
    c = client_for(store)
    r = write(c, path, body, token=token)
    assert r.status_code == 403 and "token" in r.json()["error"]
    assert store.list_change_surface_runs() == [] and store.list_feedback() == []


def test_a_change_surface_then_feedback_with_the_token() -> None:
    store = seeded_store()
    c = client_for(store)
    surface = write(c, "/api/surface", {"task": "Refund a captured card payment"}).json()
    assert surface["run_id"] and any(f["service"] == "payments" for f in surface["primary"] + surface["secondary"])
    fb = write(c, "/api/feedback", {"run_id": surface["run_id"], "service": "payments", "outcome": "confirmed"}).json()
    assert fb["outcome"] == "confirmed" and fb["history"]["confirmed"] == 1
    runs = c.get("/api/runs").json()["runs"]
    assert runs[0]["run"]["id"] == surface["run_id"] and runs[0]["feedback"][0]["service"] == "payments"


@pytest.mark.parametrize("body,expected", [
    (b"not json", "not JSON"), (b"[1, 2]", "JSON object"), (b'{"task": ""}', "task is required"),
    (b'{"task": "x", "hint_services": "payments"}', "hint_services"),
])
def test_bad_bodies_are_400(body: bytes, expected: str) -> None:
    r = client_for(seeded_store()).post("/api/surface", content=body, headers={TOKEN_HEADER: TOKEN})
    assert r.status_code == 400 and expected in r.json()["error"]


def test_feedback_on_an_unknown_run_is_404() -> None:
    r = write(client_for(seeded_store()), "/api/feedback", {"run_id": 99, "service": "payments", "outcome": "confirmed"})
    assert r.status_code == 404


def test_a_body_over_the_limit_is_refused() -> None:
    r = write(client_for(seeded_store()), "/api/surface", {"task": "x" * 70_000})
    assert r.status_code == 400 and "bytes" in r.json()["error"]


def test_reads_are_get_only(client: TestClient) -> None:
    assert client.post("/api/map", headers={TOKEN_HEADER: TOKEN}).status_code == 405


def test_smells_with_trend_endpoint(client: TestClient) -> None:
    data = client.get("/api/smells").json()
    assert "findings" in data and isinstance(data["total"], int)


def test_an_empty_database_answers_guidance() -> None:
    data = client_for(InMemoryKnowledgeStore()).get("/api/map").json()
    assert data["empty"] is True and "orbitkb index" in data["guidance"]
