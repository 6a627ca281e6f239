"""`orbitkb index PATH` and `orbitkb update [REPOSITORY]`."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from orbitkb.cli.commands._common import add_backend, add_command, add_json, positive_int
from orbitkb.cli.context import app_from, notice, print_json, sigterm_interrupts
from orbitkb.cli.exit import ExitStatus
from orbitkb.cli.progress import Progress
from orbitkb.domain import stacks
from orbitkb.domain.errors import InvalidInput

if TYPE_CHECKING:  # the use case loads when an index runs, not when the parser is built
    from orbitkb.domain.usecases.indexing import IndexResult

STATUS_NOTE = """

Exit status 6: the facts are indexed, but LLM units (or another post-index step) failed; the
first causes are printed. After 3 units in a row fail alike, no more are sent. Ctrl-C or SIGTERM
cancels pending LLM units, stops running ones and exits 130; answers received before are kept."""
INDEX_DESCRIPTION = "index a repository (or a monorepo, or one folder) into the knowledge model" + STATUS_NOTE


def register(sub: Any) -> None:
    p = add_command(
        sub, "index", "index a repository (or a monorepo, or one folder) into the knowledge model",
        "orbitkb index examples/shopfront --repository-name shopfront",
        run_index, description=INDEX_DESCRIPTION,
    )
    p.add_argument("path", help="repository folder")
    p.add_argument("--repository-name", help="name under which to store it (default: the folder name)")
    p.add_argument("--commit", metavar="REV", help="index a past commit straight from git objects (no checkout)")
    p.add_argument("--service", metavar="NAME", help="force the folder to be one service with this name")
    p.add_argument("--stack", choices=stacks.STACK_NAMES, help="stack of the forced --service")
    p.add_argument("--replace", action="store_true",
                   help="replace the knowledge of a repository indexed under the same name from another folder")
    p.add_argument("--jobs", type=positive_int, help="parallel LLM units (default 4)")
    add_backend(p)
    add_json(p)

    u = add_command(sub, "update", "re-index what changed in already indexed repositories",
                    "orbitkb update shopfront", run_update,
                    description="re-index what changed in already indexed repositories" + STATUS_NOTE)
    u.add_argument("repository", nargs="*", metavar="REPOSITORY_OR_SERVICE",
                   help="repositories to re-index, by name or by the name of one of their services (default: all)")
    u.add_argument("--replace", action="store_true",
                   help="accept that a folder which became empty empties its repository")
    u.add_argument("--jobs", type=positive_int, help="parallel LLM units (default 4)")
    add_backend(u)
    add_json(u)


def run_index(args: argparse.Namespace) -> int:
    if bool(args.service) != bool(args.stack):
        raise InvalidInput("--service and --stack go together", hint="e.g. --service billing --stack python")
    from orbitkb.domain.usecases.indexing import IndexRequest

    app = app_from(args)  # the path is checked by the use case (PathNotFound: exit status 2)
    _backend_notice(app)
    progress = Progress(enabled=not args.json)
    request = IndexRequest(path=args.path, repository_name=args.repository_name, commit=args.commit,
                           forced_service=(args.service, args.stack) if args.service else None,
                           replace=args.replace)
    try:
        with sigterm_interrupts():
            result = app.use_cases.index_repository()(request, progress)
    finally:
        progress.close()
    _report(args, [result], progress.elapsed)
    return _status([result])


def run_update(args: argparse.Namespace) -> int:
    app = app_from(args)
    refresh = app.use_cases.refresh_repositories()
    if not refresh.select(args.repository):  # unknown names are refused here, before any work
        notice("nothing indexed yet: orbitkb index PATH")
        return 0
    _backend_notice(app)
    progress = Progress(enabled=not args.json)
    try:
        with sigterm_interrupts():
            refreshed = refresh(args.repository, replace=args.replace, progress=progress)
    finally:
        progress.close()
    for r in refreshed:
        if r.removed:
            notice(f"{r.repository}: removed meanwhile, not re-indexed")
    results = [r.result for r in refreshed if r.result is not None]
    if results:
        _report(args, results, progress.elapsed)
    return _status(results)


def _status(results: list[IndexResult]) -> int:
    """PARTIAL when a post-index step failed (LLM units, embeddings): the facts are stored, but
    a script must not mistake a run that lost its descriptions for a clean one."""
    failed = [h for r in results for h in r.hooks if not h.ok]
    if not failed and all(r.run.status != "partial" for r in results):
        return ExitStatus.OK
    for h in failed:
        first = f": {h.causes[0]}" if h.causes else ""
        notice(f"indexed, but the {h.name} step failed (exit status {int(ExitStatus.PARTIAL)}){first}")
    return ExitStatus.PARTIAL


def _backend_notice(app: Any) -> None:
    choice = app.adapters.backend()
    if choice.notice:
        notice(choice.notice)


def _report(args: argparse.Namespace, results: list[IndexResult], elapsed: float) -> None:
    if args.json:
        print_json(results if len(results) > 1 else results[0])
        return
    for r in results:
        run = r.run
        commit = (r.repository.indexed_commit or "")[:12] or "no git"
        print(f"{r.repository.name} ({commit}): {len(r.services)} services, {r.files_total} files "
              f"({r.files_changed} changed, {r.files_parsed} parsed), {len(r.gaps)} gaps, "
              f"status {run.status} in {elapsed:.1f}s")
        for name in r.services:
            print(f"  - {name}")
        if not r.services:
            print("  no service found: a service is a folder with a build manifest and an entry point; force one "
                  "with --service NAME --stack STACK")
        if r.reconciled_calls:
            print(f"  reconciled {r.reconciled_calls} calls from other repositories")
        for h in r.hooks:
            if not h.ok or h.llm_calls:
                cost = f" cost_usd={h.cost_usd:.4f}" if h.cost_usd is not None else ""
                print(f"  {h.name}: {'ok' if h.ok else 'failed'} {h.message}{cost}")
                for cause in h.causes:
                    print(f"    cause: {cause}")
        if r.gaps:
            print(f"  {len(r.gaps)} gaps (skipped or unparsed files): orbitkb status --gaps")
