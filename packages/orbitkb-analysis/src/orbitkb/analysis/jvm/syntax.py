"""A small language-neutral syntax model that the Java and Kotlin readers both produce.

Only what the Spring extraction needs: declarations with their annotations, and method bodies as
expression trees (calls, names, strings, concatenation, lambdas). Everything else collapses into
``Other`` nodes that keep their children, so calls nested anywhere are still found. Plain slotted
classes, not attrs: tens of thousands are built per second and never leave ``parse``.
"""

from __future__ import annotations

from typing import Any


class E:
    """Base of expression nodes; ``node`` is the tree-sitter node (source text for hints)."""

    __slots__ = ("node",)

    def hint(self) -> str:
        node: Any = getattr(self, "node", None)
        if node is None:
            return ""
        text = node.text.decode("utf-8", "replace") if node.text else ""
        text = " ".join(text.split())
        return text if len(text) <= 120 else text[:117] + "..."


class Str(E):
    """A string literal; ``parts`` are text pieces or interpolated expressions (Kotlin templates)."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[str | E], node: Any = None) -> None:
        self.parts = parts
        self.node = node


class Name(E):
    __slots__ = ("id",)

    def __init__(self, ident: str, node: Any = None) -> None:
        self.id = ident
        self.node = node


class Field(E):
    """``obj.name`` without a call (Java field access, Kotlin navigation)."""

    __slots__ = ("obj", "name")

    def __init__(self, obj: E, name: str, node: Any = None) -> None:
        self.obj = obj
        self.name = name
        self.node = node


class Call(E):
    """A method/function call or a constructor (``new X(..)`` / Kotlin ``X(..)``, ``new_`` set)."""

    __slots__ = ("recv", "name", "args", "named", "line", "end", "new_", "nline")

    def __init__(
        self,
        recv: E | None,
        name: str,
        args: list[E],
        named: dict[str, E] | None,
        line: int,
        end: int,
        node: Any = None,
        new_: bool = False,
    ) -> None:
        self.recv = recv
        self.name = name
        self.args = args
        self.named = named or {}
        self.line = line
        self.end = end
        self.node = node
        self.new_ = new_
        self.nline = line  # the line of the method name: where a chained ``.GET(..)`` sits


class Bin(E):
    __slots__ = ("op", "left", "right")

    def __init__(self, op: str, left: E, right: E, node: Any = None) -> None:
        self.op = op
        self.left = left
        self.right = right
        self.node = node


class Arr(E):
    """Array/collection literal: Java ``{a, b}``, Kotlin ``[a, b]`` / ``arrayOf(a, b)``."""

    __slots__ = ("items",)

    def __init__(self, items: list[E], node: Any = None) -> None:
        self.items = items
        self.node = node


class MRef(E):
    """Method reference ``obj::name``."""

    __slots__ = ("obj", "name")

    def __init__(self, obj: E, name: str, node: Any = None) -> None:
        self.obj = obj
        self.name = name
        self.node = node


class Lam(E):
    __slots__ = ("params", "body")

    def __init__(self, params: list[str], body: list[E], node: Any = None) -> None:
        self.params = params
        self.body = body
        self.node = node


class Local(E):
    """A local variable declaration statement."""

    __slots__ = ("name", "type", "init", "line")

    def __init__(self, name: str, type_: str, init: E | None, line: int, node: Any = None) -> None:
        self.name = name
        self.type = type_
        self.init = init
        self.line = line
        self.node = node


class Assign(E):
    __slots__ = ("target", "value")

    def __init__(self, target: E, value: E, node: Any = None) -> None:
        self.target = target
        self.value = value
        self.node = node


class Other(E):
    """Anything else; ``kind`` is ``num``/``bool``/``null``/``class``/... ; children keep nested calls."""

    __slots__ = ("kind", "children")

    def __init__(self, kind: str, children: list[E], node: Any = None) -> None:
        self.kind = kind
        self.children = children
        self.node = node


# --------------------------------------------------------------------------- declarations


class Ann:
    """An annotation: simple name, arguments (positional first one under ``value``), line."""

    __slots__ = ("name", "args", "line")

    def __init__(self, name: str, args: dict[str, E], line: int) -> None:
        self.name = name
        self.args = args
        self.line = line


class Param:
    __slots__ = ("name", "type", "anns")

    def __init__(self, name: str, type_: str, anns: list[Ann]) -> None:
        self.name = name
        self.type = type_
        self.anns = anns


class FieldDecl:
    __slots__ = ("name", "type", "anns", "init", "line", "mods")

    def __init__(
        self, name: str, type_: str, anns: list[Ann], init: E | None, line: int, mods: set[str]
    ) -> None:
        self.name = name
        self.type = type_
        self.anns = anns
        self.init = init
        self.line = line
        self.mods = mods


class Method:
    __slots__ = ("name", "anns", "params", "ret", "mods", "doc", "line", "end", "body")

    def __init__(
        self,
        name: str,
        anns: list[Ann],
        params: list[Param],
        ret: str,
        mods: set[str],
        doc: str | None,
        line: int,
        end: int,
        body: list[E] | None,
    ) -> None:
        self.name = name
        self.anns = anns
        self.params = params
        self.ret = ret
        self.mods = mods
        self.doc = doc
        self.line = line
        self.end = end
        self.body = body


class ClassDecl:
    """A class, interface, enum, record or Kotlin object; ``supers`` are (type name, type args)."""

    __slots__ = (
        "name",
        "kind",
        "anns",
        "supers",
        "doc",
        "line",
        "end",
        "fields",
        "methods",
        "inner",
        "mods",
        "decl",
    )

    def __init__(self, name: str, kind: str, line: int, end: int) -> None:
        self.name = name
        self.kind = kind
        self.decl = line  # the line of the declaration itself (its name), after any annotations
        self.anns: list[Ann] = []
        self.supers: list[tuple[str, list[str]]] = []
        self.doc: str | None = None
        self.line = line
        self.end = end
        self.fields: list[FieldDecl] = []
        self.methods: list[Method] = []
        self.inner: list[ClassDecl] = []
        self.mods: set[str] = set()


class FileSyntax:
    __slots__ = ("lang", "package", "imports", "classes", "functions", "properties", "warnings")

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.package = ""
        self.imports: list[str] = []  # "a.b.C", "a.b.*", "static a.b.C.X"
        self.classes: list[ClassDecl] = []
        self.functions: list[Method] = []  # Kotlin top-level functions
        self.properties: list[FieldDecl] = []  # Kotlin top-level properties
        self.warnings: list[str] = []


def walk(e: E) -> Any:
    """Yield ``e`` and every expression nested in it, depth first, in source order."""
    stack = [e]
    while stack:
        cur = stack.pop()
        yield cur
        kids = children(cur)
        if kids:
            stack.extend(reversed(kids))


def children(e: E) -> list[E]:
    if isinstance(e, Call):
        out = [e.recv] if e.recv is not None else []
        out.extend(e.args)
        out.extend(e.named.values())
        return out
    if isinstance(e, Other):
        return e.children
    if isinstance(e, Bin):
        return [e.left, e.right]
    if isinstance(e, Field):
        return [e.obj]
    if isinstance(e, Lam):
        return e.body
    if isinstance(e, Local):
        return [e.init] if e.init is not None else []
    if isinstance(e, Assign):
        return [e.target, e.value]
    if isinstance(e, Arr):
        return e.items
    if isinstance(e, Str):
        return [p for p in e.parts if isinstance(p, E)]
    if isinstance(e, MRef):
        return [e.obj]
    return []
