"""The command line keeps the reference's options and shapes (issue 13 item 6): --hint-services
(with --hint as an alias), update by service name, relationships --direction inbound/outbound,
no trend on the first smells run, and unknown kinds, repositories and hints as clear errors."""

from __future__ import annotations

from pathlib import Path

from .conftest import Cli


def test_hint_services_and_its_alias(indexed: Cli) -> None:
    for flag in ("--hint-services", "--hint"):
        s = indexed.json("analyze", "Improve the nightly job", flag, "payments")
        assert "payments" in [p["service"] for p in s["primary"]]
    both = indexed.json("analyze", "Improve the nightly job", "--hint-services", "payments,orders")
    assert {"payments", "orders"} <= {p["service"] for p in both["primary"] + both["secondary"]}
    bad = indexed.run("analyze", "Improve the nightly job", "--hint-services", "paymnts-x", check=False)
    assert bad.returncode == 3 and "unknown service" in bad.stderr and "payments" in bad.stderr


def test_direction_inbound_outbound(indexed: Cli) -> None:
    inbound = indexed.json("relationships", "payments", "--direction", "inbound")["relationships"]
    assert inbound and {r["direction"] for r in inbound} == {"inbound"}
    outbound = indexed.json("relationships", "payments", "--direction", "outbound")["relationships"]
    assert {r["direction"] for r in outbound} <= {"outbound"}


def test_smells_first_run_has_no_trend_and_unknown_kind_is_bad_input(cli: Cli, tmp_path: Path) -> None:
    from .conftest import EXAMPLE

    cli.run("index", str(EXAMPLE), "--repository-name", "shopfront")
    assert "trend" not in cli.json("smells")
    bad = cli.run("smells", "--kind", "spaghetti", check=False)
    assert bad.returncode == 2 and "unknown kind" in bad.stderr and "cycle" in bad.stderr


def test_unknown_repository_is_not_found(indexed: Cli, tmp_path: Path) -> None:
    for args in (("list", "--repository", "nope"), ("export", "md", "--out", str(tmp_path / "x"), "--repository", "nope"),
                 ("update", "nope")):
        res = indexed.run(*args, check=False)
        assert res.returncode == 3, (args, res.stdout, res.stderr)
        assert "nope" in res.stderr


def test_update_by_service_name_reindexes_its_repository(indexed: Cli) -> None:
    out = indexed.json("update", "payments")
    assert out["repository"]["name"] == "shopfront"
