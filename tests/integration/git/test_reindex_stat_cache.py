"""Re-indexing a real folder through the composition root (real analyzers, SQLite cache): after
edits, additions and deletions, the stored knowledge equals a cold index into a fresh database,
and a no-change re-index parses nothing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from orbitkb.bootstrap import Settings, build_application
from orbitkb.domain.usecases.indexing import IndexRequest

T0 = 1_500_000_000_000_000_000

FILES = {
    "docker-compose.yml": "services:\n  orders:\n    build: ./orders\n    environment:\n"
    "      PAYMENTS_URL: http://payments:8080\n  payments:\n    build: ./payments\n",
    "orders/requirements.txt": "fastapi\nhttpx\n",
    "orders/app/main.py": "from fastapi import FastAPI\nfrom app.routes import router\n\n"
    "app = FastAPI()\napp.include_router(router, prefix='/api')\n",
    "orders/app/routes.py": "import os\nimport httpx\nfrom fastapi import APIRouter\n\nrouter = APIRouter()\n"
    "PAY = os.environ.get('PAYMENTS_URL', 'http://payments:8080')\n\n\n"
    "@router.get('/orders')\ndef list_orders():\n    return httpx.post(f'{PAY}/pay')\n",
    "payments/go.mod": "module example.com/payments\n\ngo 1.22\n",
    "payments/main.go": 'package main\n\nimport "net/http"\n\nfunc main() {\n'
    '\tmux := http.NewServeMux()\n\tmux.HandleFunc("POST /pay", pay)\n\thttp.ListenAndServe(":8080", mux)\n}\n\n'
    "func pay(w http.ResponseWriter, r *http.Request) {}\n",
    "payments/util.go": "package main\n\nfunc helper() int { return 1 }\n",
}


def write(root: Path, files: dict[str, str], mtime_ns: int = T0) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.utime(path, ns=(mtime_ns, mtime_ns))


def knowledge(db: Path, folder: Path) -> dict[str, Any]:
    app = build_application(Settings(db_path=str(db), backend="offline", embedder="off", jobs=1))
    result = app.use_cases.index_repository()(IndexRequest(path=str(folder), repository_name="shop"))
    store = app.adapters.store()
    return {
        "parsed": result.files_parsed,
        "services": store.list_services(),
        "apis": store.list_apis(),
        "calls": store.list_calls(),
        "gaps": store.list_gaps(),
        "files": store.list_indexed_files("shop"),
    }


def same(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("services", "apis", "calls", "gaps", "files"):
        assert a[key] == b[key], key


def test_reindex_after_changes_equals_a_cold_index(tmp_path: Path) -> None:
    folder, db = tmp_path / "repo", tmp_path / "warm.db"
    write(folder, FILES)
    first = knowledge(db, folder)
    assert [a.path for a in first["apis"] if a.path.startswith("/api")] == ["/api/orders"]
    again = knowledge(db, folder)
    assert again["parsed"] == 0
    same(again, first)

    write(
        folder,
        {
            "orders/app/routes.py": FILES["orders/app/routes.py"] + "\n\n@router.delete('/orders/{id}')\n"
            "def drop(id: str):\n    return None\n"
        },
        T0 + 10**9,
    )
    (folder / "payments/util.go").unlink()
    write(folder, {"payments/refund.go": "package main\n\nfunc refund() {}\n"})
    changed = knowledge(db, folder)
    assert changed["parsed"] == 2
    assert {(a.method, a.path) for a in changed["apis"]} >= {("DELETE", "/api/orders/{id}")}
    same(changed, knowledge(tmp_path / "cold.db", folder))
