"""link(): combine the parsed files of one service into LinkedFacts.

Order: routes (FastAPI, Flask, Django/DRF, message handlers, gRPC servicers) -> calls and messages -> entities ->
attribution (a call belongs to every API whose handler contains it or calls, one hop away, the
local function/method containing it) -> components (the classes and modules that own APIs,
calls and messages, with their docstrings).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, TypeVar

import attrs

from orbitkb.analysis.facts import (
    LinkedFacts,
    ParseGap,
    RawApi,
    RawCall,
    RawComponent,
    RawEntity,
    RawMessage,
    ServiceContext,
)
from orbitkb.analysis.python import (
    calls,
    celery_beat,
    dapr_sdk,
    messaging,
    nameko,
    persistence,
    routes_aiohttp,
    routes_django,
    routes_fastapi,
    routes_flask,
    routes_litestar,
    routes_tornado,
    servicers,
    shapes,
)
from orbitkb.analysis.python.linkctx import LinkState
from orbitkb.analysis.python.rebase import rebase
from orbitkb.analysis.python.routing import PendingRoute, PrefixTree, full_paths
from orbitkb.analysis.reach import reached_by

T = TypeVar("T")
Key = tuple[str, str]  # (file, function qualname)
ApiOut = tuple[RawApi, Key | None, str]  # (api, implementing function, file of its component)


def link(ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
    gaps = [
        ParseGap(file=p, kind="parse_error", reason=str(d["error"]))
        for p, d in sorted(parsed.items())
        if not isinstance(d, dict) or "error" in d or "funcs" not in d
    ]
    files = {
        p: rebase(p, d)
        for p, d in parsed.items()
        if isinstance(d, dict) and "error" not in d and "funcs" in d
    }
    st = LinkState(ctx, files)

    first = sorted(files)[0] if files else ctx.root_dir

    def safe(stage: str, fn: Callable[[], T], default: T) -> T:
        # one unexpected shape must cost one stage of one service, never the whole index run
        try:
            return fn()
        except (RecursionError, Exception) as e:  # noqa: BLE001
            gaps.append(
                ParseGap(first, "unsupported", f"python {stage} failed: {type(e).__name__}: {e}"[:300])
            )
            return default

    apis: list[ApiOut] = []
    tree = PrefixTree()
    no_routes: list[PendingRoute] = []
    pending = safe("fastapi routes", lambda: routes_fastapi.collect(st, tree), no_routes)
    pending = pending + safe("flask routes", lambda: routes_flask.collect(st, tree), no_routes)
    pending = pending + safe("nameko routes", lambda: nameko.routes(st), no_routes)
    pending = pending + safe("aiohttp routes", lambda: routes_aiohttp.collect(st, tree), no_routes)
    pending = pending + safe("tornado routes", lambda: routes_tornado.collect(st), no_routes)
    pending = pending + safe("litestar routes", lambda: routes_litestar.collect(st, tree), no_routes)
    no_apis: list[ApiOut] = []
    for route in pending:
        apis.extend(safe("routes", partial(_emit, st, tree, route), no_apis))
    apis.extend(safe("django routes", lambda: routes_django.collect(st), no_apis))
    no_msgs: list[tuple[RawMessage, str | None]] = []
    handler_apis, handler_msgs = safe("message handlers", lambda: messaging.handlers(st), (no_apis, no_msgs))
    apis.extend(handler_apis)
    no_gaps: list[ParseGap] = []
    nameko_apis, nameko_in, nameko_gaps = safe(
        "nameko handlers", lambda: nameko.handlers(st), (no_apis, no_msgs, no_gaps)
    )
    nameko_out, nameko_out_gaps = safe("nameko publishes", lambda: nameko.publishes(st), (no_msgs, no_gaps))
    apis.extend(nameko_apis)
    gaps.extend(_one_gap_per_reason([*nameko_gaps, *nameko_out_gaps]))
    apis.extend(safe("grpc servicers", lambda: servicers.collect(st), no_apis))

    no_calls: tuple[list[tuple[RawCall, str | None]], set[str]] = ([], set())
    raw_calls, grpc_impl = safe("calls", lambda: calls.collect(st), no_calls)
    site_msgs, channel_gaps = safe("messaging", lambda: messaging.collect(st), (no_msgs, no_gaps))
    gaps.extend(_one_gap_per_reason(channel_gaps))
    raw_msgs = site_msgs + handler_msgs + nameko_in + nameko_out
    raw_msgs += safe("celery beat", lambda: celery_beat.collect(st, messaging.celery_tasks(st)), no_msgs)
    no_entities: list[RawEntity] = []
    entities = safe("persistence", lambda: persistence.collect(st), no_entities)
    no_sdk: tuple[list[tuple[RawCall, str | None]], list[tuple[RawMessage, str | None]], list[RawEntity]] = (
        [], [], no_entities)
    sdk_calls, sdk_msgs, sdk_entities = safe("dapr", lambda: dapr_sdk.collect(st), no_sdk)
    raw_calls, raw_msgs, entities = raw_calls + sdk_calls, raw_msgs + sdk_msgs, entities + sdk_entities

    # shared modules read for their declarations (ctx.context_files): what lies in them is not this service's
    shared = frozenset(ctx.context_files)
    if shared:
        apis = [a for a in apis if a[0].file not in shared]
        raw_calls = [c for c in raw_calls if c[0].file not in shared]
        raw_msgs = [m for m in raw_msgs if m[0].file not in shared]
        entities = [e for e in entities if e.file not in shared]
    reach = _reach(st, apis)
    out_calls = sorted(set(_attribute_all(st, raw_calls, reach)), key=_call_key)
    out_msgs = sorted(set(_attribute_all(st, raw_msgs, reach)), key=_msg_key)
    out_apis = sorted({a for a, _, _ in apis}, key=_api_key)
    owners = {(a.component or "", f) for a, _, f in apis}

    components = [c for c in _components(st, owners, out_calls, out_msgs) if c.file not in shared]
    return LinkedFacts(
        components=tuple(components),
        apis=tuple(out_apis),
        calls=tuple(out_calls),
        messages=tuple(out_msgs),
        entities=tuple(sorted(set(entities), key=lambda e: (e.file, e.start_line, e.name))),
        grpc_implements=tuple(sorted(grpc_impl)),
        framework=_framework(out_apis, st),
        gaps=tuple(g for g in gaps if g.file not in shared),
    )


def _emit(st: LinkState, tree: PrefixTree, route: PendingRoute) -> list[ApiOut]:
    out = []
    request: shapes.Shape = ()
    response: shapes.Shape = ()
    if route.framework == routes_fastapi.FRAMEWORK:
        request, response = shapes.shapes(
            st, route.handler_file or route.file, route.qual, route.response_model
        )
    for path in full_paths(st, tree, route):
        for method in route.methods:
            api = RawApi(
                method=method,
                path=path,
                handler=route.handler,
                file=route.file,
                start_line=route.start,
                end_line=route.end,
                component=route.component,
                doc=route.doc,
                framework=route.framework,
                request_fields=request,
                response_fields=response,
            )
            impl = (route.handler_file or route.file, route.qual) if route.qual else None
            out.append((api, impl, route.component_file))
    return out


def _one_gap_per_reason(found: list[ParseGap]) -> list[ParseGap]:
    return sorted(set(found), key=lambda g: (g.file, g.reason))


def _reach(st: LinkState, apis: list[ApiOut]) -> dict[Key, set[str]]:
    """Functions reached by each API handler: the handler itself and every local function it
    calls, however deep (a call inside a nested function counts for each enclosing one)."""
    entries: dict[str, set[Key]] = defaultdict(set)
    for api, key, _ in apis:
        if key is not None:
            entries[api.handler].add(key)
    if not entries:
        return defaultdict(set)
    calls: dict[Key, set[Key]] = defaultdict(set)
    for inv in st.invs:
        if inv.fn is None:
            continue
        c = inv.callee
        if c["t"] != "fn":
            continue
        qual = inv.fn
        while True:
            calls[(inv.path, qual)].add((c["p"], c["n"]))
            if "." not in qual:
                break
            qual = qual.rsplit(".", 1)[0]
    return defaultdict(set, reached_by(entries, lambda k: sorted(calls.get(k, ()))))


def _owner(table: Mapping[Key, Any], path: str, qual: str) -> Key | None:
    """The function of ``table`` containing ``qual`` (itself or an enclosing function)."""
    cur = qual
    while True:
        if (path, cur) in table:
            return (path, cur)
        if "." not in cur:
            return None
        cur = cur.rsplit(".", 1)[0]


def _attribute_all(
    st: LinkState, items: list[tuple[Any, str | None]], reach: dict[Key, set[str]]
) -> list[Any]:
    out: list[Any] = []
    for fact, fn in items:
        comp = st.component_of(fact.file, fn)[0]
        owner = _owner(reach, fact.file, fn) if fn else None
        handlers = sorted(reach[owner]) if owner else []
        if handlers:
            out.extend(attrs.evolve(fact, api_handler=h, component=comp) for h in handlers)
        else:
            out.append(attrs.evolve(fact, component=comp))
    return out


def _components(
    st: LinkState, owners: set[tuple[str, str]], raw_calls: list[RawCall], msgs: list[RawMessage]
) -> tuple[RawComponent, ...]:
    wanted: set[tuple[str, str]] = {(file, name or st.module_stem(file)) for name, file in owners}
    for c in raw_calls:
        wanted.add((c.file, c.component or st.module_stem(c.file)))
    for m in msgs:
        wanted.add((m.file, m.component or st.module_stem(m.file)))
    out = []
    for file, name in sorted(wanted):
        data = st.files.get(file)
        if data is None:
            continue
        cls = next((q for q in data["classes"] if q.rsplit(".", 1)[-1] == name), None)
        if cls is not None:
            info = data["classes"][cls]
            out.append(RawComponent(name, file, "class", info["l"], info["e"], info.get("doc")))
        else:
            out.append(RawComponent(name, file, "module", 1, data.get("nl", 1), data.get("doc")))
    return tuple(out)


def _framework(apis: list[RawApi], st: LinkState) -> str | None:
    counts: dict[str, int] = defaultdict(int)
    for a in apis:
        if a.framework and a.kind == "http":
            counts[a.framework] += 1
    if counts:
        return max(sorted(counts), key=lambda k: counts[k])
    for lib in ("fastapi", "flask", "django", "celery"):
        if lib in st.libs:
            return lib
    return None


def _api_key(a: RawApi) -> tuple[Any, ...]:
    return (a.file, a.start_line, a.path, a.method, a.handler)


def _call_key(c: RawCall) -> tuple[Any, ...]:
    return (c.file, c.line, c.kind, c.client, str(c.url), c.method or "", c.api_handler or "")


def _msg_key(m: RawMessage) -> tuple[Any, ...]:
    return (m.file, m.line, m.direction, str(m.channel), m.api_handler or "")
