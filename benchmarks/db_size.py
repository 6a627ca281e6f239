"""Database size against source size (issue 14: the database must not outgrow the code it indexes).

    uv run python benchmarks/db_size.py [--services 300 --files 20000 --seed 1]

Indexes the synthetic system (benchmarks/synth.py, cached under benchmarks/out/) offline, without
embeddings, into a fresh database, checkpoints the WAL, and prints the source bytes, the database
bytes, their ratio and the share of each table (SQLite's dbstat; indexes counted with their table).
Target: database <= 1x the source at 300 services.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib.corpus import ensure_system  # noqa: E402

TARGET_RATIO = 1.0


def source_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and p.name != "expected.json")


def table_bytes(db: Path) -> dict[str, int]:
    conn = sqlite3.connect(db)
    try:
        owners = dict(conn.execute("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')"))
        sizes: dict[str, int] = {}
        for name, size in conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            owner = owners.get(name, name)
            owner = next((t for t in owners.values() if owner.startswith(t + "_")), owner)  # FTS shadow tables
            sizes[owner] = sizes.get(owner, 0) + size
        return sizes
    except sqlite3.OperationalError:  # an SQLite built without dbstat
        return {}
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--services", type=int, default=300)
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", help="the orbitkb command (default: this environment's)")
    args = ap.parse_args(argv)
    orbitkb = args.bin or str(Path(sys.executable).parent / "orbitkb")
    folder, _ = ensure_system(args.services, args.files, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "kb.db"
        t0 = time.perf_counter()
        subprocess.run([orbitkb, "index", str(folder), "--db", str(db), "--backend", "offline", "--embedder", "off"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - t0
        conn = sqlite3.connect(db)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        src, size = source_bytes(folder), db.stat().st_size
        tables = table_bytes(db)
    ratio = size / src
    print(f"{args.services} services, {args.files} files; cold index {seconds:.1f} s")
    print(f"| source | database | database / source |\n|---|---|---|\n| {src / 1e6:.1f} MB | {size / 1e6:.1f} MB | "
          f"{ratio:.2f}x {'✔' if ratio <= TARGET_RATIO else '✘'} (target <= {TARGET_RATIO:.0f}x) |")
    if tables:
        total = sum(tables.values())
        print("| table | MB | share |\n|---|---|---|")
        for name, n in sorted(tables.items(), key=lambda kv: -kv[1])[:8]:
            print(f"| {name} | {n / 1e6:.1f} | {100 * n / total:.0f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
