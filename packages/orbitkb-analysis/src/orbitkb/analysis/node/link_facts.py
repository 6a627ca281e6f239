"""Outbound calls, thin wrappers, messages, entities and components of one linked service."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import evolve

from orbitkb.analysis.resolution.configrefs import config_ref

from ..dapr.invoke import via_app_id
from ..facts import Env, Expr, Lit, ParseGap, Prop, RawApi, RawCall, RawComponent, RawEntity, RawMessage
from . import orm_options
from .attribution import Reach
from .dead_helpers import DeadHelpers
from .message_wrappers import MessageSites
from .naming import mongoose_collection, sequelize_table, snake_case
from .resolve import Resolver, Target, path_text
from .rmq_links import RmqQueues
from .routing import Handled, stem
from .signatures import INSTANCE_VERBS
from .subclass_channels import SubclassChannels
from .wrappers import WrapperSites

_NEST_CLIENT_CALLS = frozenset({"nestjs-send", "nestjs-emit"})
_NEST_COMPONENT_DECORATORS = frozenset(
    {"Controller", "Injectable", "Resolver", "Processor", "WebSocketGateway"}
)


class FactBuilder:
    def __init__(self, files: Mapping[str, dict[str, Any]], resolver: Resolver) -> None:
        self.files = files
        self.r = resolver
        self.owners: dict[tuple[str, str], list[str]] = {}
        self.calls: list[RawCall] = []
        self.messages: list[RawMessage] = []
        self.entities: list[RawEntity] = []
        self._used_components: set[tuple[str, str]] = set()
        transports = {k: v for d in files.values() for k, v in d.get("transports", {}).items()}
        for file in sorted(files):
            for parts, source, provider in files[file].get("transport_refs", []):
                expr = resolver.expr(file, parts)
                value = expr.literal() if expr is not None else None
                for key in (value, source):  # `@Inject(AUTH_SERVICE)` names the constant
                    if key:
                        transports.setdefault(key, provider)
        self.server_transport = transports.pop("@server", None)
        self.transports = transports
        distinct = sorted(set(transports.values()))
        self.default_transport = transports.get("*") or (distinct[0] if len(distinct) == 1 else None)
        self.mongoose_connects = any(d.get("mongoose_connects") for d in files.values())
        self.orm_engine = orm_options.connection_engine([e for d in files.values() for e in d.get(orm_options.KEY, [])])
        self.rmq = RmqQueues(files, resolver)

    # ------------------------------------------------------------------ attribution helpers
    def _component(self, file: str, rec: Mapping[str, Any]) -> str:
        name = rec.get("cls") or stem(file)
        self._used_components.add((file, name))
        return name

    def _owner(self, file: str, rec: Mapping[str, Any]) -> str | None:
        found = self._handlers(file, rec)
        return found[0] if found else None

    def _handlers(self, file: str, rec: Mapping[str, Any]) -> list[str]:
        return self.owners.get((file, rec["fn"]), []) if rec.get("fn") else []

    def _add_call(self, file: str, rec: Mapping[str, Any], call: RawCall) -> None:
        """One call per API handler reaching the site (the first is already on ``call``)."""
        self.calls.append(call)
        self.calls.extend(evolve(call, api_handler=h) for h in self._handlers(file, rec)[1:])

    # ------------------------------------------------------------------ message handlers (APIs)
    def message_apis(self) -> list[Handled]:
        out: list[Handled] = []
        for file in sorted(self.files):
            for h in [*self.files[file].get("handlers", []), *self._queue_handlers(file)]:
                channel = path_text(self.r.expr(file, h["channel"]))
                provider = h.get("provider") or self.server_transport or self.default_transport or "unknown"
                component = h["cls"] or stem(file)
                api = RawApi(
                    method="CONSUME",
                    path=channel,
                    handler=h["fid"],
                    file=file,
                    start_line=h["line"],
                    end_line=h["end"],
                    kind="message",
                    component=component,
                    channel=channel,
                    provider=provider,
                    doc=h.get("doc"),
                    framework=h.get("fw", "nestjs"),
                )
                out.append(Handled(api, (file, h["fid"])))
                self._used_components.add((file, component))
                self.messages.append(
                    RawMessage(
                        "consumes",
                        Expr.lit(channel),
                        provider,
                        file,
                        h["line"],
                        h["end"],
                        h.get("client", "nestjs"),
                        api_handler=h["fid"],
                        component=component,
                    )
                )
            for g in self.files[file].get("grpc_methods", []):
                api = RawApi(
                    "RPC",
                    f"{g['service']}/{g['rpc']}",
                    g["fid"],
                    file,
                    g["line"],
                    g["end"],
                    kind="grpc",
                    component=g["cls"],
                    doc=g.get("doc"),
                    framework="nestjs",
                )
                out.append(Handled(api, (file, g["fid"])))
                self._used_components.add((file, g["cls"]))
        return out

    def _queue_target(self, file: str, q: Mapping[str, Any]) -> tuple[Expr, str] | None:
        """(queue name, client) of a queue imported from another file, else None."""
        target = self.r.resolve(file, q["recv"])
        if target is None or target[0] != "obj" or target[3].get("t") != "bull_queue":
            return None
        expr = self.r.expr(target[1], target[3].get("queue"))
        return (_merged(expr), target[3].get("client", "bull")) if expr is not None and expr.parts else None

    def _queue_handlers(self, file: str) -> list[dict[str, Any]]:
        out = []
        for q in self.files[file].get("qcalls", []):
            found = self._queue_target(file, q) if q["prop"] == "process" and q.get("fn_arg") else None
            if found is not None:
                record = {
                    "fid": q["fn_arg"],
                    "line": q["line"],
                    "end": q["end"],
                    "doc": None,
                    "cls": q["cls"],
                }
                channel = [["lit", path_text(found[0])]]
                out.append(
                    {**record, "channel": channel, "provider": "redis", "client": found[1], "fw": None}
                )
        return out

    def _queue_messages(self, file: str) -> None:
        for q in self.files[file].get("qcalls", []):
            found = self._queue_target(file, q) if q["prop"] != "process" else None
            if found is not None:
                msg = {**q, "dir": "publishes", "provider": "redis", "client": found[1]}
                self._message(file, msg, found[0])

    def config_refs(self) -> list[ParseGap]:
        """Client queues read from configuration (`queue: config.get("USERS_QUEUE")`): the pipeline
        reports those no configuration defines. The channel stays the message pattern."""
        out = []
        for file in sorted(self.files):
            for q in self.files[file].get("client_queues", []):
                expr = self.r.expr(file, q["queue"])
                if expr is not None and any(isinstance(p, (Env, Prop)) for p in expr.parts):
                    token = self.r.expr(file, q["token"]) if q.get("token") else None
                    what = f"RMQ queue of NestJS client {path_text(token) if token else '?'}"
                    out.append(config_ref(file, q["line"], what, _merged(expr)))
        return out

    # ------------------------------------------------------------------ calls, messages, entities
    def build(self, http_vcalls: list[tuple[str, dict[str, Any], Target]], reach: Reach) -> None:
        sites = WrapperSites(self.files, self.r, reach)
        instance_calls = []
        for file, vcall, target in http_vcalls:
            base = self.r.parts(target[1], target[3].get("base") or [])
            method = (vcall.get("options") or {}).get("method") or INSTANCE_VERBS.get(vcall["verb"]) or None
            rec = {**vcall, "client": target[3].get("client", "axios"), "kind": "http", "method": method}
            instance_calls.append((file, rec, base))
        for file in sorted(self.files):
            for call in self.files[file].get("calls", []):
                sites.add_base(file, call)
        for file, rec, base in instance_calls:
            sites.add_base(file, rec, base)
        for site in sites.run():
            self._add_call(site.file, site.record, self._call(site.file, site.record, site.url))
        message_sites = MessageSites(self.files, self.r, reach)
        for file, msg, channel in message_sites.run():
            self._message(file, msg, channel)
        inherited = SubclassChannels(self.files, self.r)
        for file, msg, channel in inherited.run():
            self._message(file, msg, channel)
        dead = DeadHelpers(self.files, self.r, reach)
        for file in sorted(self.files):
            data = self.files[file]
            for call in data.get("calls", []):
                if sites.covers(file, call):
                    continue  # reported at the wrapper's call sites instead
                self._add_call(file, call, self._call(file, call, self.r.expr(file, call.get("url"))))
            for msg in data.get("messages", []):
                if msg.get("requires") and not any(d.get(msg["requires"]) for d in self.files.values()):
                    continue  # an event-store feature stream of a service that publishes no events
                if message_sites.wrapped(file, msg) or inherited.covers(file, msg) or dead.covers(file, msg):
                    continue  # reported at its call sites / by its subclasses / never runs here
                self._message(file, msg)
            self._queue_messages(file)
            self._rmq_servers(file)
            for ent in data.get("entities", []):
                self._entity(file, ent)
        for file, rec, base in instance_calls:
            if sites.covers(file, rec):
                continue
            url = self.r.parts(file, rec["path"])
            self._add_call(file, rec, self._call(file, rec, Expr(tuple(base + url)) if base or url else None))

    def _call(self, file: str, call: Mapping[str, Any], url: Expr | None) -> RawCall:
        if call.get("app_id"):
            app = self.r.expr(file, call["app_id"])
            url = via_app_id(url, app) if app is not None else url
        if url is not None:
            url = _merged(url)
        return RawCall(
            kind=call["kind"],
            file=file,
            line=call["line"],
            end_line=call["end"],
            client=call["client"],
            url=url,
            method=call.get("method"),
            grpc_service=call.get("grpc_service"),
            api_handler=self._owner(file, call),
            component=self._component(file, call),
        )

    def _message(self, file: str, msg: Mapping[str, Any], resolved: Expr | None = None) -> None:
        channel = resolved or self.r.expr(file, msg["channel"])
        if channel is None:
            return
        provider = msg["provider"]
        queue = self.rmq.client_queue(file, msg) if msg.get("client") in _NEST_CLIENT_CALLS else None
        if provider == "unknown":
            provider = self.transports.get(msg.get("token") or "") or self.default_transport or "unknown"
        if provider == "unknown" and queue is not None:  # the transport named by a helper's options
            provider = "rabbitmq"
        message = RawMessage(
            msg["dir"],
            _merged(channel),
            provider,
            file,
            msg["line"],
            msg["end"],
            msg.get("client", ""),
            api_handler=self._owner(file, msg),
            component=self._component(file, msg),
        )
        self.messages.append(message)
        self.messages.extend(evolve(message, api_handler=h) for h in self._handlers(file, msg)[1:])
        if queue is not None:  # an RMQ client's messages all go into its queue (rmq_queues)
            self._message(file, {**msg, "provider": "rabbitmq", "client": "nestjs-rmq"}, queue)

    def _rmq_servers(self, file: str) -> None:
        """The RMQ queue a NestJS microservice of the service listens on."""
        for rec in self.files[file].get("rmq_servers", []):
            queue = self.rmq.queue(file, rec)
            if queue is not None:
                record = {**rec, "dir": "consumes", "provider": "rabbitmq", "client": "nestjs-rmq"}
                self._message(file, record, queue)

    def _entity(self, file: str, ent: Mapping[str, Any]) -> None:
        fw = ent["fw"]
        if fw == "mongoose" and ent.get("decorated") and not self.mongoose_connects:
            return  # a @Schema() class no connection of the service ever registers
        cls = ent.get("cls")
        fields = [tuple(f) for f in ent.get("fields", [])]
        explicit = self.r.expr(file, ent.get("table")) if ent.get("table") else None
        name = explicit.literal() if explicit is not None else None
        kind = "sql_table"
        engine = ent.get("engine") or (self.orm_engine if fw in orm_options.ORMS else None)
        if fw == "mongoose":
            kind, engine = "document_collection", "mongodb"
            model = self.r.expr(file, ent.get("model")) if ent.get("model") else None
            cls = cls or (model.literal() if model else None)
            schema = ent.get("schema")
            if isinstance(schema, list):
                target = self.r.resolve(file, schema)
                schema = target[3] if target is not None and target[0] == "obj" else None
            if isinstance(schema, dict):
                fields = [tuple(f) for f in schema.get("fields", [])]
            coll = self.r.expr(file, ent.get("collection")) if ent.get("collection") else None
            if coll is None and isinstance(schema, dict) and schema.get("collection"):
                coll = self.r.expr(file, schema["collection"])
            name = name or (coll.literal() if coll else None) or (mongoose_collection(cls) if cls else None)
        elif fw == "typeorm":
            name = name or (snake_case(cls) if cls else None)
            if engine == "mongodb":
                kind = "document_collection"
        elif fw == "sequelize":
            model = self.r.expr(file, ent.get("model")) if ent.get("model") else None
            model_name = (model.literal() if model else None) or cls
            cls = cls or model_name
            if not name and model_name:
                name = model_name if ent.get("freeze") else sequelize_table(model_name)
        elif fw == "prisma":
            name = name or cls
        elif fw == "dynamoose":  # the table is named after the model
            model = self.r.expr(file, ent.get("model")) if ent.get("model") else None
            kind, engine = "document_collection", "dynamodb"
            cls = name = model.literal() if model else None
        if not name:
            return
        self.entities.append(
            RawEntity(
                name=name,
                kind=kind,
                file=file,
                start_line=ent["line"],
                end_line=ent["end"],
                class_name=cls,
                fields=tuple(sorted(fields)),
                engine_hint=engine,
                framework=fw,
            )
        )
        if ent.get("decorated") and cls and not file.endswith(".prisma"):
            self._used_components.add((file, cls))

    # ------------------------------------------------------------------ components
    def components(self, apis: list[RawApi]) -> list[RawComponent]:
        used = set(self._used_components) | {(a.file, a.component) for a in apis if a.component}
        for file, data in self.files.items():
            for cls, info in data.get("classes", {}).items():
                if _NEST_COMPONENT_DECORATORS & set(info.get("decorators", [])):
                    used.add((file, cls))
        out = []
        for file, name in sorted(used):
            info = self.files.get(file, {}).get("classes", {}).get(name)
            if info is not None:
                out.append(RawComponent(name, file, "class", info["line"], info["end"], info.get("doc")))
            else:
                total = max(
                    [1] + [f.get("end", 1) for f in self.files.get(file, {}).get("functions", {}).values()]
                )
                out.append(RawComponent(name, file, "module", 1, total, None))
        return out


def _merged(expr: Expr) -> Expr:
    out: list[Any] = []
    for part in expr.parts:
        if isinstance(part, Lit) and out and isinstance(out[-1], Lit):
            out[-1] = Lit(out[-1].text + part.text)
        elif not (isinstance(part, Lit) and not part.text):
            out.append(part)
    return Expr(tuple(out))
