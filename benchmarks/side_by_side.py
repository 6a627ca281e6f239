"""MCP latency side by side with the reference system (issue 14): the same synthetic system indexed by
both, both servers over stdio, their shared read tools called in turn in one interleaved run.

    uv run python benchmarks/side_by_side.py --reference /path/to/reference/bin/orbitkb \
        [--services 40 --files 800 --seed 1] [--rounds 40] [--embedder off|auto] [--only TOOL,...] [--client line|sdk]

The reference is the PyPI distribution ``orbitkb`` (2.87), installed in a virtualenv of its own —
never in this workspace, whose ``orbitkb`` namespace it would shadow — e.g.
``uv venv /tmp/ref && VIRTUAL_ENV=/tmp/ref uv pip install orbitkb==2.87``; pass its console script
with ``--reference`` or ``$ORBITKB_REFERENCE``. Without it the script says so and exits 0 (nothing in
the test suite needs it).

Both index one copy of the synthetic system (benchmarks/synth.py) under the repository name of
benchmarks/benchlib/mcp_calls.py: ours offline, the reference with its free ``mock`` backend (its
databases are kept under benchmarks/out/side_by_side/, keyed by the system and the reference's
version). Those databases are never served: both servers record runs (a change surface, a smells
run), so each invocation serves copies of them made in a scratch folder, and every run starts from
the same database — the records one run adds never reach the next. Then, round after round, every tool both servers offer and that only reads is called
once on each server with the same arguments — filtered to the parameters each tool declares, and
renamed where the two name one differently (``trace_flow``'s ends) — alternating which server goes
first, so a burst of load on the shared machine falls on both. Each server is asked about the same
services in its own names (the reference names a service after its folder, ``orders-service``, where
we use the compose name, ``orders``; read from each one's ``list_services`` first), a call naming a
service one of them does not list is left out for both, and ``describe_api`` asks each for the same
place in its own list of the service's APIs: an answer "unknown service" is not a like-for-like
read. An answer that is an error (MCP's ``isError``, or a JSON object with an ``error`` key, the
reference's way) is counted in the errors column. Calls are timed with a lean line client
(``--client line``, benchlib/line_client.py) doing the same work for both servers; the SDK's client
(``--client sdk``) validates each result, and our structured content against our outputSchema,
inside the timed call: client CPU charged to the server that publishes a schema. Prints p50/p95 per
tool and server and the ratio ours / reference (target: <= 0.5 at p50). Timings from a loaded
machine are only valid as these ratios; the load average is printed next to them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path, PurePosixPath
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib.corpus import OUT_DIR, ensure_system  # noqa: E402
from benchlib.mcp_calls import REPO, plans  # noqa: E402
from benchlib.server_cpu import cpu_spent, server_pid, thread_cpu  # noqa: E402,F401

TARGET = 0.5
#: tools that record runs, feedback or re-index: not a like-for-like read, left out
WRITES = frozenset({"record_change_surface_feedback", "verify_change_surface", "refresh"})
#: our parameter name -> the reference's, per tool, where the two differ
RENAMES: dict[str, dict[str, str]] = {"trace_flow": {"source": "from_service", "target": "to_service"}}


def reference_command(explicit: str | None) -> tuple[str, str] | None:
    """(console script, version) of the reference, or None when it is not installed."""
    found = explicit or os.environ.get("ORBITKB_REFERENCE")
    if not found or not shutil.which(found):
        return None
    proc = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=60)
    version = (proc.stdout or proc.stderr).strip().split()[-1] if proc.returncode == 0 else ""
    if not version or version.startswith("0."):  # our own console script answers 0.x
        return None
    return shutil.which(found) or found, version


def _prepare(services: int, files: int, seed: int, reference: str, version: str) -> tuple[Path, dict, Path, Path]:
    """(system folder, expected.json, our database, the reference's database), built once."""
    source, expected = ensure_system(services, files, seed)
    home = OUT_DIR / "side_by_side" / f"{source.name}-ref{version}"
    # "pristine": never served (the databases served are copies, see serving_copies)
    folder, ours, theirs = home / "system", home / "ours.pristine.db", home / "reference.pristine.db"
    if not folder.exists():
        home.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, folder)
    if not ours.exists():
        from orbitkb.bootstrap import Settings, build_application
        from orbitkb.domain.usecases.indexing import IndexRequest

        app = build_application(Settings(db_path=str(ours), backend="offline", embedder="off"))
        app.use_cases.index_repository()(IndexRequest(path=str(folder), repository_name=REPO))
        app.adapters.store().close()
    if not theirs.exists():
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory() as scratch:  # the reference writes its caches under HOME
            subprocess.run([reference, "index", str(folder), "--backend", "mock", "--db", str(theirs),
                            "--repository-name", REPO], check=True, capture_output=True, text=True,
                           env={**os.environ, "HOME": scratch})
        print(f"reference indexed the system in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return folder, expected, ours, theirs


def serving_copies(databases: dict[str, Path], scratch: Path) -> dict[str, Path]:
    """A copy of each SQLite database in ``scratch`` (its committed content, write-ahead log
    included, through SQLite's online backup), so that what a server records while it is measured
    never changes the database the next run starts from."""
    import sqlite3

    out: dict[str, Path] = {}
    for name, source in databases.items():
        copy = scratch / f"{name}-{source.name}"
        copy.unlink(missing_ok=True)
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        dst = sqlite3.connect(copy)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        out[name] = copy
    return out


def _servers(ours: Path, theirs: Path, reference: str, embedder: str, scratch: str) -> dict[str, Any]:
    from mcp import StdioServerParameters

    exe = shutil.which("orbitkb-mcp", path=str(Path(sys.executable).parent)) or "orbitkb-mcp"
    return {
        "ours": StdioServerParameters(command=exe, args=["--db", str(ours), "--tools", "full", "--backend", "offline"],
                                      env={**os.environ, "ORBITKB_EMBEDDER": embedder}),
        # the reference writes failure notes under HOME: a scratch one
        "reference": StdioServerParameters(command=reference, args=["serve", "--db", str(theirs), "--backend", "mock"],
                                           env={**os.environ, "HOME": scratch}),
    }


def arguments_for(tool: str, args: dict[str, Any], declared: set[str], server: str) -> dict[str, Any]:
    """``args`` as ``server``'s ``tool`` names them, keeping only the parameters it declares."""
    renamed = {RENAMES.get(tool, {}).get(k, k) if server == "reference" else k: v for k, v in args.items()}
    return {k: v for k, v in renamed.items() if k in declared}


#: argument keys that name a service
SERVICE_KEYS = ("service", "source", "target")


def answer_of(result: Any) -> Any:
    """The JSON of a tool result's first text block (None when it holds none)."""
    for block in result.content:
        text = getattr(block, "text", None)
        if text is not None:
            try:
                return json.loads(text)
            except ValueError:
                return None
    return None


def refused(result: Any) -> bool:
    """An error answer: MCP's ``isError``, or a JSON object whose ``error`` key says it (the reference's way)."""
    answer = answer_of(result)
    return bool(result.is_error) or (isinstance(answer, dict) and "error" in answer)


def own_names(listed: list[str], services: list[dict[str, Any]]) -> dict[str, str]:
    """Each benchmark service -> the name a server lists it under: the same name, else its folder's name;
    a service the server does not list is left out."""
    out: dict[str, str] = {}
    for service in services:
        for candidate in (service["name"], PurePosixPath(service.get("root_dir") or "").name):
            if candidate in listed:
                out[service["name"]] = candidate
                break
    return out


def in_own_names(args: dict[str, Any], names: dict[str, str] | None) -> dict[str, Any] | None:
    """``args`` with every service named as the server names it; None when it does not know one
    (``names`` None: the names are the benchmark's)."""
    if names is None:
        return args
    out = dict(args)
    for key in SERVICE_KEYS:
        if key in out:
            if out[key] not in names:
                return None
            out[key] = names[out[key]]
    return out


def same_place(args: dict[str, Any], ours: list[tuple[str, str]], theirs: list[tuple[str, str]]) -> dict[str, Any] | None:
    """``describe_api``'s ``args`` for a server whose list of the service's APIs is ``theirs``: the API at
    the place ``args``'s API has in ``ours`` (wrapping), so each server describes one API it knows."""
    if not theirs:
        return None
    key = (args["method"], args["path"])
    if key in theirs:
        return args
    method, path = theirs[(ours.index(key) if key in ours else 0) % len(theirs)]
    return {**args, "method": method, "path": path}


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def client_class(kind: str) -> Any:
    """The client the calls are timed with: ``line`` (benchlib/line_client.py: the same few
    microseconds of client work for every server) or ``sdk`` (the SDK's client, whose own per-call
    validation grows with the answer and checks an outputSchema only where a server publishes one)."""
    if kind == "line":
        from benchlib.line_client import LineClient

        return LineClient
    if kind == "sdk":
        from mcp import Client

        return Client
    raise ValueError(f"client must be line or sdk, not {kind!r}")


async def interleave(servers: dict[str, Any], calls: dict[str, Any], rounds: int, only: tuple[str, ...],
                     services: list[dict[str, Any]] | None = None, client: str = "line") -> dict:
    """tool -> server -> {"ms": [...], "cpu_ms": total, "errors": n}, every server called each round,
    in turn; ``cpu_ms`` is the server process's own CPU time over all the tool's calls. ``services``
    (expected.json's): each server is asked about them in its own names (module docstring); the
    server named "ours" answers in the benchmark's. ``client``: see ``client_class``."""
    from contextlib import AsyncExitStack

    Client = client_class(client)
    async with AsyncExitStack() as stack:
        clients = {name: await stack.enter_async_context(Client(params, read_timeout_seconds=300))
                   for name, params in servers.items()}
        declared = {name: {t.name: set((t.input_schema or {}).get("properties", {})) for t in
                           (await c.list_tools()).tools} for name, c in clients.items()}
        shared = sorted(t for t in set(declared["ours"]) & set(declared["reference"])
                        if t not in WRITES and t in calls and (not only or t in only))
        names: dict[str, dict[str, str] | None] = {name: None for name in clients}
        apis: dict[tuple[str, str], list[tuple[str, str]]] = {}
        if services is not None:
            for name, client in clients.items():
                ask = arguments_for("list_services", {"limit": 500}, declared[name]["list_services"], name)
                listed = (answer_of(await client.call_tool("list_services", ask)) or {}).get("services") or []
                names[name] = own_names([s["name"] for s in listed], services)

        async def api_list(name: str, service: str) -> list[tuple[str, str]]:
            if (name, service) not in apis:
                ask = arguments_for("list_apis", {"service": service, "limit": 500}, declared[name]["list_apis"], name)
                found = (answer_of(await clients[name].call_tool("list_apis", ask)) or {}).get("apis") or []
                apis[(name, service)] = [(a["method"], a["path"]) for a in found if a.get("path")]
            return apis[(name, service)]

        async def own_arguments(tool: str, args: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
            """Each server's arguments for ``args``, or None when one of them does not know its service."""
            out: dict[str, dict[str, Any]] = {}
            for name in clients:
                mine = in_own_names(args, names[name])
                if mine is not None and tool == "describe_api" and names[name] is not None and name != "ours":
                    mine = same_place(mine, await api_list("ours", args["service"]),
                                      await api_list(name, mine["service"]))
                if mine is None:
                    return None
                out[name] = arguments_for(tool, mine, declared[name][tool], name)
            return out

        pids = {name: server_pid(params.args[params.args.index("--db") + 1]) for name, params in servers.items()}
        out: dict[str, dict[str, dict[str, Any]]] = {t: {n: {"ms": [], "cpu_ms": 0.0, "errors": 0} for n in clients}
                                                     for t in shared}
        for r in range(rounds):
            order = list(clients) if r % 2 == 0 else list(reversed(clients))
            for tool in shared:
                for _ in range(200):  # the next call every server can answer in its own names
                    per_server = await own_arguments(tool, next(calls[tool]))
                    if per_server is not None:
                        break
                else:
                    continue
                for name in order:
                    cpu0, c0 = thread_cpu(pids[name]), time.perf_counter()
                    result = await clients[name].call_tool(tool, per_server[name])
                    out[tool][name]["ms"].append((time.perf_counter() - c0) * 1000)
                    out[tool][name]["cpu_ms"] += cpu_spent(cpu0, thread_cpu(pids[name])) * 1000
                    out[tool][name]["errors"] += refused(result)
    return out


def table(results: dict, load: tuple[float, float]) -> str:
    rows = ["| tool | ours p50 / p95 ms | reference p50 / p95 ms | ours / reference (p50) | server CPU ms a call, "
            "ours / ref | errors ours / ref |", "|---|---|---|---|---|---|"]
    for tool, by in results.items():
        o, r = by["ours"]["ms"], by["reference"]["ms"]
        if not o or not r:
            rows.append(f"| {tool} | - | - | no call both servers could answer | - | - |")
            continue
        ratio = percentile(o, 0.5) / max(percentile(r, 0.5), 1e-9)
        flag = "" if ratio <= TARGET else " (over target)"
        rows.append(f"| {tool} | {percentile(o, 0.5):.1f} / {percentile(o, 0.95):.1f} | "
                    f"{percentile(r, 0.5):.1f} / {percentile(r, 0.95):.1f} | {ratio:.2f}x{flag} | "
                    f"{by['ours']['cpu_ms'] / len(o):.1f} / {by['reference']['cpu_ms'] / len(r):.1f} | "
                    f"{by['ours']['errors']} / {by['reference']['errors']} |")
    rows.append(f"\nload average {load[0]:.1f} before, {load[1]:.1f} after; target ours / reference <= {TARGET} at p50")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", help="the reference's console script (default: $ORBITKB_REFERENCE)")
    ap.add_argument("--services", type=int, default=40)
    ap.add_argument("--files", type=int, default=800)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=40, help="calls per tool and server")
    ap.add_argument("--embedder", default="off", help="off | auto: our server with the packaged model loaded")
    ap.add_argument("--only", help="comma-separated tools (default: every shared read tool)")
    ap.add_argument("--client", default="line", choices=("line", "sdk"),
                    help="line: the same lean client work for both servers (default); sdk: the SDK's client")
    ap.add_argument("--json", type=Path, default=OUT_DIR / "side_by_side.json")
    args = ap.parse_args(argv)
    found = reference_command(args.reference)
    if found is None:
        print("skipped: the reference orbitkb is not installed (install it in its own virtualenv, e.g. "
              "`uv venv /tmp/ref && VIRTUAL_ENV=/tmp/ref uv pip install orbitkb==2.87`, and pass "
              "--reference /tmp/ref/bin/orbitkb or set ORBITKB_REFERENCE)")
        return 0
    reference, version = found
    folder, expected, ours, theirs = _prepare(args.services, args.files, args.seed, reference, version)
    only = tuple(t for t in (args.only or "").split(",") if t)
    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as scratch:
        served = serving_copies({"ours": ours, "reference": theirs}, Path(scratch))
        results = asyncio.run(interleave(_servers(served["ours"], served["reference"], reference, args.embedder,
                                                  scratch),
                                         plans(expected, folder, None), args.rounds, only, expected["services"],
                                         args.client))
    load = (load0, os.getloadavg()[0])
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M"), "reference": version,
                                     "client": args.client, "services": args.services,
                                     "embedder": args.embedder, "load": load,
                                     "results": results}, indent=1) + "\n")
    print(f"{args.services} services, reference orbitkb {version}, our embedder {args.embedder}, "
          f"{args.rounds} rounds, {args.client} client")
    print(table(results, load))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
