"""Fold syntax expressions into symbolic string values (JSON "parts") while parsing one file.

A value is a list of parts: ``["lit", text]``, ``["ref", "Name"|"Class.NAME"]`` (a field or
constant, resolved by the linker across files), ``["prop", key, default]``, ``["env", name,
default]``, ``["param", name]`` (a method parameter: lets the linker see thin HTTP wrappers) and
``["call", owner, method, args, source]`` (a value a method returns: ``owner`` is the receiver's
declared type, "" for the class itself; the linker folds the method's ``return``, or the field a
getter reads, with ``args`` for its parameters) and ``["unknown", source]``. Local variables are
folded here, in statement order.
"""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.jvm.syntax import Arr, Bin, Call, E, Field, Name, Other, Str
from orbitkb.analysis.jvm.tables import DISCOVERY_LOOKUPS, INSTANCE_ADDRESSES

Parts = list[list[Any]]

_PLACEHOLDER = re.compile(r"\$\{")
# a SpEL expression that is one string literal: `#{'${app.topic}'}` reads the property as text
_SPEL_STRING = re.compile(r"#\{\s*'([^']*)'\s*\}")
_FORMAT = re.compile(r"%[-#+ 0,(]*\d*(?:\.\d+)?[sdfxX]")
_PASS_THROUGH = {
    "toString", "trim", "strip", "toUri", "toURI", "toUriString", "encode", "build", "toExternalForm",
    "requireNonNull", "valueOf", "create", "of", "intern", "toUrl", "toURL", "get",
}  # fmt: skip
_WRAPPERS = {"URI", "URL", "String", "Objects", "Optional", "UriComponentsBuilder", "URI.create"}
_URI_BUILDER_ROOTS = {"fromHttpUrl", "fromUriString", "fromPath", "fromUri"}
#: declared types whose methods never return an application's configured value
_OPAQUE_TYPES = {
    "String", "Object", "Map", "List", "Set", "Collection", "Optional", "HttpServletRequest",
    "ServerWebExchange", "ServerRequest", "Environment",
}  # fmt: skip
_MAX_CALL_ARGS = 4


class Scope:
    """Locals (name -> parts), parameters and the E of each local (for message/record lookups)."""

    __slots__ = ("locals", "params", "local_exprs", "types", "fields")

    def __init__(self, params: dict[str, str] | None = None) -> None:
        self.locals: dict[str, Parts] = {}
        self.params: dict[str, str] = dict(params or {})  # name -> declared type
        self.local_exprs: dict[str, E] = {}
        self.types: dict[str, str] = {}  # local name -> declared or inferred type
        self.fields: dict[str, str] = {}  # the class's field name -> simple type

    def type_of(self, name: str) -> str:
        """The declared simple type of a local, parameter or field named ``name`` ("" unknown)."""
        if name in self.types:
            return self.types[name]
        if name in self.params:
            return self.params[name].split("<", 1)[0].rstrip("?").strip().rsplit(".", 1)[-1]
        return self.fields.get(name, "")


def lit(text: str) -> Parts:
    return [["lit", text]]


def unknown(hint: str) -> Parts:
    return [["unknown", hint]]


def concat(*values: Parts) -> Parts:
    out: Parts = []
    for value in values:
        for part in value:
            if part[0] == "lit" and out and out[-1][0] == "lit":
                out[-1] = ["lit", out[-1][1] + part[1]]
            elif part[0] != "lit" or part[1]:
                out.append(list(part))
    return out


def is_literal(value: Parts) -> bool:
    return all(p[0] == "lit" for p in value)


def literal_text(value: Parts) -> str | None:
    return "".join(p[1] for p in value) if is_literal(value) else None


def placeholders(text: str) -> Parts:
    """Spring placeholders in annotation text: "${a.b:def}/x" -> prop(a.b, def) + lit("/x")."""
    if "${" not in text and "#{" not in text:
        return lit(text)
    if text.startswith("#{"):
        spel = _SPEL_STRING.fullmatch(text.strip())
        return placeholders(spel.group(1)) if spel and "#{" not in spel.group(1) else unknown(text)
    out: Parts = []
    pos = 0
    for m in _PLACEHOLDER.finditer(text):
        if m.start() < pos:
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            if text.startswith("${", i):
                depth, i = depth + 1, i + 2
                continue
            depth -= text[i] == "}"
            i += 1
        if depth:
            break
        body = text[m.end() : i - 1]
        key, sep, default = body.partition(":")
        out = concat(out, lit(text[pos : m.start()]), [["prop", key.strip(), default if sep else None]])
        pos = i
    return concat(out, lit(text[pos:]))


def dotted(e: E | None) -> str | None:
    if isinstance(e, Name):
        return e.id
    if isinstance(e, Field):
        head = dotted(e.obj)
        return f"{head}.{e.name}" if head else None
    return None


def evaluate(e: E | None, scope: Scope, ann: bool = False) -> Parts:  # noqa: C901
    if e is None:
        return unknown("")
    if isinstance(e, Str):
        out: Parts = []
        for p in e.parts:
            out = concat(
                out, (placeholders(p) if ann else lit(p)) if isinstance(p, str) else evaluate(p, scope)
            )
        return out
    if isinstance(e, Name):
        if e.id in scope.locals:
            return [list(p) for p in scope.locals[e.id]]
        if e.id in scope.params:
            return [["param", e.id]]
        if e.id == "this":
            return unknown("this")
        return [["ref", e.id]]
    if isinstance(e, Field):
        name = dotted(e)
        if name is None:
            return unknown(e.hint())
        found = _instance_address(e.name, e.obj, scope)
        if found is not None:
            return found
        owner = _declared(e.obj, scope)
        if owner:  # ``props.baseUrl`` (Kotlin property of a typed value): the owner type's field
            return [["call", owner, e.name, [], e.hint()]]
        return [["ref", name.removeprefix("this.")]]
    if isinstance(e, Bin):
        if e.op == "+":
            return concat(evaluate(e.left, scope, ann), evaluate(e.right, scope, ann))
        if e.op == "?:":
            return with_default(evaluate(e.left, scope), evaluate(e.right, scope))
        return unknown(e.hint())
    if isinstance(e, Call):
        return _call(e, scope)
    if isinstance(e, Other) and e.kind == "num":
        return lit(e.hint())
    return unknown(e.hint())


def with_default(value: Parts, default: Parts) -> Parts:
    """``System.getenv("X") ?: "d"`` / ``.orElse("d")``: a default for a lone env/prop read."""
    text = literal_text(default)
    if len(value) == 1 and value[0][0] in ("env", "prop") and value[0][2] is None and text is not None:
        return [[value[0][0], value[0][1], text]]
    return value


def _literal_arg(args: list[E], i: int, scope: Scope) -> str | None:
    return literal_text(evaluate(args[i], scope)) if len(args) > i else None


#: MicroProfile Config read in code: ``ConfigProvider.getConfig().getValue("k", String.class)``,
#: ``config.getOptionalValue("k", String.class).orElse("d")``
_CONFIG_LOOKUPS = frozenset({"getValue", "getOptionalValue"})


def _config_object(recv: E | None) -> bool:
    """``ConfigProvider.getConfig()`` or a variable/field named like a config (``config``, ``mpConfig``)."""
    if isinstance(recv, Call):
        return recv.name == "getConfig" and not recv.args
    return (dotted(recv) or "").rsplit(".", 1)[-1].lower().endswith("config") if recv is not None else False


def _call(e: Call, scope: Scope) -> Parts:  # noqa: C901
    recv = dotted(e.recv) if e.recv is not None else None
    name, args = e.name, e.args
    if not args and (found := _instance_address(name, e.recv, scope)) is not None:
        return found
    if name == "getenv" and recv == "System" and args:
        key = _literal_arg(args, 0, scope)
        return [["env", key, None]] if key else unknown(e.hint())
    if name == "getOrDefault" and isinstance(e.recv, Call) and e.recv.name == "getenv" and len(args) == 2:
        key, default = _literal_arg(args, 0, scope), _literal_arg(args, 1, scope)
        return [["env", key, default]] if key else unknown(e.hint())
    if name == "getProperty" and args and (recv is None or "env" in recv.lower() or recv == "System"):
        key = _literal_arg(args, 0, scope)
        default = _literal_arg(args, len(args) - 1, scope) if len(args) >= 2 else None
        return [["prop", key, default]] if key else unknown(e.hint())
    if name in _CONFIG_LOOKUPS and args and _config_object(e.recv):
        key = _literal_arg(args, 0, scope)
        return [["prop", key, None]] if key else unknown(e.hint())
    if name in ("orElse", "defaultIfBlank", "defaultString") and isinstance(e.recv, Call) and args:
        return with_default(_call(e.recv, scope), evaluate(args[-1], scope))
    if name in ("format", "formatted") and args:
        fmt_e, rest = (args[0], args[1:]) if recv in ("String", "java.lang.String") else (e.recv, args)
        fmt = literal_text(evaluate(fmt_e, scope)) if fmt_e is not None else None
        if fmt is not None:
            return _format(fmt, [evaluate(a, scope) for a in rest])
        return unknown(e.hint())
    if name == "concat" and e.recv is not None and args:
        return concat(evaluate(e.recv, scope), evaluate(args[0], scope))
    if name in _URI_BUILDER_ROOTS and args:
        return evaluate(args[0], scope)
    if name in ("path", "pathSegment") and isinstance(e.recv, Call) and args:
        base = evaluate(e.recv, scope)
        segs = [evaluate(a, scope) for a in args]
        if name == "pathSegment":
            segs = [concat(lit("/"), s) for s in segs]
        return concat(base, *segs)
    if name in (
        "queryParam",
        "queryParams",
        "buildAndExpand",
        "expand",
        "encode",
        "uriVariables",
    ) and isinstance(e.recv, Call):
        return _call(e.recv, scope)
    if name in _PASS_THROUGH and (args or e.recv is not None):
        if args and (e.recv is None or recv in _WRAPPERS or e.new_):
            return evaluate(args[0], scope)
        if not args and e.recv is not None and name != "get":
            return evaluate(e.recv, scope)
    if e.new_ and name in ("URI", "URL", "String") and args:
        return evaluate(args[0], scope)
    return _method_value(e, scope)


def _instance_address(getter: str, recv: E | None, scope: Scope) -> Parts | None:
    """``instance.getUri()`` of an instance looked up by service name: that service's address."""
    pattern = INSTANCE_ADDRESSES.get(getter)
    service = _looked_up(recv, scope, 0) if pattern else None
    return lit(pattern.format(service)) if pattern and service else None


def _looked_up(e: E | None, scope: Scope, depth: int) -> str | None:
    """The service name a discovery lookup in ``e`` (or the local it names) asks for."""
    if isinstance(e, Name) and e.id in scope.local_exprs and depth < 4:
        return _looked_up(scope.local_exprs[e.id], scope, depth + 1)
    while isinstance(e, Call):
        if e.name in DISCOVERY_LOOKUPS and e.args:
            return _literal_arg(e.args, 0, scope)
        e = e.recv
    return None


def _declared(recv: E | None, scope: Scope) -> str:
    """The application type a receiver is declared with (``orders.getUrl()``), "" if none is known."""
    if isinstance(recv, Field) and isinstance(recv.obj, Name) and recv.obj.id == "this":
        recv = Name(recv.name)
    if not isinstance(recv, Name) or recv.id == "this":
        return ""
    owner = scope.type_of(recv.id)
    return owner if owner[:1].isupper() and owner not in _OPAQUE_TYPES else ""


def _method_value(e: Call, scope: Scope) -> Parts:
    """A call the linker may fold from the callee's ``return``: ``baseUrl()``, ``props.getUrl()``."""
    if e.new_ or not e.name[:1].islower() or len(e.args) > _MAX_CALL_ARGS:
        return unknown(e.hint())
    if e.recv is None or (isinstance(e.recv, Name) and e.recv.id == "this"):
        return [["call", "", e.name, [evaluate(a, scope) for a in e.args], e.hint()]]
    owner = _declared(e.recv, scope)
    if owner and not e.args:
        return [["call", owner, e.name, [], e.hint()]]
    return unknown(e.hint())


def _format(fmt: str, args: list[Parts]) -> Parts:
    out: Parts = []
    pos = 0
    for i, m in enumerate(_FORMAT.finditer(fmt)):
        out = concat(out, lit(fmt[pos : m.start()]), args[i] if i < len(args) else unknown(m.group(0)))
        pos = m.end()
    return concat(out, lit(fmt[pos:]))


def evaluate_list(e: E | None, scope: Scope, ann: bool = True) -> list[Parts]:
    """Array-valued annotation attributes: ``{"/a", "/b"}`` / ``["/a"]`` -> one value each."""
    if e is None:
        return []
    if isinstance(e, Arr):
        return [evaluate(i, scope, ann) for i in e.items]
    return [evaluate(e, scope, ann)]
