"""One C# file read into a small JSON-able outline: types with their attributes, members and
methods; every invocation, object creation and member assignment with its arguments folded into
value parts (``values``); string constants. The linker (``link``) works on this outline only."""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.dotnet.values import Scope, hint, value
from orbitkb.analysis.treesitter import end_line, line, text

TYPE_NODES = {
    "class_declaration": "class", "interface_declaration": "interface", "record_declaration": "record",
    "struct_declaration": "struct", "record_struct_declaration": "struct",
}  # fmt: skip
METHOD_NODES = ("method_declaration", "constructor_declaration", "local_function_statement")
#: Member names whose assignment configures a client (``c.BaseAddress = new Uri(...)``).
ASSIGNED = frozenset({"BaseAddress", "Address", "Configuration", "ConnectionString", "BootstrapServers",
                      "HostName", "Uri", "GroupId", "DatabaseName"})  # fmt: skip
MAX_ARG_TEXT = 120
#: Methods extending or sending a URL value (Flurl): their receiver's value is kept (``rv``).
URL_CHAIN_METHODS = frozenset({
    "AppendPathSegment", "AppendPathSegments", "GetAsync", "GetJsonAsync", "GetStringAsync", "GetBytesAsync",
    "GetStreamAsync", "PostAsync", "PostJsonAsync", "PostUrlEncodedAsync", "PostStringAsync", "PutAsync",
    "PutJsonAsync", "PatchAsync", "PatchJsonAsync", "DeleteAsync", "WithHeader", "WithHeaders",
    "WithOAuthBearerToken", "WithTimeout", "SetQueryParam", "SetQueryParams", "WithBasicAuth", "AllowAnyHttpStatus",
})  # fmt: skip
#: Argument kinds whose text is kept (method groups, names, literals, arrays, ``new T(...)``).
TEXT_KINDS = frozenset({
    "identifier", "member_access_expression", "string_literal", "verbatim_string_literal", "raw_string_literal",
    "array_creation_expression", "implicit_array_creation_expression", "collection_expression",
    "object_creation_expression", "initializer_expression",
})  # fmt: skip
#: Nodes that hold nothing the outline keeps (names, types, literals): not walked into.
SKIPPED = frozenset({
    "identifier", "string_literal", "integer_literal", "real_literal", "boolean_literal", "null_literal",
    "character_literal", "verbatim_string_literal", "raw_string_literal", "predefined_type", "generic_name",
    "qualified_name", "comment", "this_expression", "base_expression", "attribute_list", "type_argument_list",
    "parameter_list", "modifier", "array_type", "nullable_type", "implicit_type", "type_parameter_list",
    "type_parameter_constraints_clause", "base_list", "extern_alias_directive",
    "break_statement", "continue_statement", "empty_statement", "default_expression", "typeof_expression",
    "sizeof_expression", "pointer_type", "tuple_type", "ref_type", "function_pointer_type",
})  # fmt: skip


class Reader:
    def __init__(self) -> None:
        self.types: list[dict[str, Any]] = []
        self.inv: list[dict[str, Any]] = []
        self.new: list[dict[str, Any]] = []
        self.assign: list[dict[str, Any]] = []
        self.consts: list[list[Any]] = []
        self.settled: list[tuple[int, str, list[list[Any]]]] = []
        self.usings: list[str] = []
        self.ns = ""

    # ------------------------------------------------------------------ structure

    def file(self, root: Any) -> dict[str, Any]:
        self.walk(root, -1, -1, -1, Scope())
        for t, member, parts in self.settled:
            if any(f[0] == member for f in [*self.types[t]["f"], *self.types[t]["p"]]):
                self.consts.append([self.types[t]["n"], member, parts])
        return {"ns": self.ns, "usings": sorted(set(self.usings)), "types": self.types, "inv": self.inv,
                "new": self.new, "assign": self.assign, "consts": self.consts}  # fmt: skip

    def walk(self, node: Any, t: int, m: int, p: int, scope: Scope) -> None:
        kind = node.type
        if kind in TYPE_NODES:
            self.type_decl(node, t, scope)
            return
        if kind in METHOD_NODES and t >= 0:
            self.method(node, t, scope)
            return
        if kind == "using_directive":
            self.usings.append(text(node).removeprefix("global").strip().removeprefix("using").strip(" ;"))
            return
        if kind in ("namespace_declaration", "file_scoped_namespace_declaration"):
            name = node.child_by_field_name("name")
            if name is not None:
                self.ns = text(name)
        elif kind == "invocation_expression":
            self.invocation(node, t, m, p, scope)
            return
        elif kind in ("object_creation_expression", "implicit_object_creation_expression"):
            self.creation(node, t, m, p, scope)
            return
        elif kind == "assignment_expression":
            self.assignment(node, t, m, p, scope)
        elif kind == "variable_declarator":
            self.declarator(node, t, m, p, scope)
            return
        for child in node.named_children:
            if child.type not in SKIPPED:
                self.walk(child, t, m, p, scope)

    def type_decl(self, node: Any, outer: int, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        bases: list[str] = []
        for child in node.named_children:
            if child.type == "base_list":
                bases = [text(b) for b in child.named_children if b.type != "argument_list"]
        info: dict[str, Any] = {
            "n": text(name) if name is not None else "?", "k": TYPE_NODES[node.type], "l": line(node),
            "e": end_line(node), "b": bases, "a": self.attributes(node, scope), "f": [], "p": [], "m": [],
            "mod": self.modifiers(node), "doc": doc_above(node), "o": outer,
        }  # fmt: skip
        # records and primary constructors (C# 12): the grammar names no field for a class's list
        params = node.child_by_field_name("parameters") or next(
            (c for c in node.named_children if c.type == "parameter_list"), None
        )
        if params is not None:
            info["p"] = [[pn, pt, line(node)] for pt, pn, _ in self.parameters(params)]
        t = len(self.types)
        self.types.append(info)
        body = node.child_by_field_name("body")
        if body is None:
            return
        inner = scope.child(info["n"])
        for member in body.named_children:  # member types first: methods may use later fields
            if member.type == "field_declaration":
                decl = next((c for c in member.named_children if c.type == "variable_declaration"), None)
                ftype = decl.child_by_field_name("type") if decl is not None else None
                for var in decl.named_children if decl is not None and ftype is not None else ():
                    if var.type == "variable_declarator" and var.named_children:
                        inner.set_type(text(var.named_children[0]), text(ftype))
            elif member.type == "property_declaration":
                pname, ptype = member.child_by_field_name("name"), member.child_by_field_name("type")
                if pname is not None and ptype is not None:
                    inner.set_type(text(pname), text(ptype))
        for pn, pt, _ in info["p"]:
            inner.set_type(pn, pt)
        for member in body.named_children:
            mk = member.type
            if mk == "field_declaration":
                self.field(member, t, info, inner)
            elif mk == "property_declaration":
                self.prop(member, t, info, inner)
            else:
                self.walk(member, t, -1, -1, inner)

    def field(self, node: Any, t: int, info: dict[str, Any], scope: Scope) -> None:
        decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        if decl is None:
            return
        ftype = decl.child_by_field_name("type")
        mods = self.modifiers(node)
        for var in decl.named_children:
            if var.type != "variable_declarator":
                continue
            name = var.child_by_field_name("name") or (var.named_children[0] if var.named_children else None)
            if name is None:
                continue
            info["f"].append([text(name), text(ftype) if ftype is not None else "", line(var)])
            init = _initializer(var)
            if init is not None:
                self.walk(init, t, -1, -1, scope)
                if (
                    "const" in mods
                    or ("static" in mods and "readonly" in mods)
                    or init.type.endswith("literal")
                ):
                    parts = value(init, scope)
                    if parts and all(x[0] != "unknown" for x in parts):
                        self.consts.append([info["n"], text(name), parts])
                        scope.set_const(text(name), parts)

    def prop(self, node: Any, t: int, info: dict[str, Any], scope: Scope) -> None:
        name = node.child_by_field_name("name")
        ptype = node.child_by_field_name("type")
        if name is None:
            return
        info["p"].append([text(name), text(ptype) if ptype is not None else "", line(node),
                          self.attributes(node, scope)])  # fmt: skip
        for child in node.named_children:
            if child.type in ("arrow_expression_clause", "accessor_list") or child.type.endswith("literal"):
                if child.type == "arrow_expression_clause" or child.type.endswith("literal"):
                    expr = child.named_children[-1] if child.type == "arrow_expression_clause" else child
                    parts = value(expr, scope)
                    if parts and all(x[0] != "unknown" for x in parts):
                        self.consts.append([info["n"], text(name), parts])
                self.walk(child, t, -1, -1, scope)

    def method(self, node: Any, t: int, outer: Scope) -> None:
        info = self.types[t]
        name = node.child_by_field_name("name")
        params = node.child_by_field_name("parameters")
        ps = self.parameters(params) if params is not None else []
        ret = node.child_by_field_name("returns") or node.child_by_field_name("type")
        mods = self.modifiers(node)
        entry: dict[str, Any] = {
            "n": text(name) if name is not None else "?", "l": line(node), "e": end_line(node),
            "a": self.attributes(node, outer), "ps": [[pt, pn] for pt, pn, _ in ps],
            "x": bool(ps and ps[0][2]), "mod": mods, "r": text(ret) if ret is not None else "",
            "c": node.type == "constructor_declaration", "doc": doc_above(node),
            "nl": line(name) if name is not None else line(node),
        }  # fmt: skip
        bounds = _constraints(node)  # ``Publish<T>(T e) where T : Event``: T -> Event
        if bounds:
            entry["tc"] = bounds
        m = len(info["m"])
        info["m"].append(entry)
        scope = outer.child(entry["n"])
        for pt, pn, _ in ps:
            scope.set_type(pn, pt)
        for child in node.named_children:
            if child.type in ("block", "arrow_expression_clause"):
                self.walk(child, t, m, -1, scope)
                returned = _returned(child)
                if returned is not None and "static" in mods:
                    self.url_helper(entry, returned, ps, outer)

    def url_helper(
        self, entry: dict[str, Any], returned: Any, ps: list[tuple[str, str, bool]], outer: Scope
    ) -> None:
        """A static method returning a string built from its parameters (``GetBasket(baseUri, id) =>
        $"{baseUri}/{id}"``): its value with ``["arg", i]`` holes, filled in at each call."""
        scope = outer.child(entry["n"])
        for i, (_, pn, _) in enumerate(ps):
            scope.locals[pn] = [["arg", i]]
        parts = value(returned, scope)
        if parts and all(p[0] in ("lit", "arg", "ref", "prop", "env") for p in parts):
            entry["ret"] = parts

    # ------------------------------------------------------------------ pieces

    def parameters(self, node: Any) -> list[tuple[str, str, bool]]:
        out = []
        for p in node.named_children:
            if p.type != "parameter":
                continue
            pt = p.child_by_field_name("type")
            pn = p.child_by_field_name("name")
            this = any(c.type == "modifier" and text(c) == "this" for c in p.children)
            out.append((text(pt) if pt is not None else "", text(pn) if pn is not None else "", this))
        return out

    def modifiers(self, node: Any) -> list[str]:
        return [text(c) for c in node.children if c.type == "modifier"]

    def attributes(self, node: Any, scope: Scope) -> list[list[Any]]:
        out: list[list[Any]] = []
        for lst in node.children:
            if lst.type != "attribute_list":
                continue
            for attr in lst.named_children:
                if attr.type != "attribute":
                    continue
                name = attr.child_by_field_name("name")
                args: list[dict[str, Any]] = []
                for al in attr.named_children:
                    if al.type == "attribute_argument_list":
                        for arg in al.named_children:
                            if arg.type == "attribute_argument":
                                args.append(self.argument(arg, scope))
                out.append([text(name).rsplit(".", 1)[-1] if name is not None else "", args, line(attr)])
        return out

    def argument(self, arg: Any, scope: Scope) -> dict[str, Any]:
        kids = arg.named_children
        label = None
        name = arg.child_by_field_name("name")  # ``queue: "x"`` / ``Name = "x"``
        if name is not None and len(kids) >= 2 and kids[0].id == name.id:
            label = text(name)
            kids = kids[1:]
        elif kids and kids[0].type == "name_colon":
            label = text(kids[0]).rstrip(": ")
            kids = kids[1:]
        expr = kids[-1] if kids else arg
        out: dict[str, Any] = {"k": expr.type}
        if expr.type in TEXT_KINDS:  # the linkers read these as written; lambdas and calls they never do
            out["x"] = hint(expr, MAX_ARG_TEXT)
        parts = value(expr, scope)
        if parts:
            out["v"] = parts
        if label:
            out["nm"] = label
        ty = scope.type_of(expr)
        if ty:
            out["ty"] = ty
        return out

    def args(self, node: Any, scope: Scope) -> list[dict[str, Any]]:
        if node is None:
            return []
        return [self.argument(a, scope) for a in node.named_children if a.type == "argument"]

    def invocation(self, node: Any, t: int, m: int, p: int, scope: Scope) -> None:
        fn = node.child_by_field_name("function")
        i = len(self.inv)
        entry: dict[str, Any] = {"t": t, "m": m, "p": p, "l": line(node), "e": end_line(node)}
        self.inv.append(entry)
        name, generics, recv = fn, [], None
        if fn is not None and fn.type == "member_access_expression":
            recv = fn.child_by_field_name("expression")
            name = fn.child_by_field_name("name")
        if name is not None and name.type == "generic_name":
            targs = next((c for c in name.named_children if c.type == "type_argument_list"), None)
            generics = [text(c) for c in targs.named_children] if targs is not None else []
            name = name.named_children[0] if name.named_children else name
        entry["n"] = text(name) if name is not None else ""
        if generics:
            entry["g"] = generics
        if recv is not None:
            if recv.type in ("invocation_expression", "await_expression", "parenthesized_expression"):
                inner = recv
                while inner.type in ("await_expression", "parenthesized_expression") and inner.named_children:
                    inner = inner.named_children[-1]
                if inner.type == "invocation_expression":
                    entry["ri"] = len(self.inv)
                    self.walk(inner, t, m, p, scope)
                else:
                    self.walk(recv, t, m, p, scope)
            else:
                entry["r"] = hint(recv, MAX_ARG_TEXT)
                if entry["n"] in URL_CHAIN_METHODS:  # Flurl: "http://x".AppendPathSegment(..), url.GetJsonAsync()
                    rv = value(recv, scope)
                    if rv:
                        entry["rv"] = rv
                ty = scope.type_of(recv)
                if ty:
                    entry["rt"] = ty
                self.walk(recv, t, m, p, scope)
        args = node.child_by_field_name("arguments")
        entry["a"] = self.args(args, scope)
        if args is not None:
            for child in args.named_children:
                self.walk(child, t, m, i, scope)

    def creation(self, node: Any, t: int, m: int, p: int, scope: Scope) -> None:
        ty = node.child_by_field_name("type")
        args = node.child_by_field_name("arguments") or next(
            (c for c in node.named_children if c.type == "argument_list"), None
        )
        i = len(self.new)
        entry = {"ty": text(ty) if ty is not None else "", "t": t, "m": m, "p": p, "l": line(node),
                 "a": self.args(args, scope)}  # fmt: skip
        init = next((c for c in node.named_children if c.type == "initializer_expression"), None)
        if init is not None:
            props = {}
            for a in init.named_children:
                if a.type == "assignment_expression":
                    left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
                    if left is not None and right is not None:
                        parts = value(right, scope)
                        if parts:
                            props[text(left)] = parts
            if props:
                entry["init"] = props
        self.new.append(entry)
        for child in node.named_children:
            if child is not ty:
                self.walk(child, t, m, p if p >= 0 else -1, scope)
        del i

    def assignment(self, node: Any, t: int, m: int, p: int, scope: Scope) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return
        name = left.child_by_field_name("name") if left.type == "member_access_expression" else left
        if name is not None and text(name) in ASSIGNED:
            self.assign.append({"n": text(name), "x": hint(left, MAX_ARG_TEXT), "v": value(right, scope),
                                "t": t, "m": m, "p": p, "l": line(node)})  # fmt: skip
        if left.type == "identifier":
            scope.set_local(text(left), right)
        target = left if left.type == "identifier" else name if text(left).startswith("this.") else None
        if target is not None and t >= 0 and m >= 0 and self.types[t]["m"][m]["c"]:
            field = text(target)  # a field set once by the constructor reads like a constant
            if any(f[0] == field for f in self.types[t]["f"]):
                parts = value(right, scope)
                if parts and not all(x[0] == "unknown" for x in parts):
                    self.consts.append([self.types[t]["n"], field, parts])
        elif target is not None and t >= 0 and m >= 0:
            parts = value(right, scope)  # a settings holder filled at startup: Urls.Orders = config["Orders"]
            if any(x[0] in ("prop", "env") for x in parts):
                self.settled.append((t, text(target), parts))  # kept once the type's members are all known

    def declarator(self, node: Any, t: int, m: int, p: int, scope: Scope) -> None:
        name = node.child_by_field_name("name") or (node.named_children[0] if node.named_children else None)
        init = _initializer(node)
        if init is not None:
            start = len(self.inv)
            self.walk(init, t, m, p, scope)
            inner = (
                init.named_children[-1] if init.type == "await_expression" and init.named_children else init
            )
            if name is not None and inner.type == "invocation_expression" and start < len(self.inv):
                self.inv[start].setdefault("v", text(name))
            if name is not None:
                decl = node.parent
                dtype = decl.child_by_field_name("type") if decl is not None else None
                if dtype is not None and dtype.type != "implicit_type":
                    scope.set_type(text(name), text(dtype))
                scope.set_local(text(name), init)


def _returned(body: Any) -> Any:
    """The expression a method body returns when that is all it does (``=> x`` or ``{ return x; }``)."""
    if body.type == "arrow_expression_clause":
        return body.named_children[-1] if body.named_children else None
    statements = [c for c in body.named_children if c.type != "comment"]
    if len(statements) == 1 and statements[0].type == "return_statement" and statements[0].named_children:
        return statements[0].named_children[-1]
    return None


def _initializer(var: Any) -> Any:
    kids = var.named_children
    for i, child in enumerate(var.children):
        if child.type == "=" and i + 1 < len(var.children):
            return var.children[i + 1]
    if kids and kids[-1].type == "equals_value_clause":
        return kids[-1].named_children[-1] if kids[-1].named_children else None
    return None


def doc_above(node: Any) -> str | None:
    """The ``///`` comment lines right above a declaration, XML tags dropped."""
    lines: list[str] = []
    prev = node.prev_sibling
    while prev is not None and prev.type == "comment" and text(prev).startswith("///"):
        lines.append(text(prev)[3:].strip())
        prev = prev.prev_sibling
    if not lines:
        return None
    import re

    body = " ".join(re.sub(r"</?\w+[^>]*>", " ", ln) for ln in reversed(lines))
    return " ".join(body.split()) or None


def read_csharp(root: Any) -> dict[str, Any]:
    return Reader().file(root)


def _constraints(node: Any) -> dict[str, str]:
    """A method's type parameters -> the type each must derive from (its first type constraint)."""
    out: dict[str, str] = {}
    for clause in node.named_children:
        if clause.type != "type_parameter_constraints_clause" or not clause.named_children:
            continue
        for c in clause.named_children[1:]:
            kind = c.named_children[0].type if c.type == "type_parameter_constraint" and c.named_children else ""
            if kind in ("identifier", "generic_name", "qualified_name"):
                out.setdefault(text(clause.named_children[0]), text(c.named_children[0]))
    return out
