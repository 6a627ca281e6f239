"""Every stored fact of a cold index of the synthetic system, dumped in a stable order (issue 14).

    uv run python benchmarks/fact_dump.py [--services 300] [--bin PATH] --out DUMP.txt
    uv run python benchmarks/fact_dump.py --bin OLD_CHECKOUT/.venv/bin/orbitkb --out /tmp/me/before.txt
    cmp /tmp/me/before.txt /tmp/me/after.txt     # a change that only saves memory must change no byte

Generates the system once (benchmarks/synth.py, the folder ``index_memory.py`` uses), runs a cold
`orbitkb index FOLDER --backend offline --embedder off` into a fresh database (this environment's
command or ``--bin``: another tree's, so two trees index the same input), then writes every row of
the fact tables, the search documents (in insertion order: rowids included) and the analysis cache
(keys and value digests), ordered by primary key. What differs between two runs of one tree is left
out: the repository's index time, the run log, and the stat cache (file mtimes, its save time).
Prints the dump's sha256.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib.corpus import OUT_DIR, ensure_system  # noqa: E402

#: table -> columns left out (they change from one run to the next of the same tree)
TABLES = {
    "repositories": {"indexed_at"},
    "services": set(),
    "components": set(),
    "apis": set(),
    "calls": set(),
    "messages": set(),
    "entities": set(),
    "technologies": set(),
    "resources": set(),
    "gaps": set(),
    "indexed_files": set(),
}
SEARCH_TABLE = "search_docs"
VOLATILE_CACHE_PREFIXES = ("stat:",)


def dump(db: Path) -> str:
    """The database's facts as text: one line per row, tables and rows in a stable order."""
    lines: list[str] = []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        for table, skip in TABLES.items():
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] not in skip]
            keys = [r[1] for r in sorted(conn.execute(f"PRAGMA table_info({table})"), key=lambda r: r[5]) if r[5]]
            order = ", ".join(keys or columns)
            lines.append(f"## {table} ({', '.join(columns)})")
            rows = conn.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
            lines.extend(repr(tuple(row)) for row in rows)
        lines.append(f"## {SEARCH_TABLE} (rowid, *)")
        lines.extend(repr(tuple(row)) for row in conn.execute(f"SELECT rowid, * FROM {SEARCH_TABLE} ORDER BY rowid"))
        lines.append("## analysis_cache (key, sha256 of value)")
        for key, value in conn.execute("SELECT key, value FROM analysis_cache ORDER BY key"):
            if not key.startswith(VOLATILE_CACHE_PREFIXES):
                lines.append(f"{key} {hashlib.sha256(bytes(value)).hexdigest()}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--services", type=int, default=300)
    ap.add_argument("--files-per-service", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", help="the orbitkb command to run (default: this environment's)")
    ap.add_argument("--out", type=Path, required=True, help="where to write the dump")
    ap.add_argument("--cache-dir", type=Path, default=OUT_DIR / "mcp",
                    help="where the synthetic system is generated (default: mcp_latency.py's folder)")
    args = ap.parse_args(argv)
    orbitkb = args.bin or shutil.which("orbitkb", path=os.path.dirname(sys.executable)) or shutil.which("orbitkb")
    if not orbitkb:
        raise SystemExit("no orbitkb command found: run inside the workspace (uv run) or pass --bin")
    folder, _expected = ensure_system(args.services, args.services * args.files_per_service, args.seed,
                                      args.cache_dir)
    with tempfile.TemporaryDirectory(prefix="orbitkb-fact-dump-") as tmp:
        db = Path(tmp) / "kb.db"
        run = subprocess.run([orbitkb, "index", str(folder), "--db", str(db), "--backend", "offline",
                              "--embedder", "off"], capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"index failed ({run.returncode}): {run.stderr[-2000:]}")
        text = dump(db)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"{hashlib.sha256(text.encode('utf-8')).hexdigest()}  {args.out} ({text.count(chr(10))} lines; "
          f"{orbitkb}; {folder})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
