"""What every sub-command gets: settings resolved from its flags and the application container."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from orbitkb.cli.terminal import safe_text

if TYPE_CHECKING:  # the container is imported when a command runs, not when the parser is built
    from orbitkb.bootstrap import Application, Settings


def app_from(args: argparse.Namespace) -> Application:
    from orbitkb.bootstrap import build_application

    return build_application(settings_from(args), keep_model=False)  # one command, one question


def use_case(args: argparse.Namespace, name: str) -> Any:
    """The use case ``name`` for this command: wired without the container when the composition
    root has a light wiring for these settings (``orbitkb.bootstrap.oneshot``), else the application's."""
    from orbitkb.bootstrap import oneshot

    settings = settings_from(args)
    found = oneshot.use_case(name, settings)
    if found is None:
        from orbitkb.bootstrap import build_application

        found = getattr(build_application(settings, keep_model=False).use_cases, name)()
    return found


def settings_from(args: argparse.Namespace) -> Settings:
    from orbitkb.bootstrap import Settings

    flags = {
        "db_path": getattr(args, "db", None),
        "backend": getattr(args, "backend", None),
        "model": getattr(args, "model", None),
        "claude_bare": getattr(args, "claude_bare", None) or None,
        "codex_api_key": getattr(args, "codex_api_key", None) or None,
        "jobs": getattr(args, "jobs", None),
        "tools": getattr(args, "tools", None),
        "embedder": getattr(args, "embedder", None),
        "llm_timeout": getattr(args, "llm_timeout", None),
        "read_only": getattr(args, "read_only", None),  # set by the sub-commands that only read
    }
    return Settings.resolve(flags)


def print_json(obj: Any) -> None:
    from orbitkb.domain.serialization import to_data  # cattrs: only when JSON is printed

    json.dump(to_data(obj), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def notice(message: str) -> None:
    print(safe_text(f"orbitkb: {message}"), file=sys.stderr)


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """SIGTERM behaves as Ctrl-C while the block runs: pending LLM units are cancelled, running
    CLI children terminated, and the run is marked interrupted at once (not by the next run)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
