"""`orbitkb describe SERVICE [--api "METHOD PATH"]` and `orbitkb search WORDS`: the drill-down an
agent gets over MCP, on the terminal."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_command, add_embedder, add_json, positive_int
from orbitkb.cli.context import app_from, print_json
from orbitkb.domain.errors import InvalidInput


def register(sub: Any) -> None:
    p = add_command(sub, "describe", "one service (or one of its APIs) in detail",
                    'orbitkb describe payments --api "POST /api/payments"', run_describe)
    p.add_argument("service")
    p.add_argument("--api", metavar='"METHOD PATH"', help="describe this API of the service")
    p.set_defaults(read_only=True)
    add_json(p)
    s = add_command(sub, "search", "search services, APIs, channels and entities by words",
                    "orbitkb search refund card", run_search)
    s.add_argument("words", nargs="+")
    s.add_argument("--limit", type=positive_int, default=20)
    add_embedder(s)
    add_json(s)


def run_describe(args: argparse.Namespace) -> int:
    app = app_from(args)
    if args.api:
        method, _, path = args.api.strip().partition(" ")
        if not path:
            raise InvalidInput('--api takes "METHOD PATH", e.g. --api "GET /orders/{id}"')
        api = app.use_cases.describe_api()(args.service, method, path.strip())
        if args.json:
            print_json(api)
            return 0
        print(f"{api.service}: {api.method} {api.path} -> {api.handler} ({api.kind})")
        for ev in api.evidence[:2]:
            print(f"  at {ev.file}:{ev.start_line}")
        if api.summary or api.doc:
            print(f"  {api.summary or api.doc}")
        for c in api.calls:
            print(f"  calls {c.to_service_name} {c.method or ''} {c.path or ''} ({c.call_kind}, {c.target_kind})")
        for m in api.messages:
            print(f"  {m.direction} {m.channel} ({m.provider})")
        return 0
    d = app.use_cases.describe_service()(args.service)
    if args.json:
        print_json(d)
        return 0
    stale = {True: "STALE", False: "fresh", None: "freshness unknown"}[d.freshness.stale]
    print(f"{d.name} — {d.stack}{'/' + d.framework if d.framework else ''} at {d.root_dir} in {d.repository} ({stale})")
    if d.short_desc:
        print(f"  {d.short_desc}")
    for a in d.apis:
        print(f"  api   {a.method:<7} {a.path}  {a.summary or ''}".rstrip())
    for c in d.calls:
        print(f"  calls {c.to_service_name} ({c.call_kind}, {c.target_kind}) {c.method or ''} {c.path or ''}".rstrip())
    for m in d.messages:
        print(f"  {m.direction:<9} {m.channel} ({m.provider})")
    for e in d.persists:
        print(f"  persists {e.name} ({e.kind}, {e.engine})")
    if d.called_by:
        print(f"  called by: {', '.join(d.called_by)}")
    named = [t for t in d.technologies if t.kind != "library"]
    libraries = [t.name for t in d.technologies if t.kind == "library"]
    if named:
        print("  built with: " + ", ".join(f"{t.name}{' ' + t.version if t.version else ''} ({t.kind.replace('_', ' ')})"
                                         for t in named))
    if libraries:
        extra = " (more with --json)" if d.pagination.technologies.truncated else ""
        print(f"  libraries: {', '.join(libraries)}{extra}")
    return 0


def run_search(args: argparse.Namespace) -> int:
    res = app_from(args).use_cases.search()(" ".join(args.words), args.limit)
    if args.json:
        print_json(res)
        return 0
    for h in res.hits:
        print(f"{h.score:8.3f}  {h.kind:<9} {h.service:<20} {h.name}  [{h.field}]")
    print(res.note or f"{len(res.hits)} hits ({res.mode})")
    return 0
