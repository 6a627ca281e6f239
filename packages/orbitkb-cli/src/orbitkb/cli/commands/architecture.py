"""`orbitkb relationships SERVICE`, `orbitkb trace FROM TO`, `orbitkb smells`."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_command, add_json, positive_int
from orbitkb.cli.context import app_from, print_json
from orbitkb.domain.architecture.smells import SMELL_KINDS  # a table: the use case loads when a command runs


def register(sub: Any) -> None:
    p = add_command(sub, "relationships", "calls and message links in and out of one service",
                    "orbitkb relationships payments --direction inbound", run_relationships)
    p.add_argument("service")
    p.add_argument("--direction", choices=["inbound", "outbound", "both", "in", "out"], default="both")
    p.set_defaults(read_only=True)
    add_json(p)
    t = add_command(sub, "trace", "shortest paths from one service to another over calls and message links",
                    "orbitkb trace storefront ledger", run_trace)
    t.add_argument("source")
    t.add_argument("target")
    t.add_argument("--max-hops", type=positive_int, default=6)
    t.set_defaults(read_only=True)
    add_json(t)
    s = add_command(sub, "smells", "architecture findings: cycles, fan-in/out, shared databases, ...",
                    "orbitkb smells --kind cycle", run_smells)
    s.add_argument("--kind", help="only this kind of finding: " + ", ".join(SMELL_KINDS))
    s.add_argument("--limit", type=positive_int, default=50)
    s.add_argument("--offset", type=int, default=0)
    add_json(s)


def _ev(evidence: Any) -> str:
    return ", ".join(f"{e.file}:{e.start_line}" for e in evidence[:2])


def run_relationships(args: argparse.Namespace) -> int:
    res = app_from(args).use_cases.get_relationships()(args.service, args.direction)
    if args.json:
        print_json(res)
        return 0
    print(f"{res.service}: {len(res.relationships)} relationships")
    for r in res.relationships:
        arrow = "->" if r.direction == "outbound" else "<-"
        other = r.target_service if r.direction == "outbound" else r.source_service
        via = f" [{r.channel}]" if r.channel else ""
        print(f"  {arrow} {other:<28} {r.type}{via} {r.target_kind} ({r.provenance.source}) {_ev(r.evidence)}")
    return 0


def run_trace(args: argparse.Namespace) -> int:
    flow = app_from(args).use_cases.trace_flow()(args.source, args.target, args.max_hops)
    if args.json:
        print_json(flow)
        return 0
    if not flow.reachable:
        print(flow.note)
        return 0
    for i, path in enumerate((flow.path, *flow.alternatives), 1):
        hops = " -> ".join([path[0].source, *(f"[{s.type}{' ' + s.channel if s.channel else ''}] {s.target}" for s in path)]) if path else flow.source
        print(f"path {i} ({flow.hops} hops): {hops}")
    return 0


def run_smells(args: argparse.Namespace) -> int:
    rep = app_from(args).use_cases.find_architecture_smells()(kind=args.kind, limit=args.limit, offset=args.offset)
    if args.json:
        print_json(rep)
        return 0
    for f in rep.findings:
        print(f"[{f.severity}] {f.kind}: {', '.join(f.services)} — {f.reason}")
    print(f"{rep.total} findings (run {rep.run_id}){' — more with --offset' if rep.truncated else ''}")
    if rep.note:
        print(f"note: {rep.note}")
    if rep.trend:
        t = rep.trend
        print(f"since run {t.previous_run_id}: {len(t.new_findings)} new, {len(t.resolved_findings)} resolved, "
              f"{len(t.count_deltas)} count changes")
    return 0
