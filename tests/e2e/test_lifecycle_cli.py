"""`orbitkb remove`, `backup` and `restore` through the real console script, and the MCP refresh
tool after a removal."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import mcp
import pytest

from orbitkb.bootstrap import Settings, build_application
from orbitkb.cli.exit import ExitStatus
from orbitkb.mcp.server import build_server
from tests.e2e.conftest import EXAMPLE, Cli


@pytest.fixture(scope="module")
def indexed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("lifecycle")
    Cli(tmp / "kb.db", tmp).run("index", str(EXAMPLE), "--repository-name", "shopfront")
    return tmp / "kb.db"


@pytest.fixture
def shop(cli: Cli, indexed_db: Path) -> Cli:
    """``cli`` on its own copy of a database holding the example as ``shopfront``."""
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{indexed_db}{suffix}").exists():
            shutil.copy(f"{indexed_db}{suffix}", f"{cli.db}{suffix}")
    return cli


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_remove_forgets_a_repository_and_refresh_does_not_bring_it_back(shop: Cli, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(EXAMPLE / "payments", other)
    shop.run("index", str(other), "--repository-name", "other")

    out = shop.run("remove", "shopfront").stdout
    assert "removed shopfront" in out and "services" in out
    assert [r["repository"]["name"] for r in shop.json("status")["repositories"]] == ["other"]
    assert shop.run("describe", "storefront", check=False).returncode == ExitStatus.NOT_FOUND
    missing = shop.run("remove", "shopfront", check=False)
    assert missing.returncode == ExitStatus.NOT_FOUND and "not indexed" in missing.stderr
    assert shop.run("update", "shopfront", check=False).returncode == ExitStatus.NOT_FOUND

    app = build_application(Settings(db_path=str(shop.db), backend="offline", embedder="off"))
    server = build_server(app, "full")

    async def refresh(args: dict[str, str]):  # type: ignore[no-untyped-def]
        async with mcp.Client(server) as client:
            return await client.call_tool("refresh", args)

    assert asyncio.run(refresh({"repository": "shopfront"})).is_error
    everything = asyncio.run(refresh({}))
    assert [r["repository"] for r in everything.structured_content["refreshed"]] == ["other"]
    assert [r.name for r in app.adapters.store().list_repositories()] == ["other"]


WRITER = textwrap.dedent("""
    import sqlite3, sys, time
    conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
    conn.execute("PRAGMA wal_autocheckpoint = 0")  # what it writes stays in the -wal file
    conn.execute("INSERT INTO llm_cache (key, value) VALUES ('only-in-the-wal', 'x')")
    print("ready", flush=True)
    i = 0
    while True:  # keeps writing while the backup runs
        conn.execute("INSERT OR REPLACE INTO llm_cache (key, value) VALUES (?, 'y')", (f"k{i % 50}",))
        i += 1
        time.sleep(0.001)
""")


def test_backup_is_consistent_under_wal_while_another_process_writes(shop: Cli, tmp_path: Path) -> None:
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(shop.db)], stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        backup = tmp_path / "kb-backup.db"
        out = shop.run("backup", str(backup)).stdout
        assert "backed up" in out and "shopfront" in out
    finally:
        writer.kill()
        writer.wait()
    copy = sqlite3.connect(backup)
    assert copy.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
    assert copy.execute("SELECT value FROM llm_cache WHERE key = 'only-in-the-wal'").fetchone() == ("x",)
    assert copy.execute("SELECT count(*) FROM services").fetchone()[0] == 10
    copy.close()
    assert not Path(f"{backup}-wal").exists()
    again = shop.run("backup", str(backup), check=False)  # never overwrites a file silently
    assert again.returncode == ExitStatus.CONFLICT and "--force" in again.stderr
    shop.run("backup", str(backup), "--force")


def test_restore_brings_back_a_backup_and_keeps_the_database_it_replaces(shop: Cli, tmp_path: Path) -> None:
    backup = tmp_path / "b.db"
    shop.run("backup", str(backup))
    shop.run("remove", "shopfront")
    serving = build_application(Settings(db_path=str(shop.db), backend="offline", embedder="off"))
    store = serving.adapters.store()  # another user of the database, open across the restore
    assert store.list_repositories() == []

    out = shop.run("restore", str(backup)).stdout

    assert "restored" in out and "kept at" in out
    assert [r.name for r in store.list_repositories()] == ["shopfront"]  # seen by the open store
    assert len(shop.json("list")["services"]) == 10
    [previous] = tmp_path.glob("kb.db.before-restore-*")
    assert sqlite3.connect(previous).execute("SELECT count(*) FROM repositories").fetchone()[0] == 0


def test_restore_refuses_what_is_not_a_usable_orbitkb_backup_and_changes_nothing(shop: Cli, tmp_path: Path) -> None:
    good = tmp_path / "good.db"
    shop.run("backup", str(good))
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)
    foreign = tmp_path / "foreign.db"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.commit()
    newer = tmp_path / "newer.db"
    shutil.copy(good, newer)
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE schema_meta SET value = '999' WHERE key = 'version'")
    before = _digest(shop.db)

    for bad, status, words in ((text, ExitStatus.USAGE, "not an SQLite database"),
                               (foreign, ExitStatus.USAGE, "not an orbitkb one"),
                               (newer, ExitStatus.ERROR, "newer than version"),
                               (tmp_path / "missing.db", ExitStatus.USAGE, "does not exist")):
        proc = shop.run("restore", str(bad), check=False)
        assert proc.returncode == status, proc.stderr
        assert words in proc.stderr and "Traceback" not in proc.stderr
    assert _digest(shop.db) == before
    assert not list(tmp_path.glob("kb.db.before-restore-*"))
    assert len(shop.json("list")["services"]) == 10
