"""One registry of persistence engines: ``orbitkb.domain.engines`` is the list; the engine words of
every analysis table (drivers, URL schemes, images, each stack's ORM and client tables) and the enum
an LLM answers with all come from it or stay inside it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

import pytest

from orbitkb.analysis.dapr import components
from orbitkb.analysis.dotnet import nhibernate
from orbitkb.analysis.dotnet import persistence as dotnet_persistence
from orbitkb.analysis.dotnet import tables as dotnet
from orbitkb.analysis.golang import tables as golang
from orbitkb.analysis.jvm import tables as jvm
from orbitkb.analysis.node import prisma
from orbitkb.analysis.node import stores as node
from orbitkb.analysis.php import tables as php
from orbitkb.analysis.python import signatures as python
from orbitkb.analysis.resolution import engines
from orbitkb.analysis.ruby import tables as ruby
from orbitkb.domain.engines import ENGINE_CHOICES, ENGINES, UNKNOWN_ENGINE
from orbitkb.domain.enrichment.schemas import persistence_schema
from orbitkb.domain.enrichment.validate import validate

_TRUTH = Path(__file__).resolve().parents[3] / "benchmarks" / "realworld" / "truth"


def _named(values: Iterable[object]) -> set[str]:
    return {v for v in values if isinstance(v, str) and v}


def _table_engines() -> dict[str, set[str]]:
    """Every engine word of the analysis adapter's tables, by the table that holds it."""
    t = engines.tables()
    images = json.loads(resources.files("orbitkb.analysis.layout").joinpath("infra_images.json").read_text("utf-8"))
    return {
        "engines.json": _named([*t["entity_dependencies"].values(), *t["url_schemes"].values(),
                                *t["engine_aliases"].values(), *t["embedded_engines"],
                                *(e for kinds in t["entity_kinds"].values() for e in kinds)]),
        "infra_images.json": _named(v[1] for k, v in images.items() if k != "_doc" and v[0] == "database"),
        "dapr state stores": _named(components._table()["state"].values()),
        "dotnet": _named([*dotnet.PROVIDERS.values(), *dotnet.CONNECTIONS.values(), *dotnet.COMMANDS.values(),
                          *(e for _, e in nhibernate.ENGINES), dotnet_persistence.IN_MEMORY]),
        "node": _named([*node.DRIVER_MODULES.values(), *node.CLIENTS.values(), *node.KNEX_CLIENTS.values(),
                        *node.CLIENT_TYPES.values(), *node.DOCUMENT_ENGINES, *node.SQL_ENGINES,
                        *node.SEARCH_ENGINES, *prisma._ENGINES.values()]),
        "golang": _named([*golang.GORM_DRIVERS.values(), *golang.SQL_DRIVERS.values()]),
        "jvm": _named([*(v[1] for v in jvm.STORE_ANNOTATIONS.values()), *(v[2] for v in jvm.STORE_IMPORTS),
                       *(v[1] for v in jvm.REPOSITORIES.values())]),
        "php": _named(php.DRIVERS.values()),
        "python": _named([*python.PEEWEE_DATABASES.values(), *(v[2] for v in python.STORE_MODELS.values()),
                          *(v[1] for v in python.SEARCH_DOCUMENTS.values()),
                          *(v[1] for v in python.VECTOR_STORES.values()),
                          *python.DJANGO_CACHE_BACKENDS.values(), *python.DJANGO_ENGINES.values()]),
        "ruby": _named(v[1] for v in (*ruby.MODEL_BASES.values(), *ruby.MODEL_MODULES.values())),
    }  # fmt: skip


def test_the_list_is_one_spelling_per_engine() -> None:
    assert len(set(ENGINES)) == len(ENGINES) and UNKNOWN_ENGINE not in ENGINES
    assert all(e == e.lower() and " " not in e and "_" not in e for e in ENGINES)


@pytest.mark.parametrize("table", sorted(_table_engines()))
def test_every_engine_an_analysis_table_names_is_in_the_domain_list(table: str) -> None:
    assert _table_engines()[table] - set(ENGINES) == set()


def test_an_alias_is_never_itself_a_listed_engine() -> None:
    """``engine_aliases`` turns other spellings into the list's; a key that is a listed engine would
    turn one engine into another."""
    aliases = engines.tables()["engine_aliases"]
    assert {k for k, v in aliases.items() if k in ENGINES and k != v} == set()
    assert engines.normalize_engine("PostgreSQL") == "postgres" and engines.normalize_engine("MSSQL") == "sqlserver"


def test_the_llm_answers_with_the_domain_list_or_unknown() -> None:
    schema = persistence_schema(["e1"])
    assert schema["properties"]["entities"]["items"]["properties"]["engine"]["enum"] == list(ENGINE_CHOICES)
    assert ENGINE_CHOICES == (*ENGINES, "unknown")


@pytest.mark.parametrize("engine", ["cosmosdb", "firestore", "opensearch", "cockroachdb", "h2", "unknown"])
def test_an_engine_the_facts_use_is_a_valid_llm_answer(engine: str) -> None:
    answer = {"entities": [{"ref": "e1", "description": "the orders a customer placed", "engine": engine}]}
    assert validate(answer, persistence_schema(["e1"])) == []


@pytest.mark.parametrize("engine", ["postgresql", "Postgres", "mssql", "mongo", "sql_server", ""])
def test_a_spelling_the_facts_never_use_is_refused(engine: str) -> None:
    answer = {"entities": [{"ref": "e1", "description": "the orders a customer placed", "engine": engine}]}
    assert validate(answer, persistence_schema(["e1"]))


def test_the_ground_truth_of_the_corpus_spells_engines_as_the_list() -> None:
    if not _TRUTH.is_dir():
        pytest.skip("no benchmark corpus in this checkout")
    used = set()
    for path in _TRUTH.glob("*.json"):
        data = json.loads(path.read_text("utf-8"))
        used |= {p.get("engine") for p in data.get("persistence", []) if isinstance(p, dict)}
    assert _named(used), "the corpus names no engine: the truth schema moved"
    assert _named(used) - {UNKNOWN_ENGINE} - set(ENGINES) == set()
