"""Caller and callee in separate repositories, indexed one after the other into one database with
the real analyzer: the call is reconciled to the callee service and API indexed later."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from .conftest import Cli


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(dedent(text))


def test_call_is_reconciled_when_the_callee_repository_is_indexed_later(cli: Cli, tmp_path: Path) -> None:
    write(tmp_path / "storefront", {
        "requirements.txt": "fastapi\nhttpx\n",
        "Dockerfile": "FROM python:3.12\nCMD uvicorn main:app\n",
        "settings.py": """\
            import os

            BILLING_URL = os.getenv("BILLING_URL", "http://billing-svc:8000")
            """,
        "main.py": """\
            import httpx
            from fastapi import FastAPI

            from settings import BILLING_URL

            app = FastAPI()


            @app.post("/buy/{sku}")
            def buy(sku: str):
                \"\"\"Buy one product.\"\"\"
                return httpx.post(f"{BILLING_URL}/charges/{sku}", json={}).json()
            """,
    })
    write(tmp_path / "billing", {
        "go.mod": "module example.com/billing\n\ngo 1.22\n",
        "Dockerfile": "FROM golang:1.22\n",
        "main.go": """\
            package main

            import "net/http"

            // charge takes a payment for one product.
            func charge(w http.ResponseWriter, r *http.Request) {}

            func main() {
            \tmux := http.NewServeMux()
            \tmux.HandleFunc("POST /charges/{sku}", charge)
            \thttp.ListenAndServe(":8000", mux)
            }
            """,
    })
    cli.run("index", str(tmp_path / "storefront"))
    before = cli.json("describe", "storefront")["calls"]
    assert [(c["to_service_name"], c["target_kind"]) for c in before] == [("billing-svc", "internal")]
    out = cli.run("index", str(tmp_path / "billing")).stdout
    assert "reconciled 1 calls" in out
    after = cli.json("describe", "storefront")["calls"]
    assert [(c["to_service_name"], c["target_kind"], c["method"]) for c in after] == [("billing", "internal", "POST")]
    assert cli.json("describe", "billing")["called_by"] == ["storefront"]
    rel = cli.json("relationships", "billing", "--direction", "in")["relationships"]
    assert rel[0]["source_service"] == "storefront"
    api = cli.json("describe", "billing", "--api", "POST /charges/{sku}")
    assert api["handler"] == "charge"
