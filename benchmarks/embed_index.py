"""What embeddings add to an index (issue 14): time and texts embedded, cold and after one change.

    uv run python benchmarks/embed_index.py [--services 40 --files 800 --seed 1] [--bin PATH]

Indexes the synthetic system (benchmarks/synth.py) four times as fresh `orbitkb index` processes,
offline: cold without embeddings, cold with the packaged embedder (``--embedder auto``), again
with nothing changed, and after appending a line to one source file. Prints wall and CPU time
(user + system of the index process and its workers: on a shared, loaded machine the CPU ratio is
the one to read) and the embeddings step's own report (vectors written, distinct new texts
embedded). Target: a cold index with embeddings within 1.5x of one without.

``--breakdown`` says where the extra time goes, in this process: the cold index without
embeddings, loading the model, the embedder's own calls (batches, texts, characters), and the rest
of the embeddings step (documents, hashes, vectors written to the store).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib.corpus import ensure_system  # noqa: E402


def index(orbitkb: str, folder: Path, db: Path, embedder: str) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([orbitkb, "index", str(folder), "--db", str(db), "--backend", "offline", "--embedder",
                           embedder, "--json", "--repository-name", "synth"], check=True, capture_output=True,
                          text=True)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    hooks = json.loads(proc.stdout).get("hooks", [])
    return seconds, cpu, next((h.get("message", "") for h in hooks if h.get("name") == "embeddings"), "-")


def cpu_now() -> float:
    """CPU seconds of this process and its finished children (the analysis workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


class TimedEmbedder:
    """The real embedder, with the time, batches, texts and characters of every call counted."""

    def __init__(self, inner: object) -> None:
        self.inner, self.seconds, self.cpu, self.batches, self.texts, self.chars = inner, 0.0, 0.0, 0, 0, 0

    @property
    def model_id(self) -> str:
        return self.inner.model_id  # type: ignore[attr-defined,no-any-return]

    @property
    def dim(self) -> int:
        return self.inner.dim  # type: ignore[attr-defined,no-any-return]

    def embed(self, texts: list[str]) -> list[tuple[float, ...]]:
        t0, c0 = time.perf_counter(), cpu_now()
        out = self.inner.embed(texts)  # type: ignore[attr-defined]
        self.seconds += time.perf_counter() - t0
        self.cpu += cpu_now() - c0
        self.batches, self.texts, self.chars = self.batches + 1, self.texts + len(texts), self.chars + sum(map(len, texts))
        return out  # type: ignore[no-any-return]


def breakdown(folder: Path, tmp: Path) -> list[tuple[str, float, float, str]]:
    """Two cold indexes in this process — without, then with the packaged model — and the parts."""
    from orbitkb.bootstrap import Settings, build_application
    from orbitkb.bootstrap.lean import providers
    from orbitkb.domain.usecases.indexing import IndexRequest
    from orbitkb.fastembed import load_embedder

    def cold(name: str, embedder: object) -> tuple[float, float]:
        app = build_application(Settings(db_path=str(tmp / f"{name}.db"), backend="offline", embedder="off"))
        app.adapters.embedder.override(providers.Object(embedder))
        t0, c0 = time.perf_counter(), cpu_now()
        app.use_cases.index_repository()(IndexRequest(path=str(folder), repository_name="synth"))
        return time.perf_counter() - t0, cpu_now() - c0

    without, without_cpu = cold("off", None)
    t0, c0 = time.perf_counter(), cpu_now()
    model = load_embedder(None)
    model.embed(["load the model"])  # the model loads on the first call
    loading, loading_cpu = time.perf_counter() - t0, cpu_now() - c0
    timed = TimedEmbedder(model)
    with_vectors, with_cpu = cold("on", timed)
    return [
        ("cold index, no embeddings", without, without_cpu, ""),
        ("loading the packaged model (once per process)", loading, loading_cpu, ""),
        ("embedder calls", timed.seconds, timed.cpu, f"{timed.batches} batches, {timed.texts} texts, "
                                                     f"{timed.chars:,} characters, "
                                                     f"{1000 * timed.cpu / max(timed.texts, 1):.1f} CPU ms a text"),
        ("rest of the embeddings step (documents, hashes, store writes)", with_vectors - without - timed.seconds,
         with_cpu - without_cpu - timed.cpu, ""),
        ("cold index with embeddings (model loaded before)", with_vectors, with_cpu,
         f"{(with_vectors + loading) / without:.2f}x wall, {(with_cpu + loading_cpu) / without_cpu:.2f}x CPU the "
         f"index without, the model's loading included"),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--services", type=int, default=40)
    ap.add_argument("--files", type=int, default=800)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", help="the orbitkb command (default: this environment's)")
    ap.add_argument("--breakdown", action="store_true", help="where the time of the embeddings goes, in-process")
    args = ap.parse_args(argv)
    if args.breakdown:
        source, _ = ensure_system(args.services, args.files, args.seed)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "system"
            shutil.copytree(source, folder)
            parts = breakdown(folder, Path(tmp))
        print(f"{args.services} services, {args.files} files; load average {os.getloadavg()[0]:.1f}")
        print("| part | wall seconds | CPU seconds | |\n|---|---|---|---|")
        for label, seconds, cpu, note in parts:
            print(f"| {label} | {seconds:.2f} | {cpu:.2f} | {note} |")
        return 0
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
    print(f"{args.services} services, {args.files} files; load average {os.getloadavg()[0]:.1f}")
    print("| index | wall seconds | CPU seconds | embeddings step |\n|---|---|---|---|")
    for label, seconds, cpu, message in rows:
        print(f"| {label} | {seconds:.1f} | {cpu:.1f} | {message} |")
    print(f"cold with / without embeddings: {rows[1][1] / rows[0][1]:.2f}x wall, {rows[1][2] / rows[0][2]:.2f}x CPU "
          f"(target <= 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
