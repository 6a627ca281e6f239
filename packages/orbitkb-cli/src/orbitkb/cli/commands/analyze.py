"""`orbitkb analyze "TASK"` (find_change_surface without an MCP session) and `orbitkb verify RUN`."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from orbitkb.cli.commands._common import add_backend, add_command, add_json, positive_int
from orbitkb.cli.context import app_from, notice, print_json

if TYPE_CHECKING:
    from orbitkb.domain.change.views import Finding


def register(sub: Any) -> None:
    p = add_command(sub, "analyze", "find the services a task will likely change (change surface)",
                    'orbitkb analyze "Add Pix payments to checkout" --hint-services payments', run_analyze)
    p.add_argument("task", help="the engineering task, in your own words")
    p.add_argument("--hint-services", "--hint", dest="hint", action="append", default=[], metavar="SERVICE",
                   help="services you already suspect: repeatable or comma-separated (--hint is an alias); "
                        "an unknown name is an error")
    add_backend(p)
    add_json(p)
    v = add_command(sub, "verify", "check a change-surface prediction against the real git diff",
                    "orbitkb verify 1 --repository shopfront --since a1b2c3d --record-feedback", run_verify)
    v.add_argument("run_id", type=positive_int, help="the run_id printed by analyze / find_change_surface")
    v.add_argument("--repository", required=True, help="indexed repository name")
    v.add_argument("--since", required=True, metavar="COMMIT", help="the commit the work started from")
    v.add_argument("--until", metavar="COMMIT", help="compare up to this commit (default: the working tree)")
    v.add_argument("--record-feedback", action="store_true",
                   help="record confirmed/rejected feedback from the result")
    add_json(v)


def _tier(title: str, findings: tuple[Finding, ...]) -> None:
    if not findings:
        return
    print(f"{title}:")
    for f in findings:
        print(f"  {f.service:<24} {f.confidence:.2f}  {f.reason}")


def run_analyze(args: argparse.Namespace) -> int:
    app = app_from(args)
    choice = app.adapters.backend()
    if choice.notice and not args.json:
        notice(choice.notice)
    hints = tuple(h.strip() for arg in args.hint for h in arg.split(",") if h.strip())
    s = app.use_cases.find_change_surface()(args.task, hints)
    if args.json:
        print_json(s)
        return 0
    print(f"task: {s.task}")
    print(f"{f'run #{s.run_id}' if s.run_id is not None else 'run not recorded'} — retrieval {s.retrieval}, "
          f"classified {s.classified_by}"
          + (f", cost ${s.run_cost_usd:.4f}" if s.run_cost_usd is not None else ""))
    if s.note:
        print(f"note: {s.note}")
    _tier("primary", s.primary)
    _tier("secondary", s.secondary)
    _tier("no change expected", s.no_change_hint)
    if s.flow:
        print("flow: " + "; ".join(f"{f.source} -> {f.to} ({f.type})" for f in s.flow))
    for c in s.contracts_at_risk:
        print(f"contract at risk: {c.contract}, served by {c.producer}, called by {', '.join(c.consumers)}")
    for x in s.external_integrations:
        print(f"external: {x.service} via {x.via_service}")
    for u in s.unknowns:
        print(f"unknown: {u.service or ''} {u.reason} — {u.suggestion}".replace("unknown:  ", "unknown: "))
    for q in s.recommended_next_queries:
        print(f"next: {q.tool}({', '.join(f'{k}={v!r}' for k, v in q.arguments.items())}) — {q.reason}")
    for p in s.similar_past_tasks:
        print(f"similar: run #{p.run_id} {p.task!r} ({p.similarity}) — {p.outcome}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from orbitkb.domain.usecases.feedback import VERIFICATION_NOT_RECORDED

    v = app_from(args).use_cases.verify_change_surface()(args.run_id, args.repository, args.since, args.until,
                                                          args.record_feedback)
    if args.json:
        from orbitkb.domain.serialization import to_data  # cattrs: only when needed
        extra = {} if v.id is not None else {"notice": VERIFICATION_NOT_RECORDED}
        print_json({**to_data(v), "verification_id": v.id, **extra})  # the reference's name for the id
        return 0
    def fmt(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.2f}"

    print(f"run #{v.run_id} against {v.repository} since {v.since_commit}: precision {fmt(v.precision)}, "
          f"recall {fmt(v.recall)}" + (f" (verification #{v.id})" if v.id is not None else ""))
    print(f"  predicted: {', '.join(v.predicted) or '-'}")
    print(f"  actual:    {', '.join(v.actual) or '-'}")
    print(f"  missed:    {', '.join(v.false_negatives) or '-'}   extra: {', '.join(v.false_positives) or '-'}")
    if v.unowned_files:
        print(f"  {len(v.unowned_files)} changed files belong to no service (e.g. {v.unowned_files[0]})")
    if v.id is None:
        print(f"  {VERIFICATION_NOT_RECORDED}")
    elif args.record_feedback and not v.actual and not v.unowned_files:
        print("  no feedback recorded: nothing changed since that commit")
    elif args.record_feedback:
        print(f"  feedback recorded: {len(v.true_positives)} confirmed, {len(v.false_positives)} rejected")
    return 0
