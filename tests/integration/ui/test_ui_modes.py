"""The web app's map cache, its read-only mode and ``--open``, in-process: the map's JSON made
once per snapshot, a write seen on the next request, nothing written by a read-only server, and
the browser opened only once the server answers."""

from __future__ import annotations

import socket
import threading
from typing import Any

from dependency_injector import providers
from starlette.testclient import TestClient

from orbitkb.bootstrap import Settings, build_application
from orbitkb.domain.model import Repository, ServiceFacts
from orbitkb.ui.app import create_app
from orbitkb.ui.security import TOKEN_HEADER
from orbitkb.ui.server import open_when_serving, parse_args
from tests.unit.architecture.builders import svc
from tests.unit.change.seed import seeded_store

TOKEN = "test-token"


def client_for(store: Any, read_only: bool = False) -> tuple[TestClient, Any]:
    app = build_application(Settings(db_path=":memory:", backend="offline", embedder="off"))
    app.adapters.store.override(providers.Object(store))
    return TestClient(create_app(app, token=TOKEN, read_only=read_only), base_url="http://127.0.0.1:8765"), app


def post(client: TestClient, path: str, body: Any) -> Any:
    return client.post(path, json=body, headers={TOKEN_HEADER: TOKEN})


# -- the map, once per snapshot


def test_the_map_is_loaded_and_serialised_once_while_nothing_is_written() -> None:
    client, app = client_for(seeded_store())
    first, second = client.get("/api/map"), client.get("/api/map")
    assert first.status_code == second.status_code == 200
    assert first.content == second.content and first.headers["content-type"] == "application/json"
    assert app.adapters.models().loads == 1


def test_a_write_to_the_store_is_on_the_next_map() -> None:
    store = seeded_store()
    client, app = client_for(store)
    before = client.get("/api/map").json()
    store.replace_repository_facts(Repository("ledger-repo", "/elsewhere"), [ServiceFacts(service=svc("ledger", "ledger-repo"))],
                                   [], [], [], [])
    after = client.get("/api/map").json()
    assert "ledger-repo" not in {r["name"] for r in before["repositories"]}
    assert "ledger-repo" in {r["name"] for r in after["repositories"]}
    assert [n["kind"] for n in after["nodes"] if n["repository"] == "ledger-repo"] == ["service"]
    assert app.adapters.models().loads == 2


# -- read-only


def test_the_page_says_whether_the_server_is_read_only() -> None:
    assert '<meta name="orbitkb-mode" content="read-only">' in client_for(seeded_store(), read_only=True)[0].get("/").text
    assert '<meta name="orbitkb-mode" content="read-write">' in client_for(seeded_store())[0].get("/").text


def test_a_read_only_server_answers_a_change_surface_without_recording_it() -> None:
    store = seeded_store()
    client, _ = client_for(store, read_only=True)
    surface = post(client, "/api/surface", {"task": "Let customers pay with Pix at checkout"})
    assert surface.status_code == 200 and surface.json()["run_id"] is None
    assert surface.json()["primary"] or surface.json()["secondary"]
    assert client.get("/api/runs").json()["runs"] == [] and store.list_change_surface_runs() == []


def test_a_read_only_server_refuses_feedback_with_a_hint() -> None:
    store = seeded_store()
    run = post(client_for(store)[0], "/api/surface", {"task": "Let customers pay with Pix at checkout"}).json()["run_id"]
    client, _ = client_for(store, read_only=True)
    r = post(client, "/api/feedback", {"run_id": run, "service": "payments", "outcome": "confirmed"})
    assert r.status_code == 403 and "read-only" in r.json()["error"] and "--read-only" in r.json()["hint"]
    assert client.get("/api/runs").json()["runs"][0]["feedback"] == []


def test_read_only_is_a_flag_of_the_command() -> None:
    assert parse_args(["--read-only"]).read_only and not parse_args([]).read_only


# -- --open


def test_the_browser_is_opened_once_the_server_answers() -> None:
    opened: list[str] = []
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        url = f"http://127.0.0.1:{port}/"
        thread = open_when_serving(url, "127.0.0.1", port, opened.append, timeout=10)
        threading.Event().wait(0.3)
        assert opened == []  # nothing listens yet: no browser on a page that would not load
        listener.listen()
        thread.join(10)
    assert opened == [url]


def test_no_browser_is_opened_when_the_server_never_answers(capsys) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, never listening
        opened: list[str] = []
        open_when_serving(f"http://127.0.0.1:{port}/", "127.0.0.1", port, opened.append, timeout=0.5).join(5)
    assert opened == [] and "not opening a browser" in capsys.readouterr().err
