"""Abstract values the Go linker computes while it interprets function bodies.

A string is ``S`` (parts: Lit/Env/Prop/Unknown, plus ``Param`` while a function is read on its
own, which later tells a thin wrapper from a plain call). Library objects (routers, clients,
producers) are ``Obj`` with a kind and a dict of attributes; instances of the service's own
struct types are ``Struct``; functions are ``FuncRef``; packages ``Pkg``.
"""

from __future__ import annotations

import re
from typing import Any

from attrs import frozen

from orbitkb.analysis.facts import Env, Expr, Lit, Prop, Unknown


@frozen
class Param:
    """A function parameter's value while the function is read without a caller."""

    name: str


Part = Lit | Env | Prop | Unknown | Param


class V:
    """Base of all abstract values."""

    __slots__ = ()

    def sig(self) -> Any:
        return id(self)


class S(V):
    __slots__ = ("parts",)

    def __init__(self, parts: tuple[Part, ...]) -> None:
        self.parts = parts

    def sig(self) -> Any:
        return ("S", self.parts)

    def literal(self) -> str | None:
        if all(isinstance(p, Lit) for p in self.parts):
            return "".join(p.text for p in self.parts)  # type: ignore[union-attr]
        return None

    def has_param(self) -> bool:
        return any(isinstance(p, Param) for p in self.parts)

    def to_expr(self) -> Expr:
        return Expr(tuple(Unknown(p.name) if isinstance(p, Param) else p for p in self.parts))

    def resolved_score(self) -> int:
        return sum(1 for p in self.parts if not isinstance(p, (Unknown, Param)))


class Unk(V):
    __slots__ = ("hint", "param")

    def __init__(self, hint: str, param: str | None = None) -> None:
        self.hint = hint[:120]
        self.param = param

    def sig(self) -> Any:
        return ("U", self.hint)


class Obj(V):
    """A library object: ``kind`` such as router, resty, grpc_conn; ``a`` holds its attributes."""

    __slots__ = ("kind", "a")

    def __init__(self, kind: str, **attrs: Any) -> None:
        self.kind = kind
        self.a: dict[str, Any] = attrs


class Struct(V):
    """An instance of one of the service's struct types; ``known`` False for a typed placeholder.

    ``prop`` is the configuration key the instance is bound to when it is a nested section of a
    tagged config struct (``Kafka KafkaConfig `mapstructure:"kafka"``` -> ``kafka.``)."""

    __slots__ = ("type", "fields", "known", "dir", "prop")

    def __init__(
        self, type_: str, fields: dict[str, V] | None = None, dir_: str = "", known: bool = True
    ) -> None:
        self.type = type_
        self.fields: dict[str, V] = fields or {}
        self.dir = dir_
        self.known = known
        self.prop = ""


class FuncRef(V):
    """A function value: a declared function/method (``key``) or a func literal with its closure."""

    __slots__ = ("key", "lit", "file", "recv", "closure", "alias", "inner", "used")

    def __init__(
        self,
        key: tuple[str, str, str] | None = None,
        lit: int | None = None,
        file: str = "",
        recv: V | None = None,
        closure: Any = None,
        alias: tuple[str, str, str] | None = None,
        inner: FuncRef | None = None,
    ) -> None:
        self.key = key  # (dir, receiver type or "", name)
        self.lit = lit
        self.file = file
        self.recv = recv
        self.closure = closure
        self.alias = alias  # the declared function that returned this literal (a handler factory)
        self.inner = inner  # a handler wrapped by a local middleware
        self.used = False  # consumed (called, registered): otherwise run when its frame ends

    def sig(self) -> Any:
        return ("F", self.key, self.lit, self.file, id(self.recv) if self.recv else None)


class Pkg(V):
    """An imported package: ``dir`` is set when it is one of the service's own packages."""

    __slots__ = ("path", "dir")

    def __init__(self, path: str, dir_: str | None) -> None:
        self.path = path
        self.dir = dir_

    def sig(self) -> Any:
        return ("P", self.path)


class Seq(V):
    __slots__ = ("items",)

    def __init__(self, items: list[V]) -> None:
        self.items = items

    def sig(self) -> Any:
        return ("Q", tuple(i.sig() for i in self.items))


class Spread(Seq):
    """A slice passed on with ``xs...``: it is the callee's variadic parameter, not one element of it."""

    __slots__ = ()


class Tup(V):
    """Several results of one call (``v, ok := os.LookupEnv(...)``)."""

    __slots__ = ("items",)

    def __init__(self, items: list[V]) -> None:
        self.items = items


# --------------------------------------------------------------------------- string helpers


def lit(text: str) -> S:
    return S((Lit(text),))


def _merge(parts: list[Part]) -> tuple[Part, ...]:
    out: list[Part] = []
    for p in parts:
        if isinstance(p, Lit):
            if not p.text:
                continue
            if out and isinstance(out[-1], Lit):
                out[-1] = Lit(out[-1].text + p.text)
                continue
        out.append(p)
    return tuple(out) if out else (Lit(""),)


def as_parts(v: V) -> tuple[Part, ...]:
    if isinstance(v, S):
        return v.parts
    if isinstance(v, Unk):
        return (Param(v.param),) if v.param else (Unknown(v.hint),)
    if isinstance(v, Obj) and "str" in v.a:
        return as_parts(v.a["str"])
    return (Unknown(render(v)),)


def concat(*vals: V) -> S:
    parts: list[Part] = []
    for v in vals:
        parts.extend(as_parts(v))
    return S(_merge(parts))


def render_part(p: Part) -> str:
    """Path/channel text of one part: environment and config as ``${NAME}``, unknowns as ``{hint}``."""
    if isinstance(p, Lit):
        return p.text
    if isinstance(p, Env):
        return "${" + p.name + "}"
    if isinstance(p, Prop):
        return "${" + p.key + "}"
    return "{" + (p.name if isinstance(p, Param) else p.hint) + "}"


def route_part(p: Part) -> str:
    """A served path's part: a prefix read from the environment or config with a default in the
    code (``base = ""`` then ``base = os.Getenv("BASE_URL")``) is served at that default."""
    if isinstance(p, (Env, Prop)) and p.default is not None:
        return p.default
    return render_part(p)


def render(v: V, part: Any = render_part) -> str:
    if isinstance(v, S):
        return "".join(part(p) for p in v.parts)
    if isinstance(v, Unk):
        return v.hint
    if isinstance(v, Struct):
        return v.type
    if isinstance(v, Obj):
        return v.kind
    return type(v).__name__


_VERB = re.compile(r"%[-+# 0-9.*\[\]]*[a-zA-Z%]")


def sprintf(fmt: V, args: list[V]) -> V:
    """Fold ``fmt.Sprintf`` when the format is literal; each verb takes the next argument."""
    text = fmt.literal() if isinstance(fmt, S) else None
    if text is None:
        return concat(fmt, *args) if not args else Unk("fmt.Sprintf(...)")
    parts: list[Part] = []
    pos = 0
    ai = 0
    for m in _VERB.finditer(text):
        parts.append(Lit(text[pos : m.start()]))
        if m.group() == "%%":
            parts.append(Lit("%"))
        elif ai < len(args):
            parts.extend(as_parts(args[ai]))
            ai += 1
        else:
            parts.append(Unknown(m.group()))
        pos = m.end()
    parts.append(Lit(text[pos:]))
    return S(_merge(parts))


def env_fallback(a: V, b: V) -> V | None:
    """``Env(X)`` and a literal seen as alternatives become ``Env(X, literal)``."""
    for first, second in ((a, b), (b, a)):
        if isinstance(first, S) and len(first.parts) == 1 and isinstance(second, S):
            p = first.parts[0]
            text = second.literal()
            if text is None:
                continue
            if isinstance(p, Env) and p.default is None:
                return S((Env(p.name, text),))
            if isinstance(p, Prop) and p.default is None:
                return S((Prop(p.key, text),))
    return None


def join_path(vals: list[V], sep: str = "/") -> V:
    out: list[V] = []
    for i, v in enumerate(vals):
        if i:
            prev = out[-1].literal() if isinstance(out[-1], S) else None
            cur = v.literal() if isinstance(v, S) else None
            if not ((prev or "").endswith(sep) or (cur or "").startswith(sep)):
                out.append(lit(sep))
        out.append(v)
    return concat(*out) if out else lit("")


def ir_text(e: Any, depth: int = 0) -> str:
    """Go-like source text of an intermediate-form expression, for Unknown hints."""
    if not isinstance(e, list) or not e or depth > 6:
        return "…"
    k = e[0]
    if k == "s":
        return '"' + str(e[1]) + '"'
    if k in ("id", "n", "o"):
        return str(e[1])
    if k == "sel":
        return ir_text(e[1], depth + 1) + "." + str(e[2])
    if k == "call":
        return ir_text(e[1], depth + 1) + "(" + ", ".join(ir_text(a, depth + 1) for a in e[2]) + ")"
    if k == "bin":
        return f"{ir_text(e[2], depth + 1)} {e[1]} {ir_text(e[3], depth + 1)}"
    if k == "comp":
        return str(e[1]) + "{…}"
    if k == "fn":
        return "func(){…}"
    return "…"
