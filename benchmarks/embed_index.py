"""What embeddings add to an index (issue 14): time and texts embedded, cold and after one change.

    uv run python benchmarks/embed_index.py [--services 40 --files 800 --seed 1] [--bin PATH]

Indexes the synthetic system (benchmarks/synth.py) four times as fresh `orbitkb index` processes,
offline: cold without embeddings, cold with the packaged embedder (``--embedder auto``), again
with nothing changed, and after appending a line to one source file. Prints wall time and the
embeddings step's own report (vectors written, distinct new texts embedded). Target: a cold
index with embeddings within 1.5x of one without.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib.corpus import ensure_system  # noqa: E402


def index(orbitkb: str, folder: Path, db: Path, embedder: str) -> tuple[float, str]:
    t0 = time.perf_counter()
    proc = subprocess.run([orbitkb, "index", str(folder), "--db", str(db), "--backend", "offline", "--embedder",
                           embedder, "--json", "--repository-name", "synth"], check=True, capture_output=True,
                          text=True)
    seconds = time.perf_counter() - t0
    hooks = json.loads(proc.stdout).get("hooks", [])
    return seconds, next((h.get("message", "") for h in hooks if h.get("name") == "embeddings"), "-")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--services", type=int, default=40)
    ap.add_argument("--files", type=int, default=800)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", help="the orbitkb command (default: this environment's)")
    args = ap.parse_args(argv)
    orbitkb = args.bin or str(Path(sys.executable).parent / "orbitkb")
    source, _ = ensure_system(args.services, args.files, args.seed)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "system"
        shutil.copytree(source, folder)
        rows.append(("cold, no embeddings", *index(orbitkb, folder, Path(tmp) / "off.db", "off")))
        db = Path(tmp) / "auto.db"
        rows.append(("cold, embeddings", *index(orbitkb, folder, db, "auto")))
        rows.append(("no change, embeddings", *index(orbitkb, folder, db, "auto")))
        victim = sorted(p for p in folder.rglob("*.py") if p.is_file())[0]
        victim.write_text(victim.read_text() + "\n# touched by the benchmark\n")
        rows.append(("one file changed, embeddings", *index(orbitkb, folder, db, "auto")))
    print(f"{args.services} services, {args.files} files")
    print("| index | seconds | embeddings step |\n|---|---|---|")
    for label, seconds, message in rows:
        print(f"| {label} | {seconds:.1f} | {message} |")
    print(f"cold with / without embeddings: {rows[1][1] / rows[0][1]:.2f}x (target <= 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
