"""`orbitkb ui`: the local web app — system map, service pages, change surfaces, smells (needs
the orbitkb-ui distribution)."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_backend, add_command
from orbitkb.domain.errors import OrbitkbError

DESCRIPTION = """\
Serve a local web app over the knowledge model: the system map (services grouped by repository,
resources and vendors, HTTP / gRPC / message edges with file:line evidence, cycles and hot spots),
service pages, the change-surface explorer (with feedback) and the smells with their trend.
It listens on 127.0.0.1 only; --host serves another interface, with a warning. --read-only opens
the database without writing (a shared database): change surfaces are answered but not recorded,
and feedback is off (the page says so)."""


def port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is between 1 and 65535, got {value}")
    return value


def register(sub: Any) -> None:
    p = add_command(sub, "ui", "serve the local web app: system map, services, change surfaces, smells",
                    "orbitkb ui --db .orbitkb-demo/orbitkb.db --open", run, description=DESCRIPTION)
    p.add_argument("--port", type=port, default=8765, help="TCP port (default 8765)")
    p.add_argument("--host", default="127.0.0.1",
                   help="interface to listen on (default 127.0.0.1; anything else prints a warning)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--read-only", action="store_true",
                   help="open the database without writing (a shared one): runs are not recorded, feedback is off")
    add_backend(p)


def run(args: argparse.Namespace) -> int:
    try:
        from orbitkb.ui.server import serve
    except ImportError as exc:
        raise OrbitkbError("the web app is not installed", hint="pip install orbitkb-ui") from exc
    from orbitkb.cli.context import settings_from

    serve(settings_from(args), host=args.host, port=args.port, open_browser=args.open, read_only=args.read_only)
    return 0
