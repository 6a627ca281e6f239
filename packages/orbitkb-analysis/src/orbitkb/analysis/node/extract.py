"""One pass over a JS/TS syntax tree: bindings, imports/exports, functions and classes.

Framework-specific recognisers (routes, clients, messaging, NestJS decorators, persistence) are
called from here with the extractor as context; they only append to ``self.out``.
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from . import (
    amqp_bindings,
    calls,
    ctor_args,
    decorators,
    library_stores,
    loops,
    nest_router,
    orm_options,
    queues,
    request_descriptors,
    stores,
)
from .namespaces import NAMESPACE_TYPES, bind_namespace
from .sdk_imports import mail_service, sdk_import
from .signatures import BASE_URL_KEYS, FACTORIES, MESSAGE_MODULES
from .syntax import (
    CLASS_TYPES,
    FUNCTION_TYPES,
    args_of,
    dotted,
    jsdoc,
    lines,
    object_pairs,
    string_value,
    text,
    unwrap,
)
from .values import FIELD_PARAM, Scope, decorated, fold, object_values, value_call, value_ref

# Subtrees that never hold a call, a binding or a class: not worth a Python-level visit.
_SKIP = frozenset(
    {
        "comment",
        "identifier",
        "property_identifier",
        "shorthand_property_identifier",
        "string",
        "number",
        "regex",
        "true",
        "false",
        "null",
        "undefined",
        "this",
        "type_annotation",
        "type_arguments",
        "type_parameters",
        "interface_declaration",
        "type_alias_declaration",
        "import_statement",
        "statement_identifier",
        "predefined_type",
        "type_identifier",
    }
)
_STRINGY = frozenset({"string", "template_string", "binary_expression", "number"})
# Return values worth folding to a string (a URL, a base address, a path).
_RETURNABLE = _STRINGY | {"identifier", "member_expression", "call_expression", "subscript_expression"}


class Extractor:
    def __init__(self, path: str) -> None:
        self.path = path
        self.scope = Scope()
        self.providers: set[str] = set()
        self.drivers: set[str] = set()
        self.store_libraries: set[str] = set()  # store-library packages this file imports
        self._fids: dict[int, str] = {}
        self._taken: set[str] = set()
        self.out: dict[str, Any] = {
            "imports": {},
            "exports": {},
            "star_exports": [],
            "bindings": {},
            "functions": {},
            "classes": {},
            "routes": [],
            "mounts": [],
            "prefixes": [],
            "vcalls": [],
            "calls": [],
            "messages": [],
            "entities": [],
            "nest": [],
            "transports": {},
            "grpc_implements": [],
            "entrypoint": False,
        }

    # ------------------------------------------------------------------ driver
    def run(self, root: Node) -> dict[str, Any]:
        for stmt in root.named_children:
            self._prepass(stmt)
        self.visit(root)
        self.out.pop(amqp_bindings.KEY, None)
        self.out["bindings"] = {k: v for k, v in sorted(self.scope.module.items()) if v.get("k") != "param"}
        self.out["providers"] = sorted(self.providers)
        self.out["drivers"] = sorted(self.drivers)
        return self.out

    def visit(self, node: Node) -> None:
        kind = node.type
        if kind in FUNCTION_TYPES:
            self._enter_function(node)
            return
        if kind in CLASS_TYPES:
            self._enter_class(node)
            return
        if kind == "for_in_statement" and loops.on_for_of(self, node):
            return
        if kind == "call_expression":
            calls.on_call(self, node)
        elif kind == "new_expression":
            calls.on_new(self, node)
        elif kind == "variable_declarator" and len(self.scope.frames) > 1:
            self._bind_declarator(node)
        elif kind == "assignment_expression":
            self._on_assignment(node)
        elif kind == "return_statement":
            self._on_return(node)
        elif kind == "pair":
            mail_service(self, node)
            library_stores.on_pair(self, node)
        elif kind == "object":
            request_descriptors.on_object(self, node)
            orm_options.on_object(self, node)
            nest_router.on_object(self, node)
        for child in node.named_children:
            if child.type not in _SKIP:
                self.visit(child)

    # ------------------------------------------------------------------ context
    @property
    def fid(self) -> str | None:
        return self.scope.fids[-1]

    def where(self, node: Node) -> dict[str, Any]:
        start, end = lines(node)
        return {"line": start, "end": end, "fn": self.fid, "cls": self.scope.current_class}

    def module_path(self, name: str | None) -> tuple[str, str] | None:
        """(module, member path) a dotted callee comes from, e.g. ("axios", "get")."""
        if not name or name.startswith("this."):
            return None
        head, _, rest = name.partition(".")
        binding = self.scope.lookup(head)
        if binding is None:
            return head, rest
        if binding.get("k") != "imp":
            return None
        imported = binding["name"]
        base = "" if imported in ("*", "default") else imported
        if binding.get("rest"):
            base = f"{base}.{binding['rest']}" if base else binding["rest"]
        path = f"{base}.{rest}" if base and rest else base or rest
        return binding["spec"], path

    def fid_for(self, node: Node) -> str:
        cached = self._fids.get(node.id)
        if cached is not None:
            return cached
        name = _function_name(node, self.scope.current_class)
        start = node.start_point[0] + 1
        fid = name or f"<anonymous>@{start}"
        if fid in self._taken:
            fid = f"{fid}@{start}" if name else f"{fid}:{node.start_point[1]}"
        self._taken.add(fid)
        self._fids[node.id] = fid
        return fid

    # ------------------------------------------------------------------ top level
    def _prepass(self, stmt: Node) -> None:
        kind = stmt.type
        if kind == "import_statement":
            self._on_import(stmt)
        elif kind == "export_statement":
            self._on_export(stmt)
        elif kind in ("lexical_declaration", "variable_declaration"):
            for decl in stmt.named_children:
                if decl.type == "variable_declarator":
                    self._bind_declarator(decl)
        elif kind in ("function_declaration", "generator_function_declaration"):
            name = text(stmt.child_by_field_name("name"))
            self.scope.bind(name, {"k": "fn", "fid": self.fid_for(stmt)})
        elif kind in CLASS_TYPES:
            name = text(stmt.child_by_field_name("name"))
            if name:
                self.scope.bind(name, {"k": "cls", "name": name})
        elif kind == "enum_declaration":  # enum Topics { ORDER_CREATED = "order.created" }
            name = text(stmt.child_by_field_name("name"))
            body = stmt.child_by_field_name("body")
            self.scope.bind(name, {"k": "obj", "t": "object", "key": name})
            following: int | None = 0  # a member without initializer: the one before it plus 1
            for item in body.named_children if body is not None else []:
                value = item.child_by_field_name("value") if item.type == "enum_assignment" else None
                if value is not None:
                    member = f"{name}.{text(item.child_by_field_name('name'))}"
                    self.scope.bind(member, {"k": "val", "v": fold(value, self.scope), "key": member})
                    following = int(text(value)) + 1 if value.type == "number" and text(value).isdigit() else None
                elif item.type == "property_identifier" and following is not None:  # enum Kind { A, B }
                    member = f"{name}.{text(item)}"
                    self.scope.bind(member, {"k": "val", "v": [["lit", str(following)]], "key": member})
                    following += 1
        elif kind in NAMESPACE_TYPES:
            bind_namespace(self, stmt)
        elif kind == "expression_statement":
            inner = stmt.named_children[0] if stmt.named_children else None
            if inner is not None and inner.type == "assignment_expression":
                self._on_module_exports(inner)
            elif inner is not None and inner.type in NAMESPACE_TYPES:  # `namespace X {}` parses so
                bind_namespace(self, inner)
        elif kind == "import_alias" or kind == "import_require_clause":
            pass

    def _on_import(self, stmt: Node) -> None:
        source = stmt.child_by_field_name("source")
        req = next((c for c in stmt.named_children if c.type == "import_require_clause"), None)
        if source is None and req is not None:  # import x = require("y"): the source is the clause's
            source = req.child_by_field_name("source")
        spec = string_value(source)
        if spec is None:
            return
        self._note_module(spec)
        if not any(c.type == "type" for c in stmt.children):  # `import type`: no code runs
            sdk_import(self, spec, stmt)
        clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
        if clause is None:
            if req is not None and req.named_children:  # import x = require("y")
                self._import(text(req.named_children[0]), spec, "*")
            return
        for part in clause.named_children:
            if part.type == "identifier":
                self._import(text(part), spec, "default")
            elif part.type == "namespace_import":
                ident = next((c for c in part.named_children if c.type == "identifier"), None)
                if ident is not None:
                    self._import(text(ident), spec, "*")
            elif part.type == "named_imports":
                for item in part.named_children:
                    if item.type != "import_specifier":
                        continue
                    name = text(item.child_by_field_name("name"))
                    alias = item.child_by_field_name("alias")
                    self._import(text(alias) if alias is not None else name, spec, name)

    def _import(self, local: str, spec: str, name: str, rest: str = "") -> None:
        self.out["imports"][local] = [spec, name, rest]
        self.scope.bind(local, {"k": "imp", "spec": spec, "name": name, "rest": rest})

    def _note_module(self, spec: str) -> None:
        provider = MESSAGE_MODULES.get(spec)
        if provider is not None:
            self.providers.add(provider)
        engine = stores.DRIVER_MODULES.get(spec)
        if engine is not None:
            self.drivers.add(engine)
        if spec in library_stores.STORE_LIBRARIES:
            self.store_libraries.add(spec)

    def _on_export(self, stmt: Node) -> None:
        exports = self.out["exports"]
        source = string_value(stmt.child_by_field_name("source"))
        decl = stmt.child_by_field_name("declaration")
        value = stmt.child_by_field_name("value")
        is_default = any(c.type == "default" for c in stmt.children)
        clause = next((c for c in stmt.named_children if c.type == "export_clause"), None)
        if source is not None:
            self._note_module(source)
            if clause is None:
                self.out["star_exports"].append(source)
                return
            for item in clause.named_children:
                name = text(item.child_by_field_name("name"))
                alias = item.child_by_field_name("alias")
                exported = text(alias) if alias is not None else name
                local = f"__reexport.{exported}"
                self._import(local, source, name)
                exports[exported] = local
            return
        if clause is not None:
            for item in clause.named_children:
                name = text(item.child_by_field_name("name"))
                alias = item.child_by_field_name("alias")
                exports[text(alias) if alias is not None else name] = name
            return
        if decl is not None:
            self._prepass(decl)
            if decl.type in ("lexical_declaration", "variable_declaration"):
                for d in decl.named_children:
                    if d.type == "variable_declarator":
                        name = text(d.child_by_field_name("name"))
                        exports[name] = name
            else:
                name = text(decl.child_by_field_name("name"))
                if name:
                    exports["default" if is_default else name] = name
            return
        if value is not None:
            self._export_value("default", value)

    def _export_value(self, exported: str, value: Node) -> None:
        """`export default X` / `module.exports = X` / `exports.a = X`."""
        value = unwrap(value) or value
        local = f"__export.{exported}"
        if value.type == "identifier":
            self.out["exports"][exported] = text(value)
            return
        if value.type in FUNCTION_TYPES or value.type in CLASS_TYPES:
            name = text(value.child_by_field_name("name"))
            if value.type in FUNCTION_TYPES:
                fid = self.fid_for(value)
                self.scope.bind(local, {"k": "fn", "fid": fid})
            else:
                self.scope.bind(local, {"k": "cls", "name": name or local})
            self.out["exports"][exported] = local
            return
        if value.type == "object":
            self._bind_value(local, value)
            self.out["exports"].setdefault(exported, local)
            if exported != "default":
                return
            for key, node in object_pairs(value).items():  # module.exports = { a, b: fn, C: "x" }
                inner = unwrap(node) or node
                if inner.type in ("identifier", "shorthand_property_identifier"):
                    self.out["exports"].setdefault(key, text(inner))
                elif f"{local}.{key}" in self.scope.module:
                    self.out["exports"].setdefault(key, f"{local}.{key}")
            return
        self._bind_value(local, value)
        self.out["exports"][exported] = local

    def _on_module_exports(self, assign: Node) -> None:
        target = dotted(assign.child_by_field_name("left"))
        value = assign.child_by_field_name("right")
        if target is None or value is None:
            return
        if target in ("module.exports", "exports"):
            self._export_value("default", value)
        elif target.startswith(("module.exports.", "exports.")):
            self._export_value(
                target.split(".", 2)[-1] if target.startswith("module.") else target[8:], value
            )

    # ------------------------------------------------------------------ bindings
    def _bind_declarator(self, decl: Node) -> None:
        name_node = decl.child_by_field_name("name")
        value = decl.child_by_field_name("value")
        if name_node is None or value is None:
            return
        inner = unwrap(value)
        if inner is None:
            return
        if name_node.type == "object_pattern":
            self._bind_destructure(name_node, inner)
            return
        if name_node.type != "identifier":
            return
        self._bind_value(text(name_node), inner)

    def _bind_destructure(self, pattern: Node, value: Node) -> None:
        ref = value_ref(value, self.scope)
        if ref is not None and ref[0] == "imp" and ref[1] and value.type == "call_expression":
            self._note_module(ref[1])  # ``const { connect } = require("nats")`` brings its broker too
            sdk_import(self, ref[1], value)  # ``const { S3Client } = require("@aws-sdk/client-s3")``
        for item in pattern.named_children:
            if item.type == "shorthand_property_identifier_pattern":
                key = local = text(item)
            elif item.type == "pair_pattern":
                key = text(item.child_by_field_name("key"))
                local = text(item.child_by_field_name("value"))
            else:
                continue
            if ref is not None and ref[0] == "imp":
                if ref[2] == "*" and not ref[3]:
                    self._import(local, ref[1], key)
                else:
                    self._import(local, ref[1], ref[2], f"{ref[3]}.{key}" if ref[3] else key)
            elif dotted(value) == "process.env":
                self.scope.bind(local, {"k": "val", "v": [["env", key, None]]})
            elif ref is not None:
                self.scope.bind(local, {"k": "alias", "ref": ["member", ref, key], "key": local})

    def object_field(
        self, fields: dict[str, Any], key: str, name: str, value: Node, in_ctor: bool
    ) -> None:
        """`this.hosts = { reviews: process.env.REVIEWS_HOST }`: each string of the object is a field
        of its own (`hosts.reviews`), read by the class's methods as `this.hosts.reviews`."""
        for sub, parts in object_values(value, self.scope).items():
            binding: dict[str, Any] = {"k": "val", "v": parts, "key": f"{key}.{sub}"}
            fields.setdefault(f"{name}.{sub}", {**binding, "ctor": True} if in_ctor else binding)

    def _bind_value(self, name: str, value: Node) -> None:
        key = name if len(self.scope.frames) == 1 else f"{self.fid}:{name}"
        binding = self.binding_for(value, key)
        if binding is None:
            return
        binding.setdefault("key", key)
        self.scope.bind(name, binding)
        if binding.get("k") == "imp" and len(self.scope.frames) == 1:
            self.out["imports"][name] = [binding["spec"], binding["name"], binding["rest"]]
        if binding.get("k") == "obj" and len(self.scope.frames) > 1:
            self.scope.module[key] = binding  # factories return function-local routers
        if binding.get("k") == "obj" and binding.get("t") == "object":
            for sub, parts in object_values(value, self.scope).items():
                self.scope.bind(f"{name}.{sub}", {"k": "val", "v": parts, "key": f"{key}.{sub}"})
                if len(self.scope.frames) > 1:  # a function's own object, returned: its fields go along
                    self.scope.module[f"{key}.{sub}"] = {"k": "val", "v": parts, "key": f"{key}.{sub}"}
            for sub, node in object_pairs(value).items():
                node = unwrap(node) or node
                if node.type == "object":
                    self._bind_value(f"{name}.{sub}", node)
                elif node.type in FUNCTION_TYPES:
                    self.scope.bind(f"{name}.{sub}", {"k": "fn", "fid": self.fid_for(node)})
                elif node.type == "identifier":
                    ref = value_ref(node, self.scope)
                    if ref is not None and ref[0] != "glob":
                        self.scope.bind(f"{name}.{sub}", {"k": "alias", "ref": ref, "key": f"{key}.{sub}"})

    def binding_for(self, value: Node, key: str) -> dict[str, Any] | None:
        """What a declared name holds: a string value, a framework object, a function, a reference."""
        kind = value.type
        if kind in FUNCTION_TYPES:
            return {"k": "fn", "fid": self.fid_for(value)}
        if kind in CLASS_TYPES:
            return {"k": "cls", "name": text(value.child_by_field_name("name")) or key}
        if kind == "object":
            return {"k": "obj", "t": "object"}
        if kind == "array":
            return loops.list_binding(self, value)  # `const TOPICS = ["a", "b"]`, iterated later
        deco = decorated(dotted(value) or "", self.scope) if kind == "member_expression" else None
        if deco is not None and not deco[2]:
            return {"k": "val", "v": [["ref", deco, None]]}  # `const config = fastify.config`
        if kind in _STRINGY or kind == "subscript_expression":
            return {"k": "val", "v": fold(value, self.scope)}
        if kind in ("call_expression", "new_expression"):
            made = self._factory(value)
            if made is not None:
                return made
            if kind == "call_expression":
                parts = fold(value, self.scope)
                if parts and parts[0][0] not in ("unknown", "call"):
                    return {"k": "val", "v": parts}
        if kind in ("identifier", "member_expression", "ternary_expression"):
            parts = fold(value, self.scope)
            if len(parts) == 1 and parts[0][0] in ("lit", "env", "prop"):
                return {"k": "val", "v": parts}
        ref = value_ref(value, self.scope)
        if ref is None or ref[0] == "glob":
            return None
        if ref[0] == "imp" and ref[1]:
            self._note_module(ref[1])
            sdk_import(self, ref[1], value)
            return {"k": "imp", "spec": ref[1], "name": ref[2], "rest": ref[3]}
        return {"k": "alias", "ref": ref}

    def _factory(self, call: Node) -> dict[str, Any] | None:
        callee = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
        where = self.module_path(dotted(callee))
        inner = unwrap(callee)
        if where is None and inner is not None and inner.type == "call_expression":
            ref = value_ref(inner, self.scope)  # require("fastify")({ logger: true })
            where = (
                (ref[1], "") if ref is not None and ref[0] == "imp" and ref[2] in ("*", "default") else None
            )
        elif where is None and inner is not None and inner.type == "member_expression":
            ref = value_ref(inner, self.scope)  # require("express").Router()
            where = (ref[1], ref[2]) if ref is not None and ref[0] == "imp" and ref[3] == "" else None
        kind = FACTORIES.get(where) if where else None
        if kind is None:
            queue = queues.CONSTRUCTORS.get(where) if where else None
            if queue is not None and queue[0] == "queue":
                return queues.queue_binding(self, queue[1], args_of(call))
            return stores.client_binding(self, where, args_of(call)) or calls.special_binding(self, call)
        out: dict[str, Any] = {"k": "obj", "t": kind}
        args = args_of(call)
        opts = object_pairs(args[0]) if args else {}
        if kind == "http_instance":
            key = next((k for k in BASE_URL_KEYS if k in opts), None)
            out["base"] = fold(opts[key], self.scope) if key is not None else []
            if key is not None and key.startswith("prefix") and out["base"]:
                out["base"] = _slash_joined(out["base"])  # got/ky join ``prefixUrl`` and the input with "/"
            out["client"] = where[0] if where else "axios"
        elif kind == "koa_router" and "prefix" in opts:
            out["prefix"] = fold(opts["prefix"], self.scope)
        return out

    def _on_assignment(self, node: Node) -> None:
        left = dotted(node.child_by_field_name("left"))
        right = unwrap(node.child_by_field_name("right"))
        if left is None or right is None:
            return
        cls = self.scope.current_class
        if left.startswith("this.") and cls is not None and left.count(".") == 1:
            fields = self.scope.classes.setdefault(cls, {})
            name = left[5:]
            if name not in fields or fields[name].get("k") == "type":
                binding = self.binding_for(right, f"{cls}.{name}")
                in_ctor = ctor_args.is_constructor(self.fid)
                if in_ctor and (binding is None or ctor_args.param_alias(binding)):
                    binding = ctor_args.field_binding(self, right) or binding
                if binding is not None:
                    binding.setdefault("key", f"{cls}.{name}")
                    if in_ctor:
                        binding["ctor"] = True
                    fields[name] = binding
                    if right.type == "object" and binding.get("t") == "object":
                        self.object_field(fields, f"{cls}.{name}", name, right, in_ctor)
        elif len(self.scope.frames) > 1 and "." not in left and self.scope.lookup(left) is None:
            if right.type == "object":  # `cache = { url: ... }; return cache` in a memoised getter
                self._bind_value(left, right)
                return
            binding = self.binding_for(right, left)
            if binding is not None:
                self.scope.bind(left, binding)

    def _on_return(self, node: Node) -> None:
        fid = self.fid
        if fid is None:
            return
        values = [c for c in node.named_children if c.type != "comment"]
        record = self.out["functions"].get(fid)
        if values and record is not None and (record.get("returns") or ["glob"])[0] == "glob":
            record["returns"] = self._returned_ref(fid, values[0])  # a later return may name a local
        if values and record is not None and "ret_v" not in record:
            self._return_value(record, values[0])

    def _returned_ref(self, fid: str, node: Node) -> Any:
        """What a function returns as an object: a client a library factory makes right there
        (`return axios.create({ baseURL })`) is kept as a binding of the function's own."""
        inner = unwrap(node)
        if inner is not None and inner.type in ("call_expression", "new_expression"):
            made = self._factory(inner)
            if made is not None:
                key = f"{fid}:<returned>"
                self.scope.module[key] = {**made, "key": key}
                return ["loc", key, ""]
        if inner is not None and inner.type == "object":
            return self._returned_object(fid, inner)
        return value_ref(node, self.scope)

    def _returned_object(self, fid: str, node: Node) -> Any:
        """A settings object a function returns (`getConfig = async () => ({ ledgerUrl: ... })`):
        kept as a binding of the function's own, so `(await getConfig()).ledgerUrl` reads its field."""
        key = f"{fid}:<returned>"
        self.scope.module[key] = {"k": "obj", "t": "object", "key": key}
        for sub, parts in object_values(node, self.scope).items():
            self.scope.module[f"{key}.{sub}"] = {"k": "val", "v": parts, "key": f"{key}.{sub}"}
        return ["loc", key, ""]

    def _return_value(self, record: dict[str, Any], node: Node) -> None:
        """The string a function returns, when it folds to one (`return this.config.get("X")`):
        getters, `baseUrl()` methods and `url(path)` helpers are folded through it by the linker."""
        inner = unwrap(node)
        if inner is None or inner.type not in _RETURNABLE:
            return
        if inner.type == "call_expression" and not value_call(inner):
            return  # `return this.http.get(...)`, `return res.json()`: not a value
        parts = fold(inner, self.scope)
        if parts and not any(p[0] == "unknown" for p in parts) and parts[0][0] != "call":
            record["ret_v"] = parts

    # ------------------------------------------------------------------ functions and classes
    def _enter_function(self, node: Node) -> None:
        fid = self.fid_for(node)
        start, end = lines(node)
        params_node = node.child_by_field_name("parameters")
        single = node.child_by_field_name("parameter")
        param_nodes = [single] if single is not None else (params_node.named_children if params_node else [])
        frame: dict[str, dict[str, Any]] = {}
        names: list[str] = []
        fields: dict[str, list[str]] = {}
        for idx, param in enumerate(p for p in param_nodes if p.type != "comment"):
            pname = _param_name(param)
            names.append(pname or "")
            if pname:
                frame[pname] = {"k": "param", "fid": fid, "idx": idx, **_param_extras(param)}
            for local, key, default in _pattern_fields(param):
                frame[local] = {"k": FIELD_PARAM, "fid": fid, "idx": idx, "field": key}
                if default is not None:
                    frame[local]["default"] = default
                fields.setdefault(str(idx), []).append(key)
        record: dict[str, Any] = {
            "line": start,
            "end": end,
            "parent": self.fid,
            "cls": self.scope.current_class,
            "params": names,
            "doc": jsdoc(node) if node.type in ("function_declaration", "method_definition") else None,
            "invokes": [],
            "returns": None,
        }
        if fields:
            record["fields"] = fields  # `({ url, method })`: the fields of an options-object parameter
        if node.type == "method_definition" and any(c.type == "get" for c in node.children):
            record["getter"] = True
        if record["doc"] is None:
            record["doc"] = _holder_doc(node)
        self.out["functions"][fid] = record
        self.scope.frames.append(frame)
        self.scope.fids.append(fid)
        try:
            body = node.child_by_field_name("body")
            if body is not None and body.type != "statement_block" and node.type == "arrow_function":
                record["returns"] = self._returned_ref(fid, body)
                self._return_value(record, body)
            for child in node.named_children:
                if child is not params_node:
                    self.visit(child)
        finally:
            self.scope.frames.pop()
            self.scope.fids.pop()

    def _enter_class(self, node: Node) -> None:
        name = text(node.child_by_field_name("name"))
        if not name:
            parent = node.parent
            name = text(parent.child_by_field_name("name")) if parent is not None else ""
        name = name or f"<class>@{node.start_point[0] + 1}"
        outer = self.scope.current_class
        self.scope.current_class = name
        try:
            decorators.on_class(self, node, name)
            for child in node.named_children:
                self.visit(child)
        finally:
            self.scope.current_class = outer


def _holder_doc(node: Node) -> str | None:
    """JSDoc of `const f = () => {}`, `exports.f = function () {}` or `{ f: () => {} }`."""
    parent = node.parent
    if parent is None:
        return None
    if parent.type in ("variable_declarator", "assignment_expression") and parent.parent is not None:
        return jsdoc(parent.parent)
    if parent.type in ("pair", "public_field_definition"):
        return jsdoc(parent)
    return None


def _param_extras(param: Node) -> dict[str, str]:
    """The declared type (`config: ConfigService`) and string default (`method = "GET"`) of a parameter."""
    out: dict[str, str] = {}
    kind = param.type
    typed = (
        param.child_by_field_name("type") if kind in ("required_parameter", "optional_parameter") else None
    )
    inner = [c for c in typed.named_children if c.type != "comment"] if typed is not None else []
    if inner:
        out["type"] = text(inner[0]).split("<")[0]
    value = param.child_by_field_name("value" if kind != "assignment_pattern" else "right")
    default = string_value(value) if value is not None else None
    if default is not None:
        out["default"] = default
    return out


def _pattern_fields(param: Node) -> list[tuple[str, str, str | None]]:
    """The fields an options-object parameter takes apart (`({ url, method = "GET", body: data })`):
    (local name, field, string default) each."""
    node: Node | None = param
    if node is not None and node.type in ("required_parameter", "optional_parameter"):
        node = node.child_by_field_name("pattern")
    if node is not None and node.type == "assignment_pattern":  # `({ url } = {})`
        node = node.child_by_field_name("left")
    if node is None or node.type != "object_pattern":
        return []
    out: list[tuple[str, str, str | None]] = []
    for child in node.named_children:
        if child.type == "shorthand_property_identifier_pattern":
            out.append((text(child), text(child), None))
        elif child.type == "object_assignment_pattern":
            left, right = child.child_by_field_name("left"), child.child_by_field_name("right")
            if left is not None and left.type == "shorthand_property_identifier_pattern":
                out.append((text(left), text(left), string_value(right) if right is not None else None))
        elif child.type == "pair_pattern":
            key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
            if key is not None and value is not None and value.type == "identifier":
                out.append((text(value), text(key).strip("'\""), None))
    return out


def _param_name(param: Node) -> str | None:
    if param.type == "identifier":
        return text(param)
    if param.type in ("required_parameter", "optional_parameter"):
        pattern = param.child_by_field_name("pattern")
        return text(pattern) if pattern is not None and pattern.type == "identifier" else None
    if param.type == "assignment_pattern":
        left = param.child_by_field_name("left")
        return text(left) if left is not None and left.type == "identifier" else None
    return None


def _function_name(node: Node, cls: str | None) -> str | None:
    if node.type in ("function_declaration", "generator_function_declaration"):
        return text(node.child_by_field_name("name")) or None
    if node.type == "method_definition":
        name = text(node.child_by_field_name("name"))
        parent = node.parent
        if parent is not None and parent.type == "class_body" and cls:
            return f"{cls}.{name}"
        return name or None
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "variable_declarator":
        return text(parent.child_by_field_name("name")) or None
    if parent.type == "pair":
        return text(parent.child_by_field_name("key")) or None
    if parent.type in ("public_field_definition", "field_definition") and cls:
        return f"{cls}.{text(parent.child_by_field_name('name'))}"
    if parent.type == "assignment_expression":
        target = dotted(parent.child_by_field_name("left")) or ""
        if target.startswith(("exports.", "module.exports.")):
            return target.rsplit(".", 1)[-1]
    if node.type == "function_expression":
        return text(node.child_by_field_name("name")) or None
    return None


def _slash_joined(base: list[Any]) -> list[Any]:
    """A ``prefixUrl`` folded value ending with "/" (got and ky put one between it and the input)."""
    last = base[-1]
    if isinstance(last, list) and last and last[0] == "lit" and str(last[1]).endswith("/"):
        return base
    return [*base, ["lit", "/"]]
