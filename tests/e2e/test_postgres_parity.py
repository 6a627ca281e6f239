"""The example system answers the same from SQLite and PostgreSQL through the real command
(list, describe, relationships, trace, smells, change surface; search top-5 overlapping >= 4/5),
and `orbitkb copy` moves it between the two with every row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import EXAMPLE, Cli

QUESTIONS = (
    ("list",),
    ("describe", "payments"),
    ("describe", "orders"),
    ("relationships", "orders"),
    ("trace", "api-gateway", "payments"),
    ("smells",),
)
SEARCHES = ("payment", "order created", "stock reservation", "shipping label", "login")


@pytest.fixture(scope="module")
def both(tmp_path_factory, postgres_cluster) -> tuple[Cli, Cli]:
    root = tmp_path_factory.mktemp("parity")
    lite = Cli(root / "kb.db", root)
    pg = Cli(postgres_cluster.create_database(), root)  # type: ignore[arg-type]
    for cli in (lite, pg):
        cli.run("index", str(EXAMPLE))
    return lite, pg


def _answer(cli: Cli, *question: str) -> object:
    data = cli.json(*question)
    text = json.dumps(data, sort_keys=True)
    # freshness and run times are the clock's, not the store's
    for key in ("indexed_at", "created_at", "started_at", "finished_at"):
        text = text.replace(key, key)
    return _without_times(json.loads(text))


def _without_times(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_times(v) for k, v in value.items()
                if k not in {"indexed_at", "created_at", "started_at", "finished_at", "run_id", "age_seconds"}}
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    return value


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: " ".join(q))
def test_the_example_answers_identically_from_both_stores(both, question):
    lite, pg = both
    assert _answer(pg, *question) == _answer(lite, *question)


@pytest.mark.parametrize("words", SEARCHES)
def test_search_top_five_overlap_at_least_four(both, words):
    lite, pg = both

    def top(cli: Cli) -> list[str]:
        hits = cli.json("search", *words.split())
        hits = hits["hits"] if isinstance(hits, dict) else hits
        return [f"{h['kind']}:{h.get('service')}:{h['name']}" for h in hits[:5]]

    from_lite, from_pg = top(lite), top(pg)
    assert len(set(from_lite) & set(from_pg)) >= min(4, len(from_lite)), (from_lite, from_pg)


def test_the_change_surface_names_the_same_services(both):
    lite, pg = both

    def tiers(cli: Cli) -> object:
        data = cli.json("analyze", "Let customers pay with Pix at checkout")
        return {tier: sorted(s["service"] for s in data.get(tier, [])) for tier in ("primary", "secondary")}

    assert tiers(pg) == tiers(lite)


def test_copy_round_trips_between_sqlite_and_postgres(both, postgres_cluster, tmp_path: Path):
    lite, _pg = both
    target = postgres_cluster.create_database()
    out = lite.run("copy", str(lite.db), target, "--json")  # --db is ignored by copy
    counts = json.loads(out.stdout)["counts"]
    assert counts["services"] == 10 and counts["search_docs"] > 0 and counts["index_runs"] >= 1
    back = Cli(tmp_path / "back.db", tmp_path)
    again = json.loads(back.run("copy", target, str(back.db), "--json").stdout)["counts"]
    assert again == counts
    assert _answer(back, "describe", "payments") == _answer(lite, "describe", "payments")
    refused = back.run("copy", str(lite.db), str(back.db), check=False)
    assert refused.returncode == 5 and "not empty" in refused.stderr


def test_backup_and_restore_of_a_server_through_the_command(both, postgres_cluster, tmp_path: Path):
    lite, pg = both
    backup = pg.json("backup", str(tmp_path / "kb.backup"))
    assert backup["repositories"] and (tmp_path / "kb.backup").read_bytes().startswith(b"SQLite format 3")
    restored = Cli(postgres_cluster.create_database(), tmp_path)  # type: ignore[arg-type]
    restored.run("index", str(EXAMPLE / "inventory"), "--repository-name", "other")
    report = restored.json("restore", str(tmp_path / "kb.backup"))
    assert report["repositories"] == backup["repositories"] and report["previous_copy"]
    for question in QUESTIONS:
        assert _answer(restored, *question) == _answer(pg, *question), question
    assert _answer(Cli(tmp_path / "kb.backup", tmp_path), "list") == _answer(lite, "list")
    refused = restored.run("restore", str(EXAMPLE / "README.md"), check=False)
    assert refused.returncode == 2 and "nothing was restored" in refused.stderr
