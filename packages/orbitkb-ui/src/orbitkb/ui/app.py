"""The Starlette application: the page (with this session's token in a meta tag, never in a
script), the static modules and the JSON endpoints, all behind the security middleware."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from orbitkb.bootstrap import Application
from orbitkb.ui.endpoints import routes
from orbitkb.ui.security import LOCAL_HOSTS, SecurityHeaders, new_token

STATIC = Path(__file__).parent / "static"


def create_app(app: Application, token: str | None = None, hosts: tuple[str, ...] = LOCAL_HOSTS,
               read_only: bool = False) -> SecurityHeaders:
    """``hosts``: the Host header values this server answers (127.0.0.1, localhost, ::1 and the
    interface it was told to listen on). ``read_only``: nothing is written (runs are not recorded,
    feedback is refused) and the page says so (its ``orbitkb-mode`` meta tag)."""
    session = token or new_token()
    page = (STATIC / "index.html").read_text(encoding="utf-8").replace("__SESSION_TOKEN__", session) \
        .replace("__MODE__", "read-only" if read_only else "read-write")

    async def index(request: Request) -> Response:
        return HTMLResponse(page)

    web = Starlette(routes=[
        Route("/", index),
        *(Route(path, endpoint, methods=[method]) for path, (method, endpoint) in routes(app, read_only).items()),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    web.state.token = session
    web.state.application = app
    web.state.read_only = read_only
    return SecurityHeaders(web, tuple(dict.fromkeys((*LOCAL_HOSTS, *hosts))))
