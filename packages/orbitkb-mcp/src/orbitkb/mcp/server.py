"""The orbitkb MCP server on stdio. Nothing but protocol on stdout; logs go to stderr.

    orbitkb-mcp [--db PATH] [--backend auto|claude|codex|offline] [--tools core|full] [--read-only]
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

import anyio

from mcp.server.mcpserver import MCPServer
from orbitkb.bootstrap import Application, Settings, build_application
from orbitkb.bootstrap.settings import BACKENDS
from orbitkb.mcp.heap import ModelHeap
from orbitkb.mcp.stdio import run_stdio
from orbitkb.mcp.tools import register

READ_ONLY_NOTICE = ("read-only: every tool answers; change-surface runs, feedback and verifications are not "
                    "recorded, and refresh is refused")
INSTRUCTIONS = (
    "orbitkb knows the services of the indexed system: their APIs, calls, channels and entities. "
    "On a new task call find_change_surface first; drill down with describe_service -> describe_api. "
    "Facts carry evidence (file:line); stale=true means re-index (refresh) before trusting them."
)


def package_version() -> str:
    try:
        return version("orbitkb-mcp")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without metadata
        return "0+unknown"


def build_server(app: Application, tools: str = "full", heap: ModelHeap | None = None) -> MCPServer:
    """The server with its tools. ``heap``: the serving process's (``serve``), which freezes each
    model it loads (heap.py); None in a process that only embeds the server (tests, the UI)."""
    server = MCPServer("orbitkb", version=package_version(), instructions=INSTRUCTIONS, log_level="WARNING")
    app.adapters.store()  # open (and migrate) the database once per process, not per call
    register(server, app, tools, after_call=heap.settle if heap is not None else None)  # a reload frozen after its call
    warm_model(app, heap)
    return server


def warm_model(app: Application, heap: ModelHeap | None = None) -> threading.Thread | None:
    """Load the SystemModel in the background while the client starts: the first question then
    waits for what is left of the load, not for all of it (a call meanwhile shares the same load).
    ``heap``: frozen once loaded (heap.py)."""
    models = app.adapters.models()
    if models is None:
        return None

    def load() -> None:
        try:
            models.load_model()
        except Exception:  # noqa: BLE001 - the first real call reports what is wrong, with its hint
            return
        if heap is not None:
            heap.settle()

    thread = threading.Thread(target=load, name="orbitkb-model", daemon=True)
    thread.start()
    return thread


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="orbitkb-mcp", description="orbitkb MCP server (stdio)")
    p.add_argument("--db", help="SQLite file or postgresql:// URL (default: $ORBITKB_DB or ~/.orbitkb/orbitkb.db)")
    p.add_argument("--backend", choices=BACKENDS,
                   help="LLM backend for find_change_surface (default auto)")
    p.add_argument("--model")
    p.add_argument("--tools", choices=["core", "full"], default="full", help="tool set to expose")
    p.add_argument("--read-only", action="store_true",
                   help="open the database without writing: answers are served, runs and feedback not recorded")
    return p.parse_args(argv)


def serve(settings: Settings) -> None:
    app = build_application(settings)
    choice = app.adapters.backend()
    if choice.notice:
        print(f"orbitkb-mcp: {choice.notice}", file=sys.stderr)
    if settings.read_only:
        print(f"orbitkb-mcp: {READ_ONLY_NOTICE}", file=sys.stderr)
    anyio.run(run_stdio, build_server(app, settings.tools, ModelHeap(app.adapters.models())))  # every malformed line gets an error reply


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = Settings.resolve({"db_path": args.db, "backend": args.backend, "model": args.model,
                                     "tools": args.tools, "read_only": args.read_only})
        serve(settings)
    except KeyboardInterrupt:
        return 0
    except Exception as exc:
        print(f"orbitkb-mcp: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
