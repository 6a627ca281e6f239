"""Turning one service's linked raw facts into domain facts: components, APIs, entities, messages.

Ids come from stable keys (``make_id``), so the same tree always yields the same ids; every list
is sorted. Calls are built separately (``calls.py``) once every service's APIs are known.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from attrs import evolve

from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.config.service_config import ServiceConfig
from orbitkb.analysis.config.spring import SERVED_PREFIXES
from orbitkb.analysis.facts import Env, Expr, LinkedFacts, Lit, ParseGap, Prop, RawApi, RawEntity, placeholder
from orbitkb.analysis.grpc.services import ProtoService
from orbitkb.analysis.resolution import channels, engines
from orbitkb.analysis.resolution.storenames import tables_in
from orbitkb.analysis.resolution.values import Sentinels, expand, has_sentinel
from orbitkb.domain.ids import make_id
from orbitkb.domain.model import (
    Api,
    ApiKind,
    Component,
    Direction,
    EntityField,
    Evidence,
    Message,
    PersistenceEntity,
    ShapeField,
)


def evidence(file: str, start: int, end: int | None, commit: str | None, note: str | None = None) -> Evidence:
    start = max(int(start or 1), 1)
    return Evidence(file, start, max(int(end or start), start), commit, note)


def config_evidence(values: Iterable[ConfigValue], commit: str | None) -> tuple[Evidence, ...]:
    seen: dict[tuple[str, int], Evidence] = {}
    for value in values:
        if value.file and (value.file, value.line) not in seen:
            seen[(value.file, value.line)] = evidence(
                value.file, value.line, value.line, commit, value.note()
            )
    return tuple(seen.values())


#: a channel that resolved to one placeholder and nothing else: configuration never sets it
_UNSET = re.compile(r"\$\{[^{}]*\}")


def _shown(expr: Expr) -> str:
    """The code's expression of a channel, settings written as ``${NAME}``."""
    return "".join(
        p.text if isinstance(p, Lit)
        else placeholder(p.name if isinstance(p, Env) else p.key, p.default) if isinstance(p, Env | Prop)
        else "{" + p.hint + "}"
        for p in expr.parts
    )  # fmt: skip


class FactBuilder:
    """Builds the facts of one service; ``component_id``/``api_id`` look raw references up."""

    def __init__(
        self, service_id: str, linked: LinkedFacts, config: ServiceConfig, commit: str | None
    ) -> None:
        self.sid = service_id
        self.linked = linked
        self.config = config
        self.commit = commit
        self.components = self._components()
        self._component_ids: dict[str, str] = {}
        for comp in sorted(self.components, key=lambda c: (c.file_path, c.start_line)):
            self._component_ids.setdefault(comp.name, comp.id)
        self.apis: list[Api] = []
        self._api_by_handler: dict[str, Api] = {}
        self.unresolved: list[ParseGap] = []  # messages whose channel configuration leaves unset

    def component_id(self, name: str | None) -> str | None:
        return self._component_ids.get(name) if name else None

    def api_for_handler(self, handler: str | None) -> Api | None:
        return self._api_by_handler.get(handler) if handler else None

    def _components(self) -> list[Component]:
        out: dict[str, Component] = {}
        for raw in self.linked.components:
            cid = make_id("cmp", self.sid, raw.name, raw.file)
            out.setdefault(
                cid,
                Component(
                    cid,
                    self.sid,
                    raw.name,
                    raw.file,
                    raw.kind,
                    raw.start_line,
                    max(raw.end_line, raw.start_line),
                    raw.doc,
                ),
            )
        return sorted(out.values(), key=lambda c: (c.name, c.file_path, c.id))

    def _channel_text(self, text: str) -> tuple[str, tuple[ConfigValue, ...]]:
        """A handler's channel written as ``${prop}`` or as a stream binding name, resolved."""
        used: tuple[ConfigValue, ...] = ()
        if "${" in text:
            marks = Sentinels()
            expanded, used = expand(text, self.config, marks)
            text = marks.readable(expanded)
        dest = channels.stream_destination(text, "consumes", self.config)
        return (dest[0], (*used, dest[1])) if dest else (text, used)

    def _message_path(self, raw: RawApi) -> tuple[str, str | None, tuple[ConfigValue, ...]]:
        path, used = self._channel_text(raw.path)
        if raw.channel is None:
            return path, None, used
        channel, more = self._channel_text(raw.channel)
        return path, channel, (*used, *more)

    def _http_path(self, raw: RawApi) -> tuple[str, str | None, tuple[ConfigValue, ...]]:
        """An HTTP path with ``${prop:default}`` prefixes (Spring Data REST's base path, mapping
        placeholders, the served prefix of ``SERVED_PREFIXES``) resolved against the service's configuration."""
        full = SERVED_PREFIXES.get(raw.framework or "", "") + "/" + raw.path
        if "${" not in full:
            return raw.path, raw.channel, ()
        marks = Sentinels()
        expanded, used = expand(full, self.config, marks)
        path = "/" + "/".join(s for s in marks.readable(expanded).split("/") if s)
        return path, raw.channel, used

    def build_apis(
        self, protos: Sequence[ProtoService], impl_types: Mapping[str, str] | None = None
    ) -> list[Api]:
        """The linker's APIs, plus one RPC API per method of each implemented proto service the
        linker did not report (handler ``<implementing type>.<rpc>`` when the type is known)."""
        out: dict[str, Api] = {}
        for raw in self.linked.apis:
            kind = ApiKind(raw.kind) if raw.kind in ApiKind._value2member_map_ else ApiKind.HTTP
            path, channel, used = (
                self._message_path(raw) if kind == ApiKind.MESSAGE else self._http_path(raw)
            )
            aid = make_id("api", self.sid, raw.method.upper(), path, raw.handler, raw.file)
            out.setdefault(
                aid,
                Api(
                    id=aid, service_id=self.sid, method=raw.method.upper(), path=path, handler=raw.handler,
                    file=raw.file, start_line=max(raw.start_line, 1), end_line=max(raw.end_line, raw.start_line, 1),
                    kind=kind, component_id=self.component_id(raw.component), channel=channel, doc=raw.doc,
                    request_shape=tuple(ShapeField(f, t, r) for f, t, r in raw.request_fields),
                    response_shape=tuple(ShapeField(f, t, r) for f, t, r in raw.response_fields),
                    evidence=(evidence(raw.file, raw.start_line, raw.end_line, self.commit),
                              *config_evidence(used, self.commit)),
                ),
            )  # fmt: skip
        grpc_paths = {a.path for a in out.values() if a.kind == ApiKind.GRPC}
        for proto in protos:
            for rpc in proto.rpcs:
                path = f"{proto.full_name}/{rpc.name}"
                if path in grpc_paths or any(
                    p.rsplit(".", 1)[-1] == f"{proto.name}/{rpc.name}" for p in grpc_paths
                ):
                    continue
                handler = f"{(impl_types or {}).get(proto.name, proto.name)}.{rpc.name}"
                aid = make_id("api", self.sid, "RPC", path, handler, proto.file)
                out.setdefault(
                    aid,
                    Api(aid, self.sid, "RPC", path, handler, proto.file, rpc.line, max(rpc.end_line, rpc.line),
                        kind=ApiKind.GRPC, doc=rpc.doc,
                        evidence=(evidence(proto.file, rpc.line, rpc.end_line, self.commit),)),
                )  # fmt: skip
        self.apis = sorted(out.values(), key=lambda a: (a.path, a.method, a.handler, a.file, a.id))
        for api in sorted(self.apis, key=lambda a: (a.file, a.start_line, a.id)):
            self._api_by_handler.setdefault(api.handler, api)
        return self.apis

    def build_messages(self, deps: set[str]) -> list[Message]:
        out: dict[str, Message] = {}
        reached_from: dict[str, dict[str, None]] = {}  # message id -> every API reaching it, in order
        for raw in self.linked.messages:
            if channels.internal_binding(raw.channel, self.config):
                continue  # a function's binding inside a composed definition: no channel
            direction = Direction.CONSUMES if raw.direction == "consumes" else Direction.PUBLISHES
            channel, used, binding = channels.resolve_channel(raw.channel, raw.direction, self.config)
            if not channel.strip() or _UNSET.fullmatch(channel.strip()):
                # named only by a setting no configuration fills (or fills with ""): a gap, not a channel
                shown = _shown(raw.channel)
                reason = f"{raw.provider} {raw.direction} at line {raw.line}: channel not resolved ({shown} is unset)"
                self.unresolved.append(ParseGap(raw.file, "unsupported", reason))
                continue
            provider = channels.resolve_provider(raw.provider, binding, self.config, deps)
            api = self.api_for_handler(raw.api_handler)
            mid = make_id("msg", self.sid, direction.value, channel, provider, raw.file, raw.line)
            if api is not None:
                reached_from.setdefault(mid, {})[api.id] = None
            out.setdefault(
                mid,
                Message(
                    mid, self.sid, direction, channel or "unknown", provider, api.id if api else None,
                    self.component_id(raw.component) or (api.component_id if api else None),
                    evidence=(evidence(raw.file, raw.line, raw.end_line, self.commit), *config_evidence(used, self.commit)),
                ),
            )  # fmt: skip
        for mid, api_ids in reached_from.items():
            out[mid] = evolve(out[mid], api_id=None, api_ids=tuple(api_ids))
        return sorted(out.values(), key=lambda m: (m.channel, m.direction.value, m.id))

    def build_entities(self, depends_on_engines: set[str], deps: set[str]) -> list[PersistenceEntity]:
        marks = Sentinels()
        from_config: set[str] = set()
        other_profiles: set[str] = set()  # URLs only a profile that is not active sets: a last resort
        for tier, profiles in ((from_config, "active"), (other_profiles, "inactive")):
            for value in self.config.values(profiles):
                text = expand(value.value, self.config, marks)[0] if "$" in value.value else value.value
                engine = engines.engine_from_setting(value.key, text)
                if engine:
                    tier.add(engine)
        from_deps = engines.engines_from_deps(deps)
        profiled = self._profile_engines(marks)
        later: set[str] = set()  # the same entity under another profile's engine: after the deployed one
        out: dict[str, PersistenceEntity] = {}
        for raw in self._configured_names(marks):
            named = raw.engine_hint
            if named and "${" in named:  # an engine chosen by configuration: ``${DB_CONNECTION:mysql}``
                named = expand(named, self.config, marks)[0]
                named = None if has_sentinel(named) else named
            hint = engines.normalize_engine(named)
            engine = hint or engines.pick_engine(
                raw.kind, (from_config, depends_on_engines, from_deps, other_profiles)
            )
            eid = make_id("ent", self.sid, raw.name, raw.class_name, raw.file)
            entity = out.setdefault(
                eid,
                PersistenceEntity(
                    eid, self.sid, raw.name, raw.kind, engine, raw.class_name,
                    tuple(EntityField(n, t, nullable, bool(pk)) for n, t, nullable, pk in raw.fields),
                    evidence=(evidence(raw.file, raw.start_line, raw.end_line, self.commit),),
                ),
            )  # fmt: skip
            for other in [] if hint else engines.alternatives(engine, raw.kind, profiled):
                xid = make_id("ent", self.sid, raw.name, raw.class_name, raw.file, other)
                out.setdefault(xid, evolve(entity, id=xid, engine=other))
                later.add(xid)
        return sorted(out.values(), key=lambda e: (e.name, e.class_name or "", e.id in later, e.id))

    def _configured_names(self, marks: Sentinels) -> list[RawEntity]:
        """The linker's entities with names held in configuration resolved: a collection/table
        named by a property, or (a table kind) the SQL statement a property holds, one entity per
        table it names; one set nowhere is no entity rather than a placeholder name."""
        out: list[RawEntity] = []
        for raw in self.linked.entities:
            if "${" not in raw.name:
                out.append(raw)
                continue
            name = expand(raw.name, self.config, marks)[0]
            if has_sentinel(name):
                continue
            tables = tables_in(name) if raw.kind == "sql_table" else []
            out += [evolve(raw, name=t) for t in tables] or [evolve(raw, name=name)]
        return out

    def _profile_engines(self, marks: Sentinels) -> list[list[str]]:
        """Per property whose profiles disagree on the database (MySQL by default, PostgreSQL under
        ``docker``), the engines its values select, most authoritative first."""
        out: list[list[str]] = []
        for key in self.config.props.keys():
            found: list[str] = []
            for value in self.config.prop_candidates(key):
                text = expand(value.value, self.config, marks)[0] if "$" in value.value else value.value
                engine = engines.engine_from_setting(key, text)
                if engine and engine not in found:
                    found.append(engine)
            if len(found) > 1:
                out.append(found)
        return out
