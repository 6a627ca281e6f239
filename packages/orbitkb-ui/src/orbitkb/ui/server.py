"""Runs the web app with uvicorn on 127.0.0.1 (another interface only when asked, with a warning).

    orbitkb-ui [--db PATH] [--port N] [--host H] [--open] [--read-only]
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Sequence

from attrs import evolve

from orbitkb.bootstrap import Settings, build_application
from orbitkb.domain.errors import EmptyKnowledgeBase
from orbitkb.domain.serialization import to_data
from orbitkb.ui.app import create_app
from orbitkb.ui.security import LOCAL_HOSTS

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def exposure_warning(host: str) -> str | None:
    """None for a loopback address; else the sentence printed before serving."""
    if host in LOCAL_HOSTS:
        return None
    return (f"warning: serving on {host}: anyone who can reach this interface can read the knowledge "
            "model (and, with the page's token, run change surfaces). Use the default 127.0.0.1 unless you mean it.")


def url_of(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def open_when_serving(url: str, host: str, port: int, opener: Callable[[str], object] = webbrowser.open,
                      timeout: float = 30.0) -> threading.Thread:
    """Opens ``url`` with ``opener`` (the default browser: ``webbrowser.open``, which honours
    $BROWSER) once ``host:port`` accepts connections — never before, never after ``timeout``."""

    def wait_then_open() -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((host, port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            print(f"orbitkb ui: not opening a browser: nothing answered on {url} within {timeout:.0f} s", file=sys.stderr)
            return
        opener(url)

    thread = threading.Thread(target=wait_then_open, name="orbitkb-ui-open", daemon=True)
    thread.start()
    return thread


def serve(settings: Settings, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, open_browser: bool = False,
          read_only: bool = False, opener: Callable[[str], object] = webbrowser.open) -> None:
    """``read_only``: the database is opened without writing (a shared one): change surfaces are
    answered but not recorded, feedback is refused, and the page says so."""
    import uvicorn

    settings = evolve(settings, read_only=settings.read_only or read_only)
    app = build_application(settings)
    app.adapters.store()  # open (and migrate, unless read-only) the database before the first request
    choice = app.adapters.backend()
    if choice.notice:
        print(f"orbitkb ui: {choice.notice}", file=sys.stderr)
    warning = exposure_warning(host)
    if warning:
        print(f"orbitkb ui: {warning}", file=sys.stderr)
    try:  # the map of this snapshot is drawn (and its kind of JSON learned) now, not on the first page's clock
        to_data(app.use_cases.draw_system_map()())
    except EmptyKnowledgeBase:
        pass
    local = host if host not in ("0.0.0.0", "::") else DEFAULT_HOST
    url = url_of(local, port)
    mode = " read-only" if settings.read_only else ""
    print(f"orbitkb ui: serving {settings.db_label}{mode} on {url} (Ctrl-C to stop)", file=sys.stderr)
    if open_browser:
        open_when_serving(url, local, port, opener)
    uvicorn.run(create_app(app, hosts=(host,), read_only=settings.read_only), host=host, port=port,
                log_level="warning", access_log=False)


def port_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is between 1 and 65535, got {value}")
    return value


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="orbitkb-ui", description="orbitkb ui: a local web map of the indexed system")
    p.add_argument("--db", help="database file (default: $ORBITKB_DB or ~/.orbitkb/orbitkb.db)")
    p.add_argument("--port", type=port_number, default=DEFAULT_PORT)
    p.add_argument("--host", default=DEFAULT_HOST)
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--read-only", action="store_true",
                   help="open the database without writing: runs are not recorded, feedback is off")
    p.add_argument("--backend", choices=["auto", "claude", "codex", "offline"])
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        serve(Settings.resolve({"db_path": args.db, "backend": args.backend}), args.host, args.port, args.open,
              args.read_only)
    except KeyboardInterrupt:
        return 0
    except Exception as exc:
        print(f"orbitkb-ui: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
