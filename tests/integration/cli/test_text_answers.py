"""The terminal answers of `describe` and `relationships` read the typed views: the libraries line
says when the list was cut, and each relationship says who stated it."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from orbitkb.cli.main import main
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    CallKind,
    Evidence,
    Provenance,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    Technology,
)
from orbitkb.sqlite import SqliteKnowledgeStore


def _libraries(sid: str, count: int) -> tuple[Technology, ...]:
    return tuple(Technology(make_id("tech", sid, i), sid, "library", f"lib-{i:03d}") for i in range(count))


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "kb.db")
    bakery, mill, farm = (service_id("town", n) for n in ("bakery", "mill", "farm"))
    calls = (ServiceCall(make_id("call", "flour"), bakery, CallKind.HTTP, "mill", to_service_id=mill,
                         evidence=(Evidence("bakery/flour.py", 8, 8),)),
             ServiceCall(make_id("call", "eggs"), bakery, CallKind.HTTP, "farm", to_service_id=farm,
                         provenance=Provenance.LLM, confidence=0.5, reason="orders eggs each morning"))
    with SqliteKnowledgeStore(path) as store:
        store.replace_repository_facts(Repository("town", str(tmp_path), "none"), [
            ServiceFacts(Service(bakery, "bakery", "town", "bakery", "python"), calls=calls,
                         technologies=_libraries(bakery, 3)),
            ServiceFacts(Service(mill, "mill", "town", "mill", "python"), technologies=_libraries(mill, 60)),
            ServiceFacts(Service(farm, "farm", "town", "farm", "python"))], [], [], [], [])
    return path


def _run(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


def test_the_libraries_line_says_when_the_list_was_cut(db: str) -> None:
    cut = next(line for line in _run("describe", "mill", "--db", db).splitlines() if "libraries:" in line)
    assert cut.endswith("(more with --json)") and "lib-049" in cut and "lib-050" not in cut
    whole = next(line for line in _run("describe", "bakery", "--db", db).splitlines() if "libraries:" in line)
    assert whole.endswith("lib-002")


def test_each_relationship_says_who_stated_it(db: str) -> None:
    lines = _run("relationships", "bakery", "--db", db).splitlines()
    assert lines[0] == "bakery: 2 relationships"
    assert any(line.split()[1] == "mill" and "(deterministic) bakery/flour.py:8" in line for line in lines)
    assert any(line.split()[1] == "farm" and "(llm)" in line for line in lines)
