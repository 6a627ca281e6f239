"""`orbitkb status [SERVICE]`: repositories, freshness, files, gaps, runs and what they cost."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_command, add_json
from orbitkb.cli.context import app_from, print_json
from orbitkb.domain.runs import IndexRun, ServiceIndexCost


def register(sub: Any) -> None:
    p = add_command(sub, "status", "what is indexed: freshness, files, gaps, runs, tokens and cost",
                    "orbitkb status payments --gaps", run)
    p.add_argument("service", nargs="?", help="limit to one service")
    p.add_argument("--gaps", action="store_true", help="list every gap (skipped or unparsed file)")
    p.set_defaults(read_only=True)
    add_json(p)


def _fmt(v: object) -> str:
    return "None" if v is None else (f"{v:.4f}" if isinstance(v, float) else str(v))


def _usage(u: IndexRun | ServiceIndexCost) -> str:
    return (f"llm_calls={u.llm_calls} tokens=(in={_fmt(u.input_tokens)},out={_fmt(u.output_tokens)}) "
            f"cost_usd={_fmt(u.cost_usd)}")


def _run_line(r: IndexRun, scoped: bool = False, share: ServiceIndexCost | None = None) -> str:
    """A run; scoped to a service, its usage is the service's share (the repository's in brackets)."""
    if not scoped:
        usage = _usage(r)
    elif share is not None:
        usage = f"{_usage(share)} [repository: llm_calls={r.llm_calls} cost_usd={_fmt(r.cost_usd)}]"
    else:
        usage = "llm_calls=0" + (f" [repository: llm_calls={r.llm_calls} cost_usd={_fmt(r.cost_usd)}, "
                                 "not split by service]" if r.llm_calls else "")
    return (f"  run#{r.id} {r.started_at} status={r.status} backend={r.backend} files_changed={r.files_changed} "
            f"parsed={r.files_parsed} {usage} notes={r.notes}")


def run(args: argparse.Namespace) -> int:
    report = app_from(args).use_cases.get_status()(args.service)
    if args.json:
        print_json(report)
        return 0
    if not report.repositories:
        print("nothing indexed yet: orbitkb index PATH")
        return 0
    if report.service is not None:
        s = report.service
        print(f"service: {s.name} ({s.stack}{'/' + s.framework if s.framework else ''}) — {s.root_dir} "
              f"in {s.repository}")
        print(f"indexed files: {report.service_files}")
    for rs in report.repositories:
        f = rs.freshness
        stale = {True: "STALE", False: "fresh", None: "freshness unknown"}[f.stale]
        print(f"repository: {rs.repository.name} — {rs.repository.root_path}")
        print(f"  last_commit: {f.source_commit or '-'}  current: {f.current_commit or '-'}  ({stale}), "
              f"indexed_at {f.indexed_at}")
        print(f"  services: {rs.services}  files: {rs.files}  gaps: {len(rs.gaps)}")
        c = rs.facts
        print(f"  facts: {c.apis} APIs, {c.calls} calls ({c.calls_internal} to indexed services, "
              f"{c.calls_external} external, {c.calls_unresolved} unresolved), {c.messages} message sites, "
              f"{c.entities} entities, {c.resources} infrastructure resources")
        by_kind: dict[str, int] = {}
        for g in rs.gaps:
            by_kind[g.kind] = by_kind.get(g.kind, 0) + 1
        if by_kind:
            print("  gaps by kind: " + ", ".join(f"{k}={v}" for k, v in sorted(by_kind.items())))
        if args.gaps:
            for g in rs.gaps:
                print(f"    {g.kind:<16} {g.path}: {g.reason}")
        shares = {c.run_id: c for c in report.service_costs}
        for r in rs.runs:
            print(_run_line(r, report.service is not None, shares.get(r.id or 0)))
    t = report.totals
    whose = f" of {report.service.name}" if report.service is not None else ""
    print(f"cumulative usage{whose}: input_tokens={_fmt(t.input_tokens)} output_tokens={_fmt(t.output_tokens)} "
          f"cost_usd={_fmt(t.cost_usd)}")
    if report.unattributed_runs:
        print(f"  ({report.unattributed_runs} earlier index runs used the LLM before costs were recorded per "
              "service: their cost is counted for the repository only)")
    for v in report.verifications:
        print(f"  verification#{v.id} run#{v.run_id} {v.repository}@{v.since_commit[:12]} "
              f"precision={_fmt(v.precision)} recall={_fmt(v.recall)}")
    return 0
