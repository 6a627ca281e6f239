"""Read-only commands start lean: `--version`, `list` and `describe` import neither the MCP SDK
(pydantic, starlette), PyYAML, fastembed, numpy, the analyzers, the PostgreSQL dialect, the LLM
backends nor the use cases they do not run (issue 14)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Api, Repository, Service, ServiceFacts
from orbitkb.sqlite import SqliteKnowledgeStore

HEAVY = ("pydantic", "pydantic_core", "starlette", "mcp", "orbitkb.mcp", "yaml", "fastembed", "onnxruntime",
         "numpy", "orbitkb.analysis", "orbitkb.fastembed", "tree_sitter",
         # the PostgreSQL store and dialect (and asyncio's TLS with it) on an SQLite database — its URL
         # schemes (orbitkb.postgres.urls) are read; use cases not asked for
         "sqlalchemy.dialects.postgresql", "orbitkb.postgres.store", "orbitkb.postgres.engine", "orbitkb.domain.usecases.change_surface",
         "orbitkb.domain.usecases.indexing", "orbitkb.domain.enrichment", "orbitkb.llm_cli.detect",
         # the modules of the commands a run does not run (and what they import: TOML, the smells)
         "orbitkb.cli.commands.analyze", "orbitkb.cli.commands.setup", "orbitkb.cli.client_setup", "tomllib",
         "orbitkb.domain.architecture.smells", "orbitkb.cli.commands.index")

PROBE = """
import json, sys
from orbitkb.cli.main import main
try:
    status = main(sys.argv[1:])
except SystemExit as exc:
    status = exc.code
heavy = sorted(m for m in {heavy!r} if m in sys.modules)
print("\\nPROBE" + json.dumps({{"status": status, "heavy": heavy}}), file=sys.stderr)
"""


def run_probe(*argv: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *argv], capture_output=True,
                          text=True, timeout=120)
    line = [x for x in proc.stderr.splitlines() if x.startswith("PROBE")]
    assert line, proc.stderr
    return json.loads(line[-1][5:])


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "kb.db"
    sid = service_id("shop", "orders")
    svc = Service(sid, "orders", "shop", "orders", "python", framework="fastapi")
    api = Api("api:orders:1", sid, "GET", "/orders/{id}", "get_order", "orders/app.py", 3, 9)
    with SqliteKnowledgeStore(str(path)) as store:
        store.replace_repository_facts(Repository("shop", str(tmp_path), "none"), [ServiceFacts(svc, apis=(api,))],
                                       [], [], [], [])
    return path


@pytest.mark.parametrize("argv", [("--version",), ("list",), ("list", "--json"), ("describe", "orders"),
                                  ("describe", "orders", "--json")])
def test_read_only_commands_do_not_import_heavy_modules(db: Path, argv: tuple[str, ...]) -> None:
    found = run_probe(*argv, *(("--db", str(db)) if argv[0] != "--version" else ()))
    assert found["status"] in (0, None)
    assert found["heavy"] == []


def test_list_reads_an_sqlite_file_without_sqlalchemy_and_describe_still_uses_the_store(db: Path) -> None:
    listed = subprocess.run([sys.executable, "-c", PROBE.format(heavy=("sqlalchemy",)), "list", "--db", str(db)],
                            capture_output=True, text=True, timeout=120)
    assert "orders" in listed.stdout and 'PROBE{"status": 0, "heavy": []}' in listed.stderr
    described = run_probe("describe", "orders", "--db", str(db))  # the full store, as before
    assert described["status"] in (0, None)
    code = PROBE.format(heavy=("sqlalchemy",))
    done = subprocess.run([sys.executable, "-c", code, "describe", "orders", "--db", str(db)], capture_output=True,
                          text=True, timeout=120)
    assert '"heavy": ["sqlalchemy"]' in done.stderr


#: what listing services on an SQLite file never needs: the container (dependency-injector and the
#: asyncio it imports), the ports and read model, the describe answers
NOT_FOR_LIST = ("dependency_injector", "asyncio", "orbitkb.bootstrap.container", "orbitkb.domain.ports",
                "orbitkb.domain.system_model", "orbitkb.domain.usecases.describe")


@pytest.mark.parametrize("argv", [("list",), ("list", "--json"), ("list", "--repository", "shop")])
def test_list_on_an_sqlite_file_builds_no_container(db: Path, argv: tuple[str, ...]) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=NOT_FOR_LIST), *argv, "--db", str(db)],
                          capture_output=True, text=True, timeout=120)
    assert "orders" in done.stdout and 'PROBE{"status": 0, "heavy": []}' in done.stderr, done.stderr


def test_list_errors_and_describe_still_answer_through_the_container(db: Path, tmp_path: Path) -> None:
    """The negative cases: describe builds the container; a list that fails says why as before."""
    described = subprocess.run([sys.executable, "-c", PROBE.format(heavy=NOT_FOR_LIST), "describe", "orders",
                                "--db", str(db)], capture_output=True, text=True, timeout=120)
    assert '"dependency_injector"' in described.stderr and '"orbitkb.bootstrap.container"' in described.stderr
    unknown = subprocess.run([sys.executable, "-c", PROBE.format(heavy=()), "list", "--repository", "nope",
                              "--db", str(db)], capture_output=True, text=True, timeout=120)
    assert "repository 'nope' is not indexed" in unknown.stderr and '"status": 3' in unknown.stderr
    empty = subprocess.run([sys.executable, "-c", PROBE.format(heavy=()), "list", "--db", str(tmp_path / "none.db")],
                           capture_output=True, text=True, timeout=120)
    assert "the knowledge base is empty" in empty.stderr and '"status": 4' in empty.stderr and not (tmp_path / "none.db").exists()


def test_the_probe_sees_heavy_modules_when_a_command_needs_them(db: Path) -> None:
    """The negative case: `serve --help` is not lean-checked, but the MCP server module is heavy."""
    proc = subprocess.run([sys.executable, "-c", "import sys, orbitkb.mcp.server\n"
                           "print('pydantic' in sys.modules)"], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "True"


def test_the_mcp_server_still_imports_what_the_container_skipped(tmp_path: Path) -> None:
    """The container loads dependency-injector without its optional integrations; importing them
    afterwards (as the MCP SDK does) must work normally."""
    code = ("import sys\nfrom orbitkb.bootstrap import build_application\n"
            "assert 'pydantic' not in sys.modules and 'yaml' not in sys.modules\n"
            "import pydantic, yaml, starlette.requests\n"
            "from dependency_injector import providers\n"
            "print(pydantic.VERSION.split('.')[0], yaml.__name__)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["2", "yaml"]
