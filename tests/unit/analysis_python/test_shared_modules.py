"""A package no service owns (``common/`` beside ``services/<name>/``) that services import by name
from the import root: read for its declarations (the helper that builds a client, a settings
class), so a call in the service's own code through it resolves; what lies in the shared files is
never the service's own fact."""

from __future__ import annotations

import textwrap

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.python.libraries import imported_files
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.ports import AnalysisRequest

COMPOSE = """
services:
  basket:
    build: {context: ., args: {APP: basket}}
    environment:
      - PRICING_URL=http://pricing:8000
  pricing:
    build: {context: ., args: {APP: pricing}}
"""

DOCKERFILE = "FROM python:3.12\nARG APP\nCOPY . /srv\nCMD python -m apps.${APP}.main\n"

SHARED_HTTP = """
import httpx

def session(base):
    return httpx.Client(base_url=base, timeout=3)

def ping():
    httpx.get("http://audit:9000/pings")  # a call inside the shared module: nobody's own
"""

SHARED_SETTINGS = """
import os

class Settings:
    pricing_url = os.getenv("PRICING_URL", "http://localhost:8000")

settings = Settings()
"""

BASKET = """
from fastapi import FastAPI
from common.web import session
from common.config import settings

app = FastAPI()
prices = session(settings.pricing_url)

@app.post("/baskets")
def add():
    prices.get("/prices/7")
"""

PRICING = """
from fastapi import FastAPI

app = FastAPI()

@app.get("/prices/{sku}")
def price(sku: str):
    return {}
"""


def analyze(files: dict[str, str]):
    tree = MemorySourceTree({p: textwrap.dedent(t).lstrip("\n") for p, t in files.items()}, commit="c0ffee")
    result = StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("market"), DictAnalysisCache())
    return {f.service.name: f for f in result.services}


def market(**more: str) -> dict[str, str]:
    return {
        "docker-compose.yml": COMPOSE,
        "Dockerfile": DOCKERFILE,
        "requirements.txt": "fastapi\nhttpx\n",
        "common/__init__.py": "",
        "common/web.py": SHARED_HTTP,
        "common/config.py": SHARED_SETTINGS,
        "apps/__init__.py": "",
        "apps/basket/__init__.py": "",
        "apps/basket/main.py": BASKET,
        "apps/pricing/__init__.py": "",
        "apps/pricing/main.py": PRICING,
        **more,
    }


def test_a_client_built_by_a_shared_helper_from_shared_settings_calls_its_service() -> None:
    services = analyze(market())
    basket, pricing = services["basket"], services["pricing"]
    assert [(c.to_service_id, c.path) for c in basket.calls] == [(pricing.service.id, "/prices/{sku}")]


def test_negative_what_the_shared_module_does_itself_is_no_service_fact() -> None:
    services = analyze(market())
    assert all("audit" not in (c.target or "") for s in services.values() for c in s.calls)
    assert not any(c.file_path.startswith("common/") for s in services.values() for c in s.components)


def test_imported_files_follow_imports_through_shared_modules_and_up_the_folders() -> None:
    refs = {
        "svc/a/main.py": ["lib.db.connect", "os.path"],
        "lib/db.py": ["lib.util.retry"],
        "lib/util.py": [],
        "svc/a/helpers.py": [],
    }
    shared = {"lib/db.py", "lib/util.py", "lib/__init__.py", "other/x.py"}
    found = imported_files(["svc/a/main.py", "svc/a/helpers.py"], shared, lambda p: refs.get(p, []), "svc/a")
    assert found == ["lib/db.py", "lib/util.py"]


def test_negative_a_name_no_shared_file_has_reads_nothing() -> None:
    found = imported_files(["svc/main.py"], {"tools/gen.py"}, lambda p: ["requests.get", "svc.models.X"], "svc")
    assert found == []
