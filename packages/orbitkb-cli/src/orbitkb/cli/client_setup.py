"""What `orbitkb setup` writes, as plans of file edits: the MCP client configuration of Claude Code
and Codex, an instructions block in CLAUDE.md / AGENTS.md, and an optional git post-commit hook.

Rules:
- Never overwrite a user's own entry: an ``orbitkb`` server entry that orbitkb did not write is
  kept as it is (and reported); a file that cannot be parsed is refused, never rewritten.
- Idempotent: a second run changes nothing. Text files carry orbitkb's part between markers;
  JSON files cannot carry comments, so what setup wrote there is remembered in
  ``~/.orbitkb/setup.json`` and undone only while it is still what setup wrote.
- Reversible: ``undo`` removes exactly what setup added (a file setup created and that holds
  nothing else is deleted).
- Every write is atomic (a temporary file renamed over the old one, keeping its mode).
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attrs import frozen

from orbitkb.domain.errors import InvalidInput

SERVER = "orbitkb"
MD_BEGIN = "<!-- orbitkb:begin (written by `orbitkb setup`; remove with `orbitkb setup --undo`) -->"
MD_END = "<!-- orbitkb:end -->"
HASH_BEGIN = "# >>> orbitkb setup (remove with `orbitkb setup --undo`)"
HASH_END = "# <<< orbitkb setup"


@frozen
class Action:
    path: str
    what: str  # e.g. "mcpServers.orbitkb", "instructions", "post-commit hook"
    action: str  # create | update | unchanged | remove | absent | kept-user-entry
    note: str = ""


@frozen
class Edit:
    """One planned edit: the action, and the new content (None: delete the file; unchanged: skip)."""

    action: Action
    content: str | None = None
    state: tuple[str, Any] | None = None  # (key, value) to remember, value None to forget


def server_entry(command: str, args: list[str], flavour: str) -> dict[str, Any]:
    if flavour == "claude":
        return {"type": "stdio", "command": command, "args": args}
    return {"command": command, "args": args}


def instructions(tools: str) -> str:
    lines = [
        "## orbitkb: ask it before you grep across services",
        "",
        "The services of this system — their APIs, the calls between them, message channels and",
        "persisted entities — are indexed by orbitkb, an MCP server (`orbitkb`). Use it instead of",
        "searching the source tree when the question is about services:",
        "",
        "- On a new task, call `find_change_surface` with the task first: it names the services",
        "  likely to change, with reasons, confidence and evidence (`file:line`).",
        "- What a service does, who calls it, what it calls: `describe_service`, `get_relationships`;",
        "  one endpoint's shapes and calls: `describe_api`; anything by words: `search`.",
        "- While editing a file, `find_provenance(file, line)` says what is declared there and which",
        "  services depend on it.",
        "- Read and grep files for the code itself once orbitkb told you where to look.",
    ]
    if tools == "full":
        lines += [
            "- An answer with `stale: true` is older than the code: call `refresh` first.",
            "- `list_blind_spots` lists what orbitkb could not read: absent from orbitkb is not absent.",
        ]
    else:
        lines.append("- An answer with `stale: true` is older than the code: run `orbitkb update`.")
    return "\n".join(lines)


# --------------------------------------------------------------------------- reading and writing


def read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read {path}: {exc}", hint="fix or move the file; setup changed nothing") from None


def write_atomic(path: Path, content: str, executable: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else (0o755 if executable else 0o644)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".orbitkb-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(content)
        os.chmod(tmp, mode | (0o111 if executable else 0))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --------------------------------------------------------------------------- JSON (Claude Code)


def plan_json(path: Path, key: str, entry: dict[str, Any], remembered: Any, undo: bool) -> Edit:
    """``key`` of ``mcpServers`` in the JSON file at ``path`` (``.mcp.json`` or ``~/.claude.json``)."""
    what = f"mcpServers.{key}"
    text = read_text(path)
    try:
        doc = json.loads(text) if text and text.strip() else {}
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{path} is not valid JSON ({exc}); setup changed nothing",
                           hint="fix the file, or add the server by hand (see README)") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("mcpServers", {}), dict):
        raise InvalidInput(f"{path} does not hold a JSON object with an mcpServers object; setup changed nothing")
    servers = doc.setdefault("mcpServers", {})
    current = servers.get(key)
    if undo:
        if current is None:
            return Edit(Action(str(path), what, "absent"), state=(str(path), None))
        if remembered is None or current != remembered:
            return Edit(Action(str(path), what, "kept-user-entry", "not written by orbitkb setup"))
        del servers[key]
        if not servers:
            del doc["mcpServers"]
        if not doc:
            return Edit(Action(str(path), what, "remove", "file deleted: it held nothing else"), None,
                        state=(str(path), None))
        return Edit(Action(str(path), what, "remove"), _dump(doc), state=(str(path), None))
    if current == entry:
        return Edit(Action(str(path), what, "unchanged"), state=(str(path), entry))
    if current is not None and current != remembered:
        return Edit(Action(str(path), what, "kept-user-entry",
                           "an orbitkb server you configured yourself; setup leaves it as it is"))
    servers[key] = entry
    return Edit(Action(str(path), what, "create" if current is None else "update"), _dump(doc),
                state=(str(path), entry))


def _dump(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- marked text blocks


def _split(text: str, begin: str, end: str) -> tuple[str, str | None, str]:
    """(before, block or None, after) around orbitkb's marked block."""
    start = text.find(begin)
    if start < 0:
        return text, None, ""
    stop = text.find(end, start)
    if stop < 0:
        raise InvalidInput(f"orbitkb's block starts but never ends ({end!r} is missing)",
                           hint="remove the partial block by hand; setup changed nothing")
    stop += len(end)
    if text[stop:stop + 1] == "\n":
        stop += 1
    return text[:start], text[start:stop], text[stop:]


def plan_block(path: Path, what: str, body: str, begin: str, end: str, undo: bool,
               create_with: str = "", check: Callable[[str], None] | None = None) -> Edit:
    """orbitkb's block (``begin``…``end`` around ``body``) appended to, replaced in, or removed from
    the text file at ``path``; a file holding nothing else once the block is removed is deleted."""
    text = read_text(path)
    try:
        before, block, after = _split(text or "", begin, end)
    except InvalidInput as exc:
        raise InvalidInput(f"{path}: {exc}", hint=exc.hint) from None
    wanted = f"{begin}\n{body}\n{end}\n"
    if undo:
        if block is None:
            return Edit(Action(str(path), what, "absent"))
        rest = (before.rstrip("\n") + "\n" + after.lstrip("\n")) if before.strip() and after.strip() else (
            before.rstrip("\n") + "\n" if before.strip() else after.lstrip("\n"))
        leftover = rest.strip()
        if not leftover or leftover == create_with.strip():
            return Edit(Action(str(path), what, "remove", "file deleted: it held nothing else"), None)
        return Edit(Action(str(path), what, "remove"), rest)
    if block == wanted:
        return Edit(Action(str(path), what, "unchanged"))
    if text is not None and check is not None:
        check(text)
    if block is not None:
        return Edit(Action(str(path), what, "update"), before + wanted + after)
    if text is None or not text.strip():
        return Edit(Action(str(path), what, "create"), create_with + wanted)
    return Edit(Action(str(path), what, "update"), text.rstrip("\n") + "\n\n" + wanted)


# --------------------------------------------------------------------------- TOML (Codex)

_TABLE = re.compile(r"^\s*\[\s*mcp_servers\s*\.\s*(\"?)orbitkb\1\s*\]", re.M)


def toml_body(command: str, args: list[str]) -> str:
    return f"[mcp_servers.{SERVER}]\ncommand = {json.dumps(command)}\nargs = {json.dumps(args)}"


def plan_toml(path: Path, command: str, args: list[str], undo: bool) -> Edit:
    text = read_text(path) or ""
    before, block, after = _split(text, HASH_BEGIN, HASH_END)
    if undo:
        return plan_block(path, f"mcp_servers.{SERVER}", toml_body(command, args), HASH_BEGIN, HASH_END, True)
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{path} is not valid TOML ({exc}); setup changed nothing") from None
    if _TABLE.search(before + after) or _mentions_server(before + after):
        return Edit(Action(str(path), f"mcp_servers.{SERVER}", "kept-user-entry",
                           "an orbitkb server you configured yourself; setup leaves it as it is"))
    edit = plan_block(path, f"mcp_servers.{SERVER}", toml_body(command, args), HASH_BEGIN, HASH_END, False)
    try:
        tomllib.loads(edit.content or "")
    except tomllib.TOMLDecodeError as exc:  # e.g. mcp_servers written as an inline table
        raise InvalidInput(f"cannot add [mcp_servers.{SERVER}] to {path} without breaking it ({exc}); "
                           "setup changed nothing", hint="add the server by hand (see README)") from None
    return edit


def _mentions_server(text: str) -> bool:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    servers = doc.get("mcp_servers")
    return isinstance(servers, dict) and SERVER in servers


# --------------------------------------------------------------------------- git hook


def git_dir(project: Path) -> Path | None:
    dot = project / ".git"
    if dot.is_dir():
        return dot
    if dot.is_file():  # a worktree or submodule: "gitdir: <path>"
        first = (read_text(dot) or "").strip()
        if first.startswith("gitdir:"):
            target = Path(first.split(":", 1)[1].strip())
            return target if target.is_absolute() else (project / target).resolve()
    return None


def hook_body(command: list[str]) -> str:
    line = " ".join(_sh_quote(c) for c in command)
    return ("# refresh orbitkb's index of this repository in the background; never delays the commit\n"
            f"( {line} >/dev/null 2>&1 & )")


def _sh_quote(text: str) -> str:
    return text if re.fullmatch(r"[A-Za-z0-9_./=:@+-]+", text) else "'" + text.replace("'", "'\\''") + "'"


def _shell_script(text: str) -> None:
    first = text.splitlines()[0] if text else ""
    if text.strip() and not (first.startswith("#!") and re.search(r"\b(ba|da|z|k)?sh\b", first)):
        raise InvalidInput("the existing post-commit hook is not a shell script: setup will not edit it",
                           hint="call the command printed by `orbitkb setup --hook --dry-run` from your hook")
