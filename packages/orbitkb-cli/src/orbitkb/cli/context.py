"""What every sub-command gets: settings resolved from its flags and the application container."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from orbitkb.bootstrap import Application, Settings, build_application
from orbitkb.domain.serialization import to_data


def app_from(args: argparse.Namespace) -> Application:
    return build_application(settings_from(args))


def settings_from(args: argparse.Namespace) -> Settings:
    flags = {
        "db_path": getattr(args, "db", None),
        "backend": getattr(args, "backend", None),
        "model": getattr(args, "model", None),
        "claude_bare": getattr(args, "claude_bare", None) or None,
        "codex_api_key": getattr(args, "codex_api_key", None) or None,
        "jobs": getattr(args, "jobs", None),
        "tools": getattr(args, "tools", None),
        "embedder": getattr(args, "embedder", None),
    }
    return Settings.resolve(flags)


def print_json(obj: Any) -> None:
    json.dump(to_data(obj), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def notice(message: str) -> None:
    print(f"orbitkb: {message}", file=sys.stderr)
