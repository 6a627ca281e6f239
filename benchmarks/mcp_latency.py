"""MCP tool latency over stdio (issue 5 item 8), with the real `orbitkb-mcp` server process and
a lean line client (or the SDK's), on a database built from the synthetic system.

    uv run python benchmarks/mcp_latency.py [--services 300 --files 20000] [--calls 50]
    uv run python benchmarks/mcp_latency.py --sizes 30,300,1000 --embedder auto \
        --only find_change_surface,describe_service,get_relationships,list_services

For every tool: N calls with realistic, rotating arguments (a bounded loop; a per-tool time cap
stops slow tools early), p50/p90/p99/max latency, error count and mean response size. Also the
byte size and approximate tokens (bytes/4) of tools/list for `--tools core` and `--tools full`.
The server runs with `--backend offline` and ORBITKB_EMBEDDER=off. Calls are timed with a lean
line client (benchlib/line_client.py; ``--client sdk``: the SDK's, whose own validation of each
result — structured content against the outputSchema included — runs inside the timed call). Writes
benchmarks/out/mcp_latency.json and prints a Markdown table.

``--sizes`` measures how query cost grows with the system: one synthetic system per size
(``--files-per-service`` source files each), indexed with the chosen embedder, the server started
with it loaded; list_services asks for a page of 50. One table: tool x size, p50 / p99 in ms.

"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib.corpus import OUT_DIR, ensure_system  # noqa: E402
from benchlib.mcp_calls import REPO, plans  # noqa: E402
from benchlib.server_cpu import cpu_spent, server_pid, thread_cpu  # noqa: E402

#: tools that write or re-index: fewer calls
SLOW = {"refresh": 3, "verify_change_surface": 10}
ORDER = (
    "list_repositories",
    "list_services",
    "describe_service",
    "list_apis",
    "describe_api",
    "describe_persistence",
    "describe_messages",
    "search",
    "get_relationships",
    "trace_flow",
    "find_architecture_smells",
    "find_provenance",
    "find_change_surface",
    "record_change_surface_feedback",
    "verify_change_surface",
    "refresh",
)


def _git(folder: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
        "GIT_AUTHOR_DATE": "2025-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2025-01-01T00:00:00Z",
    }
    return subprocess.run(
        ["git", "-C", str(folder), *args], check=True, capture_output=True, text=True, env=env
    ).stdout.strip()


def prepare(services: int, files: int, seed: int, cache: Path, embedder: str = "off") -> tuple[Path, dict, str, Path]:
    """(system folder under git with two commits, expected.json, the first commit, database)."""
    folder, expected = ensure_system(services, files, seed, cache / "mcp")
    if not (folder / ".git").exists():
        _git(folder, "init", "-q")
        _git(folder, "add", "-A")
        _git(folder, "commit", "-q", "-m", "synthetic system")
        readme = folder / "README.md"
        readme.write_text(readme.read_text() + "\nA second commit, so verify_change_surface has a diff.\n")
        _git(folder, "commit", "-q", "-am", "touch the readme")
    first = _git(folder, "rev-list", "--max-parents=0", "HEAD")
    db = folder.parent / (f"{folder.name}.db" if embedder == "off" else f"{folder.name}-emb-{embedder}.db")
    if not db.exists():
        from orbitkb.bootstrap import Settings, build_application
        from orbitkb.domain.usecases.indexing import IndexRequest

        app = build_application(Settings(db_path=str(db), backend="offline", embedder=embedder))
        app.use_cases.index_repository()(IndexRequest(path=str(folder), repository_name=REPO))
        app.adapters.store().close()
    return folder, expected, first, db


def _server(db: Path, tools: str, embedder: str = "off") -> Any:
    from mcp import StdioServerParameters

    exe = shutil.which("orbitkb-mcp", path=str(Path(sys.executable).parent)) or "orbitkb-mcp"
    env = {**os.environ, "ORBITKB_EMBEDDER": embedder}
    return StdioServerParameters(
        command=exe, args=["--db", str(db), "--tools", tools, "--backend", "offline"], env=env
    )


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def _size(result: Any) -> int:
    if result.structured_content is not None:
        return len(json.dumps(result.structured_content))
    return sum(len(getattr(c, "text", "") or "") for c in result.content)


async def tools_list_size(db: Path, tools: str) -> dict[str, Any]:
    from mcp import Client

    async with Client(_server(db, tools)) as client:
        listed = await client.list_tools()
    raw = listed.model_dump_json(by_alias=True, exclude_none=True)
    return {
        "tools": len(listed.tools),
        "bytes": len(raw.encode()),
        "approx_tokens": len(raw.encode()) // 4,
        "names": sorted(t.name for t in listed.tools),
    }


def client_class(kind: str) -> Any:
    """``line``: benchlib/line_client.py, the same lean client work whatever the answer; ``sdk``: the
    SDK's client, which validates every result (structured content against the outputSchema too)
    inside the timed call."""
    if kind == "line":
        from benchlib.line_client import LineClient

        return LineClient
    if kind == "sdk":
        from mcp import Client

        return Client
    raise ValueError(f"client must be line or sdk, not {kind!r}")


async def latency(db: Path, args_by_tool: dict, calls: int, cap_s: float, embedder: str = "off",
                  only: tuple[str, ...] = (), client_kind: str = "line", warmup: int = 1) -> dict[str, Any]:
    """Per tool: ``warmup`` calls first, untimed in the percentiles (the first waits for the model the
    server loads at start and builds what it keeps: its time is reported as ``first_ms``), then up
    to ``calls`` timed calls within ``cap_s`` seconds."""
    Client = client_class(client_kind)
    out: dict[str, Any] = {}
    run_id = None
    t0 = time.perf_counter()
    async with Client(_server(db, "full", embedder), read_timeout_seconds=120) as client:
        out["_startup_seconds"] = round(time.perf_counter() - t0, 3)
        names = {t.name for t in (await client.list_tools()).tools}
        pid = server_pid(str(db))
        for tool in ORDER:
            if only and tool not in only:
                continue
            if tool not in names:
                out[tool] = {"skipped": "not offered by the server"}
                continue
            n = SLOW.get(tool, calls)
            times: list[float] = []
            cpu: list[float] = []
            sizes: list[int] = []
            errors: list[str] = []
            first_ms = None
            if tool not in SLOW and tool != "record_change_surface_feedback":  # writes: never asked untimed
                for w in range(warmup):
                    c0 = time.perf_counter()
                    await client.call_tool(tool, dict(next(args_by_tool[tool])))
                    first_ms = round((time.perf_counter() - c0) * 1000, 1) if w == 0 else first_ms
            started = time.perf_counter()
            for _ in range(n):
                arguments = dict(next(args_by_tool[tool]))
                if tool in ("record_change_surface_feedback", "verify_change_surface"):
                    arguments["run_id"] = run_id or 1
                cpu0, c0 = thread_cpu(pid), time.perf_counter()
                result = await client.call_tool(tool, arguments)
                times.append(time.perf_counter() - c0)
                cpu.append(cpu_spent(cpu0, thread_cpu(pid)))
                sizes.append(_size(result))
                if result.is_error:
                    errors.append(" ".join(getattr(c, "text", "") for c in result.content)[:160])
                elif tool == "find_change_surface" and isinstance(result.structured_content, dict):
                    run_id = result.structured_content.get("run_id") or run_id
                if time.perf_counter() - started > cap_s:
                    break
            ms = [t * 1000 for t in times]
            out[tool] = {
                "calls": len(ms),
                "p50_ms": round(_pct(ms, 0.5), 1),
                "p90_ms": round(_pct(ms, 0.9), 1),
                "p99_ms": round(_pct(ms, 0.99), 1),
                "max_ms": round(max(ms), 1),
                "first_ms": first_ms,
                # the server's own CPU a call (p50): what the load of a shared machine leaves alone
                "server_cpu_p50_ms": round(_pct([c * 1000 for c in cpu], 0.5), 1) if pid is not None else None,
                "mean_bytes": round(sum(sizes) / len(sizes)),
                "errors": len(errors),
                "first_error": errors[0] if errors else None,
            }
    return out


def table(doc: dict) -> str:
    rows = [
        "| tool | calls | p50 ms | p99 ms | max ms | mean response bytes | errors |",
        "|---|---|---|---|---|---|---|",
    ]
    for tool in ORDER:
        r = doc["latency"].get(tool, {})
        if "calls" not in r:
            rows.append(f"| {tool} | – | – | – | – | – | {r.get('skipped', 'n/a')} |")
            continue
        rows.append(
            f"| {tool} | {r['calls']} | {r['p50_ms']} | {r['p99_ms']} | {r['max_ms']} | {r['mean_bytes']:,} | "
            f"{r['errors']} |"
        )
    rows += ["", "| tools/list | tools | bytes | ≈ tokens (bytes/4) |", "|---|---|---|---|"]
    for k in ("core", "full"):
        t = doc["tools_list"][k]
        rows.append(f"| --tools {k} | {t['tools']} | {t['bytes']:,} | {t['approx_tokens']:,} |")
    rows.append(f"\nserver start to first answer: {doc['latency']['_startup_seconds']} s")
    return "\n".join(rows)


def size_table(docs: dict[int, dict]) -> str:
    """tool x size: p50 / p99 in ms, and the server's CPU a call (p50)."""
    sizes = sorted(docs)
    rows = ["| tool | " + " | ".join(f"{n} services p50 / p99 ms (server CPU p50)" for n in sizes) + " |",
            "|---|" + "---|" * len(sizes)]
    tools = [t for t in ORDER if any("calls" in docs[n]["latency"].get(t, {}) for n in sizes)]
    for tool in tools:
        cells = []
        for n in sizes:
            r = docs[n]["latency"].get(tool, {})
            cells.append(f"{r['p50_ms']} / {r['p99_ms']} ({r.get('server_cpu_p50_ms')})" if "calls" in r else "–")
        rows.append(f"| {tool} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def run_sizes(args: argparse.Namespace) -> int:
    from benchlib.mcp_calls import plans as make_plans

    only = tuple(t for t in (args.only or "").split(",") if t)
    docs: dict[int, dict] = {}
    for n in (int(x) for x in args.sizes.split(",")):
        t0 = time.perf_counter()
        folder, expected, first, db = prepare(n, n * args.files_per_service, args.seed, args.cache_dir,
                                              args.embedder)
        print(f"{n} services: database {db} ready in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        calls = make_plans(expected, folder, first)
        calls["list_services"] = iter(lambda: {"limit": 50}, None)
        docs[n] = {"corpus": {**expected["counts"], "params": expected["params"]},
                   "latency": asyncio.run(latency(db, calls, args.calls, args.cap_seconds, args.embedder, only,
                                                  args.client, args.warmup))}
    doc = {"date": time.strftime("%Y-%m-%d"), "cpus": os.cpu_count(), "embedder": args.embedder, "client": args.client,
           "sizes": {str(n): d for n, d in docs.items()}}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(doc, indent=1) + "\n")
    print(size_table(docs))
    print(f"\n{args.client} client; load average {os.getloadavg()[0]:.1f} at the end")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--services", type=int, default=300)
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--calls", type=int, default=50, help="calls per tool (refresh and verify: fewer)")
    ap.add_argument("--cap-seconds", type=float, default=30.0, help="stop a tool's loop after this long")
    ap.add_argument("--cache-dir", type=Path, default=OUT_DIR)
    ap.add_argument("--json", type=Path, default=OUT_DIR / "mcp_latency.json")
    ap.add_argument("--sizes", help="comma-separated service counts, e.g. 30,300,1000 (one table for all)")
    ap.add_argument("--files-per-service", type=int, default=20, help="with --sizes: source files per service")
    ap.add_argument("--embedder", default="off", help="off | auto: index with it and serve with it loaded")
    ap.add_argument("--only", help="comma-separated tools to measure (default: all)")
    ap.add_argument("--warmup", type=int, default=1,
                    help="untimed calls per tool before the timed ones (the first one's time is reported apart)")
    ap.add_argument("--client", default="line", choices=("line", "sdk"),
                    help="line: a lean client, the server's latency (default); sdk: the SDK's client")
    args = ap.parse_args(argv)
    if args.sizes:
        return run_sizes(args)
    folder, expected, first, db = prepare(args.services, args.files, args.seed, args.cache_dir)
    print(f"database: {db}", file=sys.stderr)
    doc: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "corpus": {**expected["counts"], "params": expected["params"]},
    }
    doc["tools_list"] = {k: asyncio.run(tools_list_size(db, k)) for k in ("core", "full")}
    doc["latency"] = asyncio.run(latency(db, plans(expected, folder, first), args.calls, args.cap_seconds,
                                         client_kind=args.client, warmup=args.warmup))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(doc, indent=1) + "\n")
    print(table(doc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
