"""The JSON endpoints, one per view: parse the request, call one use case through the composition
root, answer its data. Errors become one line with a hint and the status a person expects."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from orbitkb.bootstrap import Application
from orbitkb.domain import errors
from orbitkb.domain.serialization import to_data
from orbitkb.ui.evidence import EdgeEvidence, lean_map
from orbitkb.ui.security import TOKEN_HEADER, token_matches

Endpoint = Callable[[Request], Awaitable[Response]]
MAX_BODY = 64 * 1024
EMPTY = {"empty": True, "guidance": "nothing is indexed yet: run `orbitkb index PATH`, then reload"}


def _status(exc: errors.OrbitkbError) -> int:
    statuses: tuple[tuple[type[errors.OrbitkbError], int], ...] = (
        (_Forbidden, 403), (ReadOnly, 403), (errors.NotFound, 404), (errors.InvalidInput, 400), (errors.NotAvailableYet, 400),
        (errors.RepositoryConflict, 409))
    return next((code for kind, code in statuses if isinstance(exc, kind)), 500)


def answer(fn: Callable[..., Any]) -> Endpoint:
    """Runs ``fn(request)`` — ``fn(request, body)`` for a POST, after the token check — in a worker
    thread (blocking: the store and git are synchronous)."""

    @functools.wraps(fn)
    async def endpoint(request: Request) -> Response:
        try:
            args: tuple[Any, ...] = (request, await _body(request)) if request.method == "POST" else (request,)
            result = await run_in_threadpool(functools.partial(fn, *args))
            return result if isinstance(result, Response) else JSONResponse(to_data(result))
        except errors.EmptyKnowledgeBase:
            return JSONResponse(EMPTY)
        except errors.OrbitkbError as exc:
            data: dict[str, Any] = {"error": str(exc), "hint": exc.hint}
            if isinstance(exc, errors.NotFound):
                data["suggestions"] = list(exc.suggestions)
            return JSONResponse(data, status_code=_status(exc))
        except Exception as exc:  # the page gets one line; the terminal keeps the cause
            print(f"orbitkb ui: internal error in {fn.__name__}: {type(exc).__name__}: {exc}", file=sys.stderr)
            return JSONResponse({"error": f"internal error ({type(exc).__name__})"}, status_code=500)

    return endpoint


async def _body(request: Request) -> dict[str, Any]:
    if not token_matches(request.app.state.token, request.headers.get(TOKEN_HEADER)):
        raise _Forbidden()
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise errors.InvalidInput(f"request body over {MAX_BODY} bytes")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise errors.InvalidInput("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise errors.InvalidInput("the request body must be a JSON object")
    return data


class _Forbidden(errors.OrbitkbError):
    """A write without this session's token (another page, an old tab, a script)."""

    def __init__(self) -> None:
        super().__init__("missing or wrong session token", hint="reload the page orbitkb ui served")


class ReadOnly(errors.OrbitkbError):
    """A write asked of a server started with ``--read-only`` (a shared database)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"this server is read-only: {what}",
                         hint="start orbitkb ui without --read-only on a database you may write")


class LastJson:
    """The JSON body of the last answer, kept while the use case hands back the very same object
    (the map of one snapshot at one freshness): a reload costs a fingerprint read, not 0.4 MB of
    serialising. ``shape``: what is done to the serialised value before it is encoded."""

    def __init__(self, shape: Callable[[Any], Any] = lambda data: data) -> None:
        self._last: tuple[object, bytes] | None = None
        self._shape = shape
        self.encoded = 0  # how many times a body was serialised (for tests)

    def __call__(self, value: object) -> Response:
        last = self._last
        if last is None or last[0] is not value:
            data = self._shape(to_data(value))
            last = (value, json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8"))
            self._last = last
            self.encoded += 1
        return Response(last[1], media_type="application/json")


def _int(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise errors.InvalidInput(f"{name} must be an integer, got {raw!r}") from None


def _required(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise errors.InvalidInput(f"{name} is required")
    return value


def routes(app: Application, read_only: bool = False) -> dict[str, tuple[str, Endpoint]]:
    """path -> (method, endpoint). ``read_only``: change surfaces are answered but not recorded,
    feedback is refused."""
    uc = app.use_cases
    map_json = LastJson(lean_map)  # every edge without its reason and evidence: /api/edge(s) answer them
    edge_index = EdgeEvidence()

    def system_map(request: Request) -> Any:
        return map_json(uc.draw_system_map()())

    def edge(request: Request) -> Any:
        return edge_index(uc.draw_system_map()()).edge(_required(request.query_params.get("id"), "id"))

    def edges(request: Request) -> Any:
        q = request.query_params
        return edge_index(uc.draw_system_map()()).of_node(
            _required(q.get("node"), "node"), q.get("direction") or "any", _int(request, "limit"), _int(request, "offset"))

    def service(request: Request) -> Any:
        name = _required(request.query_params.get("name"), "name")
        limit, offset = _int(request, "limit"), _int(request, "offset")
        described = to_data(uc.describe_service()(name, limit, offset))
        repository = described["repository"]
        return {
            "service": described,
            "apis": uc.list_apis()(name, limit, offset),
            "persistence": uc.describe_persistence()(name, limit, offset),
            "messages": uc.describe_messages()(name, limit, offset),
            "gaps": uc.list_blind_spots()(repository, None, limit, offset),  # paged with the other lists
        }

    def api(request: Request) -> Any:
        q = request.query_params
        return uc.describe_api()(_required(q.get("service"), "service"), _required(q.get("method"), "method"),
                                 _required(q.get("path"), "path"))

    def surface(request: Request, body: dict[str, Any]) -> Any:
        task = _required(body.get("task"), "task")
        hints = body.get("hint_services") or []
        if not isinstance(hints, list) or not all(isinstance(h, str) for h in hints):
            raise errors.InvalidInput("hint_services must be a list of service names")
        return uc.find_change_surface()(task, tuple(hints), record=not read_only)

    def runs(request: Request) -> Any:
        return uc.list_change_surface_runs()(_int(request, "limit"), _int(request, "offset"))

    def feedback(request: Request, body: dict[str, Any]) -> Any:
        if read_only:
            raise ReadOnly("feedback is not recorded")
        return uc.record_feedback()(body.get("run_id"), _required(body.get("service"), "service"),
                                    _required(body.get("outcome"), "outcome"))

    def smells(request: Request) -> Any:
        kind = request.query_params.get("kind") or None
        return uc.find_architecture_smells()(kind=kind, limit=_int(request, "limit"), offset=_int(request, "offset"))

    return {
        "/api/map": ("GET", answer(system_map)),
        "/api/edge": ("GET", answer(edge)),
        "/api/edges": ("GET", answer(edges)),
        "/api/service": ("GET", answer(service)),
        "/api/api": ("GET", answer(api)),
        "/api/surface": ("POST", answer(surface)),
        "/api/runs": ("GET", answer(runs)),
        "/api/feedback": ("POST", answer(feedback)),
        "/api/smells": ("GET", answer(smells)),
    }
