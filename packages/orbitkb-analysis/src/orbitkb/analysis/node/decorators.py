"""Decorated classes: NestJS controllers and message handlers, injected fields, ORM entity classes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from . import dto, nest_router, persistence, queues, rmq_queues, versioning
from .messaging import pattern_parts, transport_of
from .signatures import NEST_CLIENT_TYPES, NEST_MESSAGE_DECORATORS, NEST_METHODS
from .syntax import args_of, decorated_start, dotted, jsdoc, lines, object_pairs, string_value, text, unwrap
from .values import fold

if TYPE_CHECKING:
    from .extractor import Extractor

Decorator = tuple[str, list[Node]]
_ENTITY_DECORATORS = {"Entity": "typeorm", "Schema": "mongoose", "Table": "sequelize"}
_FIELD_DECORATORS = frozenset({"Prop", "PrimaryKey", "ManyToOne", "OneToOne", "Field", "Property"})


def parse_decorator(node: Node) -> Decorator | None:
    inner = next((c for c in node.named_children if c.type != "comment"), None)
    if inner is None:
        return None
    if inner.type == "call_expression":
        name = dotted(inner.child_by_field_name("function")) or ""
        return name.rsplit(".", 1)[-1], args_of(inner)
    name = dotted(inner) or ""
    return name.rsplit(".", 1)[-1], []


def _decorators(nodes: list[Node]) -> list[Decorator]:
    return [d for d in (parse_decorator(n) for n in nodes) if d is not None]


def _members(body: Node | None) -> list[tuple[list[Decorator], Node]]:
    """Class members with the decorators written before them (siblings in tree-sitter's tree)."""
    out: list[tuple[list[Decorator], Node]] = []
    pending: list[Node] = []
    for child in body.named_children if body is not None else []:
        if child.type == "decorator":
            pending.append(child)
        elif child.type != "comment":
            own = [c for c in child.children if c.type == "decorator"]
            out.append((_decorators(pending + own), child))
            pending = []
    return out


def _type_text(node: Node | None) -> str:
    if node is None:
        return ""
    inner = [c for c in node.named_children if c.type != "comment"]
    return text(inner[0]) if node.type == "type_annotation" and inner else text(node)


def _paths(ex: Extractor, args: list[Node]) -> list[list[Any]]:
    """Path argument(s) of @Controller/@Get: none, a string, an array, or `{ path }`."""
    if not args:
        return [[]]
    first = unwrap(args[0])
    if first is None:
        return [[]]
    if first.type == "object":
        pairs = object_pairs(first)
        return _paths(ex, [pairs["path"]]) if "path" in pairs else [[]]
    if first.type == "array":
        items = [c for c in first.named_children if c.type != "comment"]
        return [fold(i, ex.scope) for i in items] or [[]]
    return [fold(first, ex.scope)]


def on_class(ex: Extractor, node: Node, name: str) -> None:
    own = [c for c in node.children if c.type == "decorator"]
    if node.parent is not None and node.parent.type == "export_statement":
        own = [c for c in node.parent.children if c.type == "decorator"] + own
    decs = _decorators(own)
    body = node.child_by_field_name("body")
    members = _members(body)
    fields = ex.scope.classes.setdefault(name, {})
    heritage = next((c for c in node.named_children if c.type == "class_heritage"), None)
    start, end = lines(node)
    ex.out["classes"][name] = {
        "line": start,
        "end": end,
        "doc": jsdoc(node),
        "decorators": sorted({d[0] for d in decs}),
        "extends": " ".join(text(heritage).split()) if heritage is not None else None,
        "fields": fields,
    }
    _fields(ex, name, members, fields)
    typed = dto.class_fields(members)
    if typed:
        ex.out["classes"][name]["dto"] = typed
    names = {d[0]: d[1] for d in decs}
    if "Controller" in names:
        _controller(ex, name, names["Controller"], members)
    if "Module" in names:
        nest_router.on_module(ex, name, names["Module"])
    if "Processor" in names:
        queues.processor_class(ex, name, names["Processor"], members, ex.out["classes"][name]["extends"])
    _handlers(ex, name, members)
    for deco, fw in _ENTITY_DECORATORS.items():
        if deco in names and (deco != "Table" or "Model" in (ex.out["classes"][name]["extends"] or "")):
            _entity(ex, node, name, fw, names[deco], members)
    persistence.objection_model(ex, node, name, [m for _d, m in members], ex.out["classes"][name]["extends"])


def _fields(
    ex: Extractor, cls: str, members: list[tuple[list[Decorator], Node]], fields: dict[str, Any]
) -> None:
    for decs, member in members:
        if member.type == "public_field_definition":
            fname = text(member.child_by_field_name("name"))
            value = unwrap(member.child_by_field_name("value"))
            binding = ex.binding_for(value, f"{cls}.{fname}") if value is not None else None
            if binding is None:
                binding = {"k": "type", "name": _type_text(member.child_by_field_name("type"))}
            binding.setdefault("key", f"{cls}.{fname}")
            _inject(ex, binding, decs)
            fields[fname] = binding
            if value is not None and value.type == "object" and binding.get("t") == "object":
                ex.object_field(fields, f"{cls}.{fname}", fname, value, in_ctor=False)
        elif member.type == "method_definition" and text(member.child_by_field_name("name")) == "constructor":
            params = member.child_by_field_name("parameters")
            for param in params.named_children if params is not None else []:
                pattern = param.child_by_field_name("pattern")
                if pattern is None or pattern.type != "identifier":
                    continue
                binding = {"k": "type", "name": _type_text(param.child_by_field_name("type"))}
                _inject(ex, binding, _decorators([c for c in param.children if c.type == "decorator"]))
                fields.setdefault(text(pattern), binding)


def _inject(ex: Extractor, binding: dict[str, Any], decs: list[Decorator]) -> None:
    for deco, args in decs:
        if deco == "InjectQueue":
            queues.inject(ex, binding, args)
        elif deco == "Inject" and args:
            binding["token"] = string_value(args[0]) or dotted(args[0])
        elif deco == "Client" and args:
            binding["t"] = "nest_client"
            binding["provider"] = transport_of(args[0])
            binding.update(rmq_queues.queue_of(ex, args[0]) or {})
    if binding.get("name") in NEST_CLIENT_TYPES:
        binding.setdefault("t", "nest_client")


def _controller(
    ex: Extractor, cls: str, args: list[Node], members: list[tuple[list[Decorator], Node]]
) -> None:
    routes = []
    for decs, member in members:
        if member.type != "method_definition":
            continue
        for deco, dargs in decs:
            method = NEST_METHODS.get(deco)
            if method is None:
                continue
            start, end = decorated_start(member), lines(member)[1]
            version = next((v for d, v in decs if d == "Version"), None)
            routes.append(
                {
                    "method": method,
                    "paths": _paths(ex, dargs),
                    "version": versioning.versions(ex, version[0]) if version else {},
                    "fid": ex.fid_for(member),
                    "line": start,
                    "end": end,
                    "doc": jsdoc(member),
                    **dto.route_types(member),
                }
            )
    ex.out["nest"].append(
        {"cls": cls, "prefixes": _paths(ex, args), "version": versioning.controller_versions(ex, args), "routes": routes}
    )


def _handlers(ex: Extractor, cls: str, members: list[tuple[list[Decorator], Node]]) -> None:
    for decs, member in members:
        if member.type != "method_definition":
            continue
        for deco, dargs in decs:
            start, end = decorated_start(member), lines(member)[1]
            base = {"fid": ex.fid_for(member), "line": start, "end": end, "doc": jsdoc(member), "cls": cls}
            if deco in NEST_MESSAGE_DECORATORS and dargs:
                provider = transport_of(dargs[1]) if len(dargs) > 1 else None
                channel = pattern_parts(ex, dargs[0])
                ex.out.setdefault("handlers", []).append({**base, "channel": channel, "provider": provider})
            elif deco == "GrpcMethod":
                service = string_value(dargs[0]) if dargs else None
                rpc = string_value(dargs[1]) if len(dargs) > 1 else None
                method = text(member.child_by_field_name("name"))
                service = service or cls
                rpc = rpc or (method[:1].upper() + method[1:])
                ex.out.setdefault("grpc_methods", []).append({**base, "service": service, "rpc": rpc})
                ex.out["grpc_implements"].append(service)


def _entity(
    ex: Extractor,
    node: Node,
    cls: str,
    fw: str,
    args: list[Node],
    members: list[tuple[list[Decorator], Node]],
) -> None:
    explicit: list[Any] | None = None
    first = unwrap(args[0]) if args else None
    if first is not None and first.type == "object":
        pairs = object_pairs(first)
        # MikroORM's @Entity names its table ``tableName`` (``collection`` on MongoDB)
        keys = {
            "typeorm": ("name", "tableName", "collection"),
            "mongoose": ("collection",),
            "sequelize": ("tableName",),
        }
        key = next((k for k in keys[fw] if k in pairs), None)
        if key is not None:
            explicit = fold(pairs[key], ex.scope)
    elif first is not None:
        explicit = fold(first, ex.scope)
    fields = []
    engine = "mongodb" if fw == "mongoose" else None
    for decs, member in members:
        if member.type != "public_field_definition":
            continue
        names = [d[0] for d in decs]
        if not any(n.endswith("Column") or n in _FIELD_DECORATORS for n in names):
            continue
        fname = text(member.child_by_field_name("name"))
        optional = any(c.type == "?" for c in member.children)
        nullable: bool | None = True if optional else (False if fw == "typeorm" else None)
        for deco, dargs in decs:
            for darg in dargs:
                pairs = object_pairs(darg)
                if "nullable" in pairs:
                    nullable = text(pairs["nullable"]) == "true"
                if "required" in pairs:
                    nullable = text(unwrap(pairs["required"])) != "true"
            if deco == "AllowNull":
                nullable = not dargs or text(dargs[0]) != "false"
            if deco == "ObjectIdColumn":
                engine = "mongodb"
        primary = any(n.startswith("Primary") or n == "ObjectIdColumn" for n in names)
        ftype = _type_text(member.child_by_field_name("type"))
        fields.append([fname, ftype, False if primary else nullable, primary])
    start, end = lines(node)
    ex.out["entities"].append(
        {
            "fw": fw,
            "cls": cls,
            "table": explicit,
            "fields": sorted(fields),
            "engine": engine,
            "decorated": True,
            "line": start,
            "end": end,
            "fn": None,
        }
    )
