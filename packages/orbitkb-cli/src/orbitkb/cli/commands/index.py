"""`orbitkb index PATH` and `orbitkb update [REPOSITORY]`."""

from __future__ import annotations

import argparse
import os
from typing import Any

from orbitkb.cli.commands._common import add_backend, add_command, add_json, positive_int
from orbitkb.cli.context import app_from, notice, print_json
from orbitkb.cli.progress import Progress
from orbitkb.domain.errors import InvalidInput, PathNotFound, RepositoryNotFound
from orbitkb.domain.usecases.indexing import IndexRequest, IndexResult

STACKS = ["python", "node-ts", "jvm-spring", "go"]


def register(sub: Any) -> None:
    p = add_command(
        sub, "index", "index a repository (or a monorepo, or one folder) into the knowledge model",
        "orbitkb index examples/shopfront --repository-name shopfront",
        run_index,
    )
    p.add_argument("path", help="repository folder")
    p.add_argument("--repository-name", help="name under which to store it (default: the folder name)")
    p.add_argument("--commit", metavar="REV", help="index a past commit straight from git objects (no checkout)")
    p.add_argument("--service", metavar="NAME", help="force the folder to be one service with this name")
    p.add_argument("--stack", choices=STACKS, help="stack of the forced --service")
    p.add_argument("--replace", action="store_true",
                   help="replace the knowledge of a repository indexed under the same name from another folder")
    p.add_argument("--jobs", type=positive_int, help="parallel LLM units (default 4)")
    add_backend(p)
    add_json(p)

    u = add_command(sub, "update", "re-index what changed in already indexed repositories",
                    "orbitkb update shopfront", run_update)
    u.add_argument("repository", nargs="*", help="repository names (default: all)")
    u.add_argument("--jobs", type=positive_int, help="parallel LLM units (default 4)")
    add_backend(u)
    add_json(u)


def run_index(args: argparse.Namespace) -> int:
    if bool(args.service) != bool(args.stack):
        raise InvalidInput("--service and --stack go together", hint="e.g. --service billing --stack python")
    if not os.path.isdir(args.path):
        what = "not a folder" if os.path.exists(args.path) else "path does not exist"
        raise PathNotFound(f"{what}: {args.path}", hint="pass the folder of a repository")
    app = app_from(args)
    _backend_notice(app)
    progress = Progress(enabled=not args.json)
    request = IndexRequest(path=args.path, repository_name=args.repository_name, commit=args.commit,
                           forced_service=(args.service, args.stack) if args.service else None,
                           replace=args.replace)
    try:
        result = app.use_cases.index_repository()(request, progress)
    finally:
        progress.close()
    _report(args, [result], progress.elapsed)
    return 0


def run_update(args: argparse.Namespace) -> int:
    app = app_from(args)
    store = app.adapters.store()
    repos = store.list_repositories()
    if args.repository:
        known = {r.name: r for r in repos}
        missing = [n for n in args.repository if n not in known]
        if missing:
            raise RepositoryNotFound(f"not indexed: {', '.join(missing)}", tuple(sorted(known)))
        repos = [known[n] for n in args.repository]
    if not repos:
        notice("nothing indexed yet: orbitkb index PATH")
        return 0
    _backend_notice(app)
    progress = Progress(enabled=not args.json)
    results = []
    try:
        for repo in repos:
            results.append(app.use_cases.index_repository()(
                IndexRequest(path=repo.root_path, repository_name=repo.name), progress))
    finally:
        progress.close()
    _report(args, results, progress.elapsed)
    return 0


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
        if r.gaps:
            print(f"  {len(r.gaps)} gaps (skipped or unparsed files): orbitkb status --gaps")
