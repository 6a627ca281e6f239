"""Persistence recognisers in JS/TS code: Mongoose schemas and models, Sequelize define/init."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .syntax import args_of, dotted, lines, object_pairs, text, unwrap
from .values import fold, resolve_binding, value_ref

if TYPE_CHECKING:
    from .extractor import Extractor

Field = list[Any]  # [name, type, nullable, primary_key]


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
