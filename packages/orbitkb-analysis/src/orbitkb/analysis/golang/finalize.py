"""Turn the interpreter's records into raw facts: compose router prefixes, keep the best variant
of each source site, name GORM tables, and collect the components everything belongs to."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from orbitkb.analysis.facts import (
    Env,
    Lit,
    ParseGap,
    Prop,
    RawApi,
    RawCall,
    RawComponent,
    RawEntity,
    RawMessage,
    Unknown,
    placeholder,
)
from orbitkb.analysis.golang import gorm, grpcserver
from orbitkb.analysis.golang.program import Program
from orbitkb.analysis.golang.sink import CallRec, MsgRec, RouteRec, Sink
from orbitkb.analysis.golang.sqltext import sql_engine_of
from orbitkb.analysis.golang.tables import GORM_DRIVERS, normalize_import
from orbitkb.analysis.golang.values import Obj, S, V, render, render_part, route_part

_SLASHES = re.compile(r"/{2,}")


def normalize_path(path: str) -> str:
    p = _SLASHES.sub("/", "/" + path.strip())
    if len(p) > 1 and p.endswith("/"):
        p = p.rstrip("/") or "/"
    return p


def _prefixes(router: Obj, depth: int = 0) -> list[tuple[str, bool, bool]]:
    """(prefix, bound, isolated) per chain of routers above ``router``: isolated when the top router
    was built in a run that did not start at ``main`` (clients.reached_from_main)."""
    sources = router.a.get("mounts") or router.a.get("parents") or []
    if not sources or depth > 12:
        return [("", not router.a.get("unbound", False), bool(router.a.get("isolated")))]
    out: list[tuple[str, bool, bool]] = []
    for parent, seg in sources:
        if not isinstance(parent, Obj):
            continue
        for pre, bound, isolated in _prefixes(parent, depth + 1):
            out.append((pre + "/" + render(seg, route_part), bound, isolated))
    return out or [("", False, False)]


def apis(sink: Sink) -> list[RawApi]:
    variants: dict[tuple[Any, ...], list[tuple[bool, RawApi]]] = {}
    bare: dict[tuple[Any, ...], str] = {}  # the route's own segment alone, per site
    isolated: set[tuple[Any, ...]] = set()  # (site, path) seen only on routers built outside main's run
    from_main: set[tuple[Any, ...]] = set()  # (site, path) bound on a router main's run built
    for rec in sink.routes:
        if rec.handler is None or not grpcserver.belongs(rec, sink):
            continue
        site = (rec.file, rec.line, rec.kind, render(rec.seg))
        for path, bound, alone in _paths(rec):
            if alone:
                isolated.add((site, path))
            elif bound:
                from_main.add((site, path))
            for method in rec.methods or ["ANY"]:
                h = rec.handler
                api = RawApi(
                    method=method,
                    path=path,
                    handler=h.symbol,
                    file=h.file,
                    start_line=h.start,
                    end_line=h.end,
                    kind=rec.kind,
                    component=h.component,
                    channel=render(rec.channel) if rec.channel is not None else None,
                    provider=rec.provider,
                    doc=h.doc,
                    framework=rec.framework,
                )
                variants.setdefault(site, []).append((bound, api))
                bare[site] = normalize_path(render(rec.seg, route_part))
    # a registration line main's run reaches: the variants other runs of the same line built (the
    # generated ``Handler()`` / ``HandlerFromMuxWithBaseURL`` run alone, another base URL) are not served
    main_lines = {site[:3] for site, _path in from_main}
    out: set[RawApi] = set()
    for site, items in variants.items():
        if site[:3] in main_lines:
            # the generated ``HandlerWithOptions`` run alone builds its own router: the route as
            # main's run mounts it is the one served
            items = [(b, a) for b, a in items if (site, a.path) in from_main or (site, a.path) not in isolated]
        any_bound = any(b for b, _ in items)
        kept = [a for b, a in items if b or not any_bound]
        if not any_bound and site[2] == "http":
            # no variant is known to be served: a route under its groups' prefixes says more
            # than the same route seen on a receiver of unknown type (no prefix at all)
            kept = [a for a in kept if a.path != bare[site]] or kept
        out.update(kept)
    return sorted(out, key=lambda a: (a.path, a.method, a.file, a.start_line, a.handler))


def _paths(rec: RouteRec) -> list[tuple[str, bool, bool]]:
    seg = render(rec.seg, route_part)
    if rec.kind != "http":
        return [(seg, True, False)]
    if rec.router is None:
        return [(normalize_path(seg), True, False)]
    return [(normalize_path(pre + "/" + seg), bound, alone) for pre, bound, alone in _prefixes(rec.router)]


def _score(url: V | None) -> int:
    return url.resolved_score() if isinstance(url, S) else 0


def _best(items: list[Any], url_of: Any) -> list[Any]:
    """Per site: prefer variants attributed to an API, then the best-resolved values."""
    if any(i.api_handler for i in items):
        items = [i for i in items if i.api_handler]
    out: list[Any] = []
    for api in sorted({i.api_handler or "" for i in items}):
        group = [i for i in items if (i.api_handler or "") == api]
        top = max(_score(url_of(i)) for i in group)
        out.extend(i for i in group if _score(url_of(i)) == top)
    return out


def calls(sink: Sink) -> list[RawCall]:
    sites: dict[tuple[Any, ...], list[CallRec]] = {}
    invoked = {c.grpc_service for c in sink.calls if c.kind == "grpc" and not c.ctor}
    for c in sink.calls:
        if c.param_url and (c.file, c.line) in sink.resited:
            continue
        if c.ctor and c.grpc_service in invoked:
            continue
        rpc = c.method if c.kind == "grpc" else None
        sites.setdefault((c.file, c.line, c.kind, c.client, c.grpc_service, rpc), []).append(c)
    out: set[RawCall] = set()
    for items in sites.values():
        for c in _best(items, lambda i: i.url):
            out.add(
                RawCall(
                    kind=c.kind,
                    file=c.file,
                    line=c.line,
                    end_line=c.end,
                    client=c.client,
                    url=c.url.to_expr() if c.url is not None else None,
                    method=c.method,
                    grpc_service=c.grpc_service,
                    api_handler=c.api_handler,
                    component=c.component,
                )
            )
    return sorted(out, key=lambda c: (c.file, c.line, c.client, c.api_handler or "", repr(c.url)))


def messages(sink: Sink) -> list[RawMessage]:
    sites: dict[tuple[Any, ...], list[MsgRec]] = {}
    for m in sink.messages:
        sites.setdefault((m.file, m.line, m.direction, m.provider), []).append(m)
    out: set[RawMessage] = set()
    for items in sites.values():
        for m in _best(items, lambda i: i.channel):
            out.add(
                RawMessage(
                    direction=m.direction,
                    channel=m.channel.to_expr(),
                    provider=m.provider,
                    file=m.file,
                    line=m.line,
                    end_line=m.end,
                    client=m.client,
                    api_handler=m.api_handler,
                    component=m.component,
                )
            )
    return sorted(out, key=lambda m: (m.file, m.line, m.direction, m.api_handler or "", repr(m.channel)))


def split_unresolved(msgs: list[RawMessage]) -> tuple[list[RawMessage], list[ParseGap]]:
    """The messages whose channel is known, and one gap per site whose channel nothing in the code
    or configuration names (a runtime value, a parameter no caller binds): never a channel called
    after the expression."""
    kept: list[RawMessage] = []
    gaps: set[ParseGap] = set()
    for m in msgs:
        if m.channel.literal() == "" or any(isinstance(p, Unknown) for p in m.channel.parts):
            shown = "".join(render_part(p) for p in m.channel.parts)
            reason = f"{m.provider} {m.direction} at line {m.line}: channel not resolved ({shown})"
            gaps.add(ParseGap(m.file, "unsupported", reason))
        else:
            kept.append(m)
    return kept, sorted(gaps, key=lambda g: (g.file, g.reason))


def _engine(prog: Program) -> str | None:
    engines = {
        GORM_DRIVERS[p]
        for d in prog.files.values()
        for p in (normalize_import(x) for x in d["imports"].values())
        if p in GORM_DRIVERS
    }
    return engines.pop() if len(engines) == 1 else None


def entities(prog: Program, sink: Sink) -> list[RawEntity]:
    out: dict[tuple[str, str], RawEntity] = {}
    models = set(sink.models)
    for (d, name), (_path, t) in prog.types.items():
        if t["k"] == "struct" and (gorm.is_model(t) or (d, name, "TableName") in prog.funcs):
            models.add((d, name))
    queue = sorted(models)
    while queue:  # associations of models are models (GORM migrates and joins them)
        d, name = queue.pop()
        decl = prog.types.get((d, name))
        for key in gorm.associations(prog, d, decl[1]) if decl is not None else ():
            if key not in models:
                models.add(key)
                queue.append(key)
    engine = _engine(prog) or sql_engine_of(prog)
    for (_d, name), (path, t) in sorted(prog.types.items()):
        if t["k"] == "struct" and _is_ent_schema(prog, path, t):
            table = gorm.table_name(name)  # ent names a schema's table by its snake plural
            out.setdefault(
                (table, "sql_table"),
                RawEntity(table, "sql_table", path, t["l"], t["e"], name, (), engine, framework="ent"),
            )
    for d, name in sorted(models):
        decl = prog.types.get((d, name))
        if decl is None:
            continue
        path, t = decl
        table = gorm.explicit_table(prog, d, name) or gorm.table_name(name)
        out.setdefault(
            (table, "sql_table"),
            RawEntity(
                name=table,
                kind="sql_table",
                file=path,
                start_line=t["l"],
                end_line=t["e"],
                class_name=name,
                fields=tuple(gorm.columns(prog, d, t)),
                engine_hint=engine,
                framework="gorm",
            ),
        )
    named_keys = any(r.kind == "key_value" and r.engine_hint == "redis" for r in sink.entities)
    for rec in sorted(sink.entities + ([] if named_keys else sink.runtime_keys[:1]), key=lambda r: (r.file, r.start)):
        text = rec.name.literal() or _placeholder(rec.name)
        if text is None:
            continue
        out.setdefault(
            (text, rec.kind),
            RawEntity(
                text,
                rec.kind,
                rec.file,
                rec.start,
                rec.end,
                engine_hint=rec.engine_hint,
                framework=rec.framework,
            ),
        )
    return sorted(out.values(), key=lambda e: (e.name, e.kind))


def components(
    prog: Program, apis_: Iterable[RawApi], calls_: Iterable[RawCall], msgs: Iterable[RawMessage]
) -> list[RawComponent]:
    wanted: dict[str, str] = {}  # component name -> a file that uses it
    for a in apis_:
        if a.component:
            wanted.setdefault(a.component, a.file)
    for c in calls_:
        if c.component:
            wanted.setdefault(c.component, c.file)
    for m in msgs:
        if m.component:
            wanted.setdefault(m.component, m.file)
    stems: dict[str, str] = {}
    for path in prog.files:
        stems.setdefault(posixpath.splitext(posixpath.basename(path))[0], path)
    out: list[RawComponent] = []
    for name, file in sorted(wanted.items()):
        decl = prog.type_decl(posixpath.dirname(file), name)
        if decl is not None:
            path, t = decl
            out.append(RawComponent(name, path, "class", t["l"], t["e"], t.get("doc")))
            continue
        path = file if posixpath.splitext(posixpath.basename(file))[0] == name else stems.get(name, file)
        funcs = prog.files.get(path, {}).get("funcs", [])
        end = max((f["e"] for f in funcs), default=1)
        out.append(RawComponent(name, path, "module", 1, end))
    return out


def framework(apis_: list[RawApi]) -> str | None:
    counts = Counter(a.framework for a in apis_ if a.kind == "http" and a.framework)
    if counts:
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    return "grpc" if any(a.kind == "grpc" for a in apis_) else None


_ENT = ("entgo.io/ent", "github.com/facebook/ent")


def _is_ent_schema(prog: Program, path: str, t: dict[str, Any]) -> bool:
    """``type Beer struct { ent.Schema }``: an ent schema, one table per type."""
    imports = prog.files.get(path, {}).get("imports", {})
    for fname, ftype, _tag, _line in t["f"]:
        alias, _, type_name = str(ftype).lstrip("*").partition(".")
        if not fname and type_name == "Schema" and normalize_import(imports.get(alias, "")) in _ENT:
            return True
    return False


def _placeholder(name: S) -> str | None:
    """A collection or table named by configuration (``cfg.Mongo.Collection``) as ``${key:default}``:
    the fact builder reads it from the service's config files; anything else stays unnamed."""
    out = []
    for p in name.parts:
        if isinstance(p, Lit):
            out.append(p.text)
        elif isinstance(p, (Prop, Env)):
            key = p.key if isinstance(p, Prop) else p.name
            out.append(placeholder(key, p.default))
        else:
            return None
    return "".join(out)
