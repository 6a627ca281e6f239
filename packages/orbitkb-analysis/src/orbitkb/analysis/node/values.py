"""Folding JS/TS expressions into string parts, and naming what an identifier refers to.

Parts are JSON lists: ["lit", text], ["env", name, default], ["prop", key, default],
["unknown", hint], ["ref", symref, default] (a name bound in another module, resolved by the
linker), ["param", index, name] (a parameter of the enclosing function, substituted at the call
sites of thin wrappers; index "0.url" for a field of an options-object parameter) and ["call", symref, [args parts], hint] (the value a function of the
service returns, e.g. `${this.url('/x')}`, folded by the linker from the function's return value). A symref names a binding: ["imp", spec, name, rest], ["loc", key, rest],
["param", fid, index, rest], ["this", class, rest], ["new", symref, args], ["ret", symref, args],
["member", symref, rest] and ["glob", dotted]; ["envp", index, name, default] reads the environment
variable a parameter names (see ``_env_of_param``); ["envk", parts, default] reads the variable
whose name a template of literals and parameters spells (`config.get(`${queue}_QUEUE`)`);
["keyp", symref, index, hint] reads the key of an object a parameter names (see ``_fold_keyed``).
"""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node

from .syntax import TRANSPARENT, args_of, dotted, object_pairs, string_value, text, unwrap

Parts = list[list[Any]]
SymRef = list[Any]

# Receivers of `.get("KEY")` that read configuration (NestJS ConfigService, node-config, convict).
_CONFIG_RECEIVERS = ("config", "configservice", "cfg", "settings", "conf")
# Declared types of such receivers, whatever the field or parameter is called.
_CONFIG_TYPES = frozenset({"ConfigService", "TypedConfigService", "NestConfigService"})
_CONFIG_GETTERS = frozenset({"get", "getOrThrow", "getString"})
# A Fastify instance by parameter name or declared type: what plugins decorate (decorations.py).
_FASTIFY_NAMES = frozenset({"fastify", "app", "server", "instance"})
_FASTIFY_TYPES = frozenset({"FastifyInstance"})
# Import specifiers of the project's own code (relative, or a common source alias).
_OWN_SPECS = (".", "@/", "~/", "src/")
_VALUE_CALLS = _CONFIG_GETTERS | {
    "String",
    "encodeURI",
    "encodeURIComponent",
    "toString",
    "trim",
    "join",
    "format",
}
# Calls that read a value, not a function of the service: never folded from a return value.
_NOT_VALUE_CALLS = frozenset({"require", "import", "fetch", "Symbol", "Number", "Boolean", "Date"})
_HINT_MAX = 80
#: the binding kind of a name an options-object parameter takes apart (`({ url, method }) => ...`)
FIELD_PARAM = "pfield"


def field_slot(idx: int, field: str) -> str:
    """The key of one field of an options-object parameter: `"0.url"` for `({ url })`."""
    return f"{idx}.{field}"


# Browser bundles read configuration injected at container start (`window._env_.API_URL`,
# `window.__ENV.API_URL`): an environment variable of the frontend's deployment.
_WINDOW_ENV = re.compile(r"^window\._*env_*\.([A-Za-z_][A-Za-z0-9_]*)$", re.I)
#: Functions of libraries that read an environment variable by name: module -> the prefix they add.
ENV_READERS: dict[str, str] = {"@beam-australia/react-env": "REACT_APP_", "react-env": "REACT_APP_"}
_FORMAT_SPEC = re.compile(r"(%[sdifjoOc%])")


class Scope:
    """Lexical bindings: module level at the bottom, one dict per enclosing function on top."""

    def __init__(self) -> None:
        self.frames: list[dict[str, dict[str, Any]]] = [{}]
        self.classes: dict[str, dict[str, dict[str, Any]]] = {}  # class -> field -> binding
        self.current_class: str | None = None
        self.fids: list[str | None] = [None]
        self.params: list[list[str]] = [[]]

    @property
    def module(self) -> dict[str, dict[str, Any]]:
        return self.frames[0]

    def lookup(self, name: str) -> dict[str, Any] | None:
        for frame in reversed(self.frames):
            found: dict[str, Any] | None = frame.get(name)
            if found is not None:
                return found
        return None

    def field(self, name: str) -> dict[str, Any] | None:
        if self.current_class is None:
            return None
        return self.classes.get(self.current_class, {}).get(name)

    def bind(self, name: str, binding: dict[str, Any]) -> None:
        self.frames[-1][name] = binding


def merge(parts: Parts) -> Parts:
    out: Parts = []
    for part in parts:
        if part[0] == "lit" and out and out[-1][0] == "lit":
            out[-1] = ["lit", out[-1][1] + part[1]]
        elif part[0] != "lit" or part[1]:
            out.append(part)
    return out


def unknown(node: Node) -> Parts:
    hint = " ".join(text(node).split())
    return [["unknown", hint[:_HINT_MAX]]]


def literal(parts: Parts | None) -> str | None:
    if parts is None or any(p[0] != "lit" for p in parts):
        return None
    return "".join(p[1] for p in parts)


def env_name(node: Node) -> str | None:
    """`process.env.X` / `process.env["X"]` -> "X"."""
    node = unwrap(node) or node
    if node.type == "member_expression":
        obj = dotted(node.child_by_field_name("object"))
        if obj in ("process.env", "import.meta.env"):
            return text(node.child_by_field_name("property"))
        injected = _WINDOW_ENV.match(dotted(node) or "")
        if injected:
            return injected.group(1)
    elif node.type == "subscript_expression":
        if dotted(node.child_by_field_name("object")) == "process.env":
            return string_value(node.child_by_field_name("index"))
    return None


def fold(node: Node | None, scope: Scope) -> Parts:
    if node is None:
        return []
    return merge(_fold(node, scope, 0))


def _fold(node: Node, scope: Scope, depth: int) -> Parts:
    if depth > 12:
        return unknown(node)
    kind = node.type
    if kind in TRANSPARENT:
        inner = unwrap(node)
        return _fold(inner, scope, depth + 1) if inner is not None else unknown(node)
    if kind == "string":
        return [["lit", string_value(node) or ""]]
    if kind == "template_string":
        parts: Parts = []
        for child in node.named_children:
            if child.type == "template_substitution":
                exprs = [c for c in child.named_children if c.type != "comment"]
                parts.extend(_fold(exprs[0], scope, depth + 1) if exprs else [])
            elif child.type in ("string_fragment", "escape_sequence"):
                parts.append(["lit", text(child)])
        if not any(c.type == "string_fragment" for c in node.named_children) and not parts:
            parts.append(["lit", ""])
        return parts
    if kind in ("number", "true", "false"):
        return [["lit", text(node)]]
    if kind == "binary_expression":
        return _fold_binary(node, scope, depth)
    if kind == "ternary_expression":
        return _fold_ternary(node, scope, depth)
    env = env_name(node)
    if env is not None:
        return [["env", env, None]]
    named = _env_of_param(node, scope)
    if named is not None:
        return [named]
    if kind == "member_expression":
        returned = _member_of_returned(node, scope)
        if returned is not None:
            return returned
    if kind in ("identifier", "member_expression", "this"):
        return _fold_name(node, scope)
    if kind == "shorthand_property_identifier":  # `{ topic }` holds the value of `topic`
        return _fold_name(node, scope, text(node))
    if kind == "call_expression":
        return _fold_call(node, scope, depth)
    if kind == "subscript_expression":
        return _fold_keyed(node, scope)
    if kind == "new_expression" and text(node.child_by_field_name("constructor")) == "URL":
        args = args_of(node)
        if len(args) == 2:
            return _fold(args[1], scope, depth + 1) + _fold(args[0], scope, depth + 1)
        if len(args) == 1:
            return _fold(args[0], scope, depth + 1)
    return unknown(node)


def _env_of_param(node: Node, scope: Scope) -> list[Any] | None:
    """`process.env[name]` with ``name`` a parameter: a project's own environment reader
    (`const env = (name, dflt) => process.env[name] || dflt`). ``["envp", index, name, default]``:
    the variable named by the argument at ``index``, filled where the helper is called."""
    if node.type != "subscript_expression" or dotted(node.child_by_field_name("object")) != "process.env":
        return None
    index = unwrap(node.child_by_field_name("index"))
    if index is None or index.type != "identifier":
        return None
    binding = scope.lookup(text(index))
    if binding is None or binding.get("k") != "param":
        return None
    return ["envp", binding["idx"], text(index), None]


def _fold_keyed(node: Node, scope: Scope) -> Parts:
    """`URLS["orders"]` reads that key of a known object; `registry[name]` with ``name`` a parameter
    (`const serviceUrl = (name) => registry[name]`) is ``["keyp", symref, index, hint]``: the key the
    argument at ``index`` names, filled where the lookup is called with a literal. Else unknown."""
    obj = dotted(node.child_by_field_name("object"))
    index = unwrap(node.child_by_field_name("index"))
    if obj is None or index is None:
        return unknown(node)
    key = string_value(index) if index.type == "string" else None
    if key:
        return _fold_name(node, scope, f"{obj}.{key}")
    binding = scope.lookup(text(index)) if index.type == "identifier" else None
    if binding is None or binding.get("k") != "param" or not isinstance(binding.get("idx"), int):
        return unknown(node)
    ref = symref(obj, scope)
    if ref is None or ref[0] in ("glob", "param"):
        return unknown(node)
    return [["keyp", ref, binding["idx"], text(node)]]


def _fold_binary(node: Node, scope: Scope, depth: int) -> Parts:
    op = text(node.child_by_field_name("operator"))
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or right is None:
        return unknown(node)
    if op == "+":
        return _fold(left, scope, depth + 1) + _fold(right, scope, depth + 1)
    if op in ("||", "??"):
        lparts = merge(_fold(left, scope, depth + 1))
        rparts = merge(_fold(right, scope, depth + 1))
        if len(lparts) == 1 and lparts[0][0] == "envp" and lparts[0][3] is None:
            # `process.env[name] || fallback`: the default is a parameter too, or a literal
            given = rparts[0][1] if len(rparts) == 1 and rparts[0][0] == "param" else literal(rparts)
            return [[*lparts[0][:3], given]]
        fallback = literal(rparts)
        if len(lparts) == 1 and lparts[0][0] in ("env", "prop", "ref") and lparts[0][2] is None:
            return [[lparts[0][0], lparts[0][1], fallback]]
        if len(lparts) == 1 and lparts[0][0] == "call" and fallback is not None:
            return [[*lparts[0][:4], fallback]]
        if literal(lparts) is not None or fallback is None:
            return lparts
        return [["lit", fallback]] if lparts and lparts[0][0] == "unknown" else lparts
    return unknown(node)


# Values of an environment-name variable (`NODE_ENV`, `APP_ENV`, `STAGE`): the deployed side or not.
_DEPLOYED_ENVS = frozenset({"production", "prod", "staging", "docker"})
_LOCAL_ENVS = frozenset({"development", "dev", "local", "test", "testing"})
_ENV_NAME_WORDS = ("ENV", "STAGE", "MODE")


def _fold_ternary(node: Node, scope: Scope, depth: int) -> Parts:
    """`window._env_ ? window._env_.API : process.env.API`: both branches read one setting (or only
    one branch reads configuration): that setting. `NODE_ENV === "production" ? A : B` picks the
    branch the deployed service takes. Another choice between two literals stays unknown."""
    branches = [
        merge(_fold(b, scope, depth + 1))
        for b in (node.child_by_field_name("consequence"), node.child_by_field_name("alternative"))
        if b is not None
    ]
    deployed = _deployed_branch(node.child_by_field_name("condition"))
    if deployed is not None and len(branches) == 2:
        return branches[deployed]
    if len(branches) == 2 and branches[0] == branches[1]:
        return branches[0]
    reads = [b for b in branches if len(b) == 1 and b[0][0] in ("env", "prop")]
    if len(reads) == 1 or (len(reads) == 2 and reads[0][0][1] == reads[1][0][1]):
        return reads[0]
    return unknown(node)


def _deployed_branch(condition: Node | None) -> int | None:
    """0 or 1: the branch a deployed service takes when the condition compares an environment-name
    variable with a literal (`process.env.NODE_ENV !== "development"`); None for any other test."""
    test = unwrap(condition)
    if test is None or test.type != "binary_expression":
        return None
    op = text(test.child_by_field_name("operator"))
    sides = [unwrap(test.child_by_field_name(f)) for f in ("left", "right")]
    names = [name for name in (env_name(n) for n in sides if n is not None) if name]
    values = [string_value(n) for n in sides if n is not None and n.type == "string"]
    if op not in ("===", "==", "!==", "!=") or len(names) != 1 or len(values) != 1:
        return None
    if not any(word in names[0].upper() for word in _ENV_NAME_WORDS):
        return None
    value = (values[0] or "").lower()
    matches = True if value in _DEPLOYED_ENVS else False if value in _LOCAL_ENVS else None
    if matches is None:
        return None
    return 0 if matches == (op in ("===", "==")) else 1


def _fold_name(node: Node, scope: Scope, name: str | None = None) -> Parts:
    name = name or dotted(node)
    if name is None:
        return unknown(node)
    binding = resolve_binding(name, scope)
    if binding is not None:
        kind = binding.get("k")
        if kind == "val" and name.startswith("this."):
            # a field set from the constructor's parameters (`this.items = `${base}/items``): those
            # are not the parameters of the method reading the field, but what `new` is given
            if binding.get("ctor"):
                return [["ctor", p[1], "", p[2]] if p[0] == "param" else list(p) for p in binding["v"]]
            return [["unknown", p[2]] if p[0] == "param" else list(p) for p in binding["v"]]
        if kind == "val":
            return [list(p) for p in binding["v"]]
        if kind == "param":
            return [["param", binding["idx"], name]]
        if kind == FIELD_PARAM:
            return [["param", field_slot(binding["idx"], binding["field"]), name]]
    deco = decorated(name, scope) if binding is None else None
    if deco is not None and deco[2]:
        return [["ref", deco, None]]
    ref = symref(name, scope)
    if ref is not None and ref[0] == "param" and ref[3] and str(ref[1]).endswith(".constructor"):
        return [["ctor", ref[2], ref[3], name]]  # `options.baseUrl` in a constructor: filled at `new`
    if ref is None or ref[0] == "glob" or (ref[0] == "param" and ref[3]):
        return [["unknown", name]]
    return [["ref", ref, None]]


def decorated(name: str, scope: Scope) -> list[Any] | None:
    """``["deco", name, field, instance]`` for `fastify.config.apiUrl` / `app.config.API_URL` (a field
    of what the Fastify instance was decorated with, see decorations.py), field "" for the whole
    `fastify.config`; a name bound to the whole object reads its fields too (`config.apiUrl`)."""
    head, _, rest = name.partition(".")
    binding = scope.lookup(head)
    if binding is None:
        return None
    held = binding.get("v") if binding.get("k") == "val" else None
    if held and len(held) == 1 and held[0][0] == "ref" and held[0][1][0] == "deco" and not held[0][1][2]:
        whole = held[0][1]
        return ["deco", whole[1], rest, *whole[3:4]] if rest and "." not in rest else None
    deco, _, field = rest.partition(".")
    if not deco or "." in field or binding.get("k") not in ("param", "obj"):
        return None
    typed = binding.get("type") in _FASTIFY_TYPES or binding.get("t") == "fastify_app"
    if not typed and not (binding.get("k") == "param" and head in _FASTIFY_NAMES):
        return None
    return ["deco", deco, field, head]


def _member_of_returned(node: Node, scope: Scope) -> Parts | None:
    """`(await getConfig()).stripeUrl`: a field of the object a function of the service returns,
    read by the linker through that function's return value."""
    obj = unwrap(node.child_by_field_name("object"))
    prop = node.child_by_field_name("property")
    if obj is None or prop is None or obj.type != "call_expression":
        return None
    ref = value_ref(obj, scope)
    if ref is None or ref[0] != "ret" or not _own_function(ref[1]):
        return None
    return [["ref", ["member", ref, text(prop)], None]]


def _own_function(ref: SymRef) -> bool:
    """A function of the service itself: local, a method, or imported from the project's own code."""
    if ref[0] == "imp":
        return str(ref[1]).startswith(_OWN_SPECS)
    return ref[0] in ("loc", "this", "fid", "member")


def resolve_binding(name: str, scope: Scope) -> dict[str, Any] | None:
    """The binding of a dotted name known in this file: a local, a flattened object key, a field."""
    if name.startswith("this."):
        return scope.field(name[5:])
    return scope.lookup(name)


def _fold_call(node: Node, scope: Scope, depth: int) -> Parts:
    fn = node.child_by_field_name("function")
    name = dotted(fn) or ""
    args = args_of(node)
    head, _, method = name.rpartition(".")
    if method in _CONFIG_GETTERS and args and _is_config(head, scope):
        key = string_value(args[0])
        default = string_value(args[1]) if len(args) > 1 else None
        if key is not None:
            return [["env", key, default]]
        keyed = _fold(args[0], scope, depth + 1)
        if any(p[0] != "lit" for p in keyed) and all(p[0] in ("lit", "param", "ref") for p in keyed):
            return [["envk", keyed, default]]  # `config.get(\`${queue}_QUEUE\`)`: named at the call site
    reader = _env_reader(name, scope)
    if reader is not None and args and string_value(args[0]) is not None:
        return [["env", reader + (string_value(args[0]) or ""), None]]
    if name in ("String", "encodeURI", "encodeURIComponent") and args:
        return _fold(args[0], scope, depth + 1)
    if method in ("toString", "trim") and fn is not None:
        obj = fn.child_by_field_name("object")
        if obj is not None:
            return _fold(obj, scope, depth + 1)
    if _is_util_format(name, scope) and args:
        return _fold_format(args, scope, depth)
    if method == "join" and head == "path" and args:
        parts: Parts = []
        for i, arg in enumerate(args):
            parts.extend(([["lit", "/"]] if i else []) + _fold(arg, scope, depth + 1))
        return parts
    return _fold_service_call(node, fn, name, args, scope, depth)


def _env_reader(name: str, scope: Scope) -> str | None:
    """The prefix `env("API")` adds when `env` is imported from an ENV_READERS library."""
    binding = scope.lookup(name) if name and "." not in name else None
    if binding is None or binding.get("k") != "imp":
        return None
    return ENV_READERS.get(binding.get("spec") or "")


def _is_util_format(name: str, scope: Scope) -> bool:
    """`util.format(...)` / `format(...)` imported from node's `util` module."""
    head, _, rest = name.partition(".")
    binding = scope.lookup(head) if head else None
    if binding is None or binding.get("k") != "imp" or binding.get("spec") not in ("util", "node:util"):
        return False
    base = "" if binding["name"] in ("*", "default") else binding["name"]
    return ".".join(p for p in (base, binding.get("rest", ""), rest) if p) == "format"


def _fold_format(args: list[Node], scope: Scope, depth: int) -> Parts:
    """`util.format("http://%s:%d/items", host, port)`: the arguments in place of the specifiers."""
    template = string_value(args[0])
    if template is None:
        return unknown(args[0])
    parts: Parts = []
    rest = list(args[1:])
    for i, piece in enumerate(_FORMAT_SPEC.split(template)):
        if i % 2 == 0:
            parts.append(["lit", piece])
        elif piece == "%%":
            parts.append(["lit", "%"])
        elif rest:
            parts.extend(_fold(rest.pop(0), scope, depth + 1))
        else:
            parts.append(["lit", piece])
    return parts


def value_call(node: Node) -> bool:
    """A call `fold` can turn into a value (a config read, `String(x)`, `path.join`), judged by name."""
    fn = node.child_by_field_name("function")
    name = (dotted(fn) or "").rsplit(".", 1)[-1]
    return name in _VALUE_CALLS


def _is_config(receiver: str, scope: Scope) -> bool:
    """`config.get(...)`, `this.configService.get(...)` or any receiver declared as a ConfigService."""
    if receiver.rsplit(".", 1)[-1].lower() in _CONFIG_RECEIVERS:
        return True
    binding = resolve_binding(receiver, scope) if receiver else None
    return binding is not None and binding.get("type", binding.get("name")) in _CONFIG_TYPES


def _fold_service_call(
    node: Node, fn: Node | None, name: str, args: list[Node], scope: Scope, depth: int
) -> Parts:
    """`getBaseUrl()`, `this.url("/x")`: the linker folds what the function returns, if it can."""
    if not name or fn is None or name in _NOT_VALUE_CALLS or len(args) > 4:
        return unknown(node)
    ref = symref(name, scope)
    if ref is None or ref[0] in ("glob", "param"):
        return unknown(node)
    hint = unknown(node)[0][1]
    return [["call", ref, [merge(_fold(a, scope, depth + 1)) for a in args], hint]]


def symref(name: str, scope: Scope) -> SymRef | None:
    """Name what a dotted expression refers to, for the linker to follow across files."""
    if name == "this" or name.startswith("this."):
        if scope.current_class is None:
            return None
        return ["this", scope.current_class, name[5:]]
    head, _, rest = name.partition(".")
    found = scope.lookup(name)
    if found is not None:
        head, rest = name, ""
    else:
        found = scope.lookup(head)
    if found is None:
        return ["glob", name]
    kind = found.get("k")
    if kind == "imp":
        return ["imp", found["spec"], found["name"], _join(found.get("rest", ""), rest)]
    if kind == "param":
        return ["param", found["fid"], found["idx"], rest]
    if kind == FIELD_PARAM:  # a field taken out of an options object: only its value is followed
        return ["glob", name]
    if kind == "alias":
        ref = list(found["ref"])
        if rest:
            return ["member", ref, rest]
        return ref
    return ["loc", found.get("key", head), rest]


def _join(a: str, b: str) -> str:
    return f"{a}.{b}" if a and b else a or b


def value_ref(node: Node | None, scope: Scope) -> SymRef | None:
    """Symref for an expression used as an object: a name, `new X()`, `factory()`, `require(...)`."""
    node = unwrap(node)
    if node is None:
        return None
    if node.type == "call_expression":
        fn = node.child_by_field_name("function")
        if text(fn) == "require":
            args = args_of(node)
            spec = string_value(args[0]) if args else None
            return ["imp", spec, "*", ""] if spec else None
        inner = value_ref(fn, scope)
        # the arguments go along: a factory's parameters (`baseURL => axios.create({baseURL})`)
        return ["ret", inner, [fold(a, scope) for a in args_of(node)[:4]]] if inner is not None else None
    if node.type == "new_expression":
        ctor = value_ref(node.child_by_field_name("constructor"), scope)
        if ctor is None:
            return None
        return ["new", ctor, [fold(a, scope) for a in args_of(node)[:4]]]
    if node.type == "member_expression":
        obj = unwrap(node.child_by_field_name("object"))
        if (
            obj is not None
            and obj.type == "call_expression"
            and text(obj.child_by_field_name("function")) == "require"
        ):
            base = value_ref(obj, scope)
            if base is not None:
                return ["imp", base[1], text(node.child_by_field_name("property")), ""]
    name = dotted(node)
    return symref(name, scope) if name else None


def object_values(node: Node, scope: Scope) -> dict[str, Parts]:
    """Flatten an object literal of strings: {a: {b: "x"}} -> {"a.b": [["lit", "x"]]}."""
    out: dict[str, Parts] = {}
    for key, value in object_pairs(node).items():
        inner = unwrap(value)
        if inner is not None and inner.type == "object":
            for sub, parts in object_values(inner, scope).items():
                out[f"{key}.{sub}"] = parts
        elif inner is not None and inner.type not in (
            "arrow_function",
            "function_expression",
            "method_definition",
        ):
            parts = fold(inner, scope)
            if parts and not all(p[0] in ("unknown", "call") for p in parts):
                out[key] = parts
    return out
