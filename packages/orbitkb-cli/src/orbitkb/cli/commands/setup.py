"""`orbitkb setup`: connect Claude Code and Codex to orbitkb — MCP configuration, an instructions
block for the agent, and an optional post-commit hook. Idempotent, --dry-run, reversible (--undo)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from orbitkb.cli import client_setup as cs
from orbitkb.cli.commands._common import add_command, add_json
from orbitkb.cli.context import app_from, notice, print_json
from orbitkb.domain.errors import InvalidInput, PathNotFound

DESCRIPTION = """\
Connect your coding agents to orbitkb:
  - the MCP server entry for Claude Code (.mcp.json in the project, or ~/.claude.json with
    --scope user) and Codex (.codex/config.toml, or ~/.codex/config.toml);
  - a block in CLAUDE.md / AGENTS.md telling the agent when to call orbitkb instead of grepping
    (agents tend to ignore MCP tools nobody told them about);
  - with --hook, a git post-commit hook running `orbitkb update` in the background.
Your own entries are never overwritten (an orbitkb server you configured yourself is kept and
reported); running it again changes nothing; --dry-run shows the plan; --undo removes exactly what
setup added. What setup wrote in JSON files is remembered in ~/.orbitkb/setup.json."""

STATE = "~/.orbitkb/setup.json"


def register(sub: Any) -> None:
    p = add_command(sub, "setup", "configure Claude Code / Codex to use orbitkb (MCP, instructions, git hook)",
                    "orbitkb setup --client claude --client codex --hook --dry-run", run, description=DESCRIPTION)
    p.add_argument("--client", action="append", choices=["claude", "codex"],
                   help="the agent to configure (repeatable; default: both)")
    p.add_argument("--scope", choices=["project", "user"], default="project",
                   help="project: files in --project (default); user: files in your home folder")
    p.add_argument("--project", metavar="DIR", default=".", help="the project folder (default: the current one)")
    p.add_argument("--tools", choices=["core", "full"], default="core",
                   help="the MCP tool set the agent gets (default: core, the 7 task-shaped tools)")
    p.add_argument("--no-instructions", action="store_true", help="do not write the CLAUDE.md / AGENTS.md block")
    p.add_argument("--hook", action="store_true",
                   help="also install a git post-commit hook running `orbitkb update` in the background "
                   "(project scope; it uses your default LLM backend: cached answers make unchanged code free)")
    p.add_argument("--dry-run", action="store_true", help="print what would change and write nothing")
    p.add_argument("--undo", action="store_true", help="remove what setup added (with the same --scope/--project)")
    add_json(p)


def _command() -> str:
    """The absolute path of this orbitkb, so that agents started outside the virtualenv find it."""
    me = Path(sys.argv[0])
    if me.name == "orbitkb" and me.exists():
        return str(me.resolve())
    return shutil.which("orbitkb") or "orbitkb"


def run(args: argparse.Namespace) -> int:
    project = Path(args.project).expanduser().resolve()
    if args.scope == "project" and not project.is_dir():
        raise PathNotFound(f"project folder does not exist: {args.project}")
    if args.hook and args.scope != "project":
        raise InvalidInput("--hook installs a git hook in a project: use it with --scope project")
    home = Path.home()
    clients = args.client or ["claude", "codex"]
    command = _command()
    db = ["--db", args.db if "://" in str(args.db) else str(Path(args.db).expanduser().resolve())] if args.db else []
    serve_args = ["serve", "--tools", args.tools, *db]
    state_path = Path(STATE).expanduser()
    state: dict[str, Any] = json.loads(cs.read_text(state_path) or "{}")

    edits: list[tuple[Path, cs.Edit, bool]] = []  # (file, edit, executable)
    for client in clients:
        if client == "claude":
            cfg = project / ".mcp.json" if args.scope == "project" else home / ".claude.json"
            entry = cs.server_entry(command, serve_args, "claude")
            edits.append((cfg, cs.plan_json(cfg, cs.SERVER, entry, state.get(str(cfg)), args.undo), False))
            md = project / "CLAUDE.md" if args.scope == "project" else home / ".claude" / "CLAUDE.md"
        else:
            cfg = (project if args.scope == "project" else home) / ".codex" / "config.toml"
            edits.append((cfg, cs.plan_toml(cfg, command, serve_args, args.undo), False))
            md = project / "AGENTS.md" if args.scope == "project" else home / ".codex" / "AGENTS.md"
        if not args.no_instructions or args.undo:
            edits.append((md, cs.plan_block(md, "instructions", cs.instructions(args.tools), cs.MD_BEGIN,
                                            cs.MD_END, args.undo), False))
    if args.scope == "project" and (args.hook or args.undo):
        edits += _hook(args, project, command, db)

    if not args.dry_run:
        for path, edit, executable in edits:
            if edit.action.action in ("create", "update", "remove"):
                if edit.content is None:
                    path.unlink(missing_ok=True)
                else:
                    cs.write_atomic(path, edit.content, executable)
            if edit.state is not None:
                key, value = edit.state
                if value is None:
                    state.pop(key, None)
                else:
                    state[key] = value
        if state or state_path.exists():
            cs.write_atomic(state_path, json.dumps(state, indent=2, sort_keys=True) + "\n")
    actions = [e.action for _, e, _ in edits]
    if args.json:
        print_json({"dry_run": args.dry_run, "undo": args.undo, "actions": actions})
        return 0
    verb = {"create": "create", "update": "update", "remove": "remove", "unchanged": "unchanged",
            "absent": "nothing to remove", "kept-user-entry": "kept your own entry"}
    prefix = "would " if args.dry_run else ""
    for a in actions:
        shown = verb[a.action] if a.action in ("unchanged", "absent", "kept-user-entry") else prefix + a.action
        print(f"{shown:<22} {a.path} ({a.what}){': ' + a.note if a.note else ''}")
        if a.action == "kept-user-entry":
            notice(f"{a.path}: {a.note}")
    if not args.undo and not args.dry_run:
        print("done: restart your agent to load the orbitkb MCP server; `orbitkb setup --undo` removes it")
    return 0


def _hook(args: argparse.Namespace, project: Path, command: str, db: list[str]) -> list[tuple[Path, cs.Edit, bool]]:
    gitdir = cs.git_dir(project)
    if gitdir is None:
        if args.undo:
            return []
        raise InvalidInput(f"{project} is not a git repository: the post-commit hook needs one")
    hook = gitdir / "hooks" / "post-commit"
    update = [command, "update", *_repository_of(args, project), *db]
    edit = cs.plan_block(hook, "post-commit hook", cs.hook_body(update), cs.HASH_BEGIN, cs.HASH_END, args.undo,
                         create_with="#!/bin/sh\n", check=cs._shell_script)
    return [(hook, edit, True)]


def _repository_of(args: argparse.Namespace, project: Path) -> list[str]:
    """The name this project is indexed under (so the hook updates it alone); none: all of them."""
    if args.undo or (args.db is None and not os.environ.get("ORBITKB_DB")
                     and not Path("~/.orbitkb/orbitkb.db").expanduser().exists()):
        return []
    try:
        repos = app_from(args).adapters.store().list_repositories()
    except Exception:  # an unreadable database must not stop setup; the hook then updates them all
        return []
    return [r.name for r in repos if os.path.realpath(r.root_path) == str(project)][:1]
