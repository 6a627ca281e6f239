"""SQLite vs PostgreSQL for a team (issue 15): index the synthetic system into each store, four
indexers of different repositories at once into PostgreSQL (wall time vs one after the other), and
20 concurrent clients reading describe_service / search / find_change_surface from each store, and
the store's own cost of the bm25 queries those tools send (one ``search_many``).

    uv run python benchmarks/postgres.py [--services 300 --files 3000] [--sizes 300,1000]
        [--clients 20 --calls 15] [--no-four-indexers] [--url postgresql://…]

Without ``--url`` a throwaway PostgreSQL cluster is started (initdb in a temp folder, as the
``postgres`` user when root) and stopped at the end. Indexing runs the real ``orbitkb index``
command (offline, no embedder). Each reading client is a thread with its own application (its own
store, connection pool and cached SystemModel, as one MCP server has); the calls are the use cases
the MCP tools call. Writes benchmarks/out/postgres.json and prints Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from benchlib.corpus import OUT_DIR, ensure_system  # noqa: E402

ORBITKB = str(Path(sys.executable).parent / "orbitkb")
ENV = {**os.environ, "ORBITKB_EMBEDDER": "off", "ORBITKB_BACKEND": "offline"}
TASKS = ("add a discount code to checkout", "send an email when an order ships", "store invoices as PDF",
         "rate limit the login endpoint", "add a loyalty points balance")
WORDS = ("order", "payment", "inventory stock", "customer email", "invoice", "shipping label")


def index(db: str, folder: Path, name: str) -> float:
    started = time.perf_counter()
    done = subprocess.run([ORBITKB, "index", str(folder), "--repository-name", name, "--db", db],
                          capture_output=True, text=True, env=ENV)
    if done.returncode != 0:
        raise SystemExit(f"orbitkb index {name} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return time.perf_counter() - started


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] * 1000


def readers(db: str, clients: int, calls: int) -> dict[str, Any]:
    from orbitkb.bootstrap import Settings, build_application

    apps = [build_application(Settings(db_path=db, embedder="off", backend="offline")) for _ in range(clients)]
    names = [s.name for s in apps[0].use_cases.list_services()()][:50]
    timings: dict[str, list[float]] = {"describe_service": [], "search": [], "find_change_surface": []}
    lock = threading.Lock()

    def client(i: int) -> None:
        app = apps[i]
        mine: dict[str, list[float]] = {k: [] for k in timings}
        for j in range(calls):
            for tool, call in (
                ("describe_service", lambda k=i + j: app.use_cases.describe_service()(names[k % len(names)])),
                ("search", lambda k=i + j: app.use_cases.search()(WORDS[k % len(WORDS)])),
                ("find_change_surface", lambda k=i + j: app.use_cases.find_change_surface()(TASKS[k % len(TASKS)], record=False)),
            ):
                started = time.perf_counter()
                call()
                mine[tool].append(time.perf_counter() - started)
        with lock:
            for k, v in mine.items():
                timings[k].extend(v)

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, range(clients)))
    wall = time.perf_counter() - started
    for app in apps:
        app.adapters.store().close()
    return {"wall_s": round(wall, 2), "clients": clients, "calls_per_client": calls,
            **{k: {"p50_ms": round(_pct(v, 0.5), 1), "p95_ms": round(_pct(v, 0.95), 1), "n": len(v)}
               for k, v in timings.items()}}


def keyword_queries(db: str, rounds: int) -> dict[str, Any]:
    """The bm25 queries the tools send the store (recorded from find_change_surface and search on
    the TASKS and WORDS), asked in one ``search_many`` per round: the store's own search cost."""
    from orbitkb.bootstrap import Settings, build_application
    from orbitkb.domain.ports import SearchQuery

    app = build_application(Settings(db_path=db, embedder="off", backend="offline"))
    store = app.adapters.store()
    asked: list[SearchQuery] = []
    search_many, search = store.search_many, store.search
    store.search_many = lambda queries: (asked.extend(queries), search_many(queries))[1]  # type: ignore[method-assign]
    store.search = lambda terms, limit=20, kinds=None: (  # type: ignore[method-assign]
        asked.append(SearchQuery(tuple(terms), limit, tuple(kinds) if kinds is not None else None)),
        search(terms, limit, kinds))[1]
    for task in TASKS:
        app.use_cases.find_change_surface()(task, record=False)
    for words in WORDS:
        app.use_cases.search()(words)
    store.search_many, store.search = search_many, search  # type: ignore[method-assign]
    timings = []
    for _ in range(rounds):
        started = time.perf_counter()
        store.search_many(asked)
        timings.append(time.perf_counter() - started)
    store.close()
    return {"queries": len(asked), "rounds": rounds, "p50_ms": round(_pct(timings, 0.5), 1),
            "min_ms": round(min(timings) * 1000, 1)}


def four_indexers(many: str, folder: Path) -> dict[str, float]:
    """Four repositories indexed into one PostgreSQL database one after the other, then at once."""
    sequential = sum(index(many, folder, f"seq{i}") for i in range(4))
    started = time.perf_counter()
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda i: index(many, folder, f"par{i}"), range(4)))
    return {"one_after_the_other": round(sequential, 2), "at_once": round(time.perf_counter() - started, 2)}


def measure(size: int, files: int, seed: int, new_pg: Any, clients: int, calls: int, work: Path,
            four: bool = True) -> dict[str, Any]:
    folder, _ = ensure_system(size, files, seed, OUT_DIR / "postgres")
    sqlite_db = str(work / f"kb-{size}.db")
    pg_db = new_pg()
    result: dict[str, Any] = {"services": size, "files": files}
    result["index_s"] = {"sqlite": round(index(sqlite_db, folder, "synth"), 2),
                         "postgres": round(index(pg_db, folder, "synth"), 2)}
    if four:
        result["four_indexers_postgres_s"] = four_indexers(new_pg(), folder)
    result["keyword_queries"] = {"sqlite": keyword_queries(sqlite_db, 9), "postgres": keyword_queries(pg_db, 9)}
    result["readers"] = {"sqlite": readers(sqlite_db, clients, calls), "postgres": readers(pg_db, clients, calls)}
    return result


def table(results: list[dict[str, Any]]) -> str:
    lines = ["| services | store | index | describe p50/p95 | search p50/p95 | change surface p50/p95 |",
             "|---|---|---|---|---|---|"]
    for r in results:
        for store in ("sqlite", "postgres"):
            rd = r["readers"][store]
            cells = [f"{rd[t]['p50_ms']:.0f} / {rd[t]['p95_ms']:.0f} ms"
                     for t in ("describe_service", "search", "find_change_surface")]
            lines.append(f"| {r['services']} | {store} | {r['index_s'][store]:.1f} s | " + " | ".join(cells) + " |")
    lines += ["", "| services | store | the tools' bm25 queries, one search_many: p50 (min) |", "|---|---|---|"]
    lines += [f"| {r['services']} | {store} | {r['keyword_queries'][store]['queries']} queries: "
              f"{r['keyword_queries'][store]['p50_ms']:.0f} ms ({r['keyword_queries'][store]['min_ms']:.0f} ms) |"
              for r in results for store in ("sqlite", "postgres")]
    four = [r for r in results if "four_indexers_postgres_s" in r]
    if four:
        lines += ["", "| services | 4 indexers into PostgreSQL: one after the other | at once |", "|---|---|---|"]
        lines += [f"| {r['services']} | {r['four_indexers_postgres_s']['one_after_the_other']:.1f} s | "
                  f"{r['four_indexers_postgres_s']['at_once']:.1f} s |" for r in four]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="300", help="comma-separated service counts (e.g. 300,1000)")
    parser.add_argument("--files-per-service", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--calls", type=int, default=15, help="calls of each tool per client")
    parser.add_argument("--no-four-indexers", action="store_true",
                        help="skip the four indexers into PostgreSQL (eight more index runs per size)")
    parser.add_argument("--url", help="an existing server's maintenance URL (databases are created on it)")
    args = parser.parse_args()
    from tests.support import postgres

    cluster = None if args.url else postgres.start()
    work = Path(tempfile.mkdtemp(prefix="orbitkb-pgbench-"))

    def new_pg() -> str:
        if cluster is not None:
            return cluster.create_database()
        import uuid

        import sqlalchemy as sa

        name = "bench_" + uuid.uuid4().hex[:10]
        engine = sa.create_engine(args.url.replace("postgresql://", "postgresql+psycopg://"),
                                  isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        engine.dispose()
        return args.url.rsplit("/", 1)[0] + "/" + name

    try:
        results = [measure(int(n), int(n) * args.files_per_service, args.seed, new_pg, args.clients, args.calls, work,
                           four=not args.no_four_indexers)
                   for n in args.sizes.split(",")]
    finally:
        if cluster is not None:
            cluster.stop()
    out = OUT_DIR / "postgres.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"load_average": os.getloadavg(), "results": results}, indent=2))
    print(table(results))
    print(f"\nload average {os.getloadavg()[0]:.1f}; written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
