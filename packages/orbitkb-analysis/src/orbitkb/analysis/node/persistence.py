"""Persistence recognisers in JS/TS code: Mongoose schemas and models, Sequelize define/init,
Dynamoose models, Drizzle tables, TypeORM ``EntitySchema`` definitions and Objection models."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .syntax import args_of, dotted, lines, object_pairs, string_value, text, unwrap
from .values import fold, resolve_binding, value_ref

if TYPE_CHECKING:
    from .extractor import Extractor

Field = list[Any]  # [name, type, nullable, primary_key]

#: Drizzle ORM table builders (imported from ``drizzle-orm/*``) -> the engine they write SQL for
DRIZZLE_TABLES = {"pgTable": "postgres", "mysqlTable": "mysql", "sqliteTable": "sqlite"}
#: (module, callee) that open a Mongoose connection or register a model with one: a NestJS
#: ``@Schema()`` class of a service that makes none of these calls is a type, never a collection
MONGOOSE_CONNECTIONS = frozenset(
    {
        ("@nestjs/mongoose", "MongooseModule.forRoot"),
        ("@nestjs/mongoose", "MongooseModule.forRootAsync"),
        ("@nestjs/mongoose", "MongooseModule.forFeature"),
        ("@nestjs/mongoose", "MongooseModule.forFeatureAsync"),
        ("@nestjs/mongoose", "InjectModel"),
        ("@nestjs/mongoose", "InjectConnection"),
        ("mongoose", "connect"),
        ("mongoose", "createConnection"),
        ("mongoose", "model"),
    }
)


def _type_name(node: Node | None) -> str:
    node = unwrap(node)
    if node is None:
        return ""
    if node.type == "array":
        items = [c for c in node.named_children if c.type != "comment"]
        return f"[{_type_name(items[0])}]" if items else "Array"
    if node.type == "object":
        pairs = object_pairs(node)
        return _type_name(pairs["type"]) if "type" in pairs else "Object"
    if node.type == "call_expression":  # DataTypes.STRING(64)
        return _type_name(node.child_by_field_name("function"))
    name = text(node)
    for prefix in (
        "mongoose.Schema.Types.",
        "Schema.Types.",
        "DataTypes.",
        "Sequelize.",
        "DataType.",
        "Types.",
    ):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def _bool(node: Node | None) -> bool | None:
    node = unwrap(node)
    if node is None:
        return None
    if node.type in ("true", "false"):
        return node.type == "true"
    if node.type == "array":  # required: [true, "message"]
        items = [c for c in node.named_children if c.type != "comment"]
        return _bool(items[0]) if items else None
    return None


def mongoose_fields(node: Node | None) -> list[Field]:
    fields: list[Field] = []
    for name, value in object_pairs(node).items():
        pairs = object_pairs(value)
        required = _bool(pairs.get("required")) if pairs else None
        fields.append(
            [name, _type_name(value), (not required) if required is not None else None, name == "_id"]
        )
    return sorted(fields)


def sequelize_fields(node: Node | None) -> list[Field]:
    fields: list[Field] = []
    for name, value in object_pairs(node).items():
        pairs = object_pairs(value)
        allow_null = _bool(pairs.get("allowNull")) if pairs else None
        primary = bool(_bool(pairs.get("primaryKey"))) if pairs else False
        fields.append([name, _type_name(value), False if primary else allow_null, primary])
    return sorted(fields)


def schema_binding(ex: Extractor, call: Node) -> dict[str, Any] | None:
    """`new Schema({...}, { collection })` / `new mongoose.Schema(...)` -> a schema object."""
    if call.type != "new_expression":
        return None
    name = dotted(call.child_by_field_name("constructor")) or ""
    if name.rsplit(".", 1)[-1] != "Schema":
        return None
    args = args_of(call)
    opts = object_pairs(args[1]) if len(args) > 1 else {}
    collection = fold(opts["collection"], ex.scope) if "collection" in opts else None
    start, end = lines(call)
    return {
        "k": "obj",
        "t": "mongoose_schema",
        "fields": mongoose_fields(args[0]) if args else [],
        "collection": collection,
        "line": start,
        "end": end,
    }


def on_member_call(ex: Extractor, node: Node, prop: str, receiver: Node, args: list[Node]) -> bool:
    if prop == "model" and args:
        return mongoose_model(ex, node, receiver, args)
    attrs = unwrap(args[1]) if len(args) >= 2 else None
    if prop == "define" and attrs is not None and attrs.type == "object":
        opts = object_pairs(args[2]) if len(args) > 2 else {}
        _sequelize(ex, node, fold(args[0], ex.scope), None, args[1], opts)
        return True
    if prop == "init" and len(args) >= 2 and "sequelize" in object_pairs(args[1]):
        cls = dotted(receiver)
        _sequelize(ex, node, [["lit", cls or ""]], cls, args[0], object_pairs(args[1]))
        return True
    return False


def mongoose_model(ex: Extractor, node: Node, receiver: Node, args: list[Node]) -> bool:
    where = ex.module_path(dotted(receiver))
    if where is not None and where[0] == "dynamoose":  # same shape, a DynamoDB table
        ex.out["entities"].append({"fw": "dynamoose", "model": fold(args[0], ex.scope), **ex.where(node)})
        return True
    schema_node = unwrap(args[1]) if len(args) > 1 else None
    schema: Any = None
    if schema_node is not None and schema_node.type == "new_expression":
        schema = schema_binding(ex, schema_node)
    elif schema_node is not None:
        name = dotted(schema_node)
        binding = resolve_binding(name, ex.scope) if name else None
        schema = (
            binding if binding and binding.get("t") == "mongoose_schema" else value_ref(schema_node, ex.scope)
        )
    is_mongoose = (where is not None and where[0] == "mongoose") or isinstance(schema, dict)
    if not is_mongoose and not (len(args) > 1 and "chema" in text(args[1])):
        return False
    record = {
        "fw": "mongoose",
        "model": fold(args[0], ex.scope),
        "schema": schema,
        "collection": fold(args[2], ex.scope) if len(args) > 2 else None,
        **ex.where(node),
    }
    ex.out["entities"].append(record)
    return True


def _sequelize(
    ex: Extractor, node: Node, model: list[Any], cls: str | None, attrs: Node, opts: dict[str, Node]
) -> None:
    table = fold(opts["tableName"], ex.scope) if "tableName" in opts else None
    if "modelName" in opts:
        model = fold(opts["modelName"], ex.scope)
    record = {
        "fw": "sequelize",
        "model": model,
        "cls": cls,
        "table": table,
        "freeze": _bool(opts.get("freezeTableName")) or False,
        "fields": sequelize_fields(attrs),
        **ex.where(node),
    }
    ex.out["entities"].append(record)


def drizzle_table(ex: Extractor, node: Node, where: tuple[str, str] | None, args: list[Node]) -> bool:
    """``export const users = pgTable("users", { id: serial("id").primaryKey() })``."""
    if where is None or not where[0].startswith("drizzle-orm") or not args:
        return False
    engine = DRIZZLE_TABLES.get(where[1].rsplit(".", 1)[-1])
    if engine is None:
        return False
    columns = object_pairs(args[1]) if len(args) > 1 else {}
    fields = [[name, _builder(value), None, "primaryKey" in text(value)] for name, value in columns.items()]
    declared = node.parent
    cls = (
        text(declared.child_by_field_name("name"))
        if declared is not None and declared.type == "variable_declarator"
        else None
    )
    record = {**ex.where(node), "fw": "drizzle", "table": fold(args[0], ex.scope), "cls": cls or None}
    ex.out["entities"].append({**record, "fields": sorted(fields), "engine": engine})
    return True


def _builder(node: Node | None) -> str:
    """``serial("id").primaryKey().notNull()`` -> ``serial``."""
    node = unwrap(node)
    while node is not None and node.type in ("call_expression", "member_expression"):
        inner = node.child_by_field_name("function" if node.type == "call_expression" else "object")
        if inner is None or inner.type == "identifier":
            return text(inner) if inner is not None else ""
        node = inner
    return text(node) if node is not None else ""


def entity_schema(ex: Extractor, node: Node, ctor: str, args: list[Node]) -> bool:
    """TypeORM's ``new EntitySchema({ name: "Cat", tableName: "cats", columns: {...} })``."""
    first = unwrap(args[0]) if args else None
    if ctor.rsplit(".", 1)[-1] != "EntitySchema" or first is None or first.type != "object":
        return False
    opts = object_pairs(first)
    model = fold(opts["name"], ex.scope) if "name" in opts else None
    cls = "".join(p[1] for p in model if p[0] == "lit") if model else None
    fields = [
        [name, _type_name(value), None, "primary" in object_pairs(value)]
        for name, value in object_pairs(opts.get("columns")).items()
    ]
    table = fold(opts["tableName"], ex.scope) if "tableName" in opts else model
    ex.out["entities"].append(
        {**ex.where(node), "fw": "typeorm", "cls": cls or None, "table": table, "fields": sorted(fields)}
    )
    return True


def objection_model(ex: Extractor, node: Node, cls: str, members: list[Node], extends: str | None) -> None:
    """``class Person extends Model { static tableName = "persons" }`` (or ``static get tableName()``)
    with ``Model`` from ``objection``."""
    base = (extends or "").removeprefix("extends").strip()
    where = ex.module_path(base) if base else None
    if where is None or where[0] != "objection":
        return
    for member in members:
        head = text(member).lstrip()
        if not (
            head.startswith("static")
            and head.removeprefix("static").lstrip().removeprefix("get").lstrip().startswith("tableName")
        ):
            continue
        table = _first_string(member)
        if table:
            ex.out["entities"].append(
                {**ex.where(node), "fw": "objection", "cls": cls, "table": [["lit", table]]}
            )
        return


def _first_string(node: Node) -> str | None:
    stack = [node]
    while stack:
        cur = stack.pop(0)
        if cur.type in ("string", "template_string"):
            return string_value(cur)
        stack.extend(cur.named_children)
    return None
